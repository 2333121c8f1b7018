package importer

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// A yamlLayout is where one YAML cassette format (VCR.py, go-vcr) keeps
// the parts of an interaction; the rest — method, headers, decoding,
// event-stream checks, the Date header — is the same in both.
type yamlLayout struct {
	format Format
	// urlKey is the request's URL key: uri (VCR.py) or url (go-vcr).
	urlKey string
	// body reads the request or response body of an interaction part.
	body func(part *yaml.Node, response bool) ([]byte, error)
	// status reads the response status code.
	status func(resp *yaml.Node) (int, error)
}

// read reads the interactions of a cassette; an error names the file and
// the interaction index.
func (l yamlLayout) read(file string, root *yaml.Node) (*Recording, error) {
	pairs, err := l.pairs(root)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	rec := &Recording{Path: file, Format: l.format}
	for i, p := range pairs {
		e, err := l.exchange(p[0], p[1])
		if err != nil {
			return nil, interactionError(file, i, err)
		}
		e.Index = i
		rec.Exchanges = append(rec.Exchanges, e)
	}
	return rec, nil
}

// pairs lists the (request, response) nodes of a cassette. Every format
// keeps an interactions list of {request, response} mappings; a VCR.py
// cassette written by a serializer that dumps VCR.py's own cassette
// dictionary unchanged — langchain's CustomSerializer
// (langchain_tests/conftest.py: yaml.safe_dump of {"requests": …,
// "responses": …}, then gzip) and the agent projects that copied it —
// keeps two parallel lists instead, requests[i] answered by responses[i].
func (l yamlLayout) pairs(root *yaml.Node) ([][2]*yaml.Node, error) {
	var out [][2]*yaml.Node
	if list := field(root, "interactions"); list != nil || l.format != FormatVCRPy || field(root, "requests") == nil {
		if list == nil || list.Kind != yaml.SequenceNode {
			return nil, fmt.Errorf("no interactions list")
		}
		for i, n := range list.Content {
			n = resolve(n)
			if n.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("interaction %d: %w", i, lineErr(n, "want a mapping with request and response, got a %s", kindName(n)))
			}
			req, resp := field(n, "request"), field(n, "response")
			if req == nil || resp == nil {
				return nil, fmt.Errorf("interaction %d: %w", i, lineErr(n, "an interaction needs request and response"))
			}
			out = append(out, [2]*yaml.Node{req, resp})
		}
		return out, nil
	}
	reqs, resps := field(root, "requests"), field(root, "responses")
	switch {
	case reqs.Kind != yaml.SequenceNode:
		return nil, lineErr(reqs, "requests: want a list, got a %s", kindName(reqs))
	case resps == nil:
		return nil, lineErr(root, "a requests list without a responses list")
	case resps.Kind != yaml.SequenceNode:
		return nil, lineErr(resps, "responses: want a list, got a %s", kindName(resps))
	case len(reqs.Content) != len(resps.Content):
		return nil, lineErr(resps, "%d requests but %d responses: requests[i] is answered by responses[i]", len(reqs.Content), len(resps.Content))
	}
	for i := range reqs.Content {
		out = append(out, [2]*yaml.Node{resolve(reqs.Content[i]), resolve(resps.Content[i])})
	}
	return out, nil
}

func (l yamlLayout) exchange(req, resp *yaml.Node) (Exchange, error) {
	var e Exchange
	if req.Kind != yaml.MappingNode {
		return e, lineErr(req, "request: want a mapping, got a %s", kindName(req))
	}
	if resp.Kind != yaml.MappingNode {
		return e, lineErr(resp, "response: want a mapping, got a %s", kindName(resp))
	}
	var err error
	if e.Method, err = requiredString(req, "method"); err != nil {
		return e, fmt.Errorf("request: %w", err)
	}
	if e.URL, err = requiredString(req, l.urlKey); err != nil {
		return e, fmt.Errorf("request: %w", err)
	}
	if e.RequestHeaders, err = headersOf(field(req, "headers")); err != nil {
		return e, fmt.Errorf("request: %w", err)
	}
	if e.RequestBody, err = l.body(req, false); err != nil {
		return e, fmt.Errorf("request body: %w", err)
	}
	if e.RequestBody, err = decodeBody(e.RequestHeaders, e.RequestBody); err != nil {
		return e, fmt.Errorf("request body: %w", err)
	}
	if e.Status, err = l.status(resp); err != nil {
		return e, fmt.Errorf("response: %w", err)
	}
	if e.ResponseHeaders, err = headersOf(field(resp, "headers")); err != nil {
		return e, fmt.Errorf("response: %w", err)
	}
	if e.ResponseBody, err = l.body(resp, true); err != nil {
		return e, fmt.Errorf("response body: %w", err)
	}
	if e.ResponseBody, err = decodeBody(e.ResponseHeaders, e.ResponseBody); err != nil {
		return e, fmt.Errorf("response body: %w", err)
	}
	if isEventStream(e.ResponseHeaders, e.Path()) {
		if err := checkFrames(e.ResponseBody); err != nil {
			return e, fmt.Errorf("response body: %w", err)
		}
	}
	e.Date = httpDate(e.ResponseHeaders.Get("Date"))
	return e, nil
}

// requiredString reads a required scalar field of a mapping.
func requiredString(n *yaml.Node, key string) (string, error) {
	v := field(n, key)
	if isNull(v) {
		return "", lineErr(n, "no %s", key)
	}
	return scalarString(v)
}
