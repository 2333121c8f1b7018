package sim

import (
	"bytes"
	"fmt"
	"net/http"
)

// responsesReply writes a Responses answer, or its SSE stream of named
// events ("event: response.…" and a data line, each event's data carrying
// its type and, last, its sequence number), as OpenAI streams it: created,
// in_progress, per output item output_item.added, its parts and deltas,
// output_item.done, then response.completed with the whole response.
func responsesReply(s *Simulator, w http.ResponseWriter, q *request, t *turn) {
	pair := s.g.pairID(q.digest)
	respID := "resp_" + q.digest[:24]
	var items []obj
	reasoning := responsesReasoning(s, t, "rs_"+pair, respID)
	if reasoning != nil {
		items = append(items, reasoning)
	}
	var follower obj
	if t.toolName != "" {
		follower = obj{{"id", "fc_" + pair}, {"type", "function_call"}, {"status", "completed"}, {"arguments", t.args}, {"call_id", t.toolID}, {"name", t.toolName}}
	} else {
		follower = obj{{"id", "msg_" + pair}, {"type", "message"}, {"status", "completed"},
			{"content", arr{obj{{"type", "output_text"}, {"annotations", arr{}}, {"logprobs", arr{}}, {"text", t.answer}}}}, {"role", "assistant"}}
	}
	items = append(items, follower)
	response := func(status string, output arr) obj {
		return obj{
			{"id", respID}, {"object", "response"}, {"created_at", created}, {"status", status},
			{"error", nil}, {"incomplete_details", nil}, {"model", t.model}, {"output", output},
			{"parallel_tool_calls", true}, {"reasoning", obj{{"effort", "medium"}, {"summary", "auto"}}}, {"store", false},
			{"usage", obj{
				{"input_tokens", t.usage.input}, {"input_tokens_details", obj{{"cached_tokens", 0}}},
				{"output_tokens", t.usage.output}, {"output_tokens_details", obj{{"reasoning_tokens", t.usage.reasoning}}},
				{"total_tokens", t.usage.input + t.usage.output},
			}},
		}
	}
	output := make(arr, len(items))
	for i, it := range items {
		output[i] = it
	}
	if !q.stream {
		writeJSON(w, response("completed", output))
		return
	}
	var b bytes.Buffer
	seq := 0
	event := func(typ string, data obj) {
		data = append(obj{{"type", typ}}, data...).with("sequence_number", seq)
		seq++
		b.WriteString("event: " + typ + "\ndata: ")
		b.Write(encode(data))
		b.WriteString("\n\n")
	}
	event("response.created", obj{{"response", response("in_progress", arr{})}})
	event("response.in_progress", obj{{"response", response("in_progress", arr{})}})
	for i, it := range items {
		at := obj{{"output_index", i}}
		id := it[0].val.(string)
		switch {
		case reasoning != nil && i == 0:
			start := obj{{"id", id}, {"type", "reasoning"}, {"summary", arr{}}}
			event("response.output_item.added", append(at, member{"item", start}))
			if s.emits("reasoning.summary") {
				part := func(text string) obj { return obj{{"type", "summary_text"}, {"text", text}} }
				ref := obj{{"item_id", id}, {"output_index", i}, {"summary_index", 0}}
				event("response.reasoning_summary_part.added", append(ref, member{"part", part("")}))
				for _, p := range pieces(t.reasoning, 3) {
					event("response.reasoning_summary_text.delta", append(ref, member{"delta", p}))
				}
				event("response.reasoning_summary_text.done", append(ref, member{"text", t.reasoning}))
				event("response.reasoning_summary_part.done", append(ref, member{"part", part(t.reasoning)}))
			}
			if s.emits("reasoning.content") {
				ref := obj{{"item_id", id}, {"output_index", i}, {"content_index", 0}}
				for _, p := range pieces(t.reasoning, 3) {
					event("response.reasoning_text.delta", append(ref, member{"delta", p}))
				}
				event("response.reasoning_text.done", append(ref, member{"text", t.reasoning}))
			}
		case t.toolName != "":
			start := obj{{"id", id}, {"type", "function_call"}, {"status", "in_progress"}, {"arguments", ""}, {"call_id", t.toolID}, {"name", t.toolName}}
			event("response.output_item.added", append(at, member{"item", start}))
			ref := obj{{"item_id", id}, {"output_index", i}}
			event("response.function_call_arguments.delta", append(ref, member{"delta", t.args}))
			event("response.function_call_arguments.done", append(ref, member{"arguments", t.args}))
		default:
			start := obj{{"id", id}, {"type", "message"}, {"status", "in_progress"}, {"content", arr{}}, {"role", "assistant"}}
			event("response.output_item.added", append(at, member{"item", start}))
			part := func(text string) obj {
				return obj{{"type", "output_text"}, {"annotations", arr{}}, {"logprobs", arr{}}, {"text", text}}
			}
			ref := obj{{"item_id", id}, {"output_index", i}, {"content_index", 0}}
			event("response.content_part.added", append(ref, member{"part", part("")}))
			for _, p := range pieces(t.answer, 3) {
				event("response.output_text.delta", append(ref, member{"delta", p}, member{"logprobs", arr{}}))
			}
			event("response.output_text.done", append(ref, member{"text", t.answer}, member{"logprobs", arr{}}))
			event("response.content_part.done", append(ref, member{"part", part(t.answer)}))
		}
		event("response.output_item.done", append(at, member{"item", it}))
	}
	event("response.completed", obj{{"response", response("completed", output)}})
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.Bytes())
}

// responsesReasoning is the turn's reasoning output item, per the
// profile: a summary (reasoning.summary), readable content
// (reasoning.content), encrypted content (sealed when the profile signs
// reasoning.encrypted_content, else a plain reference to the response, as
// DeepSeek returns), a signature over the content (reasoning.signature);
// nil when the profile emits no reasoning item.
func responsesReasoning(s *Simulator, t *turn, id, respID string) obj {
	summary, content := s.emits("reasoning.summary"), s.emits("reasoning.content")
	enc, sig := s.signsMentioning(respEncrypted), s.signsMentioning(respSignature)
	ref := s.emits("reasoning.encrypted_content")
	if !summary && !content && !enc && !sig && !ref {
		return nil
	}
	item := obj{{"id", id}, {"type", "reasoning"}}
	if summary {
		item = item.with("summary", arr{obj{{"type", "summary_text"}, {"text", t.reasoning}}})
	} else {
		item = item.with("summary", arr{})
	}
	if content {
		item = item.with("content", arr{obj{{"type", "reasoning_text"}, {"text", t.reasoning}}})
	}
	switch {
	case enc:
		item = item.with("encrypted_content", s.g.encrypt(t.model, t.reasoning))
	case ref:
		item = item.with("encrypted_content", fmt.Sprintf("%s-%d", respID, 0))
	}
	if sig {
		item = item.with("signature", s.g.sign(t.reasoning))
	}
	return item
}
