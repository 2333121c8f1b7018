package evidence

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/replaycheck/replaycheck/importer"
	"github.com/replaycheck/replaycheck/internal/realdata"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/suites/harness"
)

var update = flag.Bool("update", false, "rewrite testdata/realdata.golden")

// TestRealdata imports every file of ../shared/realdata (the real
// recordings kept outside the repository), runs the three checks on what
// was placed, and compares the outcome per file with testdata/realdata.golden
// (rewritten with -update). The golden holds outcomes only — formats,
// targets, verdicts, carrier paths, rule ids — never the recordings'
// bodies. Every file must appear: imported, or skipped or unplaced with
// its reason. The imported cassettes must also read back and hold nothing
// lint would flag. Skipped when the folder is absent.
func TestRealdata(t *testing.T) {
	root := realdata.Dir()
	if _, err := os.Stat(root); root == "" || err != nil {
		t.Skipf("%s not present: %v", root, err)
	}
	mf, profiles := repo(t)
	out := t.TempDir()
	results, err := importer.Import([]string{root}, importer.Options{Matrix: mf, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := Run(Inputs{Matrix: mf, Profiles: profiles, Dir: out})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]report.EvidenceExchange{}
	for _, x := range ev.Exchanges {
		byID[x.ID()] = x
	}
	for _, d := range ev.DialectOnly {
		byID[d.ID()] = report.EvidenceExchange{Cassette: d.Cassette, Interaction: d.Interaction, Capture: d.Capture}
	}
	var b strings.Builder
	seen := map[string]bool{}
	for _, r := range results {
		for _, f := range r.Entry.Files {
			seen[f] = true
		}
		writeOutcome(&b, r, out, byID)
	}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if !seen[filepath.ToSlash(rel)] {
			t.Errorf("%s: neither imported nor reported", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		for _, p := range r.Written {
			f, err := harness.Read(p)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			if found := harness.Scan(f); len(found) > 0 {
				t.Errorf("%s: lint would flag %+v", p, found)
			}
		}
	}
	fmt.Fprintf(&b, "\n%s\n", ev.Summary())
	got := b.String()
	path := filepath.Join("testdata", "realdata.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./evidence -run TestRealdata -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got); run go test ./evidence -run TestRealdata -update if intended:\n%s", path, diff)
	}
}

// writeOutcome writes one entry's block: what import said, then per
// exchange where it went and what each check said.
func writeOutcome(b *strings.Builder, r importer.Result, out string, byID map[string]report.EvidenceExchange) {
	fmt.Fprintf(b, "%s\n", r.Entry.Rel)
	if len(r.Entry.Files) > 1 {
		fmt.Fprintf(b, "  files: %s\n", strings.Join(r.Entry.Files, ", "))
	}
	switch {
	case r.Entry.Skip != "":
		fmt.Fprintf(b, "  skipped: %s\n", r.Entry.Skip)
		return
	case r.Recording == nil:
		fmt.Fprintf(b, "  error: %s\n", strings.ReplaceAll(r.Err.Error(), r.Entry.Path, r.Entry.Rel))
		return
	}
	fmt.Fprintf(b, "  import: %s, %d exchanges\n", r.Recording.Format, len(r.Recording.Exchanges))
	position := map[string]int{} // target → index in its cassette
	for i, p := range r.Placements {
		e := r.Recording.Exchanges[i]
		fmt.Fprintf(b, "  #%d %s -> %d: ", e.Index, e.Describe(), e.Status)
		dir := p.Target
		switch {
		case p.DialectOnly():
			fmt.Fprintf(b, "%s\n", p.Note)
			dir = "_dialect-" + string(p.Dialect)
		case p.Target == "":
			fmt.Fprintf(b, "unplaced: %s\n", p.Unplaced)
			continue
		default:
			fmt.Fprintf(b, "target %s", p.Target)
			if p.Note != "" {
				fmt.Fprintf(b, " (%s)", p.Note)
			}
			b.WriteString("\n")
		}
		k := position[dir]
		position[dir]++
		name := importer.Name(r.Entry.Rel)
		x, ok := byID[fmt.Sprintf("%s/%s/%s.yaml#%d", dir, harness.RecordedDir, name, k)]
		if !ok {
			b.WriteString("     (not checked: the cassette was not written)\n")
			continue
		}
		if p.DialectOnly() {
			fmt.Fprintf(b, "     capture: %s: %s\n", x.Capture.Verdict, x.Capture.Detail)
			continue
		}
		for _, c := range []struct {
			name  string
			check report.Check
		}{{"capture", x.Capture}, {"reproduction", x.Reproduction}} {
			fmt.Fprintf(b, "     %s: %s: %s", c.name, c.check.Verdict, c.check.Detail)
			if len(c.check.Scenarios) > 0 {
				fmt.Fprintf(b, " [evidence for %s]", strings.Join(c.check.Scenarios, ", "))
			}
			b.WriteString("\n")
			for _, f := range c.check.Findings {
				fmt.Fprintf(b, "       %s %s: %s\n", f.Verdict, f.Path, f.Why)
			}
		}
		sim := string(x.Simulator.Verdict)
		switch {
		case x.Simulator.Rule != "":
			sim += " (rule " + x.Simulator.Rule + ")"
		case slices.Contains([]report.Verdict{report.VerdictDisagree, report.VerdictAgree}, x.Simulator.Verdict) && x.Status >= 400:
			sim += " (no rule fires)"
		case x.Simulator.Verdict == report.VerdictNotChecked:
			sim += ": " + x.Simulator.Detail
		}
		fmt.Fprintf(b, "     simulator: %s\n", sim)
	}
	if r.Err != nil {
		fmt.Fprintf(b, "  error: %s\n", strings.ReplaceAll(r.Err.Error(), out, "OUT"))
	}
}
