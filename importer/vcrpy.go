package importer

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// readVCRPy reads a VCR.py / pytest-recording cassette (already gunzipped
// when the whole file was compressed):
//
//	interactions:
//	- request:  {method, uri, headers, body | parsed_body}
//	  response: {status: {code, message}, headers, body: {string} | parsed_body}
//	version: 1
//
// A request body is a string, a {string: …} mapping, null, or pydantic-ai's
// parsed_body (the JSON body as a YAML map, turned back into JSON here). A
// response body is body.string or parsed_body. Strings tagged !!binary are
// base64 (Bedrock event-stream frames, gzip bodies). Bodies that are gzip
// streams are decompressed; event-stream bodies are checked frame by
// frame.
func readVCRPy(file string, root *yaml.Node) (*Recording, error) {
	list := field(root, "interactions")
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s: no interactions list", file)
	}
	rec := &Recording{Path: file, Format: FormatVCRPy}
	for i, n := range list.Content {
		e, err := vcrpyExchange(resolve(n))
		if err != nil {
			return nil, interactionError(file, i, err)
		}
		e.Index = i
		rec.Exchanges = append(rec.Exchanges, e)
	}
	return rec, nil
}

func vcrpyExchange(n *yaml.Node) (Exchange, error) {
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
	if e.URL, err = requiredString(req, "uri"); err != nil {
		return e, fmt.Errorf("request: %w", err)
	}
	if e.RequestHeaders, err = headersOf(field(req, "headers")); err != nil {
		return e, fmt.Errorf("request: %w", err)
	}
	if e.RequestBody, err = vcrpyBody(req, false); err != nil {
		return e, fmt.Errorf("request body: %w", err)
	}
	if e.RequestBody, err = decodeBody(e.RequestHeaders, e.RequestBody); err != nil {
		return e, fmt.Errorf("request body: %w", err)
	}
	status := field(resp, "status")
	code := field(status, "code")
	if code == nil {
		return e, lineErr(resp, "response: no status.code")
	}
	if e.Status, err = strconv.Atoi(code.Value); err != nil || e.Status < 100 || e.Status > 599 {
		return e, lineErr(code, "response: status code %q is not an HTTP status", code.Value)
	}
	if e.ResponseHeaders, err = headersOf(field(resp, "headers")); err != nil {
		return e, fmt.Errorf("response: %w", err)
	}
	if e.ResponseBody, err = vcrpyBody(resp, true); err != nil {
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

// vcrpyBody reads a body: parsed_body (JSON as YAML) wins; otherwise
// body is a string, a {string: …} mapping or null. A response body must be
// the mapping form.
func vcrpyBody(n *yaml.Node, response bool) ([]byte, error) {
	if pb := field(n, "parsed_body"); pb != nil {
		return nodeJSON(pb)
	}
	b := field(n, "body")
	switch {
	case isNull(b):
		return nil, nil
	case b.Kind == yaml.MappingNode:
		s := field(b, "string")
		if isNull(s) {
			return nil, nil
		}
		return scalarBytes(s)
	case b.Kind == yaml.ScalarNode && !response:
		return scalarBytes(b)
	}
	return nil, lineErr(b, "want body.string or parsed_body, got a %s", kindName(b))
}
