package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// chatCarriers are the chat keys that carry reasoning on an assistant
// message, the standard ones first.
var chatCarriers = []string{"reasoning_content", "reasoning", "reasoning_details", "reasoning_text", "reasoning_opaque"}

// carriersOn lists the reasoning the assistant turn holding tool call id
// carries in a request body ("reasoning_content \" \"" for the pad, with
// its value when blank; an Anthropic thinking block by its signature,
// thinkingLabel), and whether the dialect's turns are read at all
// (chat and anthropic are).
func carriersOn(mode string, body []byte, id string) ([]string, bool) {
	msgs := gjson.GetBytes(body, "messages").Array()
	switch mode {
	case "chat":
		for _, m := range msgs {
			if m.Get("role").String() != "assistant" || !holdsCall(m.Get("tool_calls"), "id", id) {
				continue
			}
			var out []string
			for _, k := range chatCarriers {
				v := m.Get(gjson.Escape(k))
				switch {
				case !v.Exists():
				case v.Type == gjson.String && strings.TrimSpace(v.Str) == "":
					out = append(out, fmt.Sprintf("%s %q", k, v.Str))
				case v.Type == gjson.Null:
					out = append(out, k+" null")
				default:
					out = append(out, k)
				}
			}
			for _, c := range m.Get("tool_calls").Array() {
				if c.Get("extra_content.google.thought_signature").Exists() {
					out = append(out, "extra_content.google.thought_signature")
					break
				}
			}
			return out, true
		}
		return nil, true
	case "anthropic":
		for _, m := range msgs {
			if m.Get("role").String() != "assistant" || !holdsCall(m.Get("content"), "id", id) {
				continue
			}
			var out []string
			for _, b := range m.Get("content").Array() {
				switch t := b.Get("type").String(); t {
				case "thinking":
					out = append(out, thinkingLabel(b))
				case "redacted_thinking":
					out = append(out, t)
				}
			}
			return out, true
		}
		return nil, true
	}
	return nil, false
}

// thinkingLabel names an Anthropic thinking block as sent: signed, its
// signature dropped or blank, or a blank unsigned pad (shown with its
// value, as the chat pad is).
func thinkingLabel(b gjson.Result) string {
	sig := b.Get("signature")
	switch {
	case sig.Type == gjson.String && sig.Str != "":
		return "thinking (signed)"
	case sig.Exists():
		return "thinking (signature " + sig.Raw + ")"
	case strings.TrimSpace(b.Get("thinking").String()) == "":
		return fmt.Sprintf("thinking %q", b.Get("thinking").String())
	}
	return "thinking (unsigned)"
}

// holdsCall reports whether a list has an element whose key is id.
func holdsCall(list gjson.Result, key, id string) bool {
	for _, e := range list.Array() {
		if e.Get(key).String() == id {
			return true
		}
	}
	return false
}

// anthropicCarriers are the Anthropic content blocks that carry reasoning
// on an assistant turn.
var anthropicCarriers = []string{"thinking", "redacted_thinking"}

// checkCarriers holds an accepted chat or Anthropic tool-result request
// to what the provider reads: when the tool-call answer carried a carrier the
// provider feeds back to the model, the agent must send one back, or the
// model reasons again from scratch (the seed's quality cliff; an
// undeclared advisory fails, as in `run`).
func checkCarriers(j *judgement) verdict {
	var blocks []string
	switch j.target.Route.APIMode {
	case "chat":
		blocks = chatCarriers
	case "anthropic":
		blocks = anthropicCarriers
	default:
		return verdict{}
	}
	var want []string
	for _, c := range blocks {
		if slices.Contains(j.profile.Reads, c) && slices.Contains(j.profile.Emits.Fields, c) {
			want = append(want, c)
		}
	}
	if len(want) == 0 {
		return verdict{}
	}
	first := j.judged[0]
	sent, _ := carriersOn(string(j.target.Route.APIMode), first.Body, j.call.ToolCall)
	for _, s := range sent {
		// An Anthropic block is named with its signature ("thinking
		// (signed)"), and redacted thinking is thinking; a blank pad
		// (`thinking " "`, `reasoning_content " "`) carries none.
		k, how, _ := strings.Cut(s, " ")
		if how != "" && !strings.HasPrefix(how, "(") {
			continue
		}
		if k == "redacted_thinking" {
			k = "thinking"
		}
		if slices.Contains(want, k) {
			return verdict{}
		}
	}
	return verdict{
		status: report.StatusFail,
		detail: fmt.Sprintf("%srequest %d (the tool result) accepted, but %s; the provider reads %s back, which its answer carried: the model reasons again from scratch",
			scenario.UndeclaredAdvisory, first.Index, j.sent(first), strings.Join(want, ", ")),
		expected: "the tool-call turn sends back " + strings.Join(want, " or "),
		actual:   j.sent(first),
	}
}

// opaqueKeys name the JSON members that carry signed or encrypted
// reasoning in an answer.
var opaqueKeys = []string{"signature", "thought_signature", "thoughtSignature", "reasoning_opaque", "encrypted_content", "redactedContent"}

// checkSigned holds an accepted request to echoing every signature and
// encrypted value the tool-call answer carried, byte for byte.
func checkSigned(j *judgement) verdict {
	issued := opaqueValues(j.call.Response)
	if len(issued) == 0 {
		return verdict{}
	}
	first := j.judged[0]
	echoed := stringsIn(first.Body)
	for _, o := range issued {
		if v := o.value; !echoed[v] {
			return verdict{
				status: report.StatusFail,
				detail: fmt.Sprintf("request %d (the tool result) accepted, but the %s the tool-call answer carried (%s, %d bytes) is not echoed byte for byte; %s",
					first.Index, o.key, abbreviate(v), len(v), j.sent(first)),
				expected: "every signature and encrypted value echoed byte for byte",
				actual:   j.sent(first),
			}
		}
	}
	return verdict{}
}

// An opaque value is a signed or encrypted string an answer carried, by
// the member that carried it.
type opaque struct{ key, value string }

// opaqueValues collects the opaque strings of an answer, whole or an SSE
// stream of JSON events (signatures arrive whole, in one event).
func opaqueValues(resp []byte) []opaque {
	var docs [][]byte
	if gjson.ValidBytes(resp) {
		docs = [][]byte{resp}
	} else {
		for _, line := range bytes.Split(resp, []byte("\n")) {
			if d, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:")); ok && gjson.ValidBytes(bytes.TrimSpace(d)) {
				docs = append(docs, bytes.TrimSpace(d))
			}
		}
	}
	var out []opaque
	var walk func(v gjson.Result)
	walk = func(v gjson.Result) {
		v.ForEach(func(k, e gjson.Result) bool {
			isOpaque := k.Type == gjson.String && slices.Contains(opaqueKeys, k.Str)
			if k.Str == "data" {
				t := v.Get("type").String()
				isOpaque = t == "redacted_thinking" || t == "reasoning.encrypted"
			}
			o := opaque{k.Str, e.Str}
			if isOpaque && e.Type == gjson.String && len(e.Str) >= 16 && !slices.Contains(out, o) {
				out = append(out, o)
			}
			if e.IsObject() || e.IsArray() {
				walk(e)
			}
			return true
		})
	}
	for _, d := range docs {
		walk(gjson.ParseBytes(d))
	}
	return out
}

// stringsIn is the set of every string value in a JSON body.
func stringsIn(body []byte) map[string]bool {
	out := map[string]bool{}
	var walk func(v gjson.Result)
	walk = func(v gjson.Result) {
		v.ForEach(func(_, e gjson.Result) bool {
			switch {
			case e.Type == gjson.String:
				out[e.Str] = true
			case e.IsObject() || e.IsArray():
				walk(e)
			}
			return true
		})
	}
	walk(gjson.ParseBytes(body))
	return out
}

// checkFlags holds an accepted request to carrying the provider's
// keep-thinking flag for the model.
func checkFlags(j *judgement) verdict {
	first := j.judged[0]
	for _, f := range j.profile.Flags {
		if f.Effect != providers.EffectKeepsPriorReasoning || !f.AppliesTo(j.target.Route.Model) {
			continue
		}
		got := gjson.GetBytes(first.Body, f.Path)
		if got.Exists() && sameJSON(got.Value(), f.Value) {
			continue
		}
		want, _ := json.Marshal(f.Value)
		have := "no " + f.Path
		if got.Exists() {
			have = f.Path + ": " + got.Raw
		}
		return verdict{
			status: report.StatusFail,
			detail: fmt.Sprintf("request %d (the tool result) accepted, but it carries %s, not the keep-thinking flag %s: %s (%s): without it the provider drops earlier turns' reasoning",
				first.Index, have, f.Path, want, f.Source),
			expected: fmt.Sprintf("%s: %s", f.Path, want),
			actual:   have,
		}
	}
	return verdict{}
}

// sameJSON compares two decoded JSON values, numbers as float64.
func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	var va, vb any
	_ = json.Unmarshal(ja, &va)
	_ = json.Unmarshal(jb, &vb)
	return reflect.DeepEqual(va, vb)
}

// abbreviate shows the start of an opaque value.
func abbreviate(s string) string {
	if len(s) > 12 {
		return s[:12] + "…"
	}
	return s
}
