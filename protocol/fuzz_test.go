package protocol

import (
	"testing"
)

// FuzzDecodeReply feeds arbitrary lines to the strict reply decoder and
// to every result type: it never panics, and a reply it accepts encodes
// and reads back with the same id.
func FuzzDecodeReply(f *testing.F) {
	for _, seed := range []string{
		`{"id":1,"result":{"carriers":["reasoning_content"],"pad":true}}`,
		`{"id":2,"unsupported":{"reason":"no","issue_url":"https://example.com"}}`,
		`{"id":3,"error":{"message":"boom"}}`,
		`{"id":4,"result":{"learnt":true,"verdict":"v","model_config":{"rejected_carriers":[{"provider":"p","host":"h","model":"m","carriers":["reasoning"]}]}}}`,
		`{"id":5,"result":{"session":{"messages":[{"role":"user","content":"x"}]},"dropped":1,"before":9,"after":3,"cannot_shrink":false}}`,
		`{"id":6,"result":{"implementation":{"name":"a","version":"1"},"protocol":1,"api_modes":["chat"]}}`,
		`{"id":7,"ID":7}`, `{"id":1} x`, `[`, ``, `{"id":1e400}`, `{"id":1,"result":{"body":{"a":[1,{"b":null}]}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var rep Reply
		if decodeStrict(line, &rep, "") != nil {
			return
		}
		b, err := encodeLine(rep)
		if err != nil {
			t.Fatalf("an accepted reply does not encode: %v", err)
		}
		var again Reply
		if err := decodeStrict(b, &again, ""); err != nil || again.ID != rep.ID {
			t.Fatalf("an accepted reply, encoded again, reads back as %+v, %v", again, err)
		}
		if rep.Result != nil {
			for _, into := range []any{&Hello{}, &Decision{}, &BodyResult{}, &MessageResult{}, &LearnResult{}, &EstimateResult{}, &CompactResult{}, &SessionResult{}} {
				_ = decodeStrict(rep.Result, into, "result")
			}
			var m MessageResult
			if decodeStrict(rep.Result, &m, "result") == nil {
				_, _ = decodeMessage(m.Message, "result.message")
			}
			var s SessionResult
			if decodeStrict(rep.Result, &s, "result") == nil {
				_, _ = decodeSession(s.Session, "result.session")
			}
			var d Decision
			if decodeStrict(rep.Result, &d, "result") == nil {
				_, _ = d.decision(testRoute, "result")
			}
		}
	})
}
