package sim

import (
	"bytes"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
)

// converseReply writes a Converse answer, or a ConverseStream answer as AWS
// event-stream binary frames.
func converseReply(s *Simulator, w http.ResponseWriter, q *request, t *turn) {
	stop := "end_turn"
	if t.toolName != "" {
		stop = "tool_use"
	}
	usage := obj{{"inputTokens", t.usage.input}, {"outputTokens", t.usage.output}, {"totalTokens", t.usage.input + t.usage.output}}
	metrics := obj{{"latencyMs", 0}}
	signed := s.scheme() != ""
	reasoning := t.redacted || s.emits("reasoningContent")
	if s.p.Emits.WhenThinking && !converseThinkingOn(q.root) {
		// The model thinks only when asked: no reasoning, redacted or not.
		reasoning, t.redacted = false, false
	}
	if !q.stream {
		var content arr
		if t.redacted {
			content = append(content, obj{{"reasoningContent", obj{{"redactedContent", s.g.seal(t.model, t.reasoning)}}}})
		} else if reasoning {
			rt := obj{{"text", t.reasoning}}
			if signed {
				rt = rt.with("signature", s.g.sign(t.reasoning))
			}
			content = append(content, obj{{"reasoningContent", obj{{"reasoningText", rt}}}})
		}
		if t.toolName != "" {
			content = append(content, obj{{"toolUse", obj{{"toolUseId", t.toolID}, {"name", t.toolName}, {"input", rawJSON(t.args)}}}})
		} else {
			content = append(content, obj{{"text", t.answer}})
		}
		writeJSON(w, obj{
			{"output", obj{{"message", obj{{"role", "assistant"}, {"content", content}}}}},
			{"stopReason", stop},
			{"usage", usage},
			{"metrics", metrics},
		})
		return
	}
	var events []frame
	add := func(typ string, payload obj) { events = append(events, frame{typ, payload}) }
	add("messageStart", obj{{"role", "assistant"}})
	index := 0
	delta := func(d obj) { add("contentBlockDelta", obj{{"contentBlockIndex", index}, {"delta", d}}) }
	stopBlock := func() {
		add("contentBlockStop", obj{{"contentBlockIndex", index}})
		index++
	}
	if t.redacted {
		delta(obj{{"reasoningContent", obj{{"redactedContent", s.g.seal(t.model, t.reasoning)}}}})
		stopBlock()
	} else if reasoning {
		for _, p := range pieces(t.reasoning, 3) {
			delta(obj{{"reasoningContent", obj{{"text", p}}}})
		}
		if signed {
			delta(obj{{"reasoningContent", obj{{"signature", s.g.sign(t.reasoning)}}}})
		}
		stopBlock()
	}
	if t.toolName != "" {
		add("contentBlockStart", obj{{"contentBlockIndex", index}, {"start", obj{{"toolUse", obj{{"toolUseId", t.toolID}, {"name", t.toolName}}}}}})
		delta(obj{{"toolUse", obj{{"input", t.args}}}})
		stopBlock()
	} else {
		for _, p := range pieces(t.answer, 3) {
			delta(obj{{"text", p}})
		}
		stopBlock()
	}
	add("messageStop", obj{{"stopReason", stop}})
	add("metadata", obj{{"usage", usage}, {"metrics", metrics}})
	writeFrames(s, w, events)
}

// writeFrames writes AWS event-stream frames (Converse and InvokeModel
// streams).
func writeFrames(s *Simulator, w http.ResponseWriter, events []frame) {
	var b bytes.Buffer
	enc := eventstream.NewEncoder()
	for _, f := range events {
		msg := eventstream.Message{Payload: encode(f.payload)}
		msg.Headers.Set(":event-type", eventstream.StringValue(f.typ))
		msg.Headers.Set(":content-type", eventstream.StringValue("application/json"))
		msg.Headers.Set(":message-type", eventstream.StringValue("event"))
		if err := enc.Encode(&b, msg); err != nil {
			s.writeError(w, http.StatusInternalServerError, "api_error", "event-stream frame "+f.typ+": "+err.Error())
			return
		}
	}
	w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.Bytes())
}

// frame is one event of a ConverseStream answer.
type frame struct {
	typ     string
	payload obj
}
