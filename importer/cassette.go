package importer

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/suites/harness"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// A Cassette is the imported cassette of one target, or of one dialect
// for response-only exchanges no target takes.
type Cassette struct {
	// Target is the target id; the cassette belongs at
	// harness.RecordedPath(dir, Target, name). "" for a dialect-only one.
	Target string
	// Dialect is the api mode of a dialect-only cassette, which belongs at
	// harness.DialectOnlyPath(dir, Dialect, name).
	Dialect engine.APIMode
	File    *harness.File
}

// Path returns where the cassette belongs below dir, named name.
func (c Cassette) Path(dir, name string) string {
	if c.Dialect != "" {
		return harness.DialectOnlyPath(dir, string(c.Dialect), name)
	}
	return harness.RecordedPath(dir, c.Target, name)
}

// Cassettes builds one cassette per target that took exchanges of rec
// (and one per dialect that response-only exchanges no target takes went
// to): the placed exchanges in source order, scrubbed exactly as `record`
// scrubs ([harness.Scrub]: only Content-Type headers stay, credential
// query parameters go), with recorded provenance citing src and saying
// where each of the source's other exchanges went. A response-only
// fixture's exchange keeps the empty request line it was recorded with:
// its provenance names its api mode instead of a host. Cassettes fails,
// naming the file and the source interaction, when a scrubbed interaction
// still holds something that looks like a credential: then nothing of
// rec is written.
func Cassettes(rec *Recording, places []Placement, mf *matrix.File, src Source) ([]Cassette, error) {
	key := func(p Placement) string {
		if p.DialectOnly() {
			return "dialect " + string(p.Dialect)
		}
		return p.Target
	}
	var order []string
	byKey := map[string][]int{}
	for i, p := range places {
		if p.Target == "" && !p.DialectOnly() {
			continue
		}
		k := key(p)
		if _, ok := byKey[k]; !ok {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], i)
	}
	var out []Cassette
	for _, k := range order {
		first := places[byKey[k][0]]
		prov := harness.Provenance{Kind: harness.Recorded, Target: first.Target, Source: &harness.Source{
			Repository: src.Repository, Path: src.Path, Commit: src.Commit, Licence: src.Licence, Format: string(rec.Format),
		}}
		f := &harness.File{Version: cassette.CassetteFormatV2, Provenance: prov}
		for _, i := range byKey[k] {
			e := rec.Exchanges[i]
			it, err := interaction(e)
			if err != nil {
				return nil, interactionError(rec.Path, e.Index, err)
			}
			if e.ResponseOnly() {
				prov.Source.ResponseOnly = string(e.Mode)
			} else if prov.Host == "" {
				prov.Host = engine.Hostname(it.Request.URL)
			}
			if prov.Date == "" {
				prov.Date = e.Date
			}
			f.Interactions = append(f.Interactions, it)
			prov.Source.Interactions = append(prov.Source.Interactions, e.Index)
		}
		for i, p := range places {
			if (p.Target != "" || p.DialectOnly()) && key(p) == k {
				continue
			}
			e := rec.Exchanges[i]
			where := harness.Elsewhere{Interaction: e.Index, Request: e.Describe(), APIMode: string(p.Route.Mode), Target: p.Target, Unplaced: p.Unplaced}
			if p.DialectOnly() {
				where.Unplaced = p.Note
			}
			prov.Source.Elsewhere = append(prov.Source.Elsewhere, where)
		}
		f.Provenance = prov
		out = append(out, Cassette{Target: first.Target, Dialect: first.Dialect, File: f})
	}
	return out, nil
}

// interaction turns one placed exchange into a scrubbed go-vcr
// interaction, refusing one that still looks like it holds a credential.
// A response-only exchange keeps its empty request: no request line is
// written that was not recorded.
func interaction(e Exchange) (*cassette.Interaction, error) {
	it := &cassette.Interaction{
		Request: cassette.Request{Method: e.Method, URL: e.URL, Body: string(e.RequestBody), Headers: e.RequestHeaders.Clone()},
		Response: cassette.Response{Body: string(e.ResponseBody), Headers: e.ResponseHeaders.Clone(), Code: e.Status,
			Status: fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))},
	}
	if it.Request.Headers == nil {
		it.Request.Headers = http.Header{}
	}
	harness.Scrub(it, engine.Hostname(it.Request.URL), nil)
	one := &harness.File{Interactions: []*cassette.Interaction{it}}
	if found := harness.Scan(one); len(found) > 0 {
		where := strings.TrimPrefix(found[0].Where, "interaction 0 ")
		return nil, fmt.Errorf("%s still looks like a credential after scrubbing (%s): nothing written for this file", where, found[0].What)
	}
	return it, nil
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
