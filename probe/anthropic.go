package probe

import (
	"context"
	"slices"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/tidwall/gjson"
)

// replays are the native replay contracts, most reasoning first.
var replays = []engine.ReasoningReplay{engine.ReplaySigned, engine.ReplayUnsigned, engine.ReplayStripped}

// anthropicTable is t with a first Anthropic route class, matching every
// route, that replays thinking by contract r (earlier turns' thinking
// always), and with the route padded as a must-echo route's when echo.
func anthropicTable(t *engine.Table, r engine.Route, replay engine.ReasoningReplay, echo bool) *engine.Table {
	alt := *t
	alt.Dialects.Anthropic.Routes = append([]engine.AnthropicRoute{{ID: "probe", Replay: replay, PriorThinking: engine.PriorAlways}}, t.Dialects.Anthropic.Routes...)
	if echo {
		alt.EchoFamilies = append(slices.Clone(t.EchoFamilies), engine.EchoFamily{Name: "probe", ProvidersRaw: []string{r.Provider}})
	}
	return &alt
}

// anthropic infers an Anthropic Messages route: which replay contract
// the provider accepts for the replayed tool loop (signed, unsigned,
// stripped), which signatures it checks, and whether a bare tool turn
// needs a thinking pad.
func (in *inference) anthropic(ctx context.Context) error {
	t := in.res.Target
	current := &in.opts.Matrix.Table
	contract := map[engine.ReasoningReplay]Evidence{}
	for _, r := range replays {
		conv, err := in.try(ctx, "carriers", nil, anthropicTable(current, t.Route, r, false))
		if err != nil {
			return err
		}
		contract[r] = in.evidenceOf("carriers", "the replayed tool loop "+contractWords(r), conv, 1)
		if call, ok := exchange(conv, 0); ok && call.Status/100 == 2 && in.emits.Fields == nil {
			in.anthropicEmits(call.Response)
		}
	}
	for _, r := range replays {
		if contract[r].Accepted() {
			in.find(string(r)+" replay", "accepted", contract[r])
		} else {
			in.find(string(r)+" replay", "refused", contract[r])
		}
	}
	p := &in.res.plan
	switch {
	case in.signing != nil && contract[engine.ReplaySigned].Accepted():
		p.replay = engine.ReplaySigned
	case contract[engine.ReplayUnsigned].Accepted():
		p.replay = engine.ReplayUnsigned
	case contract[engine.ReplayStripped].Accepted():
		p.replay = engine.ReplayStripped
	default:
		in.find("replay contract", "undetermined: the provider accepted the replayed tool loop under no contract; the route is proposed stripped")
		p.replay = engine.ReplayStripped
	}
	if s := contract[engine.ReplayStripped]; s.Recorded() && !s.Accepted() {
		f := Finding{Subject: "thinking on a tool-call turn", Verdict: "required (a tool loop replayed without its thinking is refused)", Shown: []Evidence{s}}
		in.res.Findings = append(in.res.Findings, f)
		in.rules = append(in.rules, providers.Rule{
			ID: "thinking-missing-before-tool-use", Status: s.Status, Body: s.Body,
			When: providers.Condition{Kind: providers.ConditionToolTurnFieldMissing, Field: "thinking"},
			Note: "recorded verbatim by the probe; evidence: " + f.String(),
		})
	}
	if s, u := contract[engine.ReplaySigned], contract[engine.ReplayUnsigned]; in.signing != nil && s.Accepted() && u.Recorded() && !u.Accepted() {
		f := Finding{Subject: "thinking without its signature", Verdict: "refused", Shown: []Evidence{s, u}}
		in.res.Findings = append(in.res.Findings, f)
		in.rules = append(in.rules, providers.Rule{
			ID: "signature-missing", Status: u.Status, Body: u.Body,
			When: providers.Condition{Kind: providers.ConditionSignatureMissing, Field: "thinking.signature"},
			Note: "recorded verbatim by the probe; evidence: " + f.String(),
		})
	}
	if in.signing != nil {
		conv, err := in.try(ctx, "signed-roundtrip", nil, anthropicTable(current, t.Route, engine.ReplaySigned, false))
		if err != nil {
			return err
		}
		in.signatureRules(conv, "thinking.signature", "the replayed tool loop "+contractWords(engine.ReplaySigned))
	}
	if p.replay == engine.ReplayUnsigned {
		if err := in.anthropicPad(ctx); err != nil {
			return err
		}
	}
	if p.replay != engine.ReplayStripped {
		in.reads = []string{"thinking"}
		p.prior = engine.PriorAlways
		if _, _, claude := engine.ClaudeVersion(t.Route.Model, familyNames(current)); claude && p.replay == engine.ReplaySigned {
			// A Claude model keeps earlier turns' thinking by its
			// generation: the capability table decides.
			p.prior = engine.PriorCapability
		}
	}
	p.learn = p.replay == engine.ReplaySigned && slices.ContainsFunc(in.rules, func(r providers.Rule) bool { return r.When.Kind == providers.ConditionSignatureInvalid })
	in.emits.Stream = providers.StreamSSE
	return nil
}

// anthropicPad decides from the missing-echo battery whether a bare
// tool-call turn needs a thinking block, and whether the " " pad of an
// unsigned must-echo route satisfies it.
func (in *inference) anthropicPad(ctx context.Context) error {
	t := in.res.Target
	current := &in.opts.Matrix.Table
	bare, err := in.try(ctx, "missing-echo", nil, anthropicTable(current, t.Route, engine.ReplayUnsigned, false))
	if err != nil {
		return err
	}
	padded, err := in.try(ctx, "missing-echo", nil, anthropicTable(current, t.Route, engine.ReplayUnsigned, true))
	if err != nil {
		return err
	}
	be := in.evidenceOf("missing-echo", "a bare tool-call turn without a thinking block", bare, 0)
	pe := in.evidenceOf("missing-echo", `the same turn padded with a " " thinking block`, padded, 0)
	const subject = "a thinking block on a bare tool-call turn"
	switch {
	case !be.Recorded() || !pe.Recorded():
		in.find(subject, "undetermined: the missing-echo battery holds no answer", be, pe)
	case be.Accepted():
		in.find(subject, "not required (a bare tool-call turn is accepted)", be)
	case !pe.Accepted():
		in.find(subject, "a bare tool-call turn is refused even padded", be, pe)
	default:
		in.res.MustEcho = true
		in.res.MustEchoRefusal = Refusal{Status: be.Status, Body: be.Body}
		f := in.find(subject, "required (must-echo): refused bare, accepted with the \" \" pad", be, pe)
		if !slices.ContainsFunc(in.rules, func(r providers.Rule) bool { return r.ID == "thinking-missing-before-tool-use" }) {
			in.rules = append(in.rules, providers.Rule{
				ID: "thinking-missing-before-tool-use", Status: be.Status, Body: be.Body,
				When: providers.Condition{Kind: providers.ConditionToolTurnFieldMissing, Field: "thinking"},
				Note: "recorded verbatim by the probe; evidence: " + f.String(),
			})
		} else {
			in.appendNote("thinking-missing-before-tool-use", f)
		}
	}
	return nil
}

// anthropicEmits reads the content blocks of a Messages response: which
// reasoning blocks it carries and what it signs.
func (in *inference) anthropicEmits(response []byte) {
	var fields, signed []string
	gjson.GetBytes(response, "content").ForEach(func(_, b gjson.Result) bool {
		switch typ := b.Get("type").Str; typ {
		case "thinking":
			fields = appendNew(fields, "thinking")
			if b.Get("signature").Str != "" {
				signed = appendNew(signed, "thinking.signature")
			}
		case "redacted_thinking":
			fields = appendNew(fields, "redacted_thinking")
			signed = appendNew(signed, "redacted_thinking.data")
		}
		return true
	})
	in.emits.Fields = append([]string{}, fields...)
	in.res.Emitted = in.emits.Fields
	if len(signed) > 0 {
		in.signing = &providers.Signing{Scheme: providers.SchemeThinkingSignature, Fields: signed}
		in.res.Signed = signed
	}
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// contractWords says how a replay contract sends the thinking.
func contractWords(r engine.ReasoningReplay) string {
	switch r {
	case engine.ReplaySigned:
		return "with its signed thinking (replay: signed)"
	case engine.ReplayUnsigned:
		return "with its thinking unsigned (replay: unsigned)"
	}
	return "without its thinking (replay: stripped)"
}

// familyNames are the Claude families the table's capability table knows.
func familyNames(t *engine.Table) []string {
	var out []string
	for _, f := range t.Dialects.Anthropic.PriorThinking.Families {
		out = append(out, f.Name)
	}
	return out
}
