package sim

import (
	"context"
	"encoding/json"
	"slices"
)

// ToolCallHeader names the tool call id on an answer that calls a tool:
// the id the caller must answer with a tool result. Like the other
// simulator headers it never reaches a cassette.
const ToolCallHeader = "Replaycheck-Tool-Call"

// A Directive shapes the answer the simulator generates for one request,
// for a harness that plays the provider to an agent it does not control
// (`replaycheck agent`). The profile's rules judge the request as always;
// only the generated 200 answer changes.
type Directive struct {
	// Tool names the tool to call, one the request declares; "" calls the
	// first declared tool. The answer calls a tool only when the request
	// declares tools and ends with a user turn, directed or not.
	Tool string
	// Arguments is the call's arguments, a JSON object; "" is {}.
	Arguments string
	// NoReasoning answers without any reasoning: no carrier, no thinking
	// block, no thought part, no signature — the tool-call answer that
	// tells agents which pad a bare tool turn apart.
	NoReasoning bool
	// Carriers are chat carriers (reasoning_content, reasoning,
	// reasoning_details) the answer carries besides the profile's own, as
	// a turn served by another provider would hold them.
	Carriers []string
}

type directiveKey struct{}

// WithDirective returns a context under which the simulator answers a
// request (http.Request.WithContext) as d says.
func WithDirective(ctx context.Context, d Directive) context.Context {
	return context.WithValue(ctx, directiveKey{}, d)
}

// directiveFrom returns the directive of a request's context.
func directiveFrom(ctx context.Context) (Directive, bool) {
	d, ok := ctx.Value(directiveKey{}).(Directive)
	return d, ok
}

// directed returns the simulator that generates answers under d: a copy
// whose profile emits what d asks. Rules, signing key and log are shared.
func (s *Simulator) directed(d Directive) *Simulator {
	if !d.NoReasoning && len(d.Carriers) == 0 {
		return s
	}
	p := *s.p
	switch {
	case d.NoReasoning:
		p.Emits.Fields = nil
		p.Emits.Redacted = false
	case p.APIMode == modeChat:
		fields := slices.Clone(p.Emits.Fields)
		for _, f := range d.Carriers {
			if !listed(fields, f) {
				fields = append(fields, f)
			}
		}
		p.Emits.Fields = fields
	}
	c := *s
	c.p = &p
	return &c
}

// apply sets the directed tool and arguments on a generated turn.
func (d Directive) apply(t *turn) {
	if d.NoReasoning {
		t.bare = true
		t.redacted = false
	}
	if t.toolName == "" {
		return
	}
	if d.Tool != "" {
		t.toolName = d.Tool
	}
	if d.Arguments != "" && json.Valid([]byte(d.Arguments)) {
		t.args = d.Arguments
	}
}
