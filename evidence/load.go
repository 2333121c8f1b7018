package evidence

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// A Cassette is one imported cassette of a target.
type Cassette struct {
	// Name is the path the report shows: cassettes/<target>/recorded/<name>.yaml.
	Name string
	// Target is the target it belongs to.
	Target matrix.Target
	File   *harness.File
}

// Load reads the imported cassettes of the given targets (every target of
// mf when ids is nil) from dir/<target>/recorded/*.yaml, in target then
// file-name order. A cassette that does not parse, is not imported
// evidence, or names another target is an error naming the file.
func Load(dir string, mf *matrix.File, ids []string) ([]Cassette, error) {
	var out []Cassette
	for _, t := range mf.Targets {
		if ids != nil && !slices.Contains(ids, t.ID) {
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, t.ID, harness.RecordedDir, "*.yaml"))
		if err != nil {
			return nil, err
		}
		slices.Sort(files)
		for _, path := range files {
			f, err := harness.Read(path)
			if err != nil {
				return nil, err
			}
			switch p := f.Provenance; {
			case !p.Imported():
				return nil, fmt.Errorf("%s: not imported evidence (no provenance source): only `replaycheck import` writes to %s/", path, harness.RecordedDir)
			case p.Target != t.ID:
				return nil, fmt.Errorf("%s: provenance names target %s, but the file sits under %s", path, p.Target, t.ID)
			}
			name := filepath.ToSlash(filepath.Join("cassettes", t.ID, harness.RecordedDir, filepath.Base(path)))
			out = append(out, Cassette{Name: name, Target: t, File: f})
		}
	}
	return out, nil
}
