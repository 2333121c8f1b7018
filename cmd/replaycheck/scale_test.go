package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/suites/harness"
	"go.yaml.in/yaml/v3"
)

// scaledMatrix writes into dir a matrix.yaml holding every committed
// target k times (copies are "<id>-xN", with the same route and profile,
// and the same declared known failures) and their cassettes, each copy's
// provenance naming the copy. It returns the matrix path and the cassette
// directory.
func scaledMatrix(tb testing.TB, dir string, k int) (string, string) {
	tb.Helper()
	b, err := os.ReadFile(repoMatrix)
	if err != nil {
		tb.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		tb.Fatal(err)
	}
	top := doc.Content[0]
	var ids []string
	for i := 0; i+1 < len(top.Content); i += 2 {
		switch seq := top.Content[i+1]; top.Content[i].Value {
		case "targets":
			for _, t := range seq.Content {
				ids = append(ids, field(t, "id").Value)
			}
			seq.Content = copies(seq.Content, k, "id")
		case "known_failures", "advisories":
			seq.Content = copies(seq.Content, k, "target")
		}
	}
	out, err := yaml.Marshal(&doc)
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, "matrix.yaml")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		tb.Fatal(err)
	}
	cassettes := filepath.Join(dir, "cassettes")
	for _, id := range ids {
		entries, err := os.ReadDir(filepath.Join(repoCassettes, id))
		if err != nil {
			tb.Fatal(err)
		}
		for _, e := range entries {
			sc := strings.TrimSuffix(e.Name(), ".yaml")
			f, err := harness.Read(harness.Path(repoCassettes, id, sc))
			if err != nil {
				tb.Fatal(err)
			}
			for n := 1; n <= k; n++ {
				f.Provenance.Target = copyID(id, n)
				if err := harness.Write(harness.Path(cassettes, f.Provenance.Target, sc), f); err != nil {
					tb.Fatal(err)
				}
			}
		}
	}
	return path, cassettes
}

// copyID is the id of the n-th copy of a target; the first is the target.
func copyID(id string, n int) string {
	if n == 1 {
		return id
	}
	// An alias's name ("gemini-openai~1") names the copy's alias.
	if target, alias, ok := strings.Cut(id, "~"); ok {
		return fmt.Sprintf("%s-x%d~%s", target, n, alias)
	}
	return fmt.Sprintf("%s-x%d", id, n)
}

// copies returns k copies of each mapping in items, key renamed by copyID.
func copies(items []*yaml.Node, k int, key string) []*yaml.Node {
	var out []*yaml.Node
	for n := 1; n <= k; n++ {
		for _, it := range items {
			c := deepCopy(it)
			v := field(c, key)
			v.Value = copyID(v.Value, n)
			out = append(out, c)
		}
	}
	return out
}

func field(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	panic("no key " + key)
}

func deepCopy(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, ch := range n.Content {
		c.Content[i] = deepCopy(ch)
	}
	return &c
}

// BenchmarkRunScaledMatrix measures `replaycheck run` over the committed
// matrix and over ten times its targets (every cassette parsed once per
// cell): per-cell time and allocations must stay flat as the matrix
// grows, which the ns/cell metric and allocs/op of the two sizes show.
func BenchmarkRunScaledMatrix(b *testing.B) {
	if _, err := os.Stat(repoCassettes); err != nil {
		b.Skipf("no committed cassettes: %v", err)
	}
	for _, k := range []int{1, 10} {
		b.Run(fmt.Sprintf("targets=x%d", k), func(b *testing.B) {
			path, cassettes := scaledMatrix(b, b.TempDir(), k)
			args := []string{"run", "--matrix", path, "--providers", repoProviders, "--cassettes", cassettes, "--format", "json"}
			b.ReportAllocs()
			var cells int
			for b.Loop() {
				var out, errb bytes.Buffer
				if code := Main(args, strings.NewReader(""), &out, &errb); code != exitOK {
					b.Fatalf("exit %d: %s", code, errb.String())
				}
				cells = bytes.Count(out.Bytes(), []byte(`"scenario":`))
			}
			b.ReportMetric(float64(cells), "cells")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(cells), "ns/cell")
		})
	}
}

// TestScaledMatrixIsTheCommittedOneRepeated checks the benchmark's input:
// ten copies of the matrix judge every copy of a cell as the original.
func TestScaledMatrixIsTheCommittedOneRepeated(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("copies every cassette")
	}
	path, cassettes := scaledMatrix(t, t.TempDir(), 2)
	r := runMain(t, "", "run", "--matrix", path, "--providers", repoProviders, "--cassettes", cassettes, "--target", "deepseek,deepseek-x2,gemini-openai,gemini-openai-x2", "--format", "md")
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rows []string
	grid, _, _ := strings.Cut(r.stdout[strings.Index(r.stdout, "## Grid"):], "\n## Aliases")
	for _, line := range strings.Split(grid, "\n") {
		if strings.HasPrefix(line, "| `deepseek") || strings.HasPrefix(line, "| `gemini-openai") {
			rows = append(rows, line)
		}
	}
	if len(rows) != 4 {
		t.Fatalf("want 4 grid rows, got %d:\n%s", len(rows), r.stdout)
	}
	// Copies come after every original, in the same order.
	for i, orig := range rows[:2] {
		if dup := rows[i+2]; strings.ReplaceAll(dup, "-x2", "") != orig {
			t.Errorf("a copy is judged differently from its target:\n%s\n%s", orig, dup)
		}
	}
}
