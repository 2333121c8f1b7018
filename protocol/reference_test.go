package protocol

import (
	"context"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// TestReferenceOverProtocol runs one target of each dialect through the
// reference engine twice, in process and over the protocol (a peer
// serving it), and wants the same cells: every step survives the wire,
// Bedrock's binary streams included. cmd/replaycheck checks the whole
// matrix through the real connector.
func TestReferenceOverProtocol(t *testing.T) {
	want, got := inProcessAndOver(t, "reference", "deepseek", "mistral", "openrouter", "glm", "anthropic", "bedrock-converse-claude", "gemini", "copilot")
	if diff := cmp.Diff(want.Cells, got.Cells); diff != "" {
		t.Errorf("cells through the protocol differ from in process (-want +got):\n%s", diff)
	}
	if got.Implementation == nil || *got.Implementation != (report.Implementation{Name: "reference-peer", Version: "1", Language: "go"}) {
		t.Errorf("the matrix names %v, want the peer's hello", got.Implementation)
	}
}

// TestCrashMidRun: an implementation that dies on one target's cells
// leaves those cells not judged (error), naming the step and the request;
// every other cell is judged as in process, on a restarted process.
func TestCrashMidRun(t *testing.T) {
	want, got := inProcessAndOver(t, "reference-crashes-on-mistral", "deepseek", "mistral", "openrouter")
	crashed := regexp.MustCompile(`^harness error: engine protocol: shape request \d+: the implementation closed its output before answering \(exit status 3\); stderr: fatal: segmentation fault in the mistral adapter$`)
	for i, g := range got.Cells {
		w := want.Cells[i]
		switch {
		case g.Target != "mistral" || w.Status == report.StatusNA:
			if diff := cmp.Diff(w, g); diff != "" {
				t.Errorf("%s: differs from in process (-want +got):\n%s", g.ID(), diff)
			}
		case g.Status != report.StatusError || g.Provenance != report.ProvenanceSimulated || !crashed.MatchString(g.Detail):
			t.Errorf("%s = %s (%s), want a harness error naming the shape step and its request", g.ID(), g.Status, g.Detail)
		}
	}
}

// inProcessAndOver runs the committed cassettes of the targets ids
// through the reference engine in process, then through the peer over the
// protocol, and returns both matrices.
func inProcessAndOver(t *testing.T, peer string, ids ...string) (want, got *report.Matrix) {
	t.Helper()
	runner := committedRunner(t)
	mf := runner.Matrix
	var err error
	if want, err = runner.RunMatrix(context.Background(), ids, nil, nil); err != nil {
		t.Fatal(err)
	}
	c, err := Start(context.Background(), peerCommand(t, peer))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	runner.Engine, runner.Expect = c, mf // the reference engine over the protocol: the reference table's declarations
	if got, err = runner.RunMatrix(context.Background(), ids, nil, nil); err != nil {
		t.Fatal(err)
	}
	return want, got
}

// committedRunner runs the committed matrix, profiles and cassettes
// through the reference engine in process; set its Engine to run a peer.
func committedRunner(t *testing.T) *scenario.Runner {
	t.Helper()
	mf, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	list, err := providers.LoadDir("../providers")
	if err != nil {
		t.Fatal(err)
	}
	return &scenario.Runner{Matrix: mf, Profiles: providers.ByName(list), CassetteDir: "../cassettes"}
}
