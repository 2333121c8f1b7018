package importer

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// goVCRLayout reads a go-vcr cassette, format version 1 or 2 (written by
// go-vcr v1–v4; v4 leaves empty fields out):
//
//	version: 2
//	interactions:
//	  - id: 0
//	    request:  {method, url, headers, body, …}
//	    response: {code, status, headers, body, …}
var goVCRLayout = yamlLayout{format: FormatGoVCR, urlKey: "url", body: goVCRBody, status: goVCRStatus}

// readGoVCR reads a go-vcr cassette. A replaycheck cassette is a go-vcr
// cassette too: a simulated one is refused (simulated answers are never
// recorded evidence).
func readGoVCR(file string, root *yaml.Node) (*Recording, error) {
	if kind := field(field(root, "provenance"), "kind"); kind != nil && kind.Value == "simulated" {
		return nil, fmt.Errorf("%s: a simulated cassette (provenance kind simulated): simulated answers are never recorded evidence", file)
	}
	if v := field(root, "version"); v != nil && v.Value != "1" && v.Value != "2" {
		return nil, fmt.Errorf("%s: %s", file, lineErr(v, "go-vcr cassette version %s (want 1 or 2)", v.Value))
	}
	return goVCRLayout.read(file, root)
}

// goVCRBody reads a body string (or !!binary), empty when absent.
func goVCRBody(n *yaml.Node, _ bool) ([]byte, error) {
	if b := field(n, "body"); !isNull(b) {
		return scalarBytes(b)
	}
	return nil, nil
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
