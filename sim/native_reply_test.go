package sim

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
)

func anthropicProfile(edit ...func(p *providers.Profile)) *providers.Profile {
	return profile("claude", modeAnthropic, []string{"thinking", "redacted_thinking"},
		append([]func(p *providers.Profile){signing(providers.SchemeThinkingSignature, "thinking.signature", "redacted_thinking.data")}, edit...)...)
}

func converseProfile(edit ...func(p *providers.Profile)) *providers.Profile {
	return profile("bedrock", modeConverse, []string{"reasoningContent"},
		append([]func(p *providers.Profile){signing(providers.SchemeThinkingSignature, "reasoningContent.reasoningText.signature", "reasoningContent.redactedContent")}, edit...)...)
}

func geminiProfile(edit ...func(p *providers.Profile)) *providers.Profile {
	return profile("gemini", modeGemini, []string{"thoughtSignature"},
		append([]func(p *providers.Profile){signing(providers.SchemeThoughtSignature, "thoughtSignature")}, edit...)...)
}

const (
	anthropicTool   = `{"model":"claude-x","max_tokens":1024,"thinking":{"type":"enabled","budget_tokens":512},"tools":[{"name":"get_weather","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"` + userQuestion + `"}]}`
	anthropicAnswer = `{"model":"claude-x","max_tokens":1024,"thinking":{"type":"enabled","budget_tokens":512},"messages":[{"role":"user","content":[{"type":"text","text":"` + userQuestion + `"}]}]}`
	converseTool    = `{"messages":[{"role":"user","content":[{"text":"` + userQuestion + `"}]}],"toolConfig":{"tools":[{"toolSpec":{"name":"get_weather","inputSchema":{"json":{}}}}]},"additionalModelRequestFields":{"thinking":{"type":"enabled","budget_tokens":512}}}`
	converseAnswer  = `{"messages":[{"role":"user","content":[{"text":"` + userQuestion + `"}]}]}`
	conversePath    = "/model/us.anthropic.claude-x-v1%3A0/converse"
	converseModel   = "us.anthropic.claude-x-v1:0"
	geminiTool      = `{"contents":[{"role":"user","parts":[{"text":"` + userQuestion + `"}]}],"tools":[{"googleSearch":{}},{"functionDeclarations":[{"name":"get_weather","parameters":{"type":"object"}}]}]}`
	geminiAnswer    = `{"contents":[{"role":"user","parts":[{"text":"` + userQuestion + `"}]}]}`
	geminiPath      = "/v1beta/models/gemini-3-pro:generateContent"
	geminiStream    = "/v1beta/models/gemini-3-pro:streamGenerateContent?alt=sse"
)

func TestAnthropicReply(t *testing.T) {
	reasoning := wantReasoning(userQuestion)
	tests := []struct {
		reason   string
		profile  *providers.Profile
		request  string
		wantType []string // content block types
		signed   bool
	}{
		{"signed thinking then tool_use", anthropicProfile(), anthropicTool, []string{"thinking", "tool_use"}, true},
		{"signed thinking then text", anthropicProfile(), anthropicAnswer, []string{"thinking", "text"}, true},
		{"unsigned thinking (DeepSeek Anthropic endpoint) has no signature key", profile("ds-anthropic", modeAnthropic, []string{"thinking"}), anthropicAnswer, []string{"thinking", "text"}, false},
		{"redaction trigger answers redacted_thinking", anthropicProfile(), strings.Replace(anthropicAnswer, userQuestion, redactTrigger+"_46C9", 1), []string{"redacted_thinking", "text"}, false},
	}
	for _, tt := range tests {
		s := newSim(t, tt.profile, testSeed)
		body := mustJSON(t, post(s, "/v1/messages", tt.request))
		var types []string
		for _, b := range body.Get("content").Array() {
			types = append(types, b.Get("type").String())
		}
		if strings.Join(types, ",") != strings.Join(tt.wantType, ",") {
			t.Errorf("%s: whole: block types %v, want %v", tt.reason, types, tt.wantType)
		}
		first := body.Get("content.0")
		switch tt.wantType[0] {
		case "thinking":
			if first.Get("thinking").String() != reasoning {
				t.Errorf("%s: thinking = %q, want %q", tt.reason, first.Get("thinking"), reasoning)
			}
			if sig, has := first.Get("signature"), first.Get("signature").Exists(); has != tt.signed || (tt.signed && !s.g.verify(reasoning, sig.String())) {
				t.Errorf("%s: signature %q (present %v), want signed=%v and verifying", tt.reason, sig, has, tt.signed)
			}
		case "redacted_thinking":
			if b, ok := s.g.open(first.Get("data").String()); !ok || !b.genuine || b.model != "claude-x" {
				t.Errorf("%s: redacted data does not open for claude-x", tt.reason)
			}
		}
		if tt.wantType[1] == "tool_use" && (body.Get("content.1.name").String() != "get_weather" || body.Get("stop_reason").String() != "tool_use" || !strings.HasPrefix(body.Get("content.1.id").String(), "call_")) {
			t.Errorf("%s: tool_use block %s, stop_reason %s", tt.reason, body.Get("content.1"), body.Get("stop_reason"))
		}

		rec := post(s, "/v1/messages", streamed(tt.request))
		events := parseSSE(rec.Body.String())
		blocks := map[int64]map[string]string{}
		var order []string
		var types2 []string
		for _, ev := range events {
			d := gjson.Parse(ev.data)
			if d.Get("type").String() != ev.name {
				t.Fatalf("%s: event %q carries type %q", tt.reason, ev.name, d.Get("type"))
			}
			order = append(order, ev.name)
			i := d.Get("index").Int()
			switch ev.name {
			case "content_block_start":
				blocks[i] = map[string]string{"thinking": d.Get("content_block.thinking").String(), "data": d.Get("content_block.data").String()}
				types2 = append(types2, d.Get("content_block.type").String())
			case "content_block_delta":
				switch d.Get("delta.type").String() {
				case "thinking_delta":
					blocks[i]["thinking"] += d.Get("delta.thinking").String()
					blocks[i]["thinking_deltas"] += "x"
					if blocks[i]["signature"] != "" {
						t.Errorf("%s: thinking_delta after signature_delta", tt.reason)
					}
				case "signature_delta":
					blocks[i]["signature"] = d.Get("delta.signature").String()
				case "text_delta":
					blocks[i]["text"] += d.Get("delta.text").String()
				case "input_json_delta":
					blocks[i]["json"] += d.Get("delta.partial_json").String()
				}
			}
		}
		if strings.Join(types2, ",") != strings.Join(tt.wantType, ",") {
			t.Errorf("%s: stream: block types %v, want %v", tt.reason, types2, tt.wantType)
		}
		if order[0] != "message_start" || order[len(order)-1] != "message_stop" || order[len(order)-2] != "message_delta" {
			t.Errorf("%s: stream: event order %v", tt.reason, order)
		}
		b0 := blocks[0]
		switch tt.wantType[0] {
		case "thinking":
			if b0["thinking"] != reasoning || len(b0["thinking_deltas"]) < 3 {
				t.Errorf("%s: stream: thinking %q in %d deltas", tt.reason, b0["thinking"], len(b0["thinking_deltas"]))
			}
			if tt.signed != (b0["signature"] != "") || (tt.signed && b0["signature"] != body.Get("content.0.signature").String()) {
				t.Errorf("%s: stream: signature %q, whole %q", tt.reason, b0["signature"], body.Get("content.0.signature"))
			}
		case "redacted_thinking":
			if b0["data"] != body.Get("content.0.data").String() || b0["thinking_deltas"] != "" {
				t.Errorf("%s: stream: redacted block must arrive whole in content_block_start", tt.reason)
			}
		}
		if tt.wantType[1] == "text" && blocks[1]["text"] != body.Get("content.1.text").String() {
			t.Errorf("%s: stream: text %q, whole %q", tt.reason, blocks[1]["text"], body.Get("content.1.text"))
		}
		if tt.wantType[1] == "tool_use" && blocks[1]["json"] != "{}" {
			t.Errorf("%s: stream: tool input %q", tt.reason, blocks[1]["json"])
		}
	}
}

func TestConverseReply(t *testing.T) {
	reasoning := wantReasoning(userQuestion)
	tests := []struct {
		reason  string
		request string
		tool    bool
		redact  bool
	}{
		{"reasoningText with signature then toolUse", converseTool, true, false},
		{"reasoningText with signature then text", converseAnswer, false, false},
		{"redaction trigger answers redactedContent", strings.Replace(converseAnswer, userQuestion, redactTrigger, 1), false, true},
	}
	s := newSim(t, converseProfile(), testSeed)
	for _, tt := range tests {
		body := mustJSON(t, post(s, conversePath, tt.request))
		content := body.Get("output.message.content")
		rc := content.Get("0.reasoningContent")
		if tt.redact {
			if b, ok := s.g.open(rc.Get("redactedContent").String()); !ok || !b.genuine || b.model != converseModel {
				t.Errorf("%s: redactedContent does not open for %s: %s", tt.reason, converseModel, rc)
			}
		} else if rc.Get("reasoningText.text").String() != reasoning || !s.g.verify(reasoning, rc.Get("reasoningText.signature").String()) {
			t.Errorf("%s: reasoningText %s", tt.reason, rc)
		}
		if tt.tool != content.Get("1.toolUse").Exists() || (tt.tool && content.Get("1.toolUse.name").String() != "get_weather") {
			t.Errorf("%s: content[1] = %s", tt.reason, content.Get("1"))
		}
		wantStop := map[bool]string{true: "tool_use", false: "end_turn"}[tt.tool]
		if body.Get("stopReason").String() != wantStop || body.Get("usage.totalTokens").Int() == 0 {
			t.Errorf("%s: stopReason %s usage %s", tt.reason, body.Get("stopReason"), body.Get("usage"))
		}

		rec := post(s, strings.Replace(conversePath, "/converse", "/converse-stream", 1), tt.request)
		if ct := rec.Header().Get("Content-Type"); ct != "application/vnd.amazon.eventstream" {
			t.Errorf("%s: stream content type %q", tt.reason, ct)
		}
		frames := decodeFrames(t, rec.Body.Bytes())
		var kinds []string
		text, sig, blob, answer, toolName, toolInput := "", "", "", "", "", ""
		textDeltas := 0
		for _, f := range frames {
			kinds = append(kinds, f.typ)
			d := f.payload.Get("delta")
			switch f.typ {
			case "contentBlockDelta":
				if v := d.Get("reasoningContent.text"); v.Exists() {
					if sig != "" {
						t.Errorf("%s: reasoning text after the signature", tt.reason)
					}
					text += v.String()
					textDeltas++
				}
				if v := d.Get("reasoningContent.signature").String(); v != "" {
					sig = v
				}
				if v := d.Get("reasoningContent.redactedContent").String(); v != "" {
					blob = v
				}
				answer += d.Get("text").String()
				toolInput += d.Get("toolUse.input").String()
			case "contentBlockStart":
				toolName = f.payload.Get("start.toolUse.name").String()
			}
		}
		if kinds[0] != "messageStart" || kinds[len(kinds)-2] != "messageStop" || kinds[len(kinds)-1] != "metadata" {
			t.Errorf("%s: stream: events %v", tt.reason, kinds)
		}
		if tt.redact {
			if blob != rc.Get("redactedContent").String() {
				t.Errorf("%s: stream: redactedContent differs from whole", tt.reason)
			}
		} else if text != reasoning || textDeltas < 3 || sig != rc.Get("reasoningText.signature").String() {
			t.Errorf("%s: stream: reasoning %q in %d deltas, signature %q", tt.reason, text, textDeltas, sig)
		}
		if tt.tool && (toolName != "get_weather" || toolInput != "{}") {
			t.Errorf("%s: stream: tool %q input %q", tt.reason, toolName, toolInput)
		}
		if !tt.tool && answer != content.Get("1.text").String() {
			t.Errorf("%s: stream: answer %q, whole %q", tt.reason, answer, content.Get("1.text"))
		}
	}
}

func TestGeminiReply(t *testing.T) {
	reasoning := wantReasoning(userQuestion)
	s := newSim(t, geminiProfile(), testSeed)
	for _, tt := range []struct {
		reason  string
		request string
		tool    bool
	}{
		{"thought part then signed functionCall (tool in a later tools entry)", geminiTool, true},
		{"thought part then text with the text-turn signature", geminiAnswer, false},
	} {
		body := mustJSON(t, post(s, geminiPath, tt.request))
		parts := body.Get("candidates.0.content.parts").Array()
		if len(parts) != 2 || parts[0].Get("thought").Type != gjson.True || parts[0].Get("text").String() != reasoning {
			t.Fatalf("%s: parts %s", tt.reason, body.Get("candidates.0.content.parts"))
		}
		last := parts[1]
		if tt.tool != last.Get("functionCall").Exists() || (tt.tool && last.Get("functionCall.name").String() != "get_weather") {
			t.Errorf("%s: second part %s", tt.reason, last)
		}
		if text, ok := s.g.checkThought(last.Get("thoughtSignature").String()); !ok || text != reasoning {
			t.Errorf("%s: thoughtSignature does not verify", tt.reason)
		}
		if body.Get("usageMetadata.thoughtsTokenCount").Int() == 0 || body.Get("candidates.0.finishReason").String() != "STOP" {
			t.Errorf("%s: usage %s finish %s", tt.reason, body.Get("usageMetadata"), body.Get("candidates.0.finishReason"))
		}

		rec := post(s, geminiStream, tt.request)
		if !strings.Contains(rec.Body.String(), "\r\n\r\n") {
			t.Errorf("%s: stream events are not CRLF separated", tt.reason)
		}
		chunks, _ := sseJSON(t, rec.Body.String())
		thought, answer, sig := "", "", ""
		thoughtChunks := 0
		for _, c := range chunks {
			for _, p := range c.Get("candidates.0.content.parts").Array() {
				if p.Get("thought").Type == gjson.True {
					thought += p.Get("text").String()
					thoughtChunks++
					continue
				}
				answer += p.Get("text").String()
				if v := p.Get("thoughtSignature").String(); v != "" {
					sig = v
				}
			}
		}
		lastChunk := chunks[len(chunks)-1]
		if thought != reasoning || thoughtChunks < 3 || sig != last.Get("thoughtSignature").String() {
			t.Errorf("%s: stream: thought %q in %d chunks, signature matches whole: %v", tt.reason, thought, thoughtChunks, sig == last.Get("thoughtSignature").String())
		}
		if lastChunk.Get("candidates.0.finishReason").String() != "STOP" {
			t.Errorf("%s: stream: last chunk has no finishReason", tt.reason)
		}
		if !tt.tool {
			if answer != last.Get("text").String() {
				t.Errorf("%s: stream: answer %q, whole %q", tt.reason, answer, last.Get("text"))
			}
			tail := lastChunk.Get("candidates.0.content.parts.0")
			if tail.Get("text").String() != "" || tail.Get("thoughtSignature").String() == "" {
				t.Errorf("%s: stream: final chunk must carry an empty text part with the signature, got %s", tt.reason, tail)
			}
		}
	}
}
