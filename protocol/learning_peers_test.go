package protocol

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/chat"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// The learning peers are the reference engine with one of SPEC §6's
// learning rules broken in its learn step, on chat routes; every other
// step, and learning on native routes, stays the reference engine's.
func init() {
	misbehaving["reference-learns-value-complaints"] = func(impl scenario.Implementation) scenario.Implementation { return learnsValueComplaints{impl} }
	misbehaving["reference-retries-refusals-again"] = func(impl scenario.Implementation) scenario.Implementation { return retriesAgain{impl} }
	misbehaving["reference-learns-must-echo-rc"] = func(impl scenario.Implementation) scenario.Implementation { return learnsMustEchoRC{impl} }
}

// learnsValueComplaints counts every 4xx that names a carrier the request
// sent as a refusal of it, whatever its wording: an implementation whose
// phrase list is too wide (Hermes's earlier one held "not allowed", which
// matched "is not allowed to be empty").
type learnsValueComplaints struct{ scenario.Implementation }

func (l learnsValueComplaints) Learn(ctx context.Context, s *engine.Session, d engine.Decision, sent []byte, status int, resp []byte) (string, bool, error) {
	verdict, ok, err := l.Implementation.Learn(ctx, s, d, sent, status, resp)
	if ok || err != nil || d.Route.APIMode != engine.ModeChat {
		return verdict, ok, err
	}
	// Read as if it were worded as an unknown field.
	return l.Implementation.Learn(ctx, s, d, sent, status, append(slices.Clone(resp), " (unknown field)"...))
}

// retriesAgain retries every unknown-field refusal that names a carrier,
// whether or not it learnt anything new from it: a second refusal of the
// same field is retried again, up to the harness's cap.
type retriesAgain struct{ scenario.Implementation }

func (r retriesAgain) Learn(ctx context.Context, s *engine.Session, d engine.Decision, sent []byte, status int, resp []byte) (string, bool, error) {
	verdict, ok, err := r.Implementation.Learn(ctx, s, d, sent, status, resp)
	if ok || err != nil || d.Route.APIMode != engine.ModeChat {
		return verdict, ok, err
	}
	if named := engine.RefusedCarriers(status, resp, engine.NewCarrierSet(engine.AllCarriers...)); !named.Empty() {
		return fmt.Sprintf("%s refused again: retrying", named), true, nil
	}
	return "", false, nil
}

// learnsMustEchoRC records a refused reasoning_content on every chat
// route, the must-echo tier included: SPEC §6's learning without its last
// rule.
type learnsMustEchoRC struct{ scenario.Implementation }

func (l learnsMustEchoRC) Learn(ctx context.Context, s *engine.Session, d engine.Decision, sent []byte, status int, resp []byte) (string, bool, error) {
	if d.Route.APIMode != engine.ModeChat {
		return l.Implementation.Learn(ctx, s, d, sent, status, resp)
	}
	added := s.Config.AddRejection(d.Route.Key(), engine.RefusedCarriers(status, resp, chat.SentCarriers(sent)))
	if added.Empty() {
		return "", false, nil
	}
	return fmt.Sprintf("refused %s: recorded, retrying once without it", added), true, nil
}

// TestLearningPeersOverProtocol runs each learning peer over the protocol
// on the fallback column of the committed cassettes and wants the run
// failed (exit 1), every cell it changes from the reference engine's a
// fail naming the broken rule, on at least the targets listed (where the
// misbehaviour changes what reaches the provider), and no cell unverified
// or in error.
func TestLearningPeersOverProtocol(t *testing.T) {
	runner := committedRunner(t)
	want, err := runner.RunMatrix(context.Background(), nil, []string{"fallback"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		peer string
		// cause is the rule the failure names.
		cause string
		// words maps a target to the provider's words its failure quotes:
		// the complaint learnt, or the refusal of the retry without
		// reasoning_content. A retried refusal is never quoted (a known
		// failure may be pinned to its words).
		words map[string]string
		fails []string
		// reason says why those targets fail.
		reason string
	}{
		{"reference-learns-value-complaints", "a 4xx without unknown-field wording is a value complaint",
			map[string]string{"fireworks": "must be passed back to the API", "openrouter-deepseek": "Provider returned error"},
			[]string{"mistral", "groq", "cerebras", "sambanova", "hunyuan", "fireworks", "openrouter-deepseek", "gemini-openai"},
			"every route whose request carries a carrier the complaint lets it drop: reasoning_content off the must-echo tier, reasoning and reasoning_details on it"},
		{"reference-retries-refusals-again", "never retried",
			nil,
			[]string{"mistral", "groq", "cerebras", "sambanova", "fireworks", "deepseek", "kimi", "mimo", "openrouter-deepseek"},
			"every route that learns a refusal SPEC §6 counts (the retry refused again), and every must-echo route (its refusal of reasoning_content)"},
		{"reference-learns-must-echo-rc", "reasoning_content never recorded",
			map[string]string{"deepseek": "must be passed back to the API", "kimi": "reasoning_content is missing in assistant tool call message", "mimo": "Param Incorrect", "openrouter-deepseek": "Provider returned error"},
			[]string{"deepseek", "kimi", "mimo", "openrouter-deepseek", "sambanova"},
			"every must-echo route: DeepSeek, Kimi, MiMo, DeepSeek through OpenRouter, and SambaNova's DeepSeek model behind its strict schema"},
	}
	for _, tc := range tests {
		t.Run(tc.peer, func(t *testing.T) {
			c, err := Start(context.Background(), peerCommand(t, tc.peer))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			r := &scenario.Runner{Matrix: runner.Matrix, Profiles: runner.Profiles, CassetteDir: runner.CassetteDir, Engine: c, Expect: runner.Matrix}
			got, err := r.RunMatrix(context.Background(), nil, []string{"fallback"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Failed() {
				t.Errorf("the run passes (exit 0); want it failed (exit 1): %s", tc.reason)
			}
			var failed []string
			for k, cell := range got.Cells {
				ref := want.Cells[k]
				evidence := strings.Join([]string{cell.Detail, cell.Expected, cell.Actual, cell.ProviderError}, "\n")
				switch {
				case cell.Status == report.StatusUnverified || cell.Status == report.StatusError:
					t.Errorf("%s = %s (%s): a misbehaving engine must be judged", cell.ID(), cell.Status, cell.Detail)
				case cell.Status == report.StatusFail:
					failed = append(failed, cell.Target)
					if !strings.Contains(evidence, tc.cause) {
						t.Errorf("%s fails without naming the cause %q: %s", cell.ID(), tc.cause, evidence)
					}
					if w, ok := tc.words[cell.Target]; ok && !strings.Contains(evidence, w) {
						t.Errorf("%s fails without the provider's words %q: %s", cell.ID(), w, evidence)
					}
				case cell.Status != ref.Status || cell.Detail != ref.Detail:
					t.Errorf("%s = %s (%s), want fail or the reference engine's %s (%s)", cell.ID(), cell.Status, cell.Detail, ref.Status, ref.Detail)
				}
			}
			for _, id := range tc.fails {
				if !slices.Contains(failed, id) {
					t.Errorf("%s/fallback does not fail; want it failed: %s", id, tc.reason)
				}
			}
			t.Logf("fails %d of %d cells: %s", len(failed), len(got.Cells), strings.Join(failed, ", "))
		})
	}
}
