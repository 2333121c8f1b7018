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

// read reads the interactions list of a cassette; an error names the
// file and the interaction index.
func (l yamlLayout) read(file string, root *yaml.Node) (*Recording, error) {
	list := field(root, "interactions")
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s: no interactions list", file)
	}
	rec := &Recording{Path: file, Format: l.format}
	for i, n := range list.Content {
		e, err := l.exchange(resolve(n))
		if err != nil {
			return nil, interactionError(file, i, err)
		}
		e.Index = i
		rec.Exchanges = append(rec.Exchanges, e)
	}
	return rec, nil
}

func (l yamlLayout) exchange(n *yaml.Node) (Exchange, error) {
	var e Exchange
	if n.Kind != yaml.MappingNode {
		return e, lineErr(n, "want a mapping with request and response, got a %s", kindName(n))
	}
	req, resp := field(n, "request"), field(n, "response")
	if req == nil || resp == nil {
		return e, lineErr(n, "an interaction needs request and response")
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
