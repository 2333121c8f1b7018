package gemini

import (
	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// Carried names the reasoning a request body carries on model contents:
// "thoughtSignature" when a part has one.
func (Dialect) Carried(body []byte) []string {
	out := []string{}
	found := false
	gjson.GetBytes(body, "contents").ForEach(func(_, c gjson.Result) bool {
		if c.Get("role").Str != "model" {
			return true
		}
		c.Get("parts").ForEach(func(_, p gjson.Result) bool {
			found = found || p.Get("thoughtSignature").Str != ""
			return !found
		})
		return !found
	})
	if found {
		out = append(out, "thoughtSignature")
	}
	return out
}

// Learn recognises nothing: a Gemini refusal about signatures ("Function
// call is missing a thought_signature") cannot be repaired by resending
// less, and the engine never invents a signature.
func (Dialect) Learn(*engine.Session, *engine.Table, engine.Decision, []byte, int, []byte) (string, bool) {
	return "", false
}

// Reshape returns the body unchanged: [Dialect.Learn] never records a
// verdict, so there is nothing to reconcile.
func (Dialect) Reshape(body []byte, _ *engine.Session, _ engine.Decision, _ engine.Request) ([]byte, error) {
	return append([]byte(nil), body...), nil
}
