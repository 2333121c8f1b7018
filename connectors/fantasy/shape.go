package main

import (
	"context"
	"encoding/json"
	"fmt"

	"charm.land/fantasy"
)

// okCompletion and okStream are the answers the shaping transport gives:
// fantasy only needs a well-formed reply after sending its request.
const (
	okCompletion = `{"id":"replaycheck","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`
	okStream     = "data: {\"id\":\"replaycheck\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
)

// shape is the request body fantasy builds for the session: the route's
// provider is called with the session as its prompt and a transport that
// keeps the body. reshape is the same: fantasy rebuilds from the session.
func shape(req *request) (any, error) {
	if req.Route == nil || req.Options == nil {
		return nil, fmt.Errorf("shape: no route or options")
	}
	var s session
	if err := json.Unmarshal(req.Session, &s); err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	p, err := prompt(req.Options.System, s.Messages)
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", s.ID, err)
	}
	tools, err := functionTools(req.Options.Tools)
	if err != nil {
		return nil, err
	}
	rec := &recorder{status: 200, contentType: "application/json", answer: []byte(okCompletion)}
	if req.Options.Stream {
		rec.contentType, rec.answer = "text/event-stream", []byte(okStream)
	}
	model, err := languageModel(req.Route, rec.client())
	if err != nil {
		return nil, err
	}
	call := fantasy.Call{Prompt: p, Tools: tools}
	if req.Options.Stream {
		stream, err := model.Stream(context.Background(), call)
		if err != nil {
			return nil, fmt.Errorf("fantasy stream: %w", err)
		}
		for range stream {
		}
	} else if _, err := model.Generate(context.Background(), call); err != nil {
		return nil, fmt.Errorf("fantasy generate: %w", err)
	}
	if rec.body == nil {
		return nil, fmt.Errorf("fantasy sent no request")
	}
	return map[string]any{"body": json.RawMessage(rec.body)}, nil
}

// functionTools are the protocol's tools as fantasy function tools.
func functionTools(ts []tool) ([]fantasy.Tool, error) {
	var out []fantasy.Tool
	for _, t := range ts {
		schema := map[string]any{}
		if len(t.Parameters) > 0 {
			if err := json.Unmarshal(t.Parameters, &schema); err != nil {
				return nil, fmt.Errorf("tool %s: parameters: %w", t.Name, err)
			}
		}
		out = append(out, fantasy.FunctionTool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	return out, nil
}
