package main

import (
	"context"
	"fmt"

	"charm.land/fantasy"
)

// capture is the assistant turn fantasy keeps from the recorded response:
// the route's provider parses it (whole, or as a stream accumulated the
// way fantasy's agent does) and the content is stored.
func capture(req *request) (any, error) {
	if req.Route == nil {
		return nil, fmt.Errorf("capture: no route")
	}
	if req.Response == nil {
		return nil, errUnsupported{"binary responses (Bedrock event streams) are not chat"}
	}
	rec := &recorder{status: 200, contentType: "application/json", answer: []byte(*req.Response)}
	if req.Stream {
		rec.contentType = "text/event-stream"
	}
	model, err := languageModel(req.Route, rec.client())
	if err != nil {
		return nil, err
	}
	call := fantasy.Call{Prompt: fantasy.Prompt{fantasy.NewUserMessage("replay")}}
	var content []fantasy.Content
	if req.Stream {
		content, err = streamed(model, call)
	} else {
		var resp *fantasy.Response
		resp, err = model.Generate(context.Background(), call)
		if resp != nil {
			content = resp.Content
		}
	}
	if err != nil {
		return nil, fmt.Errorf("fantasy: %w", err)
	}
	return map[string]any{"message": stored(content)}, nil
}

// streamed accumulates a stream into content as fantasy's agent does
// (agent.go processStepStream): each text, reasoning and tool call is
// appended when it ends, reasoning keeping the latest provider metadata.
func streamed(model fantasy.LanguageModel, call fantasy.Call) ([]fantasy.Content, error) {
	stream, err := model.Stream(context.Background(), call)
	if err != nil {
		return nil, err
	}
	type reasoning struct {
		text string
		meta fantasy.ProviderMetadata
	}
	texts := map[string]string{}
	thinking := map[string]*reasoning{}
	var content []fantasy.Content
	for part := range stream {
		switch part.Type {
		case fantasy.StreamPartTypeError:
			return nil, part.Error
		case fantasy.StreamPartTypeTextStart:
			texts[part.ID] = ""
		case fantasy.StreamPartTypeTextDelta:
			if _, ok := texts[part.ID]; ok {
				texts[part.ID] += part.Delta
			}
		case fantasy.StreamPartTypeTextEnd:
			if t, ok := texts[part.ID]; ok {
				content = append(content, fantasy.TextContent{Text: t, ProviderMetadata: part.ProviderMetadata})
				delete(texts, part.ID)
			}
		case fantasy.StreamPartTypeReasoningStart:
			thinking[part.ID] = &reasoning{text: part.Delta, meta: part.ProviderMetadata}
		case fantasy.StreamPartTypeReasoningDelta:
			if r, ok := thinking[part.ID]; ok {
				r.text += part.Delta
				if part.ProviderMetadata != nil {
					r.meta = part.ProviderMetadata
				}
			}
		case fantasy.StreamPartTypeReasoningEnd:
			if r, ok := thinking[part.ID]; ok {
				if part.ProviderMetadata != nil {
					r.meta = part.ProviderMetadata
				}
				content = append(content, fantasy.ReasoningContent{Text: r.text, ProviderMetadata: r.meta})
				delete(thinking, part.ID)
			}
		case fantasy.StreamPartTypeToolCall:
			content = append(content, fantasy.ToolCallContent{
				ToolCallID: part.ID, ToolName: part.ToolCallName, Input: part.ToolCallInput,
				ProviderExecuted: part.ProviderExecuted, ProviderMetadata: part.ProviderMetadata,
			})
		}
	}
	return content, nil
}
