package sim

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/replaycheck/replaycheck/providers"
)

// Responses profiles as the committed ones configure them: OpenAI's
// encrypted summaries, DeepSeek's readable content with a reference, a
// relay's signed readable content.
func openaiRespProfile(edit ...func(p *providers.Profile)) *providers.Profile {
	return profile("oai", modeResponses, []string{"reasoning.summary", "reasoning.encrypted_content"},
		append([]func(p *providers.Profile){reads("reasoning"), signing(providers.SchemeEncryptedContent, respEncrypted)}, edit...)...)
}

func deepseekRespProfile(edit ...func(p *providers.Profile)) *providers.Profile {
	return profile("dsr", modeResponses, []string{"reasoning.content", "reasoning.encrypted_content"}, append([]func(p *providers.Profile){reads("reasoning")}, edit...)...)
}

func relayRespProfile(edit ...func(p *providers.Profile)) *providers.Profile {
	return profile("orr", modeResponses, []string{"reasoning.content"},
		append([]func(p *providers.Profile){reads("reasoning"), signing(providers.SchemeThinkingSignature, respSignature)}, edit...)...)
}

const (
	respPath   = "/v1/responses"
	respTool   = `{"model":"gpt-x","input":[{"role":"user","content":"` + userQuestion + `"}],"tools":[{"type":"function","name":"get_weather","parameters":{"type":"object"}}],"include":["reasoning.encrypted_content"],"store":false}`
	respAnswer = `{"model":"gpt-x","input":[{"role":"user","content":[{"type":"input_text","text":"` + userQuestion + `"}]}],"store":false}`
)

// replayTurn appends a whole answer's output and a function_call_output
// for its call (when it has one) to a request's input, as a stateless
// client does.
func replayTurn(t *testing.T, req string, answer gjson.Result) string {
	t.Helper()
	var items []string
	answer.Get("output").ForEach(func(_, it gjson.Result) bool {
		items = append(items, it.Raw)
		if it.Get("type").Str == "function_call" {
			items = append(items, `{"type":"function_call_output","call_id":`+q(it.Get("call_id").Str)+`,"output":"sunny"}`)
		}
		return true
	})
	out := appendRaw(t, req, "input", items...)
	out, _ = sjson.Delete(out, "tools")
	return out
}

func TestResponsesReply(t *testing.T) {
	reasoning := wantReasoning(userQuestion)
	for _, tc := range []struct {
		reason  string
		profile *providers.Profile
		request string
		types   string
		check   func(s *Simulator, rs gjson.Result) string
	}{
		{"OpenAI: a summary and encrypted content that opens for the model, then the call", openaiRespProfile(), respTool, "reasoning,function_call",
			func(s *Simulator, rs gjson.Result) string {
				tok, parsed := s.g.decrypt(rs.Get("encrypted_content").Str)
				if !parsed || !tok.genuine || tok.model != "gpt-x" || tok.text != reasoning || !strings.HasPrefix(rs.Get("encrypted_content").Str, "gAAAAAB") {
					return "the encrypted content does not open to the reasoning for gpt-x"
				}
				if rs.Get("summary.0.text").Str != reasoning || rs.Get("content").Exists() || rs.Get("signature").Exists() {
					return "want the reasoning as a summary, nothing else"
				}
				return ""
			}},
		{"DeepSeek: readable content and a plain reference to the response", deepseekRespProfile(), respAnswer, "reasoning,message",
			func(s *Simulator, rs gjson.Result) string {
				if rs.Get("content.0.text").Str != reasoning || !strings.HasPrefix(rs.Get("encrypted_content").Str, "resp_") || rs.Get("summary").Raw != "[]" {
					return "want reasoning_text content, an empty summary and a response reference"
				}
				return ""
			}},
		{"a relay: readable content signed", relayRespProfile(), respAnswer, "reasoning,message",
			func(s *Simulator, rs gjson.Result) string {
				if !s.g.verify(reasoning, rs.Get("signature").Str) || rs.Get("encrypted_content").Exists() {
					return "want a signature over the content and no encrypted content"
				}
				return ""
			}},
	} {
		s := newSim(t, tc.profile, testSeed)
		whole := mustJSON(t, post(s, respPath, tc.request))
		var types []string
		whole.Get("output.#.type").ForEach(func(_, v gjson.Result) bool { types = append(types, v.Str); return true })
		if strings.Join(types, ",") != tc.types || whole.Get("status").Str != "completed" || whole.Get("object").Str != "response" {
			t.Errorf("%s: output types %v, status %s", tc.reason, types, whole.Get("status"))
			continue
		}
		if msg := tc.check(s, whole.Get("output.0")); msg != "" {
			t.Errorf("%s: %s: %s", tc.reason, msg, whole.Get("output.0").Raw)
		}
		rsID, nextID := whole.Get("output.0.id").Str, whole.Get("output.1.id").Str
		if pair := s.g.ownPair(rsID, "rs_"); pair == "" || !strings.HasSuffix(nextID, pair) {
			t.Errorf("%s: ids %s and %s do not share a simulator pair id", tc.reason, rsID, nextID)
		}

		// Streamed: named events, each item added then done, the final
		// response's output equal to the finished items, and the same
		// opaque values as the whole answer.
		rec := post(s, respPath, streamed(tc.request))
		events := parseSSE(rec.Body.String())
		if rec.Header().Get("Content-Type") != "text/event-stream" || len(events) < 6 {
			t.Fatalf("%s: stream of %d events (%s)", tc.reason, len(events), rec.Header().Get("Content-Type"))
		}
		var done []string
		for i, ev := range events {
			d := gjson.Parse(ev.data)
			if d.Get("type").Str != ev.name || d.Get("sequence_number").Int() != int64(i) {
				t.Errorf("%s: event %d named %s, type %s, sequence %d", tc.reason, i, ev.name, d.Get("type"), d.Get("sequence_number").Int())
			}
			if ev.name == "response.output_item.done" {
				done = append(done, d.Get("item").Raw)
			}
		}
		last := gjson.Parse(events[len(events)-1].data)
		var final []string
		last.Get("response.output").ForEach(func(_, it gjson.Result) bool { final = append(final, it.Raw); return true })
		if last.Get("type").Str != "response.completed" || strings.Join(final, "\n") != strings.Join(done, "\n") {
			t.Errorf("%s: the final response's output differs from the finished items", tc.reason)
		}
		for _, key := range []string{"encrypted_content", "signature"} {
			if w, st := whole.Get("output.0."+key).Str, gjson.Parse(done[0]).Get(key).Str; key == "signature" && w != st || key == "encrypted_content" && strings.HasPrefix(w, "gAAAA") && w != st {
				t.Errorf("%s: %s differs whole (%.20s) and streamed (%.20s)", tc.reason, key, w, st)
			}
		}
	}
}

// TestResponsesRules evaluates each Responses condition.
func TestResponsesRules(t *testing.T) {
	s := newSim(t, openaiRespProfile(), testSeed)
	first := mustJSON(t, post(s, respPath, respTool))
	replay := replayTurn(t, respTool, first)
	rsID, fcID := first.Get("output.0.id").Str, first.Get("output.1.id").Str
	enc := first.Get("output.0.encrypted_content").Str
	foreign := mustJSON(t, post(newSim(t, openaiRespProfile(), "other-seed"), respPath, respTool)).Get("output.0.encrypted_content").Str
	set := func(path, v string) string {
		out, err := sjson.Set(replay, path, v)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	del := func(path string) string {
		out, err := sjson.Delete(replay, path)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	itemBody := `{"error":{"item":"{item}","type":"{item_type}","ref":"{ref}","path":"{path}"}}`
	for _, tc := range []struct {
		reason  string
		kind    string
		field   string
		model   string
		body    string
		path    string // "" means accepted
		item    string
		typ, rf string
	}{
		{"the replayed turn as issued", providers.ConditionReasoningWithoutFollower, "", "", replay, "", "", "", ""},
		{"a reasoning item without the item it led to", providers.ConditionReasoningWithoutFollower, "", "", del("input.2"), "input.1", rsID, "reasoning", ""},
		{"the following item without its id", providers.ConditionReasoningWithoutFollower, "", "", del("input.2.id"), "input.1", rsID, "reasoning", ""},
		{"an item sent with its id but without its reasoning", providers.ConditionItemWithoutReasoning, "", "", del("input.1"), "input.1", fcID, "function_call", rsID},
		{"the same item without its id stands alone", providers.ConditionItemWithoutReasoning, "", "", strings.Replace(del("input.1"), `"id":"`+fcID+`",`, "", 1), "", "", "", ""},
		{"a call without its output", providers.ConditionToolOutputMissing, "", "", del("input.3"), "input.2", first.Get("output.1.call_id").Str, "function_call", ""},
		{"tampered encrypted content", providers.ConditionSignatureInvalid, respEncrypted, "", set("input.1.encrypted_content", enc[:40]+"A"+enc[41:]), "input.1.encrypted_content", rsID, "reasoning", ""},
		{"encrypted content issued under another key", providers.ConditionSignatureInvalid, respEncrypted, "", set("input.1.encrypted_content", foreign), "input.1.encrypted_content", rsID, "reasoning", ""},
		{"not a token at all", providers.ConditionSignatureInvalid, respEncrypted, "", set("input.1.encrypted_content", "Zm9yZWlnbg=="), "input.1.encrypted_content", rsID, "reasoning", ""},
		{"the genuine content verifies", providers.ConditionSignatureInvalid, respEncrypted, "", replay, "", "", "", ""},
		{"a reasoning item without its encrypted content", providers.ConditionSignatureMissing, respEncrypted, "", del("input.1.encrypted_content"), "input.1.encrypted_content", rsID, "reasoning", ""},
		{"content sealed for another model", providers.ConditionSealedBlobForeign, respEncrypted, "", set("model", "gpt-y"), "input.1.encrypted_content", rsID, "reasoning", ""},
	} {
		p := openaiRespProfile(withRule(cond(tc.kind, tc.field), func(r *providers.Rule) { r.Body = itemBody }))
		rec := post(newSim(t, p, testSeed), respPath, tc.body)
		if tc.path == "" {
			if rec.Code != 200 {
				t.Errorf("%s: %d %s, want 200", tc.reason, rec.Code, rec.Body)
			}
			continue
		}
		b := mustJSON(t, rec)
		if rec.Code != 400 || b.Get("error.path").Str != tc.path || b.Get("error.item").Str != tc.item || b.Get("error.type").Str != tc.typ || b.Get("error.ref").Str != tc.rf && tc.rf != "" {
			t.Errorf("%s: %d %s; want path %s, item %s, type %s, ref %s", tc.reason, rec.Code, rec.Body, tc.path, tc.item, tc.typ, tc.rf)
		}
	}

	// A relay's signature over the readable content.
	r := newSim(t, relayRespProfile(withRule(cond(providers.ConditionSignatureInvalid, respSignature))), testSeed)
	signed := replayTurn(t, respTool, mustJSON(t, post(r, respPath, respTool)))
	if rec := post(r, respPath, signed); rec.Code != 200 {
		t.Errorf("a genuine signature: %d %s", rec.Code, rec.Body)
	}
	edited, _ := sjson.Set(signed, "input.1.content.0.text", "edited")
	if rec := post(r, respPath, edited); rec.Code != 400 || mustJSON(t, rec).Get("error.path").Str != "input.1.signature" {
		t.Errorf("edited content under its signature: %d %s", rec.Code, rec.Body)
	}
}

// TestResponsesMemos: the model sees again the reasoning of a genuine
// encrypted item (or a readable one), never a summary alone.
func TestResponsesMemos(t *testing.T) {
	memo := "memo:" + memoOf(userQuestion)
	for _, tc := range []struct {
		reason  string
		profile *providers.Profile
		edit    func(string) string
		sees    bool
	}{
		{"the encrypted item as issued", openaiRespProfile(), func(s string) string { return s }, true},
		{"the summary alone (no encrypted content)", openaiRespProfile(), func(s string) string { out, _ := sjson.Delete(s, "input.1.encrypted_content"); return out }, false},
		{"readable content (DeepSeek)", deepseekRespProfile(), func(s string) string { return s }, true},
		{"the reasoning item left out", openaiRespProfile(), func(s string) string { out, _ := sjson.Delete(s, "input.1"); return out }, false},
	} {
		s := newSim(t, tc.profile, testSeed)
		replay := tc.edit(replayTurn(t, respTool, mustJSON(t, post(s, respPath, respTool))))
		answer := mustJSON(t, post(s, respPath, replay)).Get("output.1.content.0.text").Str
		if strings.Contains(answer, memo) != tc.sees {
			t.Errorf("%s: answer %q, sees %s: want %v", tc.reason, answer, memo, tc.sees)
		}
	}
}
