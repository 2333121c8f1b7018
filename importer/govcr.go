package importer

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// readGoVCR reads a go-vcr cassette, format version 1 or 2 (written by
// go-vcr v1–v4; v4 leaves empty fields out):
//
//	version: 2
//	interactions:
//	  - id: 0
//	    request:  {method, url, headers, body, …}
//	    response: {code, status, headers, body, …}
//
// A replaycheck cassette is a go-vcr cassette too: a simulated one is
// refused (simulated answers are never recorded evidence).
func readGoVCR(file string, root *yaml.Node) (*Recording, error) {
	if kind := field(field(root, "provenance"), "kind"); kind != nil && kind.Value == "simulated" {
		return nil, fmt.Errorf("%s: a simulated cassette (provenance kind simulated): simulated answers are never recorded evidence", file)
	}
	if v := field(root, "version"); v != nil && v.Value != "1" && v.Value != "2" {
		return nil, fmt.Errorf("%s: %s", file, lineErr(v, "go-vcr cassette version %s (want 1 or 2)", v.Value))
	}
	list := field(root, "interactions")
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s: no interactions list", file)
	}
	rec := &Recording{Path: file, Format: FormatGoVCR}
	for i, n := range list.Content {
		e, err := goVCRExchange(resolve(n))
		if err != nil {
			return nil, interactionError(file, i, err)
		}
		e.Index = i
		rec.Exchanges = append(rec.Exchanges, e)
	}
	return rec, nil
}

func goVCRExchange(n *yaml.Node) (Exchange, error) {
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
	if e.URL, err = requiredString(req, "url"); err != nil {
		return e, fmt.Errorf("request: %w", err)
	}
	if e.RequestHeaders, err = headersOf(field(req, "headers")); err != nil {
		return e, fmt.Errorf("request: %w", err)
	}
	if b := field(req, "body"); !isNull(b) {
		if e.RequestBody, err = scalarBytes(b); err != nil {
			return e, fmt.Errorf("request body: %w", err)
		}
	}
	if e.RequestBody, err = decodeBody(e.RequestHeaders, e.RequestBody); err != nil {
		return e, fmt.Errorf("request body: %w", err)
	}
	if e.Status, err = goVCRStatus(resp); err != nil {
		return e, fmt.Errorf("response: %w", err)
	}
	if e.ResponseHeaders, err = headersOf(field(resp, "headers")); err != nil {
		return e, fmt.Errorf("response: %w", err)
	}
	if b := field(resp, "body"); !isNull(b) {
		if e.ResponseBody, err = scalarBytes(b); err != nil {
			return e, fmt.Errorf("response body: %w", err)
		}
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

// goVCRStatus reads the response code, or the leading number of status
// ("200 OK") when code is absent.
func goVCRStatus(resp *yaml.Node) (int, error) {
	text := ""
	at := resp
	if c := field(resp, "code"); c != nil {
		text, at = c.Value, c
	} else if s := field(resp, "status"); s != nil {
		text, _, _ = strings.Cut(s.Value, " ")
		at = s
	}
	code, err := strconv.Atoi(text)
	if err != nil || code < 100 || code > 599 {
		return 0, lineErr(at, "status code %q is not an HTTP status", text)
	}
	return code, nil
}
