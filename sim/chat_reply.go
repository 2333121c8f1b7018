package sim

import "net/http"

// chatReply writes an OpenAI chat completion, or its SSE stream ending with
// `data: [DONE]`.
func chatReply(s *Simulator, w http.ResponseWriter, q *request, t *turn) {
	if q.stream {
		writeSSE(w, chatStream(s, q, t))
		return
	}
	finish := "stop"
	if t.toolName != "" {
		finish = "tool_calls"
	}
	body := obj{
		{"id", "chatcmpl-sim-" + q.digest[:12]},
		{"object", "chat.completion"},
		{"created", created},
		{"model", t.model},
		{"choices", arr{obj{{"index", 0}, {"message", chatMessage(s, t)}, {"finish_reason", finish}}}},
		{"usage", chatUsage(t)},
	}
	writeJSON(w, body)
}

// chatMessage is the whole assistant message with every emitted carrier.
func chatMessage(s *Simulator, t *turn) obj {
	m := obj{{"role", "assistant"}, {"content", t.answer}}
	if s.emits("reasoning_content") {
		m = m.with("reasoning_content", t.reasoning)
	}
	if s.emits("reasoning") {
		m = m.with("reasoning", t.reasoning)
	}
	if s.emits(chatDetails) {
		items := arr{chatTextDetail(s, t.reasoning, s.signsDetails())}
		if s.scheme() == "encrypted-details" {
			items = append(items, chatEncryptedDetail(s, t))
		}
		m = m.with(chatDetails, items)
	}
	if s.emits("reasoning_text") {
		m = m.with("reasoning_text", t.reasoning)
	}
	if s.emits(chatOpaque) {
		m = m.with(chatOpaque, s.g.seal(t.model, t.reasoning))
	}
	if s.emits(chatExtra) && t.toolName == "" {
		m = m.with(chatExtra, googleSignature(s.g.thought(t.reasoning)))
	}
	if t.toolName != "" {
		m = m.with("tool_calls", arr{chatToolCall(s, t, t.args, true)})
	}
	return m
}

// signsDetails reports whether reasoning.text items carry a signature: the
// profile signs reasoning_details (under any scheme).
func (s *Simulator) signsDetails() bool {
	return s.p.Signing != nil && listed(s.p.Signing.Fields, chatDetails)
}

// chatTextDetail is a reasoning.text item, signed when the profile signs.
func chatTextDetail(s *Simulator, text string, signed bool) obj {
	it := obj{{"type", "reasoning.text"}, {"text", text}}
	if signed {
		it = it.with("signature", s.g.sign(text))
	}
	return chatDetailTail(s, it, 0)
}

// chatEncryptedDetail is the reasoning.encrypted item of encrypted-details
// signing: the reasoning sealed for the model.
func chatEncryptedDetail(s *Simulator, t *turn) obj {
	it := obj{{"type", "reasoning.encrypted"}, {"data", s.g.seal(t.model, t.reasoning)}, {"id", "enc_" + t.digest[:8]}}
	return chatDetailTail(s, it, 1)
}

func chatDetailTail(s *Simulator, it obj, index int) obj {
	if s.p.Emits.DetailsFormat != "" {
		it = it.with("format", s.p.Emits.DetailsFormat)
	}
	return it.with("index", index)
}

// googleSignature is {"google":{"thought_signature":sig}}.
func googleSignature(sig string) obj {
	return obj{{"google", obj{{"thought_signature", sig}}}}
}

// chatToolCall is the generated tool call; head adds id, type and name (the
// first stream delta of a call, or the whole call).
func chatToolCall(s *Simulator, t *turn, args string, head bool) obj {
	fn := obj{}
	if head {
		fn = fn.with("name", t.toolName)
	}
	fn = fn.with("arguments", args)
	if head && s.emits(chatOpaque) {
		fn = fn.with("thought_signature", s.g.thought(t.reasoning))
	}
	call := obj{}
	if !head {
		return call.with("index", 0).with("function", fn)
	}
	call = call.with("index", 0).with("id", t.toolID).with("type", "function").with("function", fn)
	if s.emits(chatExtra) {
		call = call.with(chatExtra, googleSignature(s.g.thought(t.reasoning)))
	}
	return call
}

func chatUsage(t *turn) obj {
	return obj{
		{"prompt_tokens", t.usage.input},
		{"completion_tokens", t.usage.output},
		{"total_tokens", t.usage.input + t.usage.output},
		{"completion_tokens_details", obj{{"reasoning_tokens", t.usage.reasoning}}},
	}
}

// chatStream renders the SSE events: role, reasoning deltas (several),
// late signature/opaque deltas, the content or tool call, the finish chunk
// with usage, and [DONE].
func chatStream(s *Simulator, q *request, t *turn) [][]byte {
	id := "chatcmpl-sim-" + q.digest[:12]
	chunk := func(delta obj, finish any) []byte {
		return encode(obj{
			{"id", id},
			{"object", "chat.completion.chunk"},
			{"created", created},
			{"model", t.model},
			{"choices", arr{obj{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}}},
		})
	}
	var out [][]byte
	out = append(out, chunk(obj{{"role", "assistant"}, {"content", ""}}, nil))
	for _, p := range pieces(t.reasoning, 3) {
		d := obj{}
		if s.emits("reasoning_content") {
			d = d.with("reasoning_content", p)
		}
		if s.emits("reasoning") {
			d = d.with("reasoning", p)
		}
		if s.emits(chatDetails) {
			d = d.with(chatDetails, arr{chatTextDetail(s, p, false)})
		}
		if s.emits("reasoning_text") {
			d = d.with("reasoning_text", p)
		}
		if len(d) > 0 {
			out = append(out, chunk(d, nil))
		}
	}
	if s.emits(chatDetails) && s.signsDetails() {
		sig := obj{{"type", "reasoning.text"}, {"signature", s.g.sign(t.reasoning)}}
		out = append(out, chunk(obj{{chatDetails, arr{chatDetailTail(s, sig, 0)}}}, nil))
	}
	if s.emits(chatDetails) && s.scheme() == "encrypted-details" {
		out = append(out, chunk(obj{{chatDetails, arr{chatEncryptedDetail(s, t)}}}, nil))
	}
	if s.emits(chatOpaque) {
		out = append(out, chunk(obj{{chatOpaque, s.g.seal(t.model, t.reasoning)}}, nil))
	}
	finish := "stop"
	if t.toolName != "" {
		finish = "tool_calls"
		out = append(out,
			chunk(obj{{"tool_calls", arr{chatToolCall(s, t, "", true)}}}, nil),
			chunk(obj{{"tool_calls", arr{chatToolCall(s, t, t.args, false)}}}, nil))
	} else {
		for k, p := range pieces(t.answer, 3) {
			d := obj{{"content", p}}
			if k == 0 && s.emits(chatExtra) {
				d = d.with(chatExtra, googleSignature(s.g.thought(t.reasoning)))
			}
			out = append(out, chunk(d, nil))
		}
	}
	last := encode(obj{
		{"id", id},
		{"object", "chat.completion.chunk"},
		{"created", created},
		{"model", t.model},
		{"choices", arr{obj{{"index", 0}, {"delta", obj{}}, {"finish_reason", finish}}}},
		{"usage", chatUsage(t)},
	})
	return append(out, last, []byte("[DONE]"))
}
