package probe

import (
	"context"

	"github.com/replaycheck/replaycheck/providers"
	"github.com/tidwall/gjson"
)

// responses infers an OpenAI Responses route: whether its own reasoning
// items replayed in position are accepted, what they carry (summary,
// readable content, encrypted content), and which altered encrypted
// content it refuses. The table decision is responses.families: which
// hosts share the provider's items.
func (in *inference) responses(ctx context.Context) error {
	conv, err := in.try(ctx, "carriers", nil, nil)
	if err != nil {
		return err
	}
	if call, ok := exchange(conv, 0); ok && call.Status/100 == 2 {
		in.responsesEmits(call.Response)
	}
	answer := in.evidenceOf("carriers", "the tool loop with its reasoning items replayed in position", conv, 1)
	verdict := "refused"
	if answer.Accepted() {
		verdict = "accepted"
		in.reads = []string{"reasoning"}
	}
	in.find("reasoning items replayed to their issuer", verdict, answer)
	if in.signing != nil {
		sr, err := in.try(ctx, "signed-roundtrip", nil, nil)
		if err != nil {
			return err
		}
		in.signatureRules(sr, "reasoning.encrypted_content", "the tool loop with its reasoning items")
	}
	in.res.plan.family = true
	in.emits.Stream = providers.StreamSSE
	return nil
}

// responsesEmits reads the reasoning items of a Responses answer.
func (in *inference) responsesEmits(response []byte) {
	fields := []string{}
	gjson.GetBytes(response, "output").ForEach(func(_, it gjson.Result) bool {
		if it.Get("type").Str != "reasoning" {
			return true
		}
		if it.Get("summary.0").Exists() {
			fields = appendNew(fields, "reasoning.summary")
		}
		if it.Get("content.0").Exists() {
			fields = appendNew(fields, "reasoning.content")
		}
		if it.Get("encrypted_content").Str != "" {
			fields = appendNew(fields, "reasoning.encrypted_content")
			in.signing = &providers.Signing{Scheme: providers.SchemeEncryptedContent, Fields: []string{"reasoning.encrypted_content"}}
			in.res.Signed = []string{"reasoning.encrypted_content"}
		}
		return true
	})
	in.emits.Fields = fields
	in.res.Emitted = fields
}
