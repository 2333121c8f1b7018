package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/evidence"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// matrixWriter prints a matrix in one format; color only matters to the
// table.
type matrixWriter func(w io.Writer, m *report.Matrix, color bool) error

// formatWriter returns the writer of a --format value.
func formatWriter(format string) (matrixWriter, bool) {
	switch format {
	case "table":
		return report.WriteTable, true
	case "md", "markdown":
		return ignoreColor(report.WriteMarkdown), true
	case "json":
		return ignoreColor(report.WriteJSON), true
	case "junit":
		return ignoreColor(report.WriteJUnit), true
	case "html":
		return ignoreColor(report.WriteHTML), true
	}
	return nil, false
}

func ignoreColor(write func(io.Writer, *report.Matrix) error) matrixWriter {
	return func(w io.Writer, m *report.Matrix, _ bool) error { return write(w, m) }
}

func runRun(ctx context.Context, std *streams, args []string) error {
	f := newFlags("run",
		"run [--target ID]... [--scenario S]... [--format table|md|json|junit|html] [--out DIR] [--cassettes DIR]\n"+
			"       [--evidence DIR] [--providers DIR] [--color] [--strict-replay]\n"+
			"       [--engine CMD [--engine-timeout D] [--expect FILE | --write-expect FILE]]",
		"Run replays the committed cassettes through every scenario with the route\n"+
			"table and prints the route-by-route matrix: one row per target, one column\n"+
			"per scenario, each cell pass, fail, unverified, n/a, known-fail or advisory,\n"+
			"marked sim or rec by the provenance of its cassette. It needs no key, no\n"+
			"network and no Go toolchain. Progress goes to stderr, the matrix to stdout;\n"+
			"--out writes matrix.md, matrix.json, junit.xml, matrix.html and\n"+
			"shields.io endpoint badges (badges/matrix.json, badges/<target>.json) into a\n"+
			"directory instead: the files make reports writes. md, json, html and --out\n"+
			"carry the reference engine's post-compaction quality curve. The exit code is 1 when any cell fails, a declared\n"+
			"known failure that passes included; 3 when any cell could not be judged\n"+
			"for bad input (error: an unreadable cassette, say); 4 when any cell is\n"+
			"unverified (the cassettes hold no answer to a request sent: record it)\n"+
			"or when no cell at all was judged (every selected cell n/a). A run is\n"+
			"green only when every cell it was asked for was judged. The matrix is\n"+
			"printed or written first either way, the cause in each cell's detail.\n\n"+
			"The recorded-evidence section checks the imported cassettes under\n"+
			"DIR/<target>/recorded/ (--evidence, by default the cassettes directory):\n"+
			"capture, reproduction by the engine, and the simulator's fidelity; a cell\n"+
			"they are evidence for shows rec, and fails when the real provider's\n"+
			"answers contradict it.\n\n"+
			"A request the cassette does not hold exactly is matched up to the\n"+
			"differences its provider's profile declares ignorable (each citing its\n"+
			"source), and failing that judged by the profile's simulator: the cell is\n"+
			"then marked prof, its detail naming each rule and its source, and it is\n"+
			"unverified only when neither can judge. --strict-replay answers only\n"+
			"requests equal to a recorded one in canonical JSON.\n\n"+
			"--engine checks another implementation instead of the reference engine:\n"+
			"CMD is started once and answers every engine step over the engine\n"+
			"protocol (JSON lines on stdin/stdout, protocol/README.md), while the\n"+
			"harness keeps HTTP, the cassettes and the turn loop. A step it does not\n"+
			"support makes the cell n/a with its reason; a crash, a timeout or a\n"+
			"malformed reply makes the cell an error naming the step and the\n"+
			"request, the process is restarted, and the run goes on. The report\n"+
			"names the implementation checked. matrix.yaml's known failures and\n"+
			"advisories are the reference table's and never apply to an engine:\n"+
			"--write-expect FILE writes the engine's failing cells, each pinned to\n"+
			"its cause, into an expectations file of its own, and --expect FILE\n"+
			"judges later runs against it (an unexpected failure, one for another\n"+
			"cause, or an expected one that passes now fails the run).")
	var targets, scenarios listFlag
	f.Var(&targets, "target", "run only target `ID` (repeatable or comma-separated)")
	f.Var(&scenarios, "scenario", "run only scenario `S` (repeatable or comma-separated)")
	format := f.String("format", "table", "print the matrix as `FORMAT`: table, md, json, junit or html")
	out := f.String("out", "", "write the four report files into `DIR` instead of printing the matrix")
	cassettes := f.String("cassettes", "cassettes", "the cassettes `DIR`")
	evidenceDir := f.String("evidence", "", "read imported cassettes from `DIR`/<target>/recorded/ (default: the cassettes directory)")
	var profileSet profileSetFlag
	profileSet.register(f)
	color := f.Bool("color", false, "colour the statuses of the table format")
	strict := f.Bool("strict-replay", false, "answer only requests equal to a recorded one (no declared differences, no profile-judged fallback)")
	var eng engineFlags
	eng.register(f)
	var expect expectFlags
	expect.register(f)
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := f.atMost(pos, 0); err != nil {
		return err
	}
	write, known := formatWriter(*format)
	set := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case !known:
		return f.usagef("--format %q: unknown format (want table, md, json, junit or html)", *format)
	case *out != "" && set["format"]:
		return f.usagef("--out writes every format: drop --format")
	case *color && (*out != "" || *format != "table"):
		return f.usagef("--color applies to the table format only")
	}
	mf, err := f.loadMatrix()
	if err != nil {
		return err
	}
	if err := checkSelection(f, mf, targets, scenarios); err != nil {
		return err
	}
	profiles, err := profileSet.load()
	if err != nil {
		return err
	}
	if err := checkDir(*cassettes); err != nil {
		return err
	}
	if err := expect.check(f, eng.command != ""); err != nil {
		return err
	}
	expected, err := expect.load(mf)
	if err != nil {
		return err
	}
	r := &scenario.Runner{Matrix: mf, Profiles: profiles, CassetteDir: *cassettes, StrictReplay: *strict}
	r.Expect = expected
	client, err := eng.start(ctx, f)
	if err != nil {
		return err
	}
	if client != nil {
		defer client.Close()
		r.Engine = client
		for _, id := range targets {
			if _, _, alias := mf.Alias(id); alias {
				return f.usagef("--target %q: an alias replays through the reference engine only, not --engine", id)
			}
		}
	}
	// The aliases of the targets run are rows of their own, judged as the
	// gate judges them; an engine over the protocol, or a run that names
	// alias rows itself, has none.
	withAliases := client == nil && !slices.ContainsFunc(targets, func(id string) bool { return strings.Contains(id, "~") })
	cells := selected(len(mf.Targets), len(targets)) * selected(len(scenario.All()), len(scenarios))
	if withAliases {
		cells += aliasCount(mf, targets) * selected(len(scenario.All()), len(scenarios))
	}
	p := newProgress(std.err, cells)
	m, err := r.RunMatrix(ctx, targets, scenarios, p.cell)
	if err == nil && withAliases {
		m.Aliases = r.AliasRows(ctx, targets, scenarios, p.cell)
	}
	p.done()
	if err != nil {
		return err
	}
	if expect.write != "" {
		e, err := writeExpectations(expect.write, m)
		if err != nil {
			return err
		}
		fmt.Fprintf(std.err, "wrote %s: %d expected failures, %d expected advisories\n", expect.write, len(e.KnownFailures), len(e.Advisories))
	}
	if *evidenceDir == "" {
		*evidenceDir = *cassettes
	} else if err := checkDir(*evidenceDir); err != nil {
		return err
	}
	if err := evidence.Attach(m, evidence.Inputs{Matrix: mf, Profiles: profiles, Dir: *evidenceDir}); err != nil {
		return err
	}
	// The reports make reports writes carry the post-compaction quality
	// curve of the reference engine; an engine over the protocol has none
	// (the curve runs the reference engine against the profiles'
	// simulators), and neither has the table.
	if client == nil && (*out != "" || *format != "table") {
		if m.Curve, err = scenario.QualityCurve(ctx, curveTargets(selectedTargets(mf, targets), profiles), profiles); err != nil {
			return err
		}
	}
	if *out != "" {
		if err := report.WriteDir(*out, m); err != nil {
			return err
		}
		fmt.Fprintf(std.out, "%s\nwrote %s\n", m.Summary(), strings.Join(reportPaths(*out), ", "))
	} else if err := write(std.out, m, *color); err != nil {
		return err
	}
	counts := m.Counts()
	for status, n := range m.AliasCounts() {
		counts[status] += n
	}
	if n := counts[report.StatusError]; n > 0 {
		return incomplete(n, cellsNotJudged[0], cellsNotJudged[1])
	}
	if ev := m.Evidence; ev != nil && len(ev.Unreadable) > 0 {
		return incomplete(len(ev.Unreadable), "imported cassette could not be read: the recorded-evidence section names it and why",
			"imported cassettes could not be read: the recorded-evidence section names them and why")
	}
	return verdictOf(counts)
}

// verdictOf is the exit error of a judged matrix: 1 when a cell failed,
// else unjudged's.
func verdictOf(counts map[report.Status]int) error {
	if n := counts[report.StatusFail]; n > 0 {
		what := "cells failed"
		if n == 1 {
			what = "cell failed"
		}
		return &failuresError{n: n, what: what}
	}
	return unjudged(counts)
}

// unjudged is the exit-4 error of a matrix that judged less than it was
// asked to: unverified cells, or no judged cell at all (every cell n/a).
// A cell is judged when it is pass, fail, advisory or known-fail.
func unjudged(counts map[report.Status]int) error {
	if n := counts[report.StatusUnverified]; n > 0 {
		what := "cells are unverified: the cassettes hold no answer to the requests sent (record them)"
		if n == 1 {
			what = "cell is unverified: the cassettes hold no answer to the request sent (record it)"
		}
		return &notJudgedError{msg: fmt.Sprintf("%d %s", n, what)}
	}
	judged := counts[report.StatusPass] + counts[report.StatusFail] + counts[report.StatusAdvisory] + counts[report.StatusKnownFail]
	if judged == 0 {
		return &notJudgedError{msg: "no cell was judged: every selected cell is n/a"}
	}
	return nil
}

// aliasCount is how many aliases the selected targets (all when none is
// named) have.
func aliasCount(mf *matrix.File, targets []string) int {
	n := 0
	for _, t := range mf.Targets {
		if len(targets) == 0 || slices.Contains(targets, t.ID) {
			n += len(t.Aliases)
		}
	}
	return n
}

// selectedTargets returns mf with only the targets a --target filter
// names (all when it names none).
func selectedTargets(mf *matrix.File, ids []string) *matrix.File {
	if len(ids) == 0 {
		return mf
	}
	out := *mf
	out.Targets = nil
	for _, t := range mf.Targets {
		if slices.Contains(ids, t.ID) {
			out.Targets = append(out.Targets, t)
		}
	}
	return &out
}

// curveTargets returns mf with only the targets whose provider profile is
// there: the curve runs against the profile's simulator, and a target
// without one is already an error cell.
func curveTargets(mf *matrix.File, profiles map[string]*providers.Profile) *matrix.File {
	out := *mf
	out.Targets = nil
	for _, t := range mf.Targets {
		if _, ok := profiles[t.Profile]; ok {
			out.Targets = append(out.Targets, t)
		}
	}
	return &out
}

// selected is how many of n items a filter of k names selects.
func selected(n, k int) int {
	if k == 0 {
		return n
	}
	return k
}

// checkSelection refuses unknown or repeated --target and --scenario names
// as usage errors, before anything runs.
func checkSelection(f *commandFlags, mf *matrix.File, targets, scenarios []string) error {
	for i, id := range targets {
		_, ok := mf.Target(id)
		if _, _, alias := mf.Alias(id); !ok && !alias {
			return f.usagef("--target %q: no such target or alias in %s", id, f.matrix)
		}
		if slices.Contains(targets[:i], id) {
			return f.usagef("--target %q given twice", id)
		}
	}
	for i, name := range scenarios {
		if _, ok := scenario.ByName(name); !ok {
			return f.usagef("--scenario %q: unknown scenario (want one of %s)", name, strings.Join(matrix.Scenarios, ", "))
		}
		if slices.Contains(scenarios[:i], name) {
			return f.usagef("--scenario %q given twice", name)
		}
	}
	return nil
}

// checkDir reports a missing or non-directory path.
func checkDir(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such directory (run from the repository root, or pass the directory)", dir)
	case err != nil:
		return err
	case !info.IsDir():
		return fmt.Errorf("%s: not a directory", dir)
	}
	return nil
}

// reportPaths are the paths of the report files in dir, and of its badge
// directory.
func reportPaths(dir string) []string {
	paths := make([]string, 0, len(report.Files)+1)
	for _, f := range report.Files {
		paths = append(paths, filepath.Join(dir, f.Name))
	}
	return append(paths, filepath.Join(dir, report.BadgeDir)+string(filepath.Separator))
}
