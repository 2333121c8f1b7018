package importer

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/dialects"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/suites/harness"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// A Cassette is the imported cassette of one target.
type Cassette struct {
	// Target is the target id; the cassette belongs at
	// harness.RecordedPath(dir, Target, name).
	Target string
	File   *harness.File
}

// Cassettes builds one cassette per target that took exchanges of rec:
// the placed exchanges in source order, scrubbed exactly as `record`
// scrubs ([harness.Scrub]: only Content-Type headers stay, credential
// query parameters go), with recorded provenance citing src and saying
// where each of the source's other exchanges went. A response-only
// fixture's exchange gets the request line the target's dialect would
// send, with an empty body. Cassettes fails, naming the file and the
// source interaction, when a scrubbed interaction still holds something
// that looks like a credential: then nothing of rec is written.
func Cassettes(rec *Recording, places []Placement, mf *matrix.File, src Source) ([]Cassette, error) {
	var order []string
	byTarget := map[string][]int{}
	for i, p := range places {
		if p.Target == "" {
			continue
		}
		if _, ok := byTarget[p.Target]; !ok {
			order = append(order, p.Target)
		}
		byTarget[p.Target] = append(byTarget[p.Target], i)
	}
	var out []Cassette
	for _, id := range order {
		t, _ := mf.Target(id)
		prov := harness.Provenance{Kind: harness.Recorded, Target: id, Source: &harness.Source{
			Repository: src.Repository, Path: src.Path, Commit: src.Commit, Licence: src.Licence, Format: string(rec.Format),
		}}
		f := &harness.File{Version: cassette.CassetteFormatV2, Provenance: prov}
		for _, i := range byTarget[id] {
			e := rec.Exchanges[i]
			it, err := interaction(e, places[i], t, &mf.Table)
			if err != nil {
				return nil, interactionError(rec.Path, e.Index, err)
			}
			if prov.Host == "" {
				prov.Host = engine.Hostname(it.Request.URL)
			}
			if prov.Date == "" {
				prov.Date = e.Date
			}
			f.Interactions = append(f.Interactions, it)
			prov.Source.Interactions = append(prov.Source.Interactions, e.Index)
		}
		for i, p := range places {
			if p.Target == id {
				continue
			}
			e := rec.Exchanges[i]
			prov.Source.Elsewhere = append(prov.Source.Elsewhere, harness.Elsewhere{
				Interaction: e.Index, Request: e.Describe(), APIMode: string(p.Route.Mode), Target: p.Target, Unplaced: p.Unplaced,
			})
		}
		f.Provenance = prov
		out = append(out, Cassette{Target: id, File: f})
	}
	return out, nil
}

// interaction turns one placed exchange into a scrubbed go-vcr
// interaction, refusing one that still looks like it holds a credential.
func interaction(e Exchange, p Placement, t matrix.Target, tbl *engine.Table) (*cassette.Interaction, error) {
	it := &cassette.Interaction{
		Request: cassette.Request{Method: e.Method, URL: e.URL, Body: string(e.RequestBody), Headers: e.RequestHeaders.Clone()},
		Response: cassette.Response{Body: string(e.ResponseBody), Headers: e.ResponseHeaders.Clone(), Code: e.Status,
			Status: fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))},
	}
	if e.ResponseOnly() {
		path, err := requestPath(t, p.Route, tbl)
		if err != nil {
			return nil, err
		}
		it.Request.Method = http.MethodPost
		it.Request.URL = strings.TrimSuffix(t.Route.BaseURL, "/") + path
		it.Request.Headers = http.Header{"Content-Type": {"application/json"}}
	}
	harness.Scrub(it, engine.Hostname(it.Request.URL), nil)
	one := &harness.File{Interactions: []*cassette.Interaction{it}}
	if found := harness.Scan(one); len(found) > 0 {
		where := strings.TrimPrefix(found[0].Where, "interaction 0 ")
		return nil, fmt.Errorf("%s still looks like a credential after scrubbing (%s): nothing written for this file", where, found[0].What)
	}
	return it, nil
}

// requestPath is the path a target's dialect sends a response-only
// fixture's request to.
func requestPath(t matrix.Target, r Route, tbl *engine.Table) (string, error) {
	dia, err := dialects.For(t.Route.APIMode, tbl)
	if err != nil {
		if t.Route.APIMode == engine.ModeResponses {
			return "/responses", nil
		}
		return "", err
	}
	rt := t.Route
	if r.Model != "" {
		rt.Model = r.Model
	}
	return dia.Path(rt, r.Stream), nil
}

// Name turns a recording's path relative to its import root into a
// cassette name: lower-case words of letters and digits joined by "-",
// its format suffix (.yaml, .yml, .gz, .json) dropped and .chunks.txt
// kept as "-chunks" (Vercel AI SDK fixtures come in x.chunks.txt and x.json
// pairs); "anthropic/Thinking roundtrip.yaml" becomes
// "anthropic-thinking-roundtrip".
func Name(rel string) string {
	s := strings.ToLower(rel)
	if t, ok := strings.CutSuffix(s, ".chunks.txt"); ok {
		s = t + "-chunks"
	}
	for _, suf := range []string{".gz", ".yaml", ".yml", ".json"} {
		s = strings.TrimSuffix(s, suf)
	}
	var b strings.Builder
	dash := false
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	return b.String()
}
