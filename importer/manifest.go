package importer

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// A Source cites where a recording comes from: the public repository, the
// file's path in it, the commit and the licence.
type Source struct {
	Repository, Path, Commit, Licence string
}

// Merge fills the fields of s that are empty from o.
func (s Source) Merge(o Source) Source {
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&s.Repository, o.Repository}, {&s.Path, o.Path}, {&s.Commit, o.Commit}, {&s.Licence, o.Licence},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	return s
}

// manifestColumns are the header words that name a manifest's columns.
var manifestColumns = map[string][]string{
	"file":       {"file"},
	"repository": {"source repo", "repository", "repo"},
	"path":       {"path"},
	"commit":     {"commit"},
	"licence":    {"licence", "license"},
}

// FindSource looks for a MANIFEST.md in the directory of path or one of
// its parents and returns the source its table cites for path. The table
// is Markdown with a header row naming (at least) the columns file, source
// repo (or repository), path, commit and licence (or license); file is
// relative to the manifest's directory. For an OpenRouter fixture
// directory the row of any of its files counts, and the path cited is that
// file's directory. ok is false when no manifest lists path.
func FindSource(p string) (Source, bool, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return Source{}, false, err
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		mpath := filepath.Join(dir, ManifestName)
		if data, err := os.ReadFile(mpath); err == nil {
			rel, _ := filepath.Rel(dir, abs)
			src, ok, err := manifestSource(mpath, string(data), filepath.ToSlash(rel))
			if err != nil || ok {
				return src, ok, err
			}
		}
		if parent := filepath.Dir(dir); parent == dir {
			return Source{}, false, nil
		}
	}
}

// manifestSource finds rel in a manifest's table.
func manifestSource(mpath, text, rel string) (Source, bool, error) {
	var cols map[string]int
	for n, line := range strings.Split(text, "\n") {
		cells, ok := tableRow(line)
		if !ok {
			cols = nil
			continue
		}
		if cols == nil {
			cols = map[string]int{}
			for i, c := range cells {
				for name, words := range manifestColumns {
					for _, w := range words {
						if _, seen := cols[name]; !seen && strings.EqualFold(c, w) {
							cols[name] = i
						}
					}
				}
			}
			if _, ok := cols["file"]; !ok {
				cols = map[string]int{"file": -1}
			}
			continue
		}
		fi := cols["file"]
		if fi < 0 || fi >= len(cells) || strings.Trim(cells[fi], "-: ") == "" {
			continue
		}
		file := cells[fi]
		if file != rel && !strings.HasPrefix(file, rel+"/") {
			continue
		}
		get := func(name string) string {
			if i, ok := cols[name]; ok && i < len(cells) {
				return cells[i]
			}
			return ""
		}
		src := Source{Repository: get("repository"), Path: get("path"), Commit: get("commit"), Licence: get("licence")}
		if file != rel {
			src.Path = path.Dir(src.Path)
		}
		if src.Repository == "" || src.Path == "" {
			return Source{}, false, fmt.Errorf("%s:%d: the row of %s names no source repository or path", mpath, n+1, file)
		}
		return src, true, nil
	}
	return Source{}, false, nil
}

// tableRow splits a Markdown table line into its cells, backticks and
// surrounding space removed.
func tableRow(line string) ([]string, bool) {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") || len(line) < 2 {
		return nil, false
	}
	parts := strings.Split(line[1:len(line)-1], "|")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), "`")
	}
	return parts, true
}
