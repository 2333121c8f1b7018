package probe

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// chatBattery is what the chat battery recorded, per carrier subset.
type chatBattery struct {
	// foreign answers the strict-schema turn that replays another
	// provider's reasoning (text on every carrier) with the subset.
	foreign map[engine.CarrierSet]Evidence
	// own answers the carriers turn that replays the provider's own
	// reasoning with the subset; memos counts the earlier conclusions
	// each accepted answer states.
	own   map[engine.CarrierSet]Evidence
	memos map[engine.CarrierSet]int
}

// subsets are the carrier subsets, fewest carriers first.
func subsets() []engine.CarrierSet {
	out := engine.NewCarrierSet(engine.AllCarriers...).Subsets()
	slices.SortStableFunc(out, func(a, b engine.CarrierSet) int {
		return bits.OnesCount8(uint8(a)) - bits.OnesCount8(uint8(b))
	})
	return out
}

// chatVariant names a chat wire variant.
func chatVariant(s engine.CarrierSet, pad bool) string {
	v := "variant {" + strings.Join(s.Names(), ", ") + "}"
	if pad {
		v += " padded"
	}
	return v
}

// smallest returns the first subset (fewest carriers first) that ok
// holds for.
func smallest(ok func(engine.CarrierSet) bool) (engine.CarrierSet, bool) {
	for _, s := range subsets() {
		if ok(s) {
			return s, true
		}
	}
	return 0, false
}

// chat infers a chat route: each carrier accepted or refused from the
// variants that isolate it (a carrier is refused only when adding it to an
// accepted body is refused), whether the provider reads it, whether a bare
// tool turn needs the pad (and whether "" counts as missing), and what it
// signs.
func (in *inference) chat(ctx context.Context) error {
	t := in.res.Target
	base := in.opts.Matrix.Table.Decide(t.Route, 0)
	fixed := func(s engine.CarrierSet, pad bool) engine.Decider {
		d := base
		d.Carriers, d.Pad = s, pad
		return scenario.Fixed(d)
	}
	dia, err := in.dialect()
	if err != nil {
		return err
	}
	b := chatBattery{foreign: map[engine.CarrierSet]Evidence{}, own: map[engine.CarrierSet]Evidence{}, memos: map[engine.CarrierSet]int{}}
	for _, s := range subsets() {
		c, err := in.try(ctx, "strict-schema", fixed(s, false), nil)
		if err != nil {
			return err
		}
		b.foreign[s] = in.evidenceOf("strict-schema", chatVariant(s, false), c, 0)
		if c, err = in.try(ctx, "carriers", fixed(s, false), nil); err != nil {
			return err
		}
		b.own[s] = in.evidenceOf("carriers", chatVariant(s, false), c, 1)
		if call, ok := exchange(c, 0); ok && call.Status/100 == 2 && in.res.Emitted == nil {
			if m, err := dia.Capture(call.Response); err == nil {
				in.res.Emitted = emittedFields(m)
			}
			in.res.Signed = scenario.OpaqueFields(call.Response)
			in.signing = chatSigning(call.Response)
		}
		if b.own[s].Accepted() {
			if m, err := dia.Capture([]byte(b.own[s].Body)); err == nil {
				b.memos[s] = len(scenario.AnswerMemos(m))
				in.res.ReadObservable = in.res.ReadObservable || b.memos[s] > 0
			}
		}
	}
	in.chatCarriers(b)
	in.chatReads(b)
	if err := in.chatPad(ctx, fixed); err != nil {
		return err
	}
	carriers := engine.CarrierSet(0)
	for _, c := range engine.AllCarriers {
		if in.res.Accepted[c] && (!in.res.ReadObservable || in.res.Read[c]) {
			carriers = carriers.With(c)
			in.reads = append(in.reads, string(c))
		}
	}
	if in.res.MustEcho {
		carriers = carriers.With(engine.ReasoningContent)
	}
	in.res.Carriers = carriers
	if in.signing != nil {
		conv, err := in.try(ctx, "signed-roundtrip", fixed(carriers, in.res.MustEcho), nil)
		if err != nil {
			return err
		}
		in.signatureRules(conv, in.signing.Fields[0], "the proposed "+chatVariant(carriers, in.res.MustEcho))
	}
	in.emits = providers.Emits{Fields: in.res.Emitted, Stream: providers.StreamSSE}
	return nil
}

// chatCarriers decides each carrier from the strict-schema battery: it is
// accepted when a variant carrying it was accepted, refused when adding it
// to an accepted variant was refused, and undetermined otherwise.
func (in *inference) chatCarriers(b chatBattery) {
	for _, c := range engine.AllCarriers {
		if s, ok := smallest(func(s engine.CarrierSet) bool { return b.foreign[s].carries(c) && b.foreign[s].Accepted() }); ok {
			in.res.Accepted[c] = true
			in.find(string(c), "accepted on an assistant message", b.foreign[s])
			continue
		}
		s, ok := smallest(func(s engine.CarrierSet) bool {
			return !b.foreign[s].carries(c) && b.foreign[s].Accepted() && b.foreign[s.With(c)].carries(c)
		})
		if !ok {
			var refused []Evidence
			for _, s := range subsets() {
				if b.foreign[s].carries(c) {
					refused = append(refused, b.foreign[s])
				}
			}
			in.find(string(c), "undetermined: no variant without it was accepted, so no refusal can be laid to it", refused...)
			continue
		}
		with := b.foreign[s.With(c)]
		in.res.Refused[c] = Refusal{Status: with.Status, Body: with.Body}
		f := in.find(string(c), "refused on an assistant message", b.foreign[s], with)
		in.rules = append(in.rules, providers.Rule{
			ID: strings.ReplaceAll(string(c), "_", "-") + "-refused", Status: with.Status, Body: with.Body,
			When: providers.Condition{Kind: providers.ConditionAssistantFieldPresent, Field: string(c)},
			Note: "recorded verbatim by the probe (the message index in the body is the probe's); evidence: " + f.String(),
		})
	}
}

// chatReads decides, for each accepted carrier, whether the provider reads
// it: the answer to the provider's own turn replayed with it states more
// earlier conclusions than the same variant without it. Only a simulator
// states them, so against a live provider reading cannot be told.
func (in *inference) chatReads(b chatBattery) {
	if !in.res.ReadObservable {
		in.find("reading", "cannot be told: no recorded answer states an earlier conclusion (only the simulator's answers do), so the accepted carriers are proposed")
		return
	}
	for _, c := range engine.AllCarriers {
		if !in.res.Accepted[c] {
			continue
		}
		s, ok := smallest(func(s engine.CarrierSet) bool {
			return !b.own[s].carries(c) && b.own[s].Accepted() && b.own[s.With(c)].carries(c) && b.own[s.With(c)].Accepted()
		})
		one := engine.NewCarrierSet(c)
		var read bool
		var shown []Evidence
		switch {
		case ok:
			read = b.memos[s.With(c)] > b.memos[s]
			shown = []Evidence{b.own[s.With(c)], b.own[s]}
		case b.own[one].carries(c) && b.own[one].Accepted():
			read = b.memos[one] > 0
			shown = []Evidence{b.own[one]}
		case !slices.ContainsFunc(subsets(), func(s engine.CarrierSet) bool { return b.own[s].carries(c) }):
			in.find(string(c), "not proposed: whether it is read cannot be told (the provider's own turns hold none to replay)")
			continue
		default:
			in.find(string(c), "not proposed: whether it is read cannot be told (no pair of accepted variants isolates it)")
			continue
		}
		in.res.Read[c] = read
		if read {
			in.find(string(c), "read (the answer states an earlier conclusion more with it)", shown...)
		} else {
			in.find(string(c), "accepted but not read (the answer states no earlier conclusion more with it)", shown...)
		}
	}
}

// chatPad decides from the missing-echo battery whether a bare tool-call
// turn needs reasoning_content, whether the one-space pad satisfies it,
// and whether "" counts as missing.
func (in *inference) chatPad(ctx context.Context, fixed func(engine.CarrierSet, bool) engine.Decider) error {
	rc := engine.NewCarrierSet(engine.ReasoningContent)
	bare, err := in.try(ctx, "missing-echo", fixed(rc, false), nil)
	if err != nil {
		return err
	}
	padded, err := in.try(ctx, "missing-echo", fixed(rc, true), nil)
	if err != nil {
		return err
	}
	be := in.evidenceOf("missing-echo", "variant {reasoning_content} unpadded (a bare tool-call turn without reasoning_content)", bare, 0)
	pe := in.evidenceOf("missing-echo", `variant {reasoning_content} padded (reasoning_content " " on the bare tool-call turn)`, padded, 0)
	const subject = "reasoning_content on a tool-call turn"
	switch {
	case !be.Recorded() || !pe.Recorded():
		in.find(subject, "undetermined: the missing-echo battery holds no answer", be, pe)
		return nil
	case be.Accepted():
		in.find(subject, "not required (a bare tool-call turn is accepted)", be)
		return nil
	case !pe.Accepted():
		in.find(subject, "a bare tool-call turn is refused even padded: no pad the route table can send satisfies it", be, pe)
		return nil
	}
	in.res.MustEcho = true
	in.res.MustEchoRefusal = Refusal{Status: be.Status, Body: be.Body}
	f := in.find(subject, "required (must-echo): a bare tool-call turn is refused, and the one-space pad accepted", be, pe)
	note := "evidence: " + f.String()
	ex, _ := exchange(bare, 0)
	blank := lookup(in.dir, in.res.Target.Route, in.res.Target.ID, "missing-echo", `the same turn with reasoning_content ""`, ex.Path, blankPad(ex.Body))
	switch {
	case !blank.Recorded():
		in.find(`reasoning_content ""`, "undetermined: the battery holds no answer to it, so blank_is_missing stays off")
	case blank.Accepted():
		g := in.find(`reasoning_content ""`, "accepted: \"\" does not count as missing (blank_is_missing: false)", blank)
		note += "; " + g.String()
	default:
		in.res.BlankIsMissing = true
		g := in.find(`reasoning_content ""`, "refused: \"\" counts as missing (blank_is_missing: true)", blank)
		note += "; " + g.String()
	}
	in.rules = append(in.rules, providers.Rule{
		ID: "reasoning-content-missing", Status: be.Status, Body: be.Body,
		When: providers.Condition{Kind: providers.ConditionToolTurnFieldMissing, Field: "reasoning_content", BlankIsMissing: in.res.BlankIsMissing},
		Note: note,
	})
	return nil
}

// blankPad sets reasoning_content "" on a chat body's assistant tool-call
// turns without it, as the missing-echo battery records it.
func blankPad(body []byte) []byte {
	out := body
	for i, m := range gjson.GetBytes(body, "messages").Array() {
		if m.Get("role").Str == "assistant" && m.Get("tool_calls").Exists() && !m.Get("reasoning_content").Exists() {
			out, _ = sjson.SetBytes(out, fmt.Sprintf("messages.%d.reasoning_content", i), "")
		}
	}
	return out
}

// emittedFields names the reasoning fields a captured turn holds.
func emittedFields(m engine.Message) []string {
	out := []string{}
	if m.ReasoningContent != nil {
		out = append(out, "reasoning_content")
	}
	if m.Reasoning != nil {
		out = append(out, "reasoning")
	}
	if len(m.ReasoningDetails) > 0 {
		out = append(out, "reasoning_details")
	}
	return out
}

// chatSigning says how a chat response signs its reasoning, or nil:
// signed or encrypted reasoning_details items, Copilot's
// reasoning_opaque, or Gemini's per-call thought signatures.
func chatSigning(response []byte) *providers.Signing {
	msg := gjson.GetBytes(response, "choices.0.message")
	switch {
	case len(scenario.OpaqueFields([]byte(msg.Get("reasoning_details").Raw))) > 0:
		return &providers.Signing{Scheme: providers.SchemeEncryptedDetails, Fields: []string{"reasoning_details"}}
	case msg.Get("reasoning_opaque").Str != "":
		return &providers.Signing{Scheme: providers.SchemeReasoningOpaque, Fields: []string{"reasoning_opaque"}}
	case len(scenario.OpaqueFields([]byte(msg.Raw))) > 0 && strings.Contains(msg.Raw, "thought_signature"):
		return &providers.Signing{Scheme: providers.SchemeThoughtSignature, Fields: []string{"extra_content.google.thought_signature"}}
	}
	return nil
}
