package responses

import (
	"strings"

	"github.com/replaycheck/replaycheck/engine"
)

// Dialect is the OpenAI Responses [engine.Dialect].
type Dialect struct {
	// Table supplies the route data (matrix.yaml `responses:`). A nil
	// Table is the zero table: every hostname is a family of its own.
	Table *engine.Table
	// Issuer is the route whose answers this dialect captures, recorded
	// with every captured turn as the issuer of its reasoning items;
	// [Dialect.ForRoute] sets it, and [engine.Engine.Turn] calls ForRoute.
	// A capture without an issuer (the CLI's capture of a file without a
	// route) stores items that no route gets back.
	Issuer *engine.RouteKey
}

var (
	_ engine.Dialect     = Dialect{}
	_ engine.RouteBinder = Dialect{}
)

// Fixed request values: every request is stateless and asks for the
// encrypted reasoning and its summary, so the body depends only on the
// session and the route.
const (
	// Include is the request's include list: the encrypted reasoning that
	// a stateless (store: false) conversation must send back.
	Include = "reasoning.encrypted_content"
	// Summary is reasoning.summary: readable summaries of the reasoning.
	Summary = "auto"
)

// Mode returns engine.ModeResponses.
func (Dialect) Mode() engine.APIMode { return engine.ModeResponses }

// Path returns "/responses", streamed or not; the base URL carries the
// version prefix (https://api.openai.com/v1, https://RESOURCE.openai.azure.com/openai/v1).
func (Dialect) Path(engine.Route, bool) string { return "/responses" }

// ForRoute returns the dialect capturing the answers of route r: their
// reasoning items record r as their issuer.
func (dl Dialect) ForRoute(r engine.Route) engine.Dialect {
	k := r.Key()
	dl.Issuer = &k
	return dl
}

func (dl Dialect) policy() engine.ResponsesPolicy {
	if dl.Table == nil {
		return engine.ResponsesPolicy{}
	}
	return dl.Table.Dialects.Responses
}

// Shape builds the request body: model, instructions (the request's and
// the history's system texts), input shaped from the history (see the
// package documentation), tools, reasoning.summary, include, store: false
// and stream. Vendor flags (SPEC §3.4) are chat-mode data and are not
// applied here. The family check compares the issuer with the route and
// the model the request names: a request naming another model than its
// route's (Request.Model) gets none of the route's items back, since they
// were issued for the route's model.
func (dl Dialect) Shape(s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	model := req.Model
	if model == "" {
		model = d.Route.Model
	}
	key := d.Route.Key()
	key.Model = strings.TrimSpace(model)
	p := plan{policy: dl.policy(), route: key, rejected: s.Config.RejectedSignatures, sealed: s.Config.SealedBlobs}
	items, err := p.input(s.Messages)
	if err != nil {
		return nil, err
	}
	return appendRequest(make([]byte, 0, sizeHint(items)), model, strings.Join(engine.SystemTexts(req.System, s.Messages), "\n\n"), items, req), nil
}

func sizeHint(items [][]byte) int {
	n := 512
	for _, it := range items {
		n += len(it) + 1
	}
	return n
}

func appendRequest(dst []byte, model, instructions string, items [][]byte, req engine.Request) []byte {
	dst = append(dst, `{"model":`...)
	dst = engine.AppendQuoted(dst, model)
	if instructions != "" {
		dst = append(dst, `,"instructions":`...)
		dst = engine.AppendQuoted(dst, instructions)
	}
	dst = append(dst, `,"input":`...)
	dst = appendItems(dst, items)
	if len(req.Tools) > 0 {
		dst = append(dst, `,"tools":[`...)
		for i, t := range req.Tools {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"type":"function","name":`...)
			dst = engine.AppendQuoted(dst, t.Name)
			if t.Description != "" {
				dst = append(dst, `,"description":`...)
				dst = engine.AppendQuoted(dst, t.Description)
			}
			if len(t.Parameters) > 0 {
				dst = append(dst, `,"parameters":`...)
				dst = append(dst, t.Parameters...)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"reasoning":{"summary":"`+Summary+`"},"include":["`+Include+`"],"store":false`...)
	if req.Stream {
		dst = append(dst, `,"stream":true`...)
	}
	return append(dst, '}')
}

func appendItems(dst []byte, items [][]byte) []byte {
	dst = append(dst, '[')
	for i, it := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, it...)
	}
	return append(dst, ']')
}
