package sim

import "net/http"

// geminiReply writes a generateContent answer, or a streamGenerateContent
// SSE stream (`data: {...}` chunks separated by CRLF CRLF, as Google sends
// them).
func geminiReply(s *Simulator, w http.ResponseWriter, q *request, t *turn) {
	signed := !t.bare && (s.emits("thoughtSignature") || s.scheme() != "")
	sig := s.g.thought(t.reasoning)
	withSig := func(p obj) obj {
		if signed {
			return p.with("thoughtSignature", sig)
		}
		return p
	}
	thought := func(text string) obj { return obj{{"text", text}, {"thought", true}} }
	call := obj{{"functionCall", obj{{"name", t.toolName}, {"args", rawJSON(t.args)}}}}
	usage := obj{
		{"promptTokenCount", t.usage.input},
		{"candidatesTokenCount", t.usage.output - t.usage.reasoning},
		{"totalTokenCount", t.usage.input + t.usage.output},
		{"thoughtsTokenCount", t.usage.reasoning},
	}
	chunk := func(parts arr, finish bool) obj {
		cand := obj{{"content", obj{{"parts", parts}, {"role", "model"}}}}
		if finish {
			cand = cand.with("finishReason", "STOP")
		}
		cand = cand.with("index", 0)
		return obj{{"candidates", arr{cand}}, {"usageMetadata", usage}, {"modelVersion", t.model}, {"responseId", "sim-" + q.digest[:16]}}
	}
	if !q.stream {
		var parts arr
		if !t.bare {
			parts = append(parts, thought(t.reasoning))
		}
		if t.toolName != "" {
			parts = append(parts, withSig(call))
		} else {
			parts = append(parts, withSig(obj{{"text", t.answer}}))
		}
		writeJSON(w, chunk(parts, true))
		return
	}
	var out [][]byte
	for _, p := range pieces(t.reasoning, 3) {
		if !t.bare {
			out = append(out, encode(chunk(arr{thought(p)}, false)))
		}
	}
	if t.toolName != "" {
		out = append(out, encode(chunk(arr{withSig(call)}, false)), encode(chunk(arr{obj{{"text", ""}}}, true)))
	} else {
		for _, p := range pieces(t.answer, 3) {
			out = append(out, encode(chunk(arr{obj{{"text", p}}}, false)))
		}
		out = append(out, encode(chunk(arr{withSig(obj{{"text", ""}})}, true)))
	}
	writeSSEWith(w, out, "\r\n\r\n")
}
