// The replaycheck suite: one RunSpecs over every scenario table, and the
// ReportAfterSuite that turns the cells into the matrix.
package suites_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/replaycheck/replaycheck/evidence"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// repoRoot is the repository root as seen from this package's directory,
// where go test starts; the suite changes into it before RunSpecs.
const repoRoot = ".."

// Environment variables the suite reads (see doc.go).
const (
	envReports   = "REPLAYCHECK_REPORTS"
	envCassettes = "REPLAYCHECK_CASSETTES"
)

// targetIDs are the target ids of matrix.yaml, in file order. They are read
// when the spec tree is built (package initialisation, before TestSuites
// runs), so the tables hold ids only; each spec looks its target up in the
// runner's matrix.
var targetIDs, targetIDsErr = loadTargetIDs(filepath.Join(repoRoot, "matrix.yaml"))

func loadTargetIDs(path string) ([]string, error) {
	f, err := matrix.Load(path)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(f.Targets))
	for _, t := range f.Targets {
		ids = append(ids, t.ID)
	}
	return ids, nil
}

// runner is the one scenario runner every spec uses; TestSuites sets it.
var runner *scenario.Runner

// compareWithCommitted is whether ReportAfterSuite checks the matrix
// against reports/matrix.json: only for the committed cassettes, and only
// when the run is not the one regenerating the reports.
var compareWithCommitted bool

func TestSuites(t *testing.T) {
	if targetIDsErr != nil {
		t.Fatalf("building the spec tree: %v", targetIDsErr)
	}
	t.Chdir(repoRoot)
	r, err := newRunner()
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Matrix.Targets) != len(targetIDs) {
		t.Fatalf("matrix.yaml changed while the suite started: %d targets, the spec tree has %d", len(r.Matrix.Targets), len(targetIDs))
	}
	runner = r
	compareWithCommitted = os.Getenv(envReports) == "" && os.Getenv(envCassettes) == ""

	RegisterFailHandler(Fail)
	suiteConfig, reporterConfig := GinkgoConfiguration()
	suiteConfig.FailOnEmpty = true
	RunSpecs(t, "replaycheck matrix", suiteConfig, reporterConfig)
}

// newRunner loads matrix.yaml, the provider profiles and the cassette
// directory, relative to the working directory (the repository root).
func newRunner() (*scenario.Runner, error) {
	mf, err := matrix.Load("matrix.yaml")
	if err != nil {
		return nil, err
	}
	list, err := providers.LoadDir("providers")
	if err != nil {
		return nil, err
	}
	profiles := providers.ByName(list)
	dir := "cassettes"
	if env := os.Getenv(envCassettes); env != "" {
		dir = env
	}
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: no cassette directory: record the cassettes (make cassettes) or set %s", dir, envCassettes)
	case err != nil:
		return nil, err
	case !info.IsDir():
		return nil, fmt.Errorf("%s: not a directory", dir)
	}
	// The project's own CI replays strictly: a reference request the
	// cassettes do not hold exactly means a stale cassette, not a cell for
	// the profile to judge.
	return &scenario.Runner{Matrix: mf, Profiles: profiles, CassetteDir: dir, StrictReplay: true}, nil
}

var _ = ReportAfterSuite("the route-by-route matrix", func(r Report) {
	if runner == nil {
		return // TestSuites failed before RunSpecs
	}
	m, err := collectMatrix(r, runner.Matrix.Targets, runner.Implementation())
	Expect(err).NotTo(HaveOccurred())
	if len(m.Cells) == 0 {
		Fail("no spec ran: the matrix is empty (check the label filter and matrix.yaml's targets)")
	}
	// The recorded-evidence section: the imported cassettes under
	// <cassettes>/<target>/recorded/, checked as `replaycheck run` checks them.
	Expect(evidence.Attach(m, evidence.Inputs{Matrix: runner.Matrix, Profiles: runner.Profiles, Dir: runner.CassetteDir})).To(Succeed())
	complete := m.Validate() == nil
	if complete {
		// The targets' aliases, judged against their targets' cassettes as
		// the gate judges them, are rows of the reports too.
		m.Aliases = runner.AliasRows(context.Background(), nil, nil, nil)
	}
	if dir := os.Getenv(envReports); dir != "" {
		if !complete {
			Fail(fmt.Sprintf("%s is set but only %d of %d cells ran: reports are written from the whole matrix", envReports, len(m.Cells), len(m.Targets)*len(m.Scenarios)))
		}
		// The post-compaction quality curve: a long session per target
		// against its profile's simulator (scenario.QualityCurve).
		m.Curve, err = scenario.QualityCurve(context.Background(), runner.Matrix, runner.Profiles)
		Expect(err).NotTo(HaveOccurred())
		Expect(report.WriteDir(dir, m)).To(Succeed())
		// The implementations report: the reference beside the connectors
		// and examples, from their saved matrices.
		Expect(writeImplementations(dir, m, runner.Matrix)).To(Succeed())
	} else if compareWithCommitted {
		Expect(compareCommitted(committedMatrix, m, complete)).To(Succeed())
	}
	Expect(m.Evidence.Unreadable).To(BeEmpty(), "imported cassettes that could not be read (the report lists them)")
})
