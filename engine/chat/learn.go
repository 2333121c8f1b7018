package chat

import (
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// SentCarriers returns the standard carriers present as keys on any
// assistant message of a request body.
func SentCarriers(body []byte) engine.CarrierSet {
	var s engine.CarrierSet
	gjson.GetBytes(body, "messages").ForEach(func(_, m gjson.Result) bool {
		if m.Get("role").String() != "assistant" {
			return true
		}
		for _, c := range engine.AllCarriers {
			if m.Get(string(c)).Exists() {
				s = s.With(c)
			}
		}
		return true
	})
	return s
}

// Carried names the reasoning keys present on any assistant message of a
// request body: the standard carriers and the private native fields.
func (Dialect) Carried(body []byte) []string {
	out := SentCarriers(body).Names()
	seen := map[string]bool{}
	gjson.GetBytes(body, "messages").ForEach(func(_, m gjson.Result) bool {
		if m.Get("role").String() != "assistant" {
			return true
		}
		for _, k := range []string{"extra_content", "reasoning_opaque", "reasoning_text"} {
			if m.Get(k).Exists() {
				seen[k] = true
			}
		}
		return true
	})
	for _, k := range []string{"extra_content", "reasoning_opaque", "reasoning_text"} {
		if seen[k] {
			out = append(out, k)
		}
	}
	return out
}

// Learn applies SPEC §6 to a refusal: an unknown-field refusal naming a
// carrier the request sent is recorded for the route and reported, so the
// caller retries once without it.
func (Dialect) Learn(s *engine.Session, t *engine.Table, d engine.Decision, sent []byte, status int, body []byte) (string, bool) {
	added := engine.LearnCarrierRefusal(s, t, d.Route, SentCarriers(sent), status, body)
	if added.Empty() {
		return "", false
	}
	k := d.Route.Key()
	return fmt.Sprintf("%s %s %s refused %s: recorded, retrying once without it", k.Provider, k.Host, k.Model, added), true
}
