package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/fantasy"
	"charm.land/fantasy/providers/anthropic"
	"charm.land/fantasy/providers/google"
	"charm.land/fantasy/providers/openai"
)

// message is a stored chat message in the protocol's storage form.
type message map[string]any

// session is the protocol's stored session.
type session struct {
	ID       string    `json:"id"`
	Messages []message `json:"messages"`
}

// prompt turns the stored messages into the fantasy prompt a Crush session
// would hold: reasoning parts with the provider metadata fantasy captured,
// text, tool calls and tool results.
func prompt(system string, msgs []message) (fantasy.Prompt, error) {
	var p fantasy.Prompt
	if strings.TrimSpace(system) != "" {
		p = append(p, fantasy.NewSystemMessage(system))
	}
	for i, m := range msgs {
		role, _ := m["role"].(string)
		switch role {
		case "system":
			p = append(p, fantasy.NewSystemMessage(text(m["content"])))
		case "user":
			p = append(p, fantasy.NewUserMessage(text(m["content"])))
		case "tool":
			id, _ := m["tool_call_id"].(string)
			p = append(p, fantasy.Message{Role: fantasy.MessageRoleTool, Content: []fantasy.MessagePart{
				fantasy.ToolResultPart{ToolCallID: id, Output: fantasy.ToolResultOutputContentText{Text: text(m["content"])}},
			}})
		case "assistant":
			parts, err := assistantParts(m)
			if err != nil {
				return nil, fmt.Errorf("messages[%d]: %w", i, err)
			}
			p = append(p, fantasy.Message{Role: fantasy.MessageRoleAssistant, Content: parts})
		default:
			return nil, fmt.Errorf("messages[%d]: role %q is not a chat role", i, role)
		}
	}
	return p, nil
}

// text is a message's content as a string (text parts joined).
func text(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, part := range c {
			if m, ok := part.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					b.WriteString(t)
				}
			}
		}
		return b.String()
	}
	return ""
}

// assistantParts are the fantasy parts of a stored assistant turn, in the
// order fantasy captures them: reasoning, text, tool calls.
func assistantParts(m message) ([]fantasy.MessagePart, error) {
	var parts []fantasy.MessagePart
	parts = append(parts, reasoningParts(m)...)
	if t := text(m["content"]); t != "" {
		parts = append(parts, fantasy.TextPart{Text: t})
	}
	calls, _ := m["tool_calls"].([]any)
	for j, c := range calls {
		call, _ := c.(map[string]any)
		fn, _ := call["function"].(map[string]any)
		id, _ := call["id"].(string)
		name, _ := fn["name"].(string)
		args, _ := fn["arguments"].(string)
		if id == "" || name == "" {
			return nil, fmt.Errorf("tool_calls[%d]: no id or function name", j)
		}
		parts = append(parts, fantasy.ToolCallPart{ToolCallID: id, ToolName: name, Input: args})
	}
	return parts, nil
}

// detail is one stored reasoning_details item (OpenRouter's format, which
// fantasy's gateway providers read and write).
type detail struct {
	ID        string `json:"id,omitempty"`
	Type      string `json:"type,omitempty"`
	Text      string `json:"text,omitempty"`
	Data      string `json:"data,omitempty"`
	Format    string `json:"format,omitempty"`
	Summary   string `json:"summary,omitempty"`
	Signature string `json:"signature,omitempty"`
	Index     int    `json:"index"`
}

// reasoningParts are a stored turn's reasoning as fantasy holds it. Items
// of reasoning_details become the parts fantasy's gateway providers
// capture from them (signed Anthropic thinking, Responses summaries and
// encrypted content, Gemini signatures); otherwise the first non-blank of
// reasoning_content and reasoning is one plain reasoning part.
func reasoningParts(m message) []fantasy.MessagePart {
	var details []detail
	if raw, ok := m["reasoning_details"]; ok {
		b, _ := json.Marshal(raw)
		_ = json.Unmarshal(b, &details)
	}
	if len(details) == 0 {
		for _, key := range []string{"reasoning_content", "reasoning"} {
			if t, _ := m[key].(string); strings.TrimSpace(t) != "" {
				return []fantasy.MessagePart{fantasy.ReasoningPart{Text: t}}
			}
		}
		return nil
	}
	var parts []fantasy.MessagePart
	var responses []*openai.ResponsesReasoningMetadata
	var gemini []*google.ReasoningMetadata
	var geminiText []string
	for _, d := range details {
		switch {
		case strings.HasPrefix(d.Format, "openai-responses"), strings.HasPrefix(d.Format, "xai-responses"):
			for len(responses) <= d.Index {
				responses = append(responses, &openai.ResponsesReasoningMetadata{})
			}
			r := responses[d.Index]
			switch d.Type {
			case "reasoning.summary":
				r.Summary = append(r.Summary, d.Summary)
			case "reasoning.encrypted":
				data := d.Data
				r.EncryptedContent = &data
			}
			if d.ID != "" {
				r.ItemID = d.ID
			}
		case strings.HasPrefix(d.Format, "google-gemini"):
			for len(gemini) <= d.Index {
				gemini = append(gemini, &google.ReasoningMetadata{})
				geminiText = append(geminiText, "")
			}
			switch d.Type {
			case "reasoning.text":
				geminiText[d.Index] = d.Text
			case "reasoning.encrypted":
				gemini[d.Index].Signature = d.Data
				gemini[d.Index].ToolID = d.ID
			}
		case strings.HasPrefix(d.Format, "anthropic-claude"):
			meta := &anthropic.ReasoningOptionMetadata{Signature: d.Signature}
			if d.Type == "reasoning.encrypted" {
				meta = &anthropic.ReasoningOptionMetadata{RedactedData: d.Data}
			}
			parts = append(parts, fantasy.ReasoningPart{Text: d.Text, ProviderOptions: fantasy.ProviderOptions{anthropic.Name: meta}})
		default:
			t := d.Text
			if t == "" {
				t = d.Summary
			}
			parts = append(parts, fantasy.ReasoningPart{Text: t})
		}
	}
	for _, r := range responses {
		parts = append(parts, fantasy.ReasoningPart{Text: strings.Join(r.Summary, "\n"), ProviderOptions: fantasy.ProviderOptions{openai.Name: r}})
	}
	for i, g := range gemini {
		parts = append(parts, fantasy.ReasoningPart{Text: geminiText[i], ProviderOptions: fantasy.ProviderOptions{google.Name: g}})
	}
	return parts
}

// stored is the storage form of the assistant turn fantasy captured:
// plain reasoning as reasoning_content, reasoning with provider metadata
// as reasoning_details items carrying its signatures and encrypted data.
func stored(content []fantasy.Content) message {
	m := message{"role": "assistant"}
	var texts, plain []string
	var details []detail
	var calls []any
	for _, c := range content {
		switch v := c.(type) {
		case fantasy.TextContent:
			texts = append(texts, v.Text)
		case fantasy.ReasoningContent:
			details = append(details, reasoningDetails(v, &plain)...)
		case fantasy.ToolCallContent:
			calls = append(calls, map[string]any{
				"id": v.ToolCallID, "type": "function",
				"function": map[string]any{"name": v.ToolName, "arguments": v.Input},
			})
		}
	}
	if t := strings.Join(texts, ""); t != "" {
		m["content"] = t
	} else {
		m["content"] = nil
	}
	if len(calls) > 0 {
		m["tool_calls"] = calls
	}
	if t := strings.Join(plain, ""); t != "" {
		m["reasoning_content"] = t
	}
	if len(details) > 0 {
		m["reasoning_details"] = details
	}
	return m
}

// reasoningDetails are the stored items of one reasoning content; reasoning
// without provider metadata is appended to plain instead.
func reasoningDetails(r fantasy.ReasoningContent, plain *[]string) []detail {
	if meta, ok := r.ProviderMetadata[anthropic.Name].(*anthropic.ReasoningOptionMetadata); ok && meta != nil {
		if meta.RedactedData != "" {
			return []detail{{Type: "reasoning.encrypted", Format: "anthropic-claude-v1", Data: meta.RedactedData}}
		}
		return []detail{{Type: "reasoning.text", Format: "anthropic-claude-v1", Text: r.Text, Signature: meta.Signature}}
	}
	if meta, ok := r.ProviderMetadata[openai.Name].(*openai.ResponsesReasoningMetadata); ok && meta != nil {
		var ds []detail
		for _, s := range meta.Summary {
			if s != "" {
				ds = append(ds, detail{Type: "reasoning.summary", Format: "openai-responses-v1", Summary: s})
			}
		}
		if meta.EncryptedContent != nil {
			ds = append(ds, detail{Type: "reasoning.encrypted", Format: "openai-responses-v1", Data: *meta.EncryptedContent, ID: meta.ItemID})
		}
		return ds
	}
	if meta, ok := r.ProviderMetadata[google.Name].(*google.ReasoningMetadata); ok && meta != nil {
		var ds []detail
		if r.Text != "" {
			ds = append(ds, detail{Type: "reasoning.text", Format: "google-gemini-v1", Text: r.Text})
		}
		return append(ds, detail{Type: "reasoning.encrypted", Format: "google-gemini-v1", Data: meta.Signature, ID: meta.ToolID})
	}
	if r.Text != "" {
		*plain = append(*plain, r.Text)
	}
	return nil
}
