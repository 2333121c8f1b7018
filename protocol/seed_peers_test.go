package protocol

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// The seed's "befores": the reference engine with one behaviour of the
// agent before its fix, each a peer over the protocol.
func init() {
	misbehaving["seed-handful"] = decidesLike(handful)
	misbehaving["seed-details-openrouter-only"] = decidesLike(detailsOnlyToOpenRouter)
	misbehaving["seed-readable-dropped"] = decidesLike(readableDroppedLocally)
	misbehaving["seed-readable-dropped-on-the-wire"] = func(impl scenario.Implementation) scenario.Implementation { return wireDropsRC{impl} }
	misbehaving["seed-claude-platforms-stripped"] = claudePlatformsStripped
	misbehaving["seed-gemini-text-signature-lost"] = func(impl scenario.Implementation) scenario.Implementation { return textSignatureLost{impl} }
	misbehaving["seed-leaks-private-fields"] = decidesLike(readsEveryNativeGroup)
	misbehaving["seed-branch-loses-rc"] = func(impl scenario.Implementation) scenario.Implementation { return branchLosesRC{impl} }
}

// decided is an implementation whose decisions one function rewrites.
type decided struct {
	scenario.Implementation
	rewrite func(engine.Route, engine.Decision) engine.Decision
}

func (d decided) Decide(ctx context.Context, r engine.Route, rejected engine.CarrierSet) (engine.Decision, error) {
	dec, err := d.Implementation.Decide(ctx, r, rejected)
	if err != nil || dec.Native {
		return dec, err
	}
	return d.rewrite(r, dec), nil
}

func decidesLike(f func(engine.Route, engine.Decision) engine.Decision) func(scenario.Implementation) scenario.Implementation {
	return func(impl scenario.Implementation) scenario.Implementation { return decided{impl, f} }
}

// handful replays readable reasoning only to the routes the agent first
// knew: DeepSeek, Moonshot and OpenRouter.
func handful(r engine.Route, d engine.Decision) engine.Decision {
	if !slices.Contains([]string{"api.deepseek.com", "api.moonshot.ai", "openrouter.ai"}, r.Host()) {
		d.Carriers, d.Pad = 0, false
	}
	return d
}

// detailsOnlyToOpenRouter sends reasoning_details to openrouter.ai only.
func detailsOnlyToOpenRouter(r engine.Route, d engine.Decision) engine.Decision {
	if r.Host() != "openrouter.ai" {
		d.Carriers = d.Carriers.Minus(engine.NewCarrierSet(engine.ReasoningDetails))
	}
	return d
}

// readablyDropped are the hosts of Fireworks, llama.cpp and LM Studio in
// matrix.yaml's targets.
var readablyDropped = []string{"api.fireworks.ai", "localhost", "lmstudio.local"}

// readableDroppedLocally stops sending reasoning_content to Fireworks,
// llama.cpp and LM Studio.
func readableDroppedLocally(r engine.Route, d engine.Decision) engine.Decision {
	if slices.Contains(readablyDropped, r.Host()) {
		d.Carriers = d.Carriers.Minus(engine.NewCarrierSet(engine.ReasoningContent))
		d.Pad = false
	}
	return d
}

// readsEveryNativeGroup unpacks every private native field group on every
// chat route: Gemini's and Copilot's fields leak everywhere.
func readsEveryNativeGroup(_ engine.Route, d engine.Decision) engine.Decision {
	d.NativeFields = []string{engine.NativeCopilot, engine.NativeGemini}
	return d
}

// wireDropsRC decides as the reference engine but leaves reasoning_content
// off the wire to Fireworks, llama.cpp and LM Studio (its stored session
// keeps it): the loss is in shaping only.
type wireDropsRC struct{ scenario.Implementation }

func (w wireDropsRC) Shape(ctx context.Context, s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	body, err := w.Implementation.Shape(ctx, s, d, req)
	if err != nil || d.Native || !slices.Contains(readablyDropped, d.Route.Host()) {
		return body, err
	}
	for i := range gjson.GetBytes(body, "messages").Array() {
		if body, err = sjson.DeleteBytes(body, fmt.Sprintf("messages.%d.reasoning_content", i)); err != nil {
			return nil, err
		}
	}
	return body, nil
}

// claudePlatformsStripped is the seed's route table before its fix: signed
// thinking replayed to Anthropic's own API only, stripped on Bedrock,
// Vertex and Foundry (and nothing learnt there).
func claudePlatformsStripped(impl scenario.Implementation) scenario.Implementation {
	ref := impl.(scenario.Reference)
	t := *ref.Table
	routes := slices.Clone(t.Dialects.Anthropic.Routes)
	for i, r := range routes {
		if r.ID == "bedrock" || r.ID == "vertex" || r.ID == "foundry" {
			routes[i].Replay, routes[i].LearnRejections = engine.ReplayStripped, false
		}
	}
	t.Dialects.Anthropic.Routes = routes
	ref.Table = &t
	return ref
}

// textSignatureLost never captures the thoughtSignature of a Gemini text
// part: only function-call signatures are kept.
type textSignatureLost struct{ scenario.Implementation }

func (l textSignatureLost) Capture(ctx context.Context, r engine.Route, resp []byte, stream bool) (engine.Message, error) {
	m, err := l.Implementation.Capture(ctx, r, resp, stream)
	if err != nil || r.APIMode != engine.ModeGemini {
		return m, err
	}
	m.ExtraContent = nil
	if m.Native != nil {
		for i, b := range m.Native.Blocks {
			if !gjson.GetBytes(b, "functionCall").Exists() && gjson.GetBytes(b, "thoughtSignature").Exists() {
				if m.Native.Blocks[i], err = sjson.DeleteBytes(b, "thoughtSignature"); err != nil {
					return m, err
				}
			}
		}
	}
	for i, it := range m.ReasoningDetails {
		if engine.IsPrivateRecord(it) {
			if m.ReasoningDetails[i], err = sjson.DeleteBytes(it, "extra_content"); err != nil {
				return m, err
			}
		}
	}
	return m, nil
}

// branchLosesRC branches without reasoning_content: where reasoning or
// native blocks rebuild the wire, only the stored history shows it.
type branchLosesRC struct{ scenario.Implementation }

func (b branchLosesRC) Branch(ctx context.Context, s *engine.Session, id string) (*engine.Session, error) {
	out, err := b.Implementation.Branch(ctx, s, id)
	if err != nil {
		return out, err
	}
	for i := range out.Messages {
		out.Messages[i].ReasoningContent = nil
	}
	return out, nil
}

// A seedCase is one "before" and what it must fail: want lists cells that
// must fail (target/scenario), rows the targets at least one of whose
// cells must fail, and cause a phrase every failing cell's evidence holds.
type seedCase struct {
	peer    string
	columns []string
	want    []string
	rows    func(t matrix.Target, ref, peer engine.Decision, p *providers.Profile) bool
	cause   string
	// verdicts are what judged some failing cells: the provider's
	// refusal, its answer, or a SPEC invariant it accepted.
	verdicts map[string]string
}

// losesRead reports whether the peer's decision changes what the
// provider reads or refuses: the route no longer sends any carrier the
// provider reads (one left still carries the same reasoning), drops the
// carrier its signed items ride, or the pad a must-echo provider needs.
func losesRead(t matrix.Target, ref, peer engine.Decision, p *providers.Profile) bool {
	if t.Route.APIMode != engine.ModeChat {
		return false
	}
	var reads engine.CarrierSet
	for _, name := range p.Reads {
		if c, err := engine.ParseCarrier(name); err == nil {
			reads = reads.With(c)
		}
	}
	signed := p.Signing != nil && slices.Contains(p.Signing.Fields, string(engine.ReasoningDetails))
	lost := ref.Carriers.Minus(peer.Carriers)
	return (!ref.Carriers.Intersect(reads).Empty() && peer.Carriers.Intersect(reads).Empty()) ||
		(signed && lost.Has(engine.ReasoningDetails)) || (ref.Pad && !peer.Pad)
}

// TestSeedBeforesOverProtocol runs each of the seed's "befores" over the
// protocol on every target and wants the run failed (exit non-zero): no
// cell unverified or erroring, every failing cell naming its cause, and
// each target where the behaviour changes what the provider reads or
// refuses failing at least one cell.
func TestSeedBeforesOverProtocol(t *testing.T) {
	runner := committedRunner(t)
	mf, profiles := runner.Matrix, runner.Profiles
	cases := []seedCase{
		{peer: "seed-handful", columns: []string{"carriers", "missing-echo", "compaction"}, rows: losesRead,
			verdicts: map[string]string{"kimi/missing-echo": report.VerdictRefused, "llama-cpp/carriers": report.VerdictAnswer}},
		{peer: "seed-details-openrouter-only", columns: []string{"carriers", "signed-roundtrip", "compaction"}, rows: losesRead,
			want: []string{"kilo/signed-roundtrip"}},
		{peer: "seed-readable-dropped", columns: []string{"carriers", "compaction"}, rows: losesRead,
			want: []string{"fireworks/carriers", "llama-cpp/carriers", "lmstudio/carriers"}},
		{peer: "seed-readable-dropped-on-the-wire", columns: []string{"carriers", "compaction"},
			want: []string{"fireworks/carriers", "llama-cpp/carriers", "lmstudio/carriers", "llama-cpp/compaction", "lmstudio/compaction"}},
		{peer: "seed-claude-platforms-stripped", columns: []string{"carriers", "signed-roundtrip", "compaction"},
			want: []string{"bedrock-anthropic/carriers", "vertex-anthropic/carriers", "foundry-anthropic/carriers"}},
		{peer: "seed-gemini-text-signature-lost", columns: []string{"signed-roundtrip"},
			want: []string{"gemini/signed-roundtrip"}, cause: "the first answer's thought context back"},
		{peer: "seed-leaks-private-fields", columns: []string{"carriers"}, cause: "none of them on the wire",
			want: []string{"deepseek/carriers", "mistral/carriers", "openrouter/carriers", "openai/carriers"}},
		{peer: "seed-branch-loses-rc", columns: []string{"branch"}, cause: "the branch",
			want: []string{"deepseek/branch", "kimi/branch", "anthropic/branch"}, verdicts: map[string]string{"anthropic/branch": report.VerdictInvariant}},
	}
	for _, tc := range cases {
		t.Run(tc.peer, func(t *testing.T) {
			t.Parallel()
			c, err := Start(context.Background(), peerCommand(t, tc.peer))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			r := &scenario.Runner{Matrix: mf, Profiles: profiles, CassetteDir: "../cassettes", Engine: c, Expect: mf}
			got, err := r.RunMatrix(context.Background(), nil, tc.columns, nil)
			if err != nil {
				t.Fatal(err)
			}
			impl, _, _ := referencePeer(tc.peer)
			failing := map[string]bool{}
			var fails []string
			for _, cell := range got.Cells {
				switch cell.Status {
				case report.StatusUnverified, report.StatusError:
					t.Errorf("%s = %s (%s): a regressed engine must be judged", cell.ID(), cell.Status, cell.Detail)
				case report.StatusFail:
					failing[cell.ID()], failing[cell.Target] = true, true
					fails = append(fails, cell.ID())
					evidence := strings.Join([]string{cell.Detail, cell.Expected, cell.Actual, cell.ProviderError}, " ")
					if cell.Detail == "" || (cell.Expected == "" && cell.ProviderError == "" && !strings.Contains(cell.Detail, scenario.UndeclaredAdvisory)) {
						t.Errorf("%s fails without naming its cause: %+v", cell.ID(), cell)
					}
					if tc.cause != "" && !strings.Contains(evidence, tc.cause) {
						t.Errorf("%s fails for %q, want %q", cell.ID(), evidence, tc.cause)
					}
				}
			}
			if len(fails) == 0 {
				t.Fatalf("no cell fails: the run would exit 0")
			}
			for _, id := range tc.want {
				if !failing[id] {
					t.Errorf("%s does not fail", id)
				}
			}
			for _, cell := range got.Cells {
				if want, ok := tc.verdicts[cell.ID()]; ok && cell.Verdict != want {
					t.Errorf("%s fails with verdict %q (%s), want %q", cell.ID(), cell.Verdict, cell.VerdictText(), want)
				}
			}
			if tc.rows != nil {
				for _, target := range mf.Targets {
					ref := mf.Table.Decide(target.Route, 0)
					peer, err := impl.Decide(context.Background(), target.Route, 0)
					if err != nil {
						t.Fatal(err)
					}
					if tc.rows(target, ref, peer, profiles[target.Profile]) && !failing[target.ID] {
						t.Errorf("%s: the behaviour loses what its provider reads (%s -> %s), but no cell of its row fails", target.ID, ref.Carriers, peer.Carriers)
					}
				}
			}
			slices.Sort(fails)
			t.Logf("%d cells fail: %s", len(fails), strings.Join(fails, " "))
		})
	}
}
