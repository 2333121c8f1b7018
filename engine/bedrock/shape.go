package bedrock

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
)

// Dialect is the Bedrock Converse [engine.Dialect].
type Dialect struct {
	// Table supplies the per-model policy (matrix.yaml
	// `bedrock_converse:`, and `anthropic.adaptive_thinking` for the
	// thinking configuration). A nil Table is the zero table: no model gets
	// reasoning replayed or thinking requested.
	Table *engine.Table
}

var _ engine.Dialect = Dialect{}

// Fixed request values, so a body depends only on the session and route.
const (
	// MaxTokens is inferenceConfig.maxTokens.
	MaxTokens = 16000
	// BudgetTokens is the Claude thinking budget requested through
	// additionalModelRequestFields.thinking.budget_tokens.
	BudgetTokens = 8000
)

// Mode returns engine.ModeBedrockConverse.
func (Dialect) Mode() engine.APIMode { return engine.ModeBedrockConverse }

// Path returns /model/{model}/converse, or /converse-stream.
func (Dialect) Path(r engine.Route, stream bool) string {
	if stream {
		return "/model/" + EscapeModel(r.Model) + "/converse-stream"
	}
	return "/model/" + EscapeModel(r.Model) + "/converse"
}

// EscapeModel escapes a model id for one URL path segment the way the AWS
// SDKs do: ":" and "/" become %3A and %2F.
func EscapeModel(model string) string {
	return strings.ReplaceAll(url.PathEscape(model), ":", "%3A")
}

func (dl Dialect) policy() engine.ConversePolicy {
	if dl.Table == nil {
		return engine.ConversePolicy{}
	}
	return dl.Table.Dialects.Converse
}

// Shape builds the Converse request body: messages shaped per SPEC §4.2,
// system, toolConfig, inferenceConfig and, for models whose policy asks
// for it, additionalModelRequestFields.thinking. The model travels in the
// path. Converse wants toolConfig whenever the history holds tool use, so
// callers pass the tools on every request of a tool conversation.
func (dl Dialect) Shape(s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	model := req.Model
	if model == "" {
		model = d.Route.Model
	}
	pol := dl.policy().For(model)
	p := plan{replay: pol.Replay, sealed: s.Config.SealedBlobs, rejected: s.Config.RejectedSignatures}
	msgs, err := p.messages(s.Messages)
	if err != nil {
		return nil, err
	}
	th := thinkingNone
	if pol.RequestThinking {
		th = thinkingBudget
		if dl.Table != nil && dl.Table.Dialects.Anthropic.AdaptiveThinking.Only(model) {
			th = thinkingAdaptive
		}
	}
	return appendRequest(nil, msgs, engine.SystemTexts(req.System, s.Messages), req, th), nil
}

// A wireMsg is one Converse message: a role and its content blocks.
type wireMsg struct {
	role   string
	blocks []json.RawMessage
}

// thinkingRequest is what additionalModelRequestFields.thinking asks for.
type thinkingRequest int

const (
	// thinkingNone sends no thinking configuration.
	thinkingNone thinkingRequest = iota
	// thinkingBudget asks for manual thinking with BudgetTokens.
	thinkingBudget
	// thinkingAdaptive asks for adaptive thinking (matrix.yaml
	// anthropic.adaptive_thinking).
	thinkingAdaptive
)

func appendRequest(dst []byte, msgs []wireMsg, system []string, req engine.Request, thinking thinkingRequest) []byte {
	dst = append(dst, `{"messages":`...)
	dst = appendMessages(dst, msgs)
	if len(system) > 0 {
		dst = append(dst, `,"system":[`...)
		for i, s := range system {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"text":`...)
			dst = engine.AppendQuoted(dst, s)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if len(req.Tools) > 0 {
		dst = append(dst, `,"toolConfig":{"tools":[`...)
		for i, t := range req.Tools {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"toolSpec":{"name":`...)
			dst = engine.AppendQuoted(dst, t.Name)
			if t.Description != "" {
				dst = append(dst, `,"description":`...)
				dst = engine.AppendQuoted(dst, t.Description)
			}
			dst = append(dst, `,"inputSchema":{"json":`...)
			if len(t.Parameters) > 0 {
				dst = append(dst, t.Parameters...)
			} else {
				dst = append(dst, `{"type":"object"}`...)
			}
			dst = append(dst, `}}}`...)
		}
		dst = append(dst, `]}`...)
	}
	dst = fmt.Appendf(dst, `,"inferenceConfig":{"maxTokens":%d}`, MaxTokens)
	switch thinking {
	case thinkingBudget:
		dst = fmt.Appendf(dst, `,"additionalModelRequestFields":{"thinking":{"type":"enabled","budget_tokens":%d}}`, BudgetTokens)
	case thinkingAdaptive:
		dst = append(dst, `,"additionalModelRequestFields":{"thinking":`+engine.AdaptiveThinkingConfig+`}`...)
	}
	return append(dst, '}')
}

func appendMessages(dst []byte, msgs []wireMsg) []byte {
	dst = append(dst, '[')
	for i, m := range msgs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"role":`...)
		dst = engine.AppendQuoted(dst, m.role)
		dst = append(dst, `,"content":[`...)
		for j, b := range m.blocks {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, b...)
		}
		dst = append(dst, `]}`...)
	}
	return append(dst, ']')
}
