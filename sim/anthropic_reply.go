package sim

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strings"
)

// anthropicReply writes a Messages API answer, or its named SSE events.
func anthropicReply(s *Simulator, w http.ResponseWriter, q *request, t *turn) {
	stop := "end_turn"
	if t.toolName != "" {
		stop = "tool_use"
	}
	id := "msg_sim_" + q.digest[:12]
	if !q.stream {
		var content arr
		if b := anthropicReasoningBlock(s, t, true); b != nil {
			content = append(content, b)
		}
		if t.toolName != "" {
			content = append(content, obj{{"type", "tool_use"}, {"id", t.toolID}, {"name", t.toolName}, {"input", rawJSON(t.args)}})
		} else {
			content = append(content, obj{{"type", "text"}, {"text", t.answer}})
		}
		writeJSON(w, obj{
			{"id", id},
			{"type", "message"},
			{"role", "assistant"},
			{"model", t.model},
			{"content", content},
			{"stop_reason", stop},
			{"stop_sequence", nil},
			{"usage", obj{{"input_tokens", t.usage.input}, {"output_tokens", t.usage.output}}},
		})
		return
	}
	var b bytes.Buffer
	var frames []frame
	invoke := strings.HasSuffix(q.path, "/invoke-with-response-stream")
	event := func(name string, data obj) {
		if invoke {
			// Bedrock InvokeModel wraps each Anthropic event, base64, in
			// an event-stream "chunk" frame.
			frames = append(frames, frame{typ: "chunk", payload: obj{{"bytes", base64.StdEncoding.EncodeToString(encode(data))}}})
			return
		}
		b.WriteString("event: " + name + "\ndata: ")
		b.Write(encode(data))
		b.WriteString("\n\n")
	}
	event("message_start", obj{{"type", "message_start"}, {"message", obj{
		{"id", id}, {"type", "message"}, {"role", "assistant"}, {"model", t.model}, {"content", arr{}},
		{"stop_reason", nil}, {"stop_sequence", nil},
		{"usage", obj{{"input_tokens", t.usage.input}, {"output_tokens", 1}}},
	}}})
	event("ping", obj{{"type", "ping"}})
	index := 0
	block := func(start obj, deltas []obj) {
		event("content_block_start", obj{{"type", "content_block_start"}, {"index", index}, {"content_block", start}})
		for _, d := range deltas {
			event("content_block_delta", obj{{"type", "content_block_delta"}, {"index", index}, {"delta", d}})
		}
		event("content_block_stop", obj{{"type", "content_block_stop"}, {"index", index}})
		index++
	}
	if start := anthropicReasoningBlock(s, t, false); start != nil {
		var deltas []obj
		if !t.redacted {
			for _, p := range pieces(t.reasoning, 3) {
				deltas = append(deltas, obj{{"type", "thinking_delta"}, {"thinking", p}})
			}
			if s.scheme() != "" {
				deltas = append(deltas, obj{{"type", "signature_delta"}, {"signature", s.g.sign(t.reasoning)}})
			}
		}
		block(start, deltas)
	}
	if t.toolName != "" {
		block(obj{{"type", "tool_use"}, {"id", t.toolID}, {"name", t.toolName}, {"input", obj{}}}, []obj{
			{{"type", "input_json_delta"}, {"partial_json", ""}},
			{{"type", "input_json_delta"}, {"partial_json", t.args}},
		})
	} else {
		var deltas []obj
		for _, p := range pieces(t.answer, 3) {
			deltas = append(deltas, obj{{"type", "text_delta"}, {"text", p}})
		}
		block(obj{{"type", "text"}, {"text", ""}}, deltas)
	}
	event("message_delta", obj{{"type", "message_delta"}, {"delta", obj{{"stop_reason", stop}, {"stop_sequence", nil}}},
		{"usage", obj{{"output_tokens", t.usage.output}}}})
	event("message_stop", obj{{"type", "message_stop"}})
	if invoke {
		writeFrames(s, w, frames)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.Bytes())
}

// anthropicReasoningBlock is the turn's thinking block (signed when the
// profile signs) or, when redacted, its redacted_thinking block; nil when
// the profile emits no thinking. For a stream start block the text and
// signature are empty (they arrive as deltas); a redacted block is whole.
func anthropicReasoningBlock(s *Simulator, t *turn, whole bool) obj {
	if t.redacted {
		return obj{{"type", "redacted_thinking"}, {"data", s.g.seal(t.model, t.reasoning)}}
	}
	if !s.emits("thinking") {
		return nil
	}
	text, sig := "", ""
	if whole {
		text, sig = t.reasoning, s.g.sign(t.reasoning)
	}
	b := obj{{"type", "thinking"}, {"thinking", text}}
	if s.scheme() != "" {
		b = b.with("signature", sig)
	}
	return b
}
