package evidence

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/suites/harness"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// repo loads the project's matrix.yaml and provider profiles.
func repo(t *testing.T) (*matrix.File, map[string]*providers.Profile) {
	t.Helper()
	mf, err := matrix.Load(filepath.Join("..", "matrix.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	list, err := providers.LoadDir(filepath.Join("..", "providers"))
	if err != nil {
		t.Fatal(err)
	}
	return mf, providers.ByName(list)
}

// rt is one recorded round trip written for these tests.
type rt struct {
	url, req  string
	status    int
	resp      string
	eventType string // response Content-Type; application/json when empty
}

// writeCassette writes an imported cassette of target at
// dir/<target>/recorded/<name>.yaml, its interactions at source positions
// 0, 1, …, and elsewhere the source's other interactions.
func writeCassette(t *testing.T, dir, target, name string, rts []rt, elsewhere ...harness.Elsewhere) {
	t.Helper()
	src := &harness.Source{Repository: "replaycheck/replaycheck", Path: "evidence/" + name + ".yaml", Format: "vcrpy", Elsewhere: elsewhere}
	f := &harness.File{Version: 2, Provenance: harness.Provenance{Kind: harness.Recorded, Target: target, Host: "test.invalid", Source: src}}
	for i, x := range rts {
		ct := x.eventType
		if ct == "" {
			ct = "application/json"
		}
		it := &cassette.Interaction{
			Request:  cassette.Request{Method: "POST", URL: x.url, Body: x.req, Headers: http.Header{"Content-Type": {"application/json"}}},
			Response: cassette.Response{Code: x.status, Body: x.resp, Headers: http.Header{"Content-Type": {ct}}},
		}
		f.Interactions = append(f.Interactions, it)
		src.Interactions = append(src.Interactions, i+len(elsewhere))
	}
	if err := harness.Write(harness.RecordedPath(dir, target, name), f); err != nil {
		t.Fatal(err)
	}
}

// runOne runs the checks on a directory and returns the exchanges.
func runOne(t *testing.T, dir string) []exchangeResult {
	t.Helper()
	mf, profiles := repo(t)
	ev, err := Run(Inputs{Matrix: mf, Profiles: profiles, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var out []exchangeResult
	for _, x := range ev.Exchanges {
		out = append(out, exchangeResult{x.ID(), x.Capture, x.Reproduction, x.Simulator})
	}
	return out
}

type exchangeResult struct {
	id                  string
	capture, repro, sim reportCheck
}
