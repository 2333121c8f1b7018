package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestReadJSONRoundTrip(t *testing.T) {
	tests := []struct {
		m      *Matrix
		reason string
	}{
		{sampleMatrix(), "the sample matrix has every status, both provenances and text that needs escaping"},
		{&Matrix{}, "an empty matrix survives as empty lists"},
		{&Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{{Target: "a", Scenario: "x",
			Status: StatusFail, Provenance: ProvenanceRecorded, Recorded: "cassettes/a/x.yaml", Detail: "<&> \"quoted\" \u00e9\u2028",
			ProviderError: "line 1\r\nline 2\ttab"}}}, "HTML characters, unicode and line ends are kept exactly"},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		if err := WriteJSON(&out, tc.m); err != nil {
			t.Fatalf("%s: WriteJSON: %v", tc.reason, err)
		}
		got, err := ReadJSON(&out)
		if err != nil {
			t.Fatalf("%s: ReadJSON: %v", tc.reason, err)
		}
		if diff := cmp.Diff(tc.m, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: round trip (-want +got):\n%s", tc.reason, diff)
		}
	}
}

// TestReadJSONGolden reads the committed matrix.json golden, so the file other tools consume
// is also proven readable.
func TestReadJSONGolden(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "matrix.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := ReadJSON(f)
	if err != nil {
		t.Fatalf("testdata/matrix.json: %v", err)
	}
	if diff := cmp.Diff(sampleMatrix(), got); diff != "" {
		t.Errorf("testdata/matrix.json does not decode to the sample (-want +got):\n%s", diff)
	}
}

func TestReadJSONSortsCells(t *testing.T) {
	in := `{"targets":["b","a"],"scenarios":["x","y"],"cells":[
{"target":"a","scenario":"y","status":"n/a","provenance":"","detail":""},
{"target":"b","scenario":"y","status":"n/a","provenance":"","detail":""},
{"target":"a","scenario":"x","status":"n/a","provenance":"","detail":""},
{"target":"b","scenario":"x","status":"n/a","provenance":"","detail":""}]}`
	m, err := ReadJSON(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range m.Cells {
		ids = append(ids, c.ID())
	}
	if diff := cmp.Diff([]string{"b/x", "b/y", "a/x", "a/y"}, ids); diff != "" {
		t.Errorf("cells must follow the file's own target and scenario order (-want +got):\n%s", diff)
	}
}

func TestReadJSONErrors(t *testing.T) {
	const cell = `{"target":"a","scenario":"x","status":"pass","provenance":"recorded","detail":"ok"}`
	tests := []struct {
		in     string
		want   string
		reason string
	}{
		{"", "offset 0 (line 1, column 1): empty input (want a matrix object)", "an empty file is not a matrix"},
		{`{"targets":["a"],` + "\n" + `"scenarios":["x"],}`,
			"offset 36 (line 2, column 19): invalid character '}' looking for beginning of object key string",
			"syntax errors name the byte, line and column"},
		{`{"targets":["a"],"scenarios":["x"],"cells":[` + cell,
			"offset 127 (line 1, column 128): unexpected end of input", "a truncated file says where it ended"},
		{`{"targets":["a"],"scenarios":["x"],"cells":[{"target":"a","scenario":"x","status":3}]}`,
			"offset 82 (line 1, column 83): cells.status: cannot decode JSON number into report.Status",
			"type errors name the field path"},
		{`[]`, "offset 0 (line 1, column 1): matrix: cannot decode JSON array into an object",
			"the top level is an object"},
		{`{"targets":["a"],"scenarios":["x"],"cells":[` + cell + `,` + "\n" +
			`{"target":"a","scenario":"x","stauts":"pass"}]}`,
			"offset 158 (line 2, column 30): cells[1].stauts: unknown field", "unknown fields are refused with their path"},
		{`{"targets":["a"],"scenarios":["x"],"extra":1,"cells":[]}`,
			"offset 35 (line 1, column 36): extra: unknown field", "unknown top-level fields are refused"},
		{`{"targets":["a"],"scenarios":["x"],"cells":[` + cell + `]} {}`,
			"offset 130 (line 1, column 131): unexpected data after the matrix object", "one object per file"},
		{`{"implementation":{"name":"a","version":"1","lang":"go"},"targets":[],"scenarios":[],"cells":[]}`,
			"offset 44 (line 1, column 45): implementation.lang: unknown field", "the implementation's fields are strict too"},
		{`{"implementation":{"name":"","version":"1"},"targets":[],"scenarios":[],"cells":[]}`,
			"implementation.name: empty (want the implementation's name)", "a named implementation has a name"},
		{`{"scenarios":["x"],"cells":[]}`, "targets: missing or null (want an array of target ids)", "targets are required"},
		{`{"targets":[],"scenarios":null,"cells":[]}`, "scenarios: missing or null (want an array of scenario names)", "null is not a list"},
		{`{"targets":[],"scenarios":[]}`, "cells: missing or null (want an array of cells)", "cells are required"},
		{`{"targets":[],"scenarios":[],"cells":[],"evidence":{"targets":[],"exchanges":null,"profiles":[]}}`,
			"evidence: targets, exchanges and profiles are arrays (empty, never missing or null)", "an evidence section lists even what it does not have"},
		{`{"targets":["a"],"scenarios":["x"],"cells":[{"target":"a","scenario":"x","status":"skipped","provenance":"recorded","detail":""}]}`,
			`cells[0].status: unknown status "skipped" (want one of pass, fail, unverified, n/a, known-fail, advisory, error)`,
			"statuses are validated with their path"},
		{`{"targets":["a"],"scenarios":["x"],"cells":[null]}`, `cells[0].target: "" is not listed in targets`,
			"a null cell is an empty cell, which is invalid"},
		{`{"targets":["a","b"],"scenarios":["x"],"cells":[` + cell + `]}`, "cells: no cell for b/x",
			"a missing cell is named"},
	}
	for _, tc := range tests {
		_, err := ReadJSON(strings.NewReader(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got: %v\nwant: %s", tc.reason, err, tc.want)
		}
	}
}

func TestReadJSONUnwraps(t *testing.T) {
	_, err := ReadJSON(strings.NewReader(`{"targets":[}`))
	var syntax *json.SyntaxError
	if !errors.As(err, &syntax) {
		t.Errorf("a syntax error must unwrap to *json.SyntaxError, got %T: %v", err, err)
	}
	_, err = ReadJSON(io.MultiReader(strings.NewReader("{"), errReader{}))
	if !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("a read error must be wrapped, got %v", err)
	}
}

// errReader fails every read.
type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrClosedPipe }
