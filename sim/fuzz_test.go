package sim

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/providers"
)

// FuzzServeHTTP feeds random bodies to every dialect, whole and streamed,
// with rules of every kind: the simulator must never panic and must always
// answer 200 or 4xx.
func FuzzServeHTTP(f *testing.F) {
	for _, seed := range []string{
		chatToolRequest, streamed(chatAnswerRequest), anthropicTool, streamed(anthropicAnswer),
		converseTool, geminiTool, geminiAnswer, "", "{", "[]", `{"messages":{}}`, `{"contents":[1,"x",null]}`,
		`{"messages":[{"role":"assistant","content":[{"type":"thinking"}],"tool_calls":{"a":1}},{"role":"user"}]}`,
		`{"messages":[{"role":"assistant","reasoning_details":[{"type":"reasoning.encrypted","data":7}],"reasoning_opaque":[]}]}`,
		`{"contents":[{"role":"model","parts":[{"functionCall":1,"thoughtSignature":{}}]}],"tools":[{"functionDeclarations":"x"}]}`,
	} {
		f.Add(seed)
	}
	sims := fuzzSims(f)
	f.Fuzz(func(t *testing.T, body string) {
		for _, fs := range sims {
			req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1"+fs.path, strings.NewReader(body))
			rec := httptest.NewRecorder()
			fs.sim.ServeHTTP(rec, req)
			if rec.Code != 200 && (rec.Code < 400 || rec.Code > 499) {
				t.Fatalf("%s %s: status %d for %q", fs.sim.p.Name, fs.path, rec.Code, body)
			}
			if rec.Body.Len() == 0 {
				t.Fatalf("%s %s: empty answer for %q", fs.sim.p.Name, fs.path, body)
			}
		}
	})
}

type fuzzSim struct {
	sim  *Simulator
	path string
}

func fuzzSims(f *testing.F) []fuzzSim {
	missing := cond("tool_turn_field_missing", "reasoning_content")
	missing.BlankIsMissing, missing.WhitespaceIsMissing = true, true
	chat := profile("fz-chat", modeChat, []string{"reasoning", "reasoning_details", "reasoning_opaque", "reasoning_text", "extra_content"},
		reads("reasoning", "reasoning_details", "reasoning_opaque", "reasoning_text", "extra_content", "thinking"),
		format("anthropic-claude-v1"), signing("encrypted-details", "reasoning_details"),
		withRule(cond("top_level_field_present", "fuzz.flag")),
		withRule(cond("signature_invalid", "reasoning_details"), rename("a")),
		withRule(cond("signature_missing", "reasoning_opaque"), rename("b")),
		withRule(cond("sealed_blob_foreign", "reasoning_opaque"), rename("c")),
		withRule(cond("signature_invalid", "extra_content.google.thought_signature"), rename("d")),
		withRule(cond("signature_missing", "extra_content.google.thought_signature"), rename("e")),
		withRule(cond("assistant_field_present", "reasoning_content"), rename("f")),
		withRule(missing, rename("g")),
		func(p *providers.Profile) {
			p.Flags = []providers.Flag{{Path: "k", Value: true, Effect: "keeps-prior-reasoning", Source: "x"}}
		})
	anth := anthropicProfile(
		withRule(cond("tool_turn_field_missing", "thinking")),
		withRule(cond("signature_invalid", "thinking.signature"), rename("a")),
		withRule(cond("signature_missing", "thinking.signature"), rename("b")),
		withRule(cond("sealed_blob_foreign", "redacted_thinking.data"), rename("c")),
		withRule(cond("assistant_field_present", "reasoning_content"), rename("d")))
	conv := converseProfile(
		withRule(cond("tool_turn_field_missing", "reasoningContent")),
		withRule(cond("signature_invalid", "reasoningContent.reasoningText.signature"), rename("a")),
		withRule(cond("signature_missing", "reasoningContent.reasoningText.signature"), rename("b")),
		withRule(cond("sealed_blob_foreign", "reasoningContent.redactedContent"), rename("c")))
	gem := geminiProfile(
		withRule(cond("signature_invalid", "thoughtSignature")),
		withRule(cond("signature_missing", "thoughtSignature"), rename("a")),
		withRule(cond("assistant_field_present", "reasoning"), rename("b")))
	var out []fuzzSim
	for _, c := range []struct {
		p     *providers.Profile
		paths []string
	}{
		{chat, []string{"/v1/chat/completions"}},
		{anth, []string{"/v1/messages"}},
		{conv, []string{conversePath, "/model/x/converse-stream"}},
		{gem, []string{geminiPath, geminiStream}},
	} {
		s, err := New(c.p, Options{Seed: testSeed})
		if err != nil {
			f.Fatal(err)
		}
		for _, path := range c.paths {
			out = append(out, fuzzSim{s, path})
		}
	}
	return out
}

// rename gives a rule a distinct id.
func rename(suffix string) func(r *providers.Rule) {
	return func(r *providers.Rule) { r.ID += "-" + suffix }
}
