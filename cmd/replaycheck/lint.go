package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/replaycheck/replaycheck/importer"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/mutate"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/suites/harness"
)

func runLint(ctx context.Context, std *streams, args []string) error {
	f := newFlags("lint",
		"lint [--cassettes DIR] [--evidence DIR] [--matrix FILE] [--providers DIR]",
		"Lint checks the cassette directory: every cassette parses, carries\n"+
			"provenance (simulated from the target's current profile version, or\n"+
			"recorded), sits at DIR/<target>/<scenario>.yaml for a target and a\n"+
			"scenario of the matrix that applies to it, and holds nothing that looks\n"+
			"like a credential (credential headers, bearer tokens, sk-…, AKIA…,\n"+
			"AIza…, key= query parameters, long high-entropy header values) nor\n"+
			"any answer that is not the provider judging the request (401, 403,\n"+
			"404, 429, 5xx and the like: what record no longer writes); and\n"+
			"every target × applicable scenario has its cassette; every match entry of\n"+
			"the route table is reached by a target or an alias, or declared under\n"+
			"unreachable: with a reason (and no declared entry is reached); and\n"+
			"every target and alias asks its host for a model its profiles' serves:\n"+
			"declarations say the host serves. Imported cassettes,\n"+
			"at DIR/<target>/recorded/<name>.yaml, must carry recorded provenance\n"+
			"citing their source, name a target of the matrix, and hold no\n"+
			"credentials either; --evidence lints the imported cassettes of another\n"+
			"directory too (an import's scratch directory). Each finding is one line\n"+
			"naming the file (and the interaction); any finding exits 1.")
	dir := f.String("cassettes", "cassettes", "the cassette `DIR`")
	evidenceDir := f.String("evidence", "", "also lint the imported cassettes under `DIR`/<target>/recorded/")
	var ps profileSetFlag
	ps.register(f)
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := f.atMost(pos, 0); err != nil {
		return err
	}
	if !dirExists(*dir) {
		return fmt.Errorf("%s: not a directory", *dir)
	}
	mf, err := f.loadMatrix()
	if err != nil {
		return err
	}
	profiles, err := ps.load()
	if err != nil {
		return err
	}
	l := &linter{dir: *dir, matrix: mf, profiles: profiles}
	if err := l.run(); err != nil {
		return err
	}
	l.findings = append(l.findings, coverageFindings(mf)...)
	l.findings = append(l.findings, unpinnedFindings(mf)...)
	l.findings = append(l.findings, servedFindings(mf, profiles)...)
	if *evidenceDir != "" && filepath.Clean(*evidenceDir) != filepath.Clean(*dir) {
		if !dirExists(*evidenceDir) {
			return fmt.Errorf("%s: not a directory", *evidenceDir)
		}
		if err := l.evidenceDir(*evidenceDir); err != nil {
			return err
		}
	}
	for _, line := range l.findings {
		fmt.Fprintln(std.out, line)
	}
	if n := len(l.findings); n > 0 {
		what := "lint findings"
		if n == 1 {
			what = "lint finding"
		}
		return &failuresError{n: n, what: what}
	}
	cov := mutate.Cover(mf)
	fmt.Fprintf(std.out, "lint: %d cassettes for %d targets (%d imported): all parse, carry provenance, belong to the matrix and hold no credentials; no cell is missing; coverage %d/%d table entries reached, %d declared unreachable\n",
		l.cassettes+l.imported, len(mf.Targets), l.imported, cov.Reached(), len(cov), cov.Declared())
	return nil
}

// A linter collects the findings of one lint run.
type linter struct {
	dir       string
	matrix    *matrix.File
	profiles  map[string]*providers.Profile
	findings  []string
	cassettes int
	imported  int
}

func (l *linter) addf(format string, args ...any) {
	l.findings = append(l.findings, fmt.Sprintf(format, args...))
}

// A lintTask checks one file into a linter.
type lintTask func(*linter)

// parallel runs the tasks on every core, each worker with a linter of its
// own, and adds their findings and counts to l.
func (l *linter) parallel(tasks []lintTask) {
	next := make(chan lintTask)
	shards := make([]*linter, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range shards {
		shard := &linter{dir: l.dir, matrix: l.matrix, profiles: l.profiles}
		shards[i] = shard
		wg.Add(1)
		go func() {
			defer wg.Done()
			for task := range next {
				task(shard)
			}
		}()
	}
	for _, task := range tasks {
		next <- task
	}
	close(next)
	wg.Wait()
	for _, shard := range shards {
		l.findings = append(l.findings, shard.findings...)
		l.cassettes += shard.cassettes
		l.imported += shard.imported
	}
}

// run walks the directory, checks every file, then checks coverage. The
// findings come out sorted by file.
func (l *linter) run() error {
	seen := map[string]bool{}
	var tasks []lintTask
	err := filepath.WalkDir(l.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(l.dir, path)
		if err != nil {
			return err
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		name := d.Name()
		switch {
		case strings.HasPrefix(name, ".cassette-") && strings.HasSuffix(name, ".tmp"):
			l.addf("%s: leftover temporary file of an interrupted recording: delete it", path)
		case filepath.Ext(name) != ".yaml":
			// READMEs and the like are not cassettes.
		case len(parts) == 3 && parts[1] == harness.RecordedDir:
			tasks = append(tasks, func(l *linter) { l.importedCassette(path, parts[0], strings.TrimSuffix(parts[2], ".yaml")) })
		case len(parts) != 2:
			l.addf("%s: not at <dir>/<target>/<scenario>.yaml or <dir>/<target>/%s/<name>.yaml", path, harness.RecordedDir)
		default:
			target, sc := parts[0], strings.TrimSuffix(parts[1], ".yaml")
			seen[target+"/"+sc] = true
			tasks = append(tasks, func(l *linter) { l.cassette(path, target, sc) })
		}
		return nil
	})
	if err != nil {
		return err
	}
	l.parallel(tasks)
	l.coverage(seen)
	sort.Strings(l.findings)
	return nil
}

// read reads a cassette, adding a finding when it does not parse and one
// for everything in it that looks like a credential.
func (l *linter) read(path string) (*harness.File, bool) {
	file, err := harness.Read(path)
	if err != nil {
		l.addf("%v", err)
		return nil, false
	}
	for _, fd := range harness.Scan(file) {
		l.addf("%s: %s: looks like a credential (%s)", path, fd.Where, fd.What)
	}
	return file, true
}

// cassette checks one file found at <dir>/<target>/<sc>.yaml.
func (l *linter) cassette(path, target, sc string) {
	l.cassettes++
	file, ok := l.read(path)
	if !ok {
		return
	}
	prov := file.Provenance
	if prov.Target != target || prov.Scenario != sc {
		l.addf("%s: provenance names %s/%s, but the file sits at %s/%s", path, prov.Target, prov.Scenario, target, sc)
	}
	t, ok := l.matrix.Target(target)
	if !ok {
		l.addf("%s: no target %q in %s", path, target, l.matrix.Path)
		return
	}
	s, ok := scenario.ByName(sc)
	if !ok {
		l.addf("%s: no scenario %q (want one of %s)", path, sc, strings.Join(matrix.Scenarios, ", "))
		return
	}
	p, ok := l.profiles[t.Profile]
	if !ok {
		l.addf("%s: target %s names profile %q, which does not exist", path, t.ID, t.Profile)
		return
	}
	for _, fd := range harness.Unjudged(file, p.NotServedPaths()) {
		l.addf("%s: %s: %s is not the provider judging the request: re-record the cassette", path, fd.Where, fd.What)
	}
	if applies, why := s.Applies(t, p); !applies {
		l.addf("%s: scenario %s does not apply to target %s (%s): delete the cassette", path, sc, t.ID, why)
	}
	if prov.Kind == harness.Simulated {
		switch {
		case prov.Profile != p.Name:
			l.addf("%s: simulated from profile %q, but target %s uses profile %q", path, prov.Profile, t.ID, p.Name)
		case prov.ProfileVersion != p.Version:
			l.addf("%s: simulated from %s v%d, but the profile is now v%d: re-record it (make cassettes)", path, prov.Profile, prov.ProfileVersion, p.Version)
		}
	}
}

// evidenceDir lints a directory that holds imported cassettes only.
func (l *linter) evidenceDir(dir string) error {
	var tasks []lintTask
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if len(parts) == 3 && parts[1] == harness.RecordedDir && filepath.Ext(parts[2]) == ".yaml" {
			tasks = append(tasks, func(l *linter) { l.importedCassette(path, parts[0], strings.TrimSuffix(parts[2], ".yaml")) })
			return nil
		}
		l.addf("%s: not an imported cassette (want <dir>/<target>/%s/<name>.yaml)", path, harness.RecordedDir)
		return nil
	})
	l.parallel(tasks)
	sort.Strings(l.findings)
	return err
}

// importedCassette checks one file found at <dir>/<target>/recorded/<name>.yaml.
func (l *linter) importedCassette(path, target, name string) {
	l.imported++
	file, ok := l.read(path)
	if !ok {
		return
	}
	prov := file.Provenance
	mode, dialectOnly := harness.DialectOfDir(target)
	switch {
	case !prov.Imported():
		l.addf("%s: an imported cassette must carry recorded provenance citing its source; this one is %s without a source", path, prov.Kind)
	case dialectOnly && (prov.Target != "" || prov.Source.ResponseOnly != mode):
		l.addf("%s: under %s sit response-only %s cassettes that no target takes; this one names target %q and response-only api mode %q", path, target, mode, prov.Target, prov.Source.ResponseOnly)
	case !dialectOnly && prov.Target != target:
		l.addf("%s: provenance names target %s, but the file sits under %s", path, prov.Target, target)
	}
	if importer.Name(name) != name {
		l.addf("%s: the name %q is not lower-case words of letters and digits joined by -", path, name)
	}
	if _, ok := l.matrix.Target(target); !ok && !dialectOnly {
		l.addf("%s: no target %q in %s", path, target, l.matrix.Path)
	}
}

// coverage reports every target × applicable scenario without a cassette.
func (l *linter) coverage(seen map[string]bool) {
	for _, t := range l.matrix.Targets {
		p, ok := l.profiles[t.Profile]
		if !ok {
			l.addf("%s:%d: target %s names profile %q, which does not exist", l.matrix.Path, t.Line, t.ID, t.Profile)
			continue
		}
		for _, s := range scenario.All() {
			if applies, _ := s.Applies(t, p); !applies || seen[t.ID+"/"+s.Name] {
				continue
			}
			l.addf("%s: missing: scenario %s applies to target %s; record it with: replaycheck record --target %s --scenario %s",
				harness.Path(l.dir, t.ID, s.Name), s.Name, t.ID, t.ID, s.Name)
		}
	}
}

// dirExists reports whether path is an existing directory.
func dirExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// coverageFindings names every match entry of the table that no target or
// alias reaches and nothing declares unreachable, and every declaration
// of an entry that is reached after all (see [coverage]).
func coverageFindings(mf *matrix.File) []string {
	var out []string
	for _, f := range coverage(mf) {
		out = append(out, fmt.Sprintf("%s:%d: %s", mf.Path, f.Line, f.Message))
	}
	return out
}

// unpinnedFindings names every known failure declared without the cause
// it fails for: it would excuse a failure for any cause.
func unpinnedFindings(mf *matrix.File) []string {
	var out []string
	for _, k := range mf.KnownFailures {
		if strings.TrimSpace(k.Cause) == "" {
			out = append(out, fmt.Sprintf("%s:%d: known failure %s/%s has no cause: pin it to a phrase of the failure it is declared for (cause: the provider's error, or what the scenario expected), so that a failure for another cause is not excused", mf.Path, k.Line, k.Target, k.Scenario))
		}
	}
	return out
}

// servedFindings names every target and alias whose host, by a profile's
// serves declaration, does not serve its model: the target, or the
// declaration, is wrong (and mutate would prune routes like it).
func servedFindings(mf *matrix.File, profiles map[string]*providers.Profile) []string {
	var out []string
	for _, u := range mutate.Unserved(mf, profiles) {
		out = append(out, fmt.Sprintf("%s:%d: %s %s: its host does not serve its model: %s: fix the route, or the declaration", mf.Path, u.Line, u.Name, u.Route, u.Why))
	}
	return out
}
