package importer

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// vcrpyLayout reads a VCR.py / pytest-recording cassette (already
// gunzipped when the whole file was compressed):
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
var vcrpyLayout = yamlLayout{format: FormatVCRPy, urlKey: "uri", body: vcrpyBody, status: vcrpyStatus}

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

// vcrpyStatus reads status.code.
func vcrpyStatus(resp *yaml.Node) (int, error) {
	code := field(field(resp, "status"), "code")
	if code == nil {
		return 0, lineErr(resp, "no status.code")
	}
	n, err := strconv.Atoi(code.Value)
	if err != nil || n < 100 || n > 599 {
		return 0, lineErr(code, "status code %q is not an HTTP status", code.Value)
	}
	return n, nil
}
