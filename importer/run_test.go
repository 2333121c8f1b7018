package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImport drives walk, cite, place and write over small trees, one
// behaviour per row.
func TestImport(t *testing.T) {
	mf := loadMatrix(t)
	plain, err := os.ReadFile(filepath.Join("testdata", "vcrpy", "plain-and-gzip.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tree := func(files ...string) string {
		dir := t.TempDir()
		for _, f := range files {
			p := filepath.Join(dir, f)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, plain, 0o644)
		}
		return dir
	}
	src := Source{Repository: "example/agent", Path: "tests"}
	tests := []struct {
		roots  func() []string
		opts   Options
		want   []string // per result: written cassette (relative to Out) or the error fragment
		fail   string   // a fragment of Import's own error
		reason string
	}{
		{func() []string { return []string{tree("a/x.yaml")} }, Options{Source: src},
			[]string{"deepseek/recorded/a-x.yaml"}, "", "a file below a root is named by its path there"},
		{func() []string { return []string{filepath.Join(tree("a/x.yaml"), "a", "x.yaml")} }, Options{Source: src, Name: "mine"},
			[]string{"deepseek/recorded/mine.yaml"}, "", "--name names a single source"},
		{func() []string { return []string{tree("a/x.yaml", "b/x.yaml")} }, Options{Source: src, Name: "mine"},
			nil, "--name mine: names one source, but the import holds 2", "--name with several sources is refused"},
		{func() []string { d := tree("x.yaml"); return []string{d, d} }, Options{Source: src},
			[]string{"deepseek/recorded/x.yaml", "would overwrite the one from"}, "", "two sources never write one cassette"},
		{func() []string { return []string{tree("a/x.yaml")} }, Options{},
			[]string{"its source is unknown"}, "", "an uncited source is not imported"},
		{func() []string { return []string{tree("a/x.yaml")} }, Options{Source: src, Target: "kimi"},
			[]string{"kimi/recorded/a-x.yaml"}, "", "--target places every exchange"},
	}
	for _, tc := range tests {
		out := t.TempDir()
		tc.opts.Matrix, tc.opts.Out = mf, out
		results, err := Import(tc.roots(), tc.opts)
		if tc.fail != "" {
			if err == nil || !strings.Contains(err.Error(), tc.fail) {
				t.Errorf("%s: error %v, want %q", tc.reason, err, tc.fail)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.reason, err)
		}
		var got []string
		for _, r := range results {
			for _, w := range r.Written {
				rel, _ := filepath.Rel(out, w)
				got = append(got, filepath.ToSlash(rel))
			}
			if r.Err != nil {
				got = append(got, r.Err.Error())
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: got %q, want %q", tc.reason, got, tc.want)
			continue
		}
		for i := range got {
			if !strings.Contains(got[i], tc.want[i]) {
				t.Errorf("%s: result %d %q, want %q", tc.reason, i, got[i], tc.want[i])
			}
		}
		for _, r := range results {
			for _, w := range r.Written {
				if _, err := os.Stat(w); err != nil {
					t.Errorf("%s: %s was not written: %v", tc.reason, w, err)
				}
			}
		}
	}
}

// TestImportDryRun writes nothing.
func TestImportDryRun(t *testing.T) {
	out := t.TempDir()
	results, err := Import([]string{filepath.Join("testdata", "vcrpy")}, Options{Matrix: loadMatrix(t), Out: out, DryRun: true,
		Source: Source{Repository: "replaycheck/replaycheck", Path: "importer/testdata/vcrpy"}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range results {
		n += len(r.Written)
	}
	entries, _ := os.ReadDir(out)
	if n == 0 || len(entries) != 0 {
		t.Errorf("a dry run names %d cassettes and writes %d entries", n, len(entries))
	}
}
