package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/bedrock"
	"github.com/tidwall/gjson"
)

// Dialect is the Anthropic Messages [engine.Dialect].
type Dialect struct {
	// Table supplies the route data (matrix.yaml `anthropic:`). A nil
	// Table is the zero table: every route is an unknown relay that gets
	// no thinking, and every base URL speaks /v1/messages.
	Table *engine.Table
}

var _ engine.Dialect = Dialect{}

// Fixed request values: every request asks for thinking with the same
// budget, so a request body depends only on the session and the route.
const (
	// MaxTokens is the request's max_tokens.
	MaxTokens = 16000
	// BudgetTokens is the thinking budget (thinking.budget_tokens).
	BudgetTokens = 8000
	// BedrockVersion is the anthropic_version of a Bedrock InvokeModel body.
	BedrockVersion = "bedrock-2023-05-31"
	// VertexVersion is the anthropic_version of a Vertex rawPredict body.
	VertexVersion = "vertex-2023-10-16"
)

// AppendThinking appends the thinking configuration:
// [engine.AdaptiveThinkingConfig] when adaptive, else manual thinking with
// [BudgetTokens].
func AppendThinking(dst []byte, adaptive bool) []byte {
	if adaptive {
		return append(dst, engine.AdaptiveThinkingConfig...)
	}
	return fmt.Appendf(dst, `{"type":"enabled","budget_tokens":%d}`, BudgetTokens)
}

// Mode returns engine.ModeAnthropic.
func (Dialect) Mode() engine.APIMode { return engine.ModeAnthropic }

func (dl Dialect) policy() engine.AnthropicPolicy {
	if dl.Table == nil {
		return engine.AnthropicPolicy{}
	}
	return dl.Table.Dialects.Anthropic
}

// Path returns the request path for the route's platform: /v1/messages;
// /model/{model}/invoke (or invoke-with-response-stream) on Bedrock;
// /{model}:rawPredict (or :streamRawPredict) on Vertex.
func (dl Dialect) Path(r engine.Route, stream bool) string {
	switch dl.policy().Platform(r.BaseURL, r.Model) {
	case engine.PlatformBedrock:
		if stream {
			return "/model/" + bedrock.EscapeModel(r.Model) + "/invoke-with-response-stream"
		}
		return "/model/" + bedrock.EscapeModel(r.Model) + "/invoke"
	case engine.PlatformVertex:
		if stream {
			return "/" + bedrock.EscapeModel(r.Model) + ":streamRawPredict"
		}
		return "/" + bedrock.EscapeModel(r.Model) + ":rawPredict"
	}
	return "/v1/messages"
}

// Shape builds the request body: the platform's header keys (model, or
// anthropic_version on Bedrock and Vertex), max_tokens, system, messages
// shaped per SPEC §4.1, tools, stream (not on Bedrock, whose endpoint
// decides) and thinking. Vendor flags (SPEC §3.4) are chat-mode data and
// are not applied here.
func (dl Dialect) Shape(s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	model := req.Model
	if model == "" {
		model = d.Route.Model
	}
	rp := dl.policy().Decide(d.Route.BaseURL, model)
	p := plan{replay: rp.Replay, prior: rp.PriorThinking, pad: d.Pad && rp.Replay != engine.ReplaySigned}
	if rp.LearnRejections {
		p.rejected = s.Config.RejectedSignatures
	}
	msgs, err := p.messages(s.Messages)
	if err != nil {
		return nil, err
	}
	return appendRequest(nil, rp, model, systemText(req.System, s.Messages), msgs, req), nil
}

// A wireMsg is one message of the request: a role and either a raw content
// value (a lone user message keeps its content as stored) or blocks.
type wireMsg struct {
	role   string
	raw    json.RawMessage
	blocks []json.RawMessage
}

func appendRequest(dst []byte, rp engine.AnthropicReplay, model, system string, msgs []wireMsg, req engine.Request) []byte {
	platform := rp.Platform
	switch platform {
	case engine.PlatformBedrock:
		dst = append(dst, `{"anthropic_version":"`+BedrockVersion+`"`...)
	case engine.PlatformVertex:
		dst = append(dst, `{"anthropic_version":"`+VertexVersion+`"`...)
	default:
		dst = append(dst, `{"model":`...)
		dst = engine.AppendQuoted(dst, model)
	}
	dst = fmt.Appendf(dst, `,"max_tokens":%d`, MaxTokens)
	if system != "" {
		dst = append(dst, `,"system":`...)
		dst = engine.AppendQuoted(dst, system)
	}
	dst = append(dst, `,"messages":`...)
	dst = appendMessages(dst, msgs)
	if len(req.Tools) > 0 {
		dst = append(dst, `,"tools":[`...)
		for i, t := range req.Tools {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"name":`...)
			dst = engine.AppendQuoted(dst, t.Name)
			if t.Description != "" {
				dst = append(dst, `,"description":`...)
				dst = engine.AppendQuoted(dst, t.Description)
			}
			dst = append(dst, `,"input_schema":`...)
			if len(t.Parameters) > 0 {
				dst = append(dst, t.Parameters...)
			} else {
				dst = append(dst, `{"type":"object"}`...)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if req.Stream && platform != engine.PlatformBedrock {
		dst = append(dst, `,"stream":true`...)
	}
	dst = append(dst, `,"thinking":`...)
	dst = AppendThinking(dst, rp.Adaptive)
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
		dst = append(dst, `,"content":`...)
		if m.raw != nil {
			dst = append(dst, m.raw...)
		} else {
			dst = appendBlocks(dst, m.blocks)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

func appendBlocks(dst []byte, blocks []json.RawMessage) []byte {
	dst = append(dst, '[')
	for i, b := range blocks {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, b...)
	}
	return append(dst, ']')
}

// systemText joins the request's system prompt and the history's system
// messages, in that order, with blank lines.
func systemText(system string, msgs []engine.Message) string {
	parts := []string{}
	if system != "" {
		parts = append(parts, system)
	}
	for i := range msgs {
		if msgs[i].Role == "system" {
			if t := contentText(msgs[i].Content); t != "" {
				parts = append(parts, t)
			}
		}
	}
	return strings.Join(parts, "\n\n")
}

// contentText returns the text of a content value: a string, or the
// concatenated "text" fields of an array of parts.
func contentText(c json.RawMessage) string {
	v := gjson.ParseBytes(c)
	if v.Type == gjson.String {
		return v.Str
	}
	var b strings.Builder
	v.ForEach(func(_, part gjson.Result) bool {
		if t := part.Get("text"); t.Type == gjson.String {
			b.WriteString(t.Str)
		}
		return true
	})
	return b.String()
}
