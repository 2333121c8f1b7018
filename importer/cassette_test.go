package importer

import (
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/suites/harness"
)

// importFixture reads and places a fixture and builds its cassettes.
func importFixture(t *testing.T, name string) ([]Cassette, error) {
	t.Helper()
	mf := loadMatrix(t)
	rec, err := Read(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var places []Placement
	for _, e := range rec.Exchanges {
		places = append(places, Place(e, mf, nil, ""))
	}
	return Cassettes(rec, places, mf, Source{Repository: "replaycheck/replaycheck", Path: "importer/testdata/" + name})
}

// TestCassettesScrub imports a cassette with a planted key and cookie in
// every place recorders leak them and checks that what would be written
// is scrubbed exactly as record scrubs: only Content-Type headers, no
// credential query parameter, nothing lint would flag.
func TestCassettesScrub(t *testing.T) {
	cs, err := importFixture(t, "vcrpy/plain-and-gzip.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Target != "deepseek" {
		t.Fatalf("cassettes %+v", cs)
	}
	f := cs[0].File
	for i, it := range f.Interactions {
		for _, h := range []http.Header{it.Request.Headers, it.Response.Headers} {
			for k := range h {
				if k != "Content-Type" {
					t.Errorf("interaction %d: header %s kept; record keeps only Content-Type", i, k)
				}
			}
		}
		if strings.Contains(it.Request.URL, "key=") || it.Request.URL != "https://api.deepseek.com/v1/chat/completions" {
			t.Errorf("interaction %d: url %s", i, it.Request.URL)
		}
		if it.Request.Host != "api.deepseek.com" || it.Response.ContentLength != int64(len(it.Response.Body)) {
			t.Errorf("interaction %d: host %q, content length %d for %d bytes", i, it.Request.Host, it.Response.ContentLength, len(it.Response.Body))
		}
	}
	if found := harness.Scan(f); len(found) > 0 {
		t.Errorf("lint would flag the imported cassette: %+v", found)
	}
	p := f.Provenance
	want := harness.Source{Repository: "replaycheck/replaycheck", Path: "importer/testdata/vcrpy/plain-and-gzip.yaml", Format: "vcrpy", Interactions: []int{0, 1}}
	if p.Kind != harness.Recorded || p.Target != "deepseek" || p.Host != "api.deepseek.com" || p.Date != "2026-03-03" ||
		p.Source.Repository != want.Repository || p.Source.Path != want.Path || p.Source.Format != want.Format || !slices.Equal(p.Source.Interactions, want.Interactions) {
		t.Errorf("provenance %+v source %+v", p, p.Source)
	}
	path := harness.RecordedPath(t.TempDir(), "deepseek", "plain")
	if err := harness.Write(path, f); err != nil {
		t.Fatal(err)
	}
	back, err := harness.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Interactions[1].Response.Body != f.Interactions[1].Response.Body || !strings.Contains(back.Interactions[1].Response.Body, "Checked the notes twice.") {
		t.Errorf("the decompressed body did not survive the round trip")
	}
}

// TestCassettesRefuseLeftoverCredentials refuses a cassette whose body
// still holds a key after scrubbing, naming the source interaction.
func TestCassettesRefuseLeftoverCredentials(t *testing.T) {
	mf := loadMatrix(t)
	rec, err := Read(filepath.Join("testdata", "vcrpy", "plain-and-gzip.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rec.Exchanges[1].RequestBody = []byte(`{"model":"deepseek-v4-flash","api_key":"sk-plantedplantedplantedplanted0011","messages":[]}`)
	var places []Placement
	for _, e := range rec.Exchanges {
		places = append(places, Place(e, mf, nil, ""))
	}
	_, err = Cassettes(rec, places, mf, Source{Repository: "r", Path: "p"})
	if err == nil || !strings.Contains(err.Error(), "plain-and-gzip.yaml: interaction 1: request body still looks like a credential after scrubbing (OpenAI-style key (sk-…)): nothing written for this file") {
		t.Errorf("got %v", err)
	}
}

// TestCassettesSplitByTarget puts each target's exchanges in its own
// cassette and records where the others went.
func TestCassettesSplitByTarget(t *testing.T) {
	mf := loadMatrix(t)
	rec := &Recording{Path: "cross.yaml", Format: FormatVCRPy, Exchanges: []Exchange{
		{Index: 0, Method: "POST", URL: "https://api.kimi.com/coding/v1/responses", RequestBody: []byte(`{"model":"kimi-k2.6"}`), Status: 200, ResponseBody: []byte(`{}`)},
		{Index: 1, Method: "POST", URL: "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:generateContent", RequestBody: []byte(`{"contents":[]}`), Status: 200, ResponseBody: []byte(`{}`)},
	}}
	places := []Placement{Place(rec.Exchanges[0], mf, nil, ""), Place(rec.Exchanges[1], mf, nil, "")}
	cs, err := Cassettes(rec, places, mf, Source{Repository: "r", Path: "p"})
	if err != nil || len(cs) != 1 || cs[0].Target != "gemini" {
		t.Fatalf("cassettes %+v %v", cs, err)
	}
	src := cs[0].File.Provenance.Source
	if !slices.Equal(src.Interactions, []int{1}) || len(src.Elsewhere) != 1 || src.Elsewhere[0].Interaction != 0 ||
		src.Elsewhere[0].APIMode != "responses" || src.Elsewhere[0].Unplaced != "no target of api mode responses on api.kimi.com, and no target's provider profile describes api.kimi.com" {
		t.Errorf("source %+v", src)
	}
}

// TestCassettesResponseOnly keeps a response-only fixture's request line
// empty, as recorded: no request line is made up. One that no target
// takes goes to its dialect's directory, naming no target and no host.
func TestCassettesResponseOnly(t *testing.T) {
	for _, tc := range []struct {
		file, target, dialect string
	}{
		{"aisdk/converse-reasoning.chunks.txt", "", "bedrock-converse"},
		{"aisdk/gemini-tool-call.chunks.txt", "gemini", ""},
	} {
		cs, err := importFixture(t, tc.file)
		if err != nil || len(cs) != 1 {
			t.Fatalf("%s: %+v %v", tc.file, cs, err)
		}
		c := cs[0]
		it := c.File.Interactions[0]
		if it.Request.Method != "" || it.Request.URL != "" || it.Request.Body != "" {
			t.Errorf("%s: request %q %q %q: a request line the fixture never recorded", tc.file, it.Request.Method, it.Request.URL, it.Request.Body)
		}
		prov := c.File.Provenance
		if c.Target != tc.target || string(c.Dialect) != tc.dialect || prov.Target != tc.target || prov.Host != "" || prov.Source.ResponseOnly == "" {
			t.Errorf("%s: cassette of target %q dialect %q, provenance %+v %+v; want target %q dialect %q, no host", tc.file, c.Target, c.Dialect, prov, *prov.Source, tc.target, tc.dialect)
		}
		if err := prov.Validate(); err != nil {
			t.Errorf("%s: %v", tc.file, err)
		}
	}
}
