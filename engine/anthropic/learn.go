package anthropic

import (
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/bedrock"
	"github.com/tidwall/gjson"
)

// Carried names the thinking a request body carries on assistant messages:
// "thinking", "signature" (a signed thinking block) and
// "redacted_thinking", in that order.
func (Dialect) Carried(body []byte) []string {
	var th, sig, red bool
	engine.EachAssistantBlock(body, func(b gjson.Result) {
		switch b.Get("type").Str {
		case "thinking":
			th = true
			sig = sig || b.Get("signature").Str != ""
		case "redacted_thinking":
			red = true
		}
	})
	out := []string{}
	for _, c := range []struct {
		on   bool
		name string
	}{{th, "thinking"}, {sig, "signature"}, {red, "redacted_thinking"}} {
		if c.on {
			out = append(out, c.name)
		}
	}
	return out
}

// signedFingerprints returns the fingerprints of every signed block of the
// assistant messages of a request body: thinking by signature,
// redacted_thinking by data.
func signedFingerprints(body []byte) []string {
	var fps []string
	engine.EachAssistantBlock(body, func(b gjson.Result) {
		switch b.Get("type").Str {
		case "thinking":
			if s := b.Get("signature").Str; s != "" {
				fps = append(fps, engine.Fingerprint("thinking", s))
			}
		case "redacted_thinking":
			if d := b.Get("data").Str; d != "" {
				fps = append(fps, engine.Fingerprint("redacted_thinking", d))
			}
		}
	})
	return fps
}

// Learn handles a signature refusal ("Invalid signature in thinking block",
// with or without backticks) of the sent request (SPEC §4.1). On a route
// that learns rejections, every signed block of the refused request is
// fingerprinted into the session's RejectedSignatures (persisted with the
// model config, so resume, compaction and branches keep it) and the retry
// leaves them out, as does every later request. On other routes, or when
// the request held nothing to fingerprint, the retry alone goes without
// thinking and nothing is recorded, since recording would also drop later
// valid signatures. A request that carried no thinking, or only blocks
// already recorded, is not retried.
func (dl Dialect) Learn(s *engine.Session, t *engine.Table, d engine.Decision, sent []byte, status int, body []byte) (string, bool) {
	if status < 400 || status > 499 || !bedrock.IsSignatureRejection(body) {
		return "", false
	}
	pol := dl.policy()
	if t != nil {
		pol = t.Dialects.Anthropic
	}
	model := d.Route.Model
	if m := gjson.GetBytes(sent, "model"); m.Type == gjson.String {
		model = m.Str
	}
	rp := pol.Decide(d.Route.BaseURL, model)
	if fps := signedFingerprints(sent); rp.LearnRejections && len(fps) > 0 {
		n := engine.AddFingerprints(&s.Config.RejectedSignatures, fps...)
		if n == 0 {
			return "", false
		}
		return fmt.Sprintf("%s (%s) rejected a thinking signature: recorded %d signed block(s) as rejected for this session, retrying once without them", model, rp.Route, n), true
	}
	if len(Dialect{}.Carried(sent)) == 0 {
		return "", false
	}
	return fmt.Sprintf("%s (%s) rejected a thinking signature: retrying this request once without thinking (nothing recorded)", model, routeName(rp.Route)), true
}

func routeName(id string) string {
	if id == "" {
		return "unknown relay"
	}
	return id
}
