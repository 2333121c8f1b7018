package probe

import (
	"context"

	"github.com/replaycheck/replaycheck/providers"
	"github.com/tidwall/gjson"
)

// gemini infers a native Gemini route: whether the replayed tool loop is
// accepted, whether the provider signs its parts (thoughtSignature), and
// which altered signatures it refuses. The Gemini dialect replays what the
// provider issued, so the only table decision is native_fields: whether
// the provider's routes read the private Gemini fields.
func (in *inference) gemini(ctx context.Context) error {
	conv, err := in.try(ctx, "carriers", nil, nil)
	if err != nil {
		return err
	}
	if call, ok := exchange(conv, 0); ok && call.Status/100 == 2 {
		in.emits.Fields = []string{}
		if geminiSigns(call.Response) {
			in.emits.Fields = []string{"thoughtSignature"}
			in.signing = &providers.Signing{Scheme: providers.SchemeThoughtSignature, Fields: []string{"thoughtSignature"}}
			in.res.Signed = []string{"thoughtSignature"}
		}
		in.res.Emitted = in.emits.Fields
	}
	answer := in.evidenceOf("carriers", "the replayed tool loop as the provider issued it", conv, 1)
	verdict := "refused"
	if answer.Accepted() {
		verdict = "accepted"
	}
	in.find("the replayed tool loop", verdict, answer)
	if in.signing != nil {
		in.reads = []string{"thoughtSignature"}
		sr, err := in.try(ctx, "signed-roundtrip", nil, nil)
		if err != nil {
			return err
		}
		in.signatureRules(sr, "thoughtSignature", "the replayed tool loop")
		in.res.plan.nativeField = true
	}
	in.emits.Stream = providers.StreamSSE
	return nil
}

// geminiSigns reports whether a generateContent response carries a
// thoughtSignature on some part.
func geminiSigns(response []byte) bool {
	signs := false
	gjson.GetBytes(response, "candidates.0.content.parts").ForEach(func(_, p gjson.Result) bool {
		signs = p.Get("thoughtSignature").Str != ""
		return !signs
	})
	return signs
}
