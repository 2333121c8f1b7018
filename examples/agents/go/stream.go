package main

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// accumulate builds the assistant message of an SSE chat completion
// stream: text carriers concatenated, reasoning_details and tool calls
// merged by index, opaque values kept whole.
func accumulate(stream []byte) (map[string]any, error) {
	m := map[string]any{"role": "assistant"}
	var details []map[string]any
	var calls []map[string]any
	text := map[string]string{}
	seen := false
	for _, line := range bytes.Split(stream, []byte("\n")) {
		data, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:"))
		data = bytes.TrimSpace(data)
		if !ok || len(data) == 0 || string(data) == "[DONE]" {
			continue
		}
		var chunk struct {
			Choices []struct {
				Delta map[string]json.RawMessage `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(data, &chunk); err != nil {
			return nil, fmt.Errorf("stream: %v in %.200s", err, data)
		}
		seen = true
		for _, ch := range chunk.Choices {
			for k, raw := range ch.Delta {
				switch k {
				case "content", "reasoning_content", "reasoning", "reasoning_text":
					var s string
					if json.Unmarshal(raw, &s) == nil {
						text[k] += s
					}
				case "reasoning_opaque":
					var s string
					if json.Unmarshal(raw, &s) == nil {
						m[k] = s
					}
				case "reasoning_details":
					var items []map[string]any
					_ = json.Unmarshal(raw, &items)
					details = merge(details, items, "text")
				case "tool_calls":
					var items []map[string]any
					_ = json.Unmarshal(raw, &items)
					calls = mergeCalls(calls, items)
				}
			}
		}
	}
	if !seen {
		return nil, fmt.Errorf("stream: no chunk in %.200s", stream)
	}
	for k, v := range text {
		if v != "" || k == "content" {
			m[k] = v
		}
	}
	if _, ok := m["content"]; !ok {
		m["content"] = ""
	}
	if len(details) > 0 {
		m["reasoning_details"] = toAny(details)
	}
	if len(calls) > 0 {
		m["tool_calls"] = toAny(calls)
	}
	return m, nil
}

// merge folds streamed items into the list by their index: the text key
// is concatenated, every other key set.
func merge(list []map[string]any, items []map[string]any, textKey string) []map[string]any {
	for _, it := range items {
		idx := int(num(it["index"]))
		for len(list) <= idx {
			list = append(list, map[string]any{})
		}
		for k, v := range it {
			if s, ok := v.(string); ok && k == textKey {
				prev, _ := list[idx][k].(string)
				list[idx][k] = prev + s
				continue
			}
			list[idx][k] = v
		}
	}
	return list
}

// mergeCalls folds streamed tool call deltas: arguments concatenated.
func mergeCalls(list []map[string]any, items []map[string]any) []map[string]any {
	for _, it := range items {
		idx := int(num(it["index"]))
		for len(list) <= idx {
			list = append(list, map[string]any{"function": map[string]any{"arguments": ""}})
		}
		for k, v := range it {
			if k != "function" {
				if k != "index" {
					list[idx][k] = v
				}
				continue
			}
			fn, _ := v.(map[string]any)
			dst := list[idx]["function"].(map[string]any)
			for fk, fv := range fn {
				if s, ok := fv.(string); ok && fk == "arguments" {
					dst[fk] = dst[fk].(string) + s
					continue
				}
				dst[fk] = fv
			}
		}
	}
	return list
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

func toAny(list []map[string]any) []any {
	out := make([]any, len(list))
	for i, v := range list {
		out[i] = v
	}
	return out
}
