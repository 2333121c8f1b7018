package probe

import (
	"context"
	"fmt"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/tidwall/gjson"
)

// converseTable is t with a first Bedrock Converse row for the route's
// model: replay contract r, thinking requested or not.
func converseTable(t *engine.Table, r engine.Route, replay engine.ReasoningReplay, thinking bool) *engine.Table {
	alt := *t
	alt.Dialects.Converse.Models = append([]engine.ConverseModel{{
		ID: "probe", Models: []string{strings.ToLower(strings.TrimSpace(r.Model))}, Replay: replay, RequestThinking: thinking,
	}}, t.Dialects.Converse.Models...)
	return &alt
}

// converse infers a Bedrock Converse model: whether it takes a thinking
// request (and reasons only when asked), which replay contract it accepts
// for the replayed tool loop, and which signatures it checks.
func (in *inference) converse(ctx context.Context) error {
	t := in.res.Target
	current := &in.opts.Matrix.Table
	type key struct {
		replay   engine.ReasoningReplay
		thinking bool
	}
	answers := map[key]Evidence{}
	calls := map[bool]Evidence{}
	emits := map[bool]bool{}
	for _, thinking := range []bool{true, false} {
		for _, r := range replays {
			conv, err := in.try(ctx, "carriers", nil, converseTable(current, t.Route, r, thinking))
			if err != nil {
				return err
			}
			answers[key{r, thinking}] = in.evidenceOf("carriers", fmt.Sprintf("the replayed tool loop %s, thinking %s", contractWords(r), requested(thinking)), conv, 1)
			if r == engine.ReplayStripped {
				calls[thinking] = in.evidenceOf("carriers", "the tool-call turn, thinking "+requested(thinking), conv, 0)
			}
			if call, ok := exchange(conv, 0); ok && call.Status/100 == 2 && converseReasons(call.Response) {
				emits[thinking] = true
				if in.signing == nil {
					in.converseSigning(call.Response)
				}
			}
		}
	}
	p := &in.res.plan
	p.requestThinking = emits[true] && !emits[false]
	switch {
	case p.requestThinking:
		in.find("thinking request", "needed: the model reasons only when additionalModelRequestFields.thinking asks it to (the answer with reasoningContent, against the answer without)", calls[true], calls[false])
	case emits[false]:
		in.find("thinking request", "not needed: the model reasons unasked (an answer with reasoningContent)", calls[false])
	default:
		in.find("thinking request", "the model returned no reasoningContent, asked or not", calls[true], calls[false])
	}
	th := p.requestThinking
	for _, r := range replays {
		verdict := "refused"
		if answers[key{r, th}].Accepted() {
			verdict = "accepted"
		}
		in.find(string(r)+" replay", verdict, answers[key{r, th}])
	}
	switch {
	case in.signing != nil && answers[key{engine.ReplaySigned, th}].Accepted():
		p.replay = engine.ReplaySigned
	case emits[th] && answers[key{engine.ReplayUnsigned, th}].Accepted():
		p.replay = engine.ReplayUnsigned
	default:
		p.replay = engine.ReplayStripped
	}
	if s := answers[key{engine.ReplayStripped, th}]; emits[th] && s.Recorded() && !s.Accepted() {
		f := in.find("reasoningContent on a tool-call turn", "required (a tool loop replayed without its reasoning is refused)", s)
		in.rules = append(in.rules, providers.Rule{
			ID: "reasoning-missing-before-tool-use", Status: s.Status, Body: s.Body,
			When: providers.Condition{Kind: providers.ConditionToolTurnFieldMissing, Field: "reasoningContent"},
			Note: "recorded verbatim by the probe; evidence: " + f.String(),
		})
	}
	if s, u := answers[key{engine.ReplaySigned, th}], answers[key{engine.ReplayUnsigned, th}]; in.signing != nil && s.Accepted() && u.Recorded() && !u.Accepted() {
		f := in.find("reasoningText without its signature", "refused", s, u)
		in.rules = append(in.rules, providers.Rule{
			ID: "signature-missing", Status: u.Status, Body: u.Body,
			When: providers.Condition{Kind: providers.ConditionSignatureMissing, Field: "reasoningContent.reasoningText.signature"},
			Note: "recorded verbatim by the probe; evidence: " + f.String(),
		})
	}
	if in.signing != nil {
		sr, err := in.try(ctx, "signed-roundtrip", nil, converseTable(current, t.Route, engine.ReplaySigned, th))
		if err != nil {
			return err
		}
		in.signatureRules(sr, "reasoningContent.reasoningText.signature", "the replayed tool loop "+contractWords(engine.ReplaySigned))
	}
	if p.replay != engine.ReplayStripped {
		in.reads = []string{"reasoningContent"}
	}
	in.emits.WhenThinking = p.requestThinking
	in.emits.Stream = providers.StreamAWSEventStream
	return nil
}

func requested(thinking bool) string {
	if thinking {
		return "requested"
	}
	return "not requested"
}

// converseReasons reports whether a Converse answer carries reasoning.
func converseReasons(response []byte) bool {
	found := false
	gjson.GetBytes(response, "output.message.content").ForEach(func(_, b gjson.Result) bool {
		found = b.Get("reasoningContent").Exists()
		return !found
	})
	return found
}

// converseSigning reads what a Converse answer's reasoning carries.
func (in *inference) converseSigning(response []byte) {
	var signed []string
	gjson.GetBytes(response, "output.message.content").ForEach(func(_, b gjson.Result) bool {
		rc := b.Get("reasoningContent")
		if rc.Get("reasoningText.signature").Str != "" {
			signed = appendNew(signed, "reasoningContent.reasoningText.signature")
		}
		if rc.Get("redactedContent").Str != "" {
			signed = appendNew(signed, "reasoningContent.redactedContent")
		}
		return true
	})
	in.emits.Fields = []string{"reasoningContent"}
	in.res.Emitted = in.emits.Fields
	if len(signed) > 0 {
		in.signing = &providers.Signing{Scheme: providers.SchemeThinkingSignature, Fields: signed}
		in.res.Signed = signed
	}
}
