package protocol

import (
	"context"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// regressed is the reference engine with the seed's "before" in one step:
// what it compacts, reloads or branches loses what Regression strips from
// every message.
type regressed struct {
	scenario.Implementation
	step string
	g    scenario.Regression
}

func (r regressed) Compact(ctx context.Context, s *engine.Session, d engine.Decision, threshold int) (engine.CompactResult, error) {
	res, err := r.Implementation.Compact(ctx, s, d, threshold)
	if err == nil && r.step == "compact" && res.Dropped > 0 {
		res.Session = r.g.Regress(res.Session)
	}
	return res, err
}

func (r regressed) Reload(ctx context.Context, s *engine.Session) (*engine.Session, error) {
	out, err := r.Implementation.Reload(ctx, s)
	if err == nil && r.step == "reload" {
		out = r.g.Regress(out)
	}
	return out, err
}

func (r regressed) Branch(ctx context.Context, s *engine.Session, id string) (*engine.Session, error) {
	out, err := r.Implementation.Branch(ctx, s, id)
	if err == nil && r.step == "branch" {
		out = r.g.Regress(out)
	}
	return out, err
}

// regressedPeer is the peer "regressed-<step>-<regression index>".
func regressedPeer(name string, impl scenario.Implementation) (scenario.Implementation, bool) {
	step, idx, ok := strings.Cut(strings.TrimPrefix(name, "regressed-"), "-")
	if !ok || len(idx) != 1 || idx[0] < '0' || int(idx[0]-'0') >= len(scenario.Regressions) {
		return nil, false
	}
	return regressed{impl, step, scenario.Regressions[idx[0]-'0']}, true
}

// TestRegressedOverProtocol drives implementations that lose the kept
// turns' reasoning (or only their encrypted items) at compaction, reload
// or branch over the protocol, against the committed cassettes, and wants
// the scenario's column failed on every route where the provider reads
// what the regression loses (the reference engine's answers there state a
// kept conclusion), judged by the provider's own answer where it is
// recorded, and never unverified or passed. Every other column stays the
// reference engine's.
func TestRegressedOverProtocol(t *testing.T) {
	runner := committedRunner(t)
	// reads: the targets whose provider reads reasoning the route sends, by
	// the reference engine's compaction cells (the provider's answers).
	ref, err := runner.RunMatrix(context.Background(), nil, []string{"compaction"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	reads := map[string]bool{}
	for _, c := range ref.Cells {
		reads[c.Target] = c.Status == report.StatusPass && !strings.Contains(c.Detail, "reads nothing the route sends")
	}
	for _, tc := range []struct{ step, column string }{{"compact", "compaction"}, {"reload", "resume"}, {"branch", "branch"}} {
		want, err := runner.RunMatrix(context.Background(), nil, []string{tc.column}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, g := range scenario.Regressions {
			t.Run(tc.step+"/"+g.Name, func(t *testing.T) {
				c, err := Start(context.Background(), peerCommand(t, "regressed-"+tc.step+"-"+string(rune('0'+i))))
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				r := &scenario.Runner{Matrix: runner.Matrix, Profiles: runner.Profiles, CassetteDir: runner.CassetteDir, Engine: c, Expect: runner.Matrix}
				got, err := r.RunMatrix(context.Background(), nil, []string{tc.column}, nil)
				if err != nil {
					t.Fatal(err)
				}
				failed, byAnswer := 0, 0
				for k, cell := range got.Cells {
					ref := want.Cells[k]
					switch {
					case cell.Status == report.StatusUnverified || cell.Status == report.StatusError:
						t.Errorf("%s = %s (%s): a regressed engine must be judged", cell.ID(), cell.Status, cell.Detail)
					case i == 0 && reads[cell.Target] && cell.Status != report.StatusFail:
						t.Errorf("%s = %s (%s), want fail: the provider reads the reasoning the regression loses", cell.ID(), cell.Status, cell.Detail)
					case cell.Status != report.StatusFail && cell.Status != ref.Status:
						t.Errorf("%s = %s (%s), want fail or the reference engine's %s", cell.ID(), cell.Status, cell.Detail, ref.Status)
					}
					if cell.Status == report.StatusFail {
						failed++
						if strings.Contains(cell.Actual, "the provider answered") || cell.ProviderError != "" {
							byAnswer++
						}
					}
				}
				if failed == 0 || byAnswer == 0 {
					t.Errorf("%s: %d cells fail, %d by the provider's own answer; want some of each", tc.column, failed, byAnswer)
				}
				t.Logf("%s: %d of %d cells fail, %d by the provider's own answer", tc.column, failed, len(got.Cells), byAnswer)
			})
		}
	}
}
