package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/evidence"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// runFixtureTargets are the targets of the small recorded fixture: a
// must-echo provider, a strict schema and a gateway that signs.
var runFixtureTargets = []string{"deepseek", "mistral", "openrouter"}

// recordRunFixture records the fixture's cassettes against the in-process
// simulator with a fixed seed, through `replaycheck record`, into a
// temporary directory.
func recordRunFixture(t *testing.T) string {
	t.Helper()
	t.Setenv("CI", "")
	dir := t.TempDir()
	r := runMain(t, "", "record", "--matrix", repoMatrix, "--providers", repoProviders,
		"--target", strings.Join(runFixtureTargets, ","), "--simulate", "--seed", "run-fixture", "--out", dir)
	if r.code != 0 {
		t.Fatalf("recording the fixture: exit %d: %s", r.code, r.stderr)
	}
	return dir
}

// runArgs are the arguments of `run` over the fixture, plus extra.
func runArgs(cassettes string, extra ...string) []string {
	return append([]string{"run", "--matrix", repoMatrix, "--cassettes", cassettes,
		"--target", strings.Join(runFixtureTargets, ",")}, extra...)
}

func TestRun(t *testing.T) {
	fixture := recordRunFixture(t)

	t.Run("golden", func(t *testing.T) {
		tests := []struct {
			reason, golden string
			args           []string
		}{
			{"the default table", "run-table.txt", runArgs(fixture)},
			{"the table in colour", "run-table-color.txt", runArgs(fixture, "--color")},
			{"the JSON contract", "run.json", runArgs(fixture, "--format", "json")},
			{"Markdown", "run.md", runArgs(fixture, "--format", "md")},
			{"JUnit XML", "run-junit.xml", runArgs(fixture, "--format", "junit")},
			{"filters select targets and scenarios, in matrix and column order", "run-filtered.txt",
				[]string{"run", "--matrix", repoMatrix, "--cassettes", fixture, "--scenario", "strict-schema", "--target", "mistral,deepseek", "--scenario", "carriers"}},
		}
		for _, tt := range tests {
			r := runMain(t, "", tt.args...)
			if r.code != 0 {
				t.Fatalf("%s: exit %d, stderr:\n%s", tt.reason, r.code, r.stderr)
			}
			checkGolden(t, tt.golden, r.stdout)
		}
	})

	t.Run("progress", func(t *testing.T) {
		r := runMain(t, "", runArgs(fixture, "--scenario", "carriers,resume")...)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		checkGolden(t, "run-progress.txt", r.stderr)
	})

	t.Run("json equals the runner's matrix", func(t *testing.T) {
		// run takes the profiles built into the binary here (there is no
		// ./providers in this directory); the runner takes the files.
		mf, profiles := loadRepo(t)
		runner := &scenario.Runner{Matrix: mf, Profiles: profiles, CassetteDir: fixture}
		m, err := runner.RunMatrix(context.Background(), runFixtureTargets, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := evidence.Attach(m, evidence.Inputs{Matrix: mf, Profiles: profiles, Dir: fixture}); err != nil {
			t.Fatal(err)
		}
		if m.Curve, err = scenario.QualityCurve(context.Background(), selectedTargets(mf, runFixtureTargets), profiles); err != nil {
			t.Fatal(err)
		}
		m.Aliases = runner.AliasRows(context.Background(), runFixtureTargets, nil, nil)
		var want bytes.Buffer
		if err := report.WriteJSON(&want, m); err != nil {
			t.Fatal(err)
		}
		r := runMain(t, "", runArgs(fixture, "--format", "json")...)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		if diff := cmp.Diff(want.String(), r.stdout); diff != "" {
			t.Errorf("run --format json differs from Runner.RunMatrix (-runner +run):\n%s", diff)
		}
		if len(m.Cells) != len(runFixtureTargets)*len(scenario.All()) {
			t.Errorf("%d cells, want one per target × scenario", len(m.Cells))
		}
	})

	t.Run("out", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "reports")
		r := runMain(t, "", runArgs(fixture, "--out", out)...)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		asJSON := runMain(t, "", runArgs(fixture, "--format", "json")...).stdout
		for _, f := range []struct{ name, format string }{
			{"matrix.md", "md"}, {"matrix.json", "json"}, {"junit.xml", "junit"}, {"matrix.html", "html"},
		} {
			got, err := os.ReadFile(filepath.Join(out, f.name))
			if err != nil {
				t.Errorf("--out wrote no %s: %v", f.name, err)
				continue
			}
			if want := runMain(t, "", runArgs(fixture, "--format", f.format)...).stdout; string(got) != want {
				t.Errorf("%s differs from run --format %s", f.name, f.format)
			}
		}
		m, err := report.ReadJSON(strings.NewReader(asJSON))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(r.stdout, m.Summary()+"\n") || !strings.Contains(r.stdout, filepath.Join(out, "matrix.html")) {
			t.Errorf("stdout must give the summary and the files written, got:\n%s", r.stdout)
		}
	})

	t.Run("html", func(t *testing.T) {
		page := runMain(t, "", runArgs(fixture, "--format", "html")...).stdout
		m, err := report.ReadJSON(strings.NewReader(runMain(t, "", runArgs(fixture, "--format", "json")...).stdout))
		if err != nil {
			t.Fatal(err)
		}
		checkMatrixPage(t, page, m)
	})

	t.Run("exit codes", func(t *testing.T) {
		testRunExitCodes(t, fixture)
	})
}

// testRunExitCodes checks run's exit codes: 0 on a clean matrix, 1 on a
// fail cell (a refusal, or a known failure that passes), 2 on usage errors
// and 3 on bad input.
func testRunExitCodes(t *testing.T, fixture string) {
	dir := t.TempDir()
	original := mustRead(t, repoMatrix)
	strict := strictReads(t, original, "reasoning_content")
	writeMatrix := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	strictPath := writeMatrix("strict-rc.yaml", strict)
	declaredPasses := writeMatrix("declared-passes.yaml",
		declareKnownFailure(t, original, "deepseek", "carriers", "anything", "declared to check that a passing known failure fails"))
	declaredFails := writeMatrix("declared-fails.yaml",
		declareKnownFailure(t, strict, "mistral", "strict-schema", "Extra inputs are not permitted", "the strict row sends reasoning_content in this copy"))
	otherCause := writeMatrix("declared-other-cause.yaml",
		declareKnownFailure(t, strict, "mistral", "strict-schema", "Unknown name", "declared for a cause this failure does not show"))
	undeclared := writeMatrix("undeclared-advisory.yaml", withoutAdvisories(t, original))
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	// mixed holds mistral's cassettes and none of deepseek's.
	mixed := filepath.Join(dir, "mixed")
	if err := os.CopyFS(filepath.Join(mixed, "mistral"), os.DirFS(filepath.Join(fixture, "mistral"))); err != nil {
		t.Fatal(err)
	}

	// The mutated row must really change the decision, or the test proves
	// nothing.
	mf, err := matrix.Load(strictPath)
	if err != nil {
		t.Fatal(err)
	}
	mistral, _ := mf.Target("mistral")
	if d := mf.Table.Decide(mistral.Route, 0); !d.Carriers.Has(engine.ReasoningContent) || d.Row != "strict" {
		t.Fatalf("the mutated strict row decides %s on row %s for mistral, want reasoning_content on strict", d.Carriers, d.Row)
	}

	with := func(matrixPath string, extra ...string) []string {
		return append([]string{"run", "--matrix", matrixPath, "--cassettes", fixture}, extra...)
	}
	// How a failing cell reads in the table.
	if r := runMain(t, "", with(strictPath, "--target", "mistral")...); r.code != exitFailures {
		t.Errorf("the strict row reading reasoning_content: exit %d, want %d: %s", r.code, exitFailures, r.stderr)
	} else {
		checkGolden(t, "run-fail.txt", r.stdout)
	}
	tests := []struct {
		reason string
		args   []string
		code   int
		stdout []string // substrings of stdout
		stderr []string // substrings of stderr
	}{
		{"the committed table passes the fixture", runArgs(fixture), exitOK,
			[]string{"0 fail"}, nil},
		{"a strict row that gives reasoning_content is refused by the recorded providers", with(strictPath, "--target", "mistral,deepseek"), exitFailures,
			[]string{"mistral/strict-schema: FAIL (simulated): "},
			[]string{"replaycheck run: ", " failed"}},
		{"the refusal is in the JSON cell, with the provider's error", with(strictPath, "--target", "mistral", "--scenario", "strict-schema", "--format", "json"), exitFailures,
			[]string{`"status": "fail"`, `"provider_error": "refused 422: `, `Extra inputs are not permitted`, `"cassette": "cassettes/mistral/strict-schema.yaml"`, `"name": "mistral~1"`},
			// mistral's and its two aliases' (a custom id at its host, its id
			// through a proxy): every route to the provider sends the key.
			[]string{"replaycheck run: 3 cells failed"}},
		{"a declared known failure that fails is not a failure", with(declaredFails, "--target", "mistral", "--scenario", "strict-schema"), exitOK,
			[]string{"known-fail (sim)", "known failure: the strict row sends reasoning_content in this copy"}, nil},
		{"a known failure that fails for another cause than the one declared fails the run", with(otherCause, "--target", "mistral", "--scenario", "strict-schema"), exitFailures,
			[]string{`mistral/strict-schema: FAIL (simulated): declared as a known failure in declared-other-cause.yaml:`, `for "Unknown name", but it fails for another cause: `},
			[]string{"replaycheck run: 3 cells failed"}},
		{"a declared known failure that passes fails the run", with(declaredPasses, "--target", "deepseek"), exitFailures,
			[]string{"deepseek/carriers: FAIL (simulated): declared as a known failure in declared-passes.yaml:", "remove the declaration"},
			// The declaration holds for the target's aliases too.
			[]string{"replaycheck run: 3 cells failed"}},
		{"an advisory no declaration covers fails the run: reasoning the provider reads is lost", with(undeclared, "--target", "groq", "--scenario", "carriers", "--cassettes", repoCassettes), exitFailures,
			[]string{"groq/carriers: FAIL (simulated): undeclared advisory: ", "declare the cell under advisories: in undeclared-advisory.yaml"},
			// groq's and its two aliases'.
			[]string{"replaycheck run: 3 cells failed"}},
		{"a declared advisory is advisory, with its reason", with(repoMatrix, "--target", "groq", "--scenario", "carriers", "--cassettes", repoCassettes), exitOK,
			[]string{"groq/carriers: advisory (simulated): declared advisory: SPEC §2.3 puts Groq in the strict row"}, nil},
		{"a cell without a cassette is unverified, which is never green: exit 4", with(repoMatrix, "--target", "deepseek", "--cassettes", filepath.Join(dir, "empty")), exitNotJudged,
			[]string{"deepseek/carriers: unverified: ", "record it with: replaycheck record --target deepseek --scenario carriers"},
			[]string{"replaycheck run: 18 cells are unverified: the cassettes hold no answer to the requests sent (record them)"}},
		{"one unverified cell beside a passing one still exits 4", with(repoMatrix, "--target", "mistral,deepseek", "--scenario", "carriers", "--cassettes", mixed), exitNotJudged,
			[]string{"deepseek/carriers: unverified: ", "1 pass"},
			[]string{"replaycheck run: 3 cells are unverified: the cassettes hold no answer to the requests sent (record them)"}},
		{"a failure outranks unverified cells: exit 1", with(strictPath, "--target", "mistral,deepseek", "--cassettes", mixed), exitFailures,
			[]string{"mistral/strict-schema: FAIL (simulated): ", "deepseek/carriers: unverified: "},
			[]string{"replaycheck run: ", " failed"}},
		{"a selection of n/a cells judges nothing: exit 4", with(repoMatrix, "--target", "deepseek", "--scenario", "strict-schema,flags"), exitNotJudged,
			nil, []string{"replaycheck run: no cell was judged: every selected cell is n/a"}},
		{"an unknown target is a usage error", with(repoMatrix, "--target", "nosuch"), exitUsage,
			nil, []string{`--target "nosuch": no such target or alias in ` + repoMatrix, "usage: replaycheck run"}},
		{"an unknown scenario is a usage error", with(repoMatrix, "--scenario", "carrier"), exitUsage,
			nil, []string{`--scenario "carrier": unknown scenario (want one of carriers, missing-echo,`}},
		{"a repeated target is a usage error", with(repoMatrix, "--target", "deepseek", "--target", "deepseek"), exitUsage,
			nil, []string{`--target "deepseek" given twice`}},
		{"an unknown format is a usage error", with(repoMatrix, "--format", "yaml"), exitUsage,
			nil, []string{`--format "yaml": unknown format`}},
		{"--out writes every format", with(repoMatrix, "--out", dir, "--format", "json"), exitUsage,
			nil, []string{"--out writes every format: drop --format"}},
		{"--color is for the table", with(repoMatrix, "--color", "--format", "md"), exitUsage,
			nil, []string{"--color applies to the table format only"}},
		{"run takes no arguments", with(repoMatrix, "deepseek"), exitUsage,
			nil, []string{`unexpected argument "deepseek"`}},
		{"a missing cassette directory is bad input", with(repoMatrix, "--cassettes", filepath.Join(dir, "absent")), exitHarness,
			nil, []string{filepath.Join(dir, "absent") + ": no such directory"}},
		{"a missing route table is bad input", with(filepath.Join(dir, "absent.yaml")), exitHarness,
			nil, []string{"absent.yaml"}},
		{"a missing profiles directory is bad input", with(repoMatrix, "--providers", filepath.Join(dir, "absent")), exitHarness,
			nil, []string{filepath.Join(dir, "absent")}},
	}
	for _, tt := range tests {
		r := runMain(t, "", tt.args...)
		if r.code != tt.code {
			t.Errorf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tt.reason, r.code, tt.code, r.stdout, r.stderr)
			continue
		}
		for _, want := range tt.stdout {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%s: stdout lacks %q:\n%s", tt.reason, want, r.stdout)
			}
		}
		for _, want := range tt.stderr {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%s: stderr lacks %q:\n%s", tt.reason, want, r.stderr)
			}
		}
	}
}

// withoutAdvisories is the table src with its advisories: section cut.
func withoutAdvisories(t *testing.T, src string) string {
	t.Helper()
	start := strings.Index(src, "\nadvisories:\n")
	end := strings.Index(src, "\nunreachable:\n")
	if start < 0 || end < start {
		t.Fatal("matrix.yaml has no advisories: section before unreachable:")
	}
	// Keep the comment that introduces unreachable:.
	end = strings.LastIndex(src[:end], "\n\n") + 1
	return src[:start+1] + src[end:]
}

// strictRow is the strict carrier row of matrix.yaml up to its carriers.
var strictRow = regexp.MustCompile(`(?m)^(  - id: strict\n(?:    .*\n)*?    carriers: )\[\]`)

// strictReads returns the route table src with the strict row reading
// carriers instead of none.
func strictReads(t *testing.T, src string, carriers ...string) string {
	t.Helper()
	if n := len(strictRow.FindAllStringIndex(src, -1)); n != 1 {
		t.Fatalf("matrix.yaml has %d strict rows with carriers: [], want 1", n)
	}
	return strictRow.ReplaceAllString(src, "${1}["+strings.Join(carriers, ", ")+"]")
}

// declareKnownFailure returns the route table src with one more known
// failure, declared first.
func declareKnownFailure(t *testing.T, src, target, scenarioName, cause, reason string) string {
	t.Helper()
	entry := "known_failures:\n  - target: " + target + "\n    scenario: " + scenarioName + "\n    cause: '" + cause + "'\n    reason: " + reason + "\n"
	switch {
	case strings.Contains(src, "\nknown_failures: []\n"):
		return strings.Replace(src, "\nknown_failures: []\n", "\n"+entry, 1)
	case strings.Contains(src, "\nknown_failures:\n"):
		return strings.Replace(src, "\nknown_failures:\n", "\n"+entry, 1)
	}
	t.Fatal("matrix.yaml has no known_failures list")
	return ""
}

// BenchmarkRunWholeMatrix measures `replaycheck run` over the whole
// committed matrix: load the table and the profiles, replay every cassette,
// render the JSON. The budget (DESIGN.md) is 5 s on a 2-core machine.
func BenchmarkRunWholeMatrix(b *testing.B) {
	if _, err := os.Stat(repoCassettes); err != nil {
		b.Skipf("no committed cassettes: %v", err)
	}
	benchmarkRun(b, committedRunArgs())
}

// benchmarkRun runs `replaycheck run` with args b.N times and reports the
// cells of the matrix it prints.
func benchmarkRun(b *testing.B, args []string) {
	var cells int
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := Main(args, strings.NewReader(""), &out, &errb); code == exitUsage || code == exitHarness {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
		var m struct{ Cells []json.RawMessage }
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			b.Fatal(err)
		}
		cells = len(m.Cells)
	}
	b.ReportMetric(float64(cells), "cells")
}

// BenchmarkRunWholeMatrixThroughConnector is BenchmarkRunWholeMatrix with
// every engine step asked over the engine protocol of the built binary's
// connector: the protocol's cost is the difference between the two.
func BenchmarkRunWholeMatrixThroughConnector(b *testing.B) {
	if _, err := os.Stat(repoCassettes); err != nil {
		b.Skipf("no committed cassettes: %v", err)
	}
	benchmarkRun(b, committedRunArgs("--engine", binary+" connector --matrix "+repoMatrix))
}

// TestRunHelpListsFormats keeps the usage and the formats in step.
func TestRunHelpListsFormats(t *testing.T) {
	r := runMain(t, "", "run", "-h")
	checkGolden(t, "help-run.txt", r.stdout)
	for _, format := range []string{"table", "md", "json", "junit", "html"} {
		if _, ok := formatWriter(format); !ok {
			t.Errorf("--format %s is documented but not accepted", format)
		}
		if !strings.Contains(r.stdout, format) {
			t.Errorf("run -h does not mention --format %s", format)
		}
	}
	if _, ok := formatWriter("yaml"); ok {
		t.Error("an unknown format is accepted")
	}
	if !slices.ContainsFunc(commands, func(c command) bool { return c.name == "run" && c.run != nil }) {
		t.Error("run is not in the command list")
	}
}

// TestRunOutWritesTheCommittedReports: run --out over the committed
// cassettes writes the same files as make reports (the suites'
// ReportAfterSuite), the compaction curve and its charts and the alias
// rows included, so a user of the binary sees what the repository's
// reports show; run --format json prints the same matrix.json.
func TestRunOutWritesTheCommittedReports(t *testing.T) {
	t.Parallel()
	run := committedRun(t)
	if run.code != exitOK {
		t.Fatalf("exit %d\n%s", run.code, run.stderr)
	}
	for _, name := range []string{"matrix.md", "matrix.json", "junit.xml", "matrix.html"} {
		got, err := os.ReadFile(filepath.Join(run.dir, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "reports", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("run --out wrote a %s that differs from reports/%s; regenerate the reports with make reports", name, name)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(run.dir, "matrix.md")); !bytes.Contains(b, []byte("Quality after compaction")) || !bytes.Contains(b, []byte("## Aliases")) {
		t.Error("run --out's matrix.md has no compaction section or no aliases")
	}
	r := runMain(t, "", committedRunArgs("--target", "deepseek")...)
	m := decodeMatrix(t, r.stdout)
	if len(m.Aliases) != 2 || m.Curve == nil {
		t.Errorf("run --format json for one target: %d alias rows, curve %v; want its two aliases and its curve", len(m.Aliases), m.Curve != nil)
	}
}

// A sharedRun is the in-process run over the committed matrix, which
// several tests compare with: run once, its reports kept in dir.
type sharedRun struct {
	code   int
	stderr string
	dir    string
	// matrix is dir's matrix.json as run --format json prints it.
	matrix string
}

var (
	sharedRunOnce sync.Once
	sharedRunOut  sharedRun
)

// committedRun runs `run --out DIR` over the committed matrix once for the
// package; DIR is removed when the tests end (TestMain).
func committedRun(t *testing.T) sharedRun {
	t.Helper()
	sharedRunOnce.Do(func() {
		dir, err := os.MkdirTemp("", "replaycheck-committed-run-*")
		if err != nil {
			t.Fatal(err)
		}
		cleanups = append(cleanups, func() { os.RemoveAll(dir) })
		dir = filepath.Join(dir, "out")
		r := runMain(t, "", "run", "--matrix", repoMatrix, "--providers", repoProviders, "--cassettes", repoCassettes, "--out", dir)
		b, _ := os.ReadFile(filepath.Join(dir, "matrix.json"))
		sharedRunOut = sharedRun{code: r.code, stderr: r.stderr, dir: dir, matrix: string(b)}
	})
	if sharedRunOut.matrix == "" {
		t.Fatalf("the run over the committed matrix wrote no matrix.json: exit %d\n%s", sharedRunOut.code, sharedRunOut.stderr)
	}
	return sharedRunOut
}

// TestRunAnAliasByItsName: an alias the gate names ("deepseek~1") is a
// row run can reproduce, judged against its target's cassettes, and an
// alias that does not exist is a usage error naming it.
func TestRunAnAliasByItsName(t *testing.T) {
	t.Parallel()
	r := runMain(t, "", "run", "--matrix", repoMatrix, "--providers", repoProviders, "--cassettes", repoCassettes, "--target", "deepseek~1", "--format", "json")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var doc struct {
		Targets []string
		Cells   []struct{ Target, Scenario, Status string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Targets) != 1 || doc.Targets[0] != "deepseek~1" || len(doc.Cells) != 9 {
		t.Fatalf("targets %v, %d cells: want the alias's row", doc.Targets, len(doc.Cells))
	}
	for _, c := range doc.Cells {
		if c.Target != "deepseek~1" || (c.Scenario == "missing-echo" && c.Status != "pass") {
			t.Errorf("cell %+v", c)
		}
	}
	r = runMain(t, "", "run", "--matrix", repoMatrix, "--target", "deepseek~9")
	if r.code != exitUsage || !strings.Contains(r.stderr, `--target "deepseek~9": no such target or alias`) {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
}
