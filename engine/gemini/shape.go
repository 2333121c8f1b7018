package gemini

import (
	"net/url"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
)

// Dialect is the native Gemini [engine.Dialect]. It has no route data: the
// signatures it replays are the ones Gemini issued for the turn.
type Dialect struct{}

var _ engine.Dialect = Dialect{}

// Mode returns engine.ModeGemini.
func (Dialect) Mode() engine.APIMode { return engine.ModeGemini }

// Path returns /models/{model}:generateContent, or
// :streamGenerateContent?alt=sse (SSE framing).
func (Dialect) Path(r engine.Route, stream bool) string {
	model := url.PathEscape(strings.TrimPrefix(r.Model, "models/"))
	if stream {
		return "/models/" + model + ":streamGenerateContent?alt=sse"
	}
	return "/models/" + model + ":generateContent"
}

// Shape builds the generateContent body: contents shaped per SPEC §4.3,
// systemInstruction, tools (functionDeclarations with a JSON Schema in
// parametersJsonSchema) and generationConfig asking for thought summaries.
// The model travels in the path.
func (Dialect) Shape(s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	contents, err := buildContents(s.Messages)
	if err != nil {
		return nil, err
	}
	dst := []byte(`{"contents":`)
	dst = appendContents(dst, contents)
	if sys := engine.SystemTexts(req.System, s.Messages); len(sys) > 0 {
		dst = append(dst, `,"systemInstruction":{"parts":[`...)
		for i, t := range sys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"text":`...)
			dst = engine.AppendQuoted(dst, t)
			dst = append(dst, '}')
		}
		dst = append(dst, `]}`...)
	}
	if len(req.Tools) > 0 {
		dst = append(dst, `,"tools":[{"functionDeclarations":[`...)
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
			if len(t.Parameters) > 0 {
				dst = append(dst, `,"parametersJsonSchema":`...)
				dst = append(dst, t.Parameters...)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, `]}]`...)
	}
	dst = append(dst, `,"generationConfig":{"thinkingConfig":{"includeThoughts":true}}}`...)
	return dst, nil
}
