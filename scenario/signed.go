package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/tidwall/gjson"
)

// opaqueKeys name the JSON keys that hold signed or encrypted bytes.
var opaqueKeys = []string{"signature", "thoughtSignature", "thought_signature", "reasoning_opaque", "data", "redactedContent", "encrypted_content"}

var signedRoundtrip = Scenario{
	Name:        "signed-roundtrip",
	Requirement: "Signatures, encrypted and opaque reasoning are captured from whole and streamed responses and echoed byte for byte.",
	Applies: func(t matrix.Target, p *providers.Profile) (bool, string) {
		if p.Signing == nil {
			return false, "the provider neither signs nor encrypts its reasoning"
		}
		return true, ""
	},
	Run: func(ctx context.Context, c *Conv) error {
		c.User(questions[0])
		start := c.Session.Clone()
		call, err := c.Turn(ctx, false)
		if err := accepted("the tool-call turn", call, err); err != nil {
			return err
		}
		issued := opaqueValues(gjson.ParseBytes(call.Exchanges[0].Response))
		if len(issued) == 0 {
			return fail("the tool-call response", "signed or opaque reasoning", "none")
		}
		if err := c.ToolResult("The cache TTL is 0 in CI."); err != nil {
			return err
		}
		beforeReplay := c.Session.Clone()
		answer, err := c.Turn(ctx, false)
		if err := accepted("the turn replaying the signed reasoning", answer, err); err != nil {
			return err
		}
		sent := stringValues(gjson.ParseBytes(answer.Exchanges[0].Body))
		for _, v := range issued {
			if !sent[v] {
				return fail("the replayed request", "every signed/opaque value of the response byte for byte", short(v)+" missing")
			}
		}
		c.Note("%d opaque values replayed byte for byte", len(issued))

		streamed, err := c.TurnOn(ctx, start, true)
		if err := accepted("the streamed tool-call turn", streamed, err); err != nil {
			return err
		}
		if a, b := storedOpaque(call.Message), storedOpaque(streamed.Message); !slices.Equal(a, b) {
			return fail("the streamed capture", fmt.Sprintf("the same opaque values as the whole capture %v", a), fmt.Sprint(b))
		}
		for _, v := range []struct {
			name   string
			mutate func(string) (string, bool)
		}{
			{"tampered", func(s string) (string, bool) { return tamper(s), true }},
			{"missing", func(string) (string, bool) { return "", false }},
			{"foreign", func(string) (string, bool) { return foreignSignature, true }},
		} {
			s := beforeReplay.Clone()
			last := len(s.Messages) - 2
			m, err := mutateOpaque(s.Messages[last], v.mutate)
			if err != nil {
				return err
			}
			s.Messages[last] = m
			res, err := c.TurnOn(ctx, s, false)
			if len(res.Exchanges) > 0 {
				c.Mutations = append(c.Mutations, Mutation{Name: v.name, Exchange: res.Exchanges[0]})
			}
			var refusal *engine.RefusalError
			switch {
			case err == nil && len(res.Exchanges) == 2:
				c.Note("%s signature: refused %d, recovered by leaving it out", v.name, res.Exchanges[0].Status)
			case errors.As(err, &refusal):
				c.Note("%s signature: refused %d", v.name, refusal.Status)
			case err != nil:
				return err
			default:
				c.Note("%s signature: accepted (the provider did not check it)", v.name)
			}
		}
		return textTurnSignature(ctx, c)
	},
}

// opaqueValues collects the string values under opaque keys of a JSON
// document (a whole response; streams are checked through capture).
func opaqueValues(v gjson.Result) []string {
	var out []string
	var walk func(k string, v gjson.Result)
	walk = func(k string, v gjson.Result) {
		switch {
		case v.IsObject() || v.IsArray():
			v.ForEach(func(kk, vv gjson.Result) bool {
				walk(kk.String(), vv)
				return true
			})
		case v.Type == gjson.String && v.Str != "" && slices.Contains(opaqueKeys, k):
			out = append(out, v.Str)
		}
	}
	walk("", v)
	slices.Sort(out)
	return slices.Compact(out)
}

// stringValues is the set of every string value of a JSON document.
func stringValues(v gjson.Result) map[string]bool {
	out := map[string]bool{}
	var walk func(v gjson.Result)
	walk = func(v gjson.Result) {
		if v.IsObject() || v.IsArray() {
			v.ForEach(func(_, vv gjson.Result) bool {
				walk(vv)
				return true
			})
		} else if v.Type == gjson.String {
			out[v.Str] = true
		}
	}
	walk(v)
	return out
}

// storedOpaque returns the opaque values a stored message holds.
func storedOpaque(m engine.Message) []string {
	b, _ := json.Marshal(m)
	return opaqueValues(gjson.ParseBytes(b))
}

// mutateOpaque rewrites every opaque value of a stored message: a new
// value, or the key removed when keep is false.
func mutateOpaque(m engine.Message, f func(string) (string, bool)) (engine.Message, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return m, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return m, err
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch t := v.(type) {
		case map[string]any:
			for k, vv := range t {
				if s, ok := vv.(string); ok && s != "" && slices.Contains(opaqueKeys, k) {
					if nv, keep := f(s); keep {
						t[k] = nv
					} else {
						delete(t, k)
					}
					continue
				}
				t[k] = walk(vv)
			}
		case []any:
			for i := range t {
				t[i] = walk(t[i])
			}
		}
		return v
	}
	out, err := json.Marshal(walk(doc))
	if err != nil {
		return m, err
	}
	var back engine.Message
	err = json.Unmarshal(out, &back)
	return back, err
}

// foreignSignature stands for a signature another provider issued: well
// formed, but not this provider's.
const foreignSignature = "Zm9yZWlnbi1zaWduYXR1cmUtaXNzdWVkLWJ5LWFub3RoZXItcHJvdmlkZXI="

// tamper flips one character of an opaque value, keeping its alphabet.
func tamper(s string) string {
	i := len(s) / 2
	c := s[i]
	r := byte('A')
	if c == 'A' {
		r = 'B'
	}
	return s[:i] + string(r) + s[i+1:]
}

func short(s string) string {
	if len(s) > 24 {
		return strings.TrimSpace(s[:24]) + "…"
	}
	return s
}

// OpaqueFields names the keys under which a response carries signed or
// encrypted bytes, sorted; empty for a provider that signs nothing.
func OpaqueFields(response []byte) []string {
	var out []string
	var walk func(k string, v gjson.Result)
	walk = func(k string, v gjson.Result) {
		switch {
		case v.IsObject() || v.IsArray():
			v.ForEach(func(kk, vv gjson.Result) bool {
				walk(kk.String(), vv)
				return true
			})
		case v.Type == gjson.String && v.Str != "" && slices.Contains(opaqueKeys, k):
			out = append(out, k)
		}
	}
	walk("", gjson.ParseBytes(response))
	slices.Sort(out)
	return slices.Compact(out)
}
