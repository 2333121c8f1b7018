package evidence

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// A Cassette is one imported cassette of a target, or of a dialect.
type Cassette struct {
	// Name is the path the report shows: cassettes/<target>/recorded/<name>.yaml
	// (cassettes/_dialect-<mode>/recorded/<name>.yaml for a dialect-only one).
	Name string
	// Target is the target it belongs to; for a dialect-only cassette, a
	// target with no id whose route names only the api mode.
	Target matrix.Target
	// Dialect is the api mode of a dialect-only cassette: response-only
	// exchanges no target takes ([harness.DialectOnlyPath]).
	Dialect engine.APIMode
	File    *harness.File
}

// Load reads the imported cassettes of the given targets (every target of
// mf when ids is nil) from dir/<target>/recorded/*.yaml, in target then
// file-name order, then the dialect-only ones from
// dir/_dialect-<mode>/recorded/*.yaml, which belong to no target. A cassette that does not parse, is not imported
// evidence, or names another target is left out and listed as
// unreadable, its error naming the file; the others are still read.
func Load(dir string, mf *matrix.File, ids []string) ([]Cassette, []report.UnreadableCassette, error) {
	var out []Cassette
	var bad []report.UnreadableCassette
	for _, t := range mf.Targets {
		if ids != nil && !slices.Contains(ids, t.ID) {
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, t.ID, harness.RecordedDir, "*.yaml"))
		if err != nil {
			return nil, nil, err
		}
		slices.Sort(files)
		for _, path := range files {
			f, err := readImported(path, t.ID)
			if err != nil {
				bad = append(bad, report.UnreadableCassette{Cassette: filepath.ToSlash(path), Detail: err.Error()})
				continue
			}
			name := filepath.ToSlash(filepath.Join("cassettes", t.ID, harness.RecordedDir, filepath.Base(path)))
			out = append(out, Cassette{Name: name, Target: t, File: f})
		}
	}
	dirs, err := filepath.Glob(filepath.Join(dir, "_dialect-*"))
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		mode, ok := harness.DialectOfDir(filepath.Base(d))
		if !ok {
			continue
		}
		files, err := filepath.Glob(filepath.Join(d, harness.RecordedDir, "*.yaml"))
		if err != nil {
			return nil, nil, err
		}
		slices.Sort(files)
		for _, path := range files {
			f, err := readImported(path, "")
			if err == nil && f.Provenance.Source.ResponseOnly != mode {
				err = fmt.Errorf("%s: a dialect-only cassette of %s must be a response-only one of that api mode (provenance says %q)", path, mode, f.Provenance.Source.ResponseOnly)
			}
			if err != nil {
				bad = append(bad, report.UnreadableCassette{Cassette: filepath.ToSlash(path), Detail: err.Error()})
				continue
			}
			name := filepath.ToSlash(filepath.Join("cassettes", filepath.Base(d), harness.RecordedDir, filepath.Base(path)))
			out = append(out, Cassette{Name: name, Target: matrix.Target{Route: engine.Route{APIMode: engine.APIMode(mode)}},
				Dialect: engine.APIMode(mode), File: f})
		}
	}
	slices.SortFunc(bad, func(a, b report.UnreadableCassette) int { return strings.Compare(a.Cassette, b.Cassette) })
	return out, bad, nil
}

// readImported reads one imported cassette of target id.
func readImported(path, id string) (*harness.File, error) {
	f, err := harness.Read(path)
	if err != nil {
		return nil, err
	}
	switch p := f.Provenance; {
	case !p.Imported():
		return nil, fmt.Errorf("%s: not imported evidence (no provenance source): only `replaycheck import` writes to %s/", path, harness.RecordedDir)
	case p.Target != id:
		return nil, fmt.Errorf("%s: provenance names target %s, but the file sits under %s", path, p.Target, id)
	}
	return f, nil
}
