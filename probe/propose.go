package probe

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
)

// plan is the native dialect's part of what the probe inferred.
type plan struct {
	// replay, prior and learn are an Anthropic route class's (replay also a
	// Converse row's).
	replay engine.ReasoningReplay
	prior  engine.PriorRule
	learn  bool
	// requestThinking is a Converse row's.
	requestThinking bool
	// nativeField is set when a Gemini provider signs its parts, so its
	// routes read the private Gemini fields.
	nativeField bool
	// family is set on a Responses route: its host issues items of its own.
	family bool
}

// propose turns the inference into edits of matrix.yaml (the target, then
// the route table's), applies them to the current file's text and checks
// that the adopted table decides for the route what the probe inferred.
// It returns the adopted file.
func (res *Result) propose(m *matrix.File) (*matrix.File, error) {
	text, err := os.ReadFile(m.Path)
	if err != nil {
		return nil, fmt.Errorf("probe: reading the route table to edit: %w", err)
	}
	table := res.tableEdits(&m.Table, false)
	adopted, err := res.adopt(m.Path, text, table)
	if err == nil {
		if err = res.decides(adopted); err != nil {
			// A row the route already matches comes first: put the new
			// item first instead.
			table = res.tableEdits(&m.Table, true)
			if adopted, err = res.adopt(m.Path, text, table); err == nil {
				err = res.decides(adopted)
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("probe: the proposal for %s does not apply to %s: %w", res.Target.ID, m.Path, err)
	}
	return adopted, nil
}

// adopt applies the target's edit and the table edits to the text.
func (res *Result) adopt(path string, text []byte, table []matrix.Edit) (*matrix.File, error) {
	res.Edits = append([]matrix.Edit{res.targetEdit()}, table...)
	out, err := matrix.Apply(text, res.Edits)
	if err != nil {
		return nil, err
	}
	return matrix.Parse(path, out)
}

// targetEdit adds the target at the end of targets.
func (res *Result) targetEdit() matrix.Edit {
	r := res.Target.Route
	item := fmt.Sprintf("{id: %s, api_mode: %s, provider: %s, base_url: %q, model: %q, profile: %s}",
		res.Target.ID, r.APIMode, scalar(r.Provider), r.BaseURL, r.Model, res.Target.ID)
	return matrix.Edit{List: "targets", Item: item, Why: "the probed endpoint, judged against the cassettes under " + res.Target.ID + "/ and the draft profile providers/" + res.Target.ID + ".yaml"}
}

// tableEdits are the route-table edits of the proposal; first puts a new
// item first in its list.
func (res *Result) tableEdits(t *engine.Table, first bool) []matrix.Edit {
	r := res.Target.Route
	var edits []matrix.Edit
	base := t.Decide(r, 0)
	if res.MustEcho && base.EchoFamily == "" {
		edits = append(edits, matrix.Edit{List: "echo_families", Item: fmt.Sprintf("{name: %s, providers: [%s]%s}", res.Target.ID, scalar(provider(r)), hostsOf(proposedHost(t, r))),
			Why: "the provider refuses a bare tool-call turn without its reasoning and accepts the pad" + res.shown("reasoning_content on a tool-call turn", "a thinking block on a bare tool-call turn")})
	}
	switch r.APIMode {
	case engine.ModeChat:
		edits = append(edits, res.chatEdits(t, base, first)...)
	case engine.ModeAnthropic:
		edits = append(edits, res.anthropicEdits(t)...)
	case engine.ModeGemini:
		res.Row = base.Row
		switch {
		case res.plan.nativeField && base.ReadsNative(engine.NativeGemini):
			res.Native = "native_fields: the route already reads the private gemini fields (a rule matches its provider id, host or model)"
		case res.plan.nativeField:
			edits = append(edits, matrix.Edit{List: "native_fields", Item: fmt.Sprintf("{field: gemini, providers: [%s]%s}", scalar(provider(r)), hostsOf(proposedHost(t, r))),
				Why: "the provider signs its parts with thoughtSignature, so its routes read the private Gemini fields (a chat route to it carries them back)" + res.shown("missing thoughtSignature")})
			res.Native = "native_fields: the provider's routes read the private gemini fields"
		default:
			res.Native = "no native_fields rule: the provider signs nothing, and the Gemini dialect replays what the provider issued"
		}
	case engine.ModeResponses:
		res.Row = base.Row
		if f, ok := t.Dialects.Responses.FamilyOf(r.Host()); ok {
			res.Native = "responses.families[" + f.ID + "] already takes " + r.Host()
		} else {
			edits = append(edits, matrix.Edit{List: "responses.families", Item: fmt.Sprintf("{id: %s, hosts: [%s]}", res.Target.ID, scalar(r.Host())),
				Why: "the provider's reasoning items are replayed to it, and to no other family (whether its other hosts share them is not probed: per_host stays off)" + res.shown("reasoning items replayed to their issuer")})
			res.Native = "responses.families[" + res.Target.ID + "]: " + r.Host() + " issues reasoning items of its own"
		}
	case engine.ModeBedrockConverse:
		res.Row = base.Row
		p := res.plan
		if cur := t.Dialects.Converse.For(r.Model); cur.Replay == p.replay && cur.RequestThinking == p.requestThinking {
			res.Native = fmt.Sprintf("bedrock_converse: the model already takes row %s, which decides replay %s, request_thinking %v", cur.ID, p.replay, p.requestThinking)
			break
		}
		edits = append(edits, matrix.Edit{List: "bedrock_converse.models", First: true,
			Item: fmt.Sprintf("{id: %s, models: [%q], replay: %s, request_thinking: %v}", res.Target.ID, strings.ToLower(strings.TrimSpace(r.Model)), p.replay, p.requestThinking),
			Why:  fmt.Sprintf("the model takes replay %s%s", p.replay, res.shown(string(p.replay)+" replay", "thinking request"))})
		res.Native = fmt.Sprintf("bedrock_converse.models[%s]: replay %s, request_thinking %v", res.Target.ID, p.replay, p.requestThinking)
	}
	return edits
}

// chatEdits make the route send exactly the proposed carriers: nothing
// when it already does, else the provider joins the row that sends them
// (or, first, a new row).
func (res *Result) chatEdits(t *engine.Table, base engine.Decision, first bool) []matrix.Edit {
	r := res.Target.Route
	host := proposedHost(t, r)
	why := "the provider reads " + res.Carriers.String()
	switch {
	case res.Carriers.Empty():
		why = "the provider takes no standard carrier it reads"
	case !res.ReadObservable:
		why = "the provider accepts " + res.Carriers.String()
	}
	if base.Carriers == res.Carriers && !first {
		res.Row = base.Row
		return nil
	}
	if !first {
		for _, row := range t.Rows {
			if row.Carriers != res.Carriers {
				continue
			}
			res.Row = row.ID
			why += fmt.Sprintf(": row %s sends exactly %s", row.ID, res.Carriers)
			edits := []matrix.Edit{{List: "carrier_routes", Join: row.ID, Field: "providers", Values: []string{scalar(provider(r))}, Why: why}}
			if host != "" {
				edits = append(edits, matrix.Edit{List: "carrier_routes", Join: row.ID, Field: "hosts", Values: []string{scalar(host)}, Why: why})
			}
			return edits
		}
	}
	res.Row = res.Target.ID
	return []matrix.Edit{{List: "carrier_routes", First: first,
		Item: fmt.Sprintf("{id: %s, carriers: [%s], providers: [%s]%s}", res.Target.ID, strings.Join(res.Carriers.Names(), ", "), scalar(provider(r)), hostsOf(host)),
		Why:  why + fmt.Sprintf(": no row sends exactly %s", res.Carriers)}}
}

// anthropicEdits give the route a route class of its own, first (a host
// is more specific than the model classes), unless the class it takes
// already decides the same.
func (res *Result) anthropicEdits(t *engine.Table) []matrix.Edit {
	r := res.Target.Route
	p := res.plan
	res.Row = "native"
	cur := t.Dialects.Anthropic.Decide(r.BaseURL, r.Model)
	want := engine.AnthropicPolicy{Routes: []engine.AnthropicRoute{{ID: res.Target.ID, Replay: p.replay, PriorThinking: p.prior, LearnRejections: p.learn}}, PriorThinking: t.Dialects.Anthropic.PriorThinking}.Decide(r.BaseURL, r.Model)
	words := fmt.Sprintf("replay %s", p.replay)
	if p.replay != engine.ReplayStripped {
		words += fmt.Sprintf(", prior_thinking %s, learn_rejections %v", p.prior, p.learn)
	}
	if cur.Replay == want.Replay && cur.PriorThinking == want.PriorThinking && cur.LearnRejections == want.LearnRejections {
		res.Native = "anthropic.routes: the route already takes " + orRelay(cur.Route) + ", which decides " + words
		return nil
	}
	item := fmt.Sprintf("{id: %s, replay: %s", res.Target.ID, p.replay)
	if p.replay != engine.ReplayStripped {
		item += fmt.Sprintf(", prior_thinking: %s", p.prior)
	}
	if p.learn {
		item += ", learn_rejections: true"
	}
	item += ", hosts: [" + scalar(r.Host()) + "]"
	if path := basePath(r.BaseURL); path != "" {
		item += ", paths: [" + scalar(path) + "]"
	}
	item += "}"
	res.Native = "anthropic.routes[" + res.Target.ID + "]: " + words
	return []matrix.Edit{{List: "anthropic.routes", First: true, Item: item,
		Why: "the provider takes its tool loop back " + contractWords(p.replay) + res.shown(string(p.replay)+" replay", "foreign thinking.signature", "tampered thinking.signature")}}
}

// decides checks that the adopted table decides for the route what the
// probe inferred.
func (res *Result) decides(f *matrix.File) error {
	r := res.Target.Route
	d := f.Table.Decide(r, 0)
	switch r.APIMode {
	case engine.ModeChat:
		if d.Carriers != res.Carriers || (res.MustEcho && !d.Pad) {
			return fmt.Errorf("the route would send %s (pad %v), not %s (pad %v)", d.Carriers, d.Pad, res.Carriers, res.MustEcho)
		}
	case engine.ModeAnthropic:
		a := f.Table.Dialects.Anthropic.Decide(r.BaseURL, r.Model)
		if a.Replay != res.plan.replay || a.LearnRejections != res.plan.learn || (res.MustEcho && !d.Pad) {
			return fmt.Errorf("the route would take %s (replay %s, learn_rejections %v)", orRelay(a.Route), a.Replay, a.LearnRejections)
		}
	case engine.ModeGemini:
		if res.plan.nativeField && !d.ReadsNative(engine.NativeGemini) {
			return fmt.Errorf("the route would not read the private gemini fields")
		}
	case engine.ModeBedrockConverse:
		if c := f.Table.Dialects.Converse.For(r.Model); c.Replay != res.plan.replay || c.RequestThinking != res.plan.requestThinking {
			return fmt.Errorf("the model would take row %s (replay %s)", c.ID, c.Replay)
		}
	}
	return nil
}

// shown quotes the findings about subjects, for an edit's reason.
func (res *Result) shown(subjects ...string) string {
	var out []string
	for _, s := range subjects {
		for _, f := range res.Findings {
			if f.Subject == s && len(f.Shown) > 0 {
				out = append(out, f.String())
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	return ": " + strings.Join(out, "; ")
}

func orRelay(route string) string {
	if route == "" {
		return "no route class (an unknown relay)"
	}
	return "route class " + route
}

// provider is the route's provider id as the table compares it.
func provider(r engine.Route) string { return strings.ToLower(strings.TrimSpace(r.Provider)) }

// hostsOf is the hosts part of a flow mapping, empty without a host.
func hostsOf(host string) string {
	if host == "" {
		return ""
	}
	return ", hosts: [" + scalar(host) + "]"
}

// basePath is a base URL's path without its trailing slash.
func basePath(base string) string {
	if i := strings.Index(base, "://"); i >= 0 {
		base = base[i+3:]
	}
	if i := strings.IndexByte(base, '/'); i >= 0 {
		return strings.TrimSuffix(base[i:], "/")
	}
	return ""
}

var plainScalar = regexp.MustCompile(`^[a-z][a-z0-9._-]*$`)

// scalar writes a string as a YAML flow scalar: plain when it reads back
// as the same string, else double-quoted.
func scalar(s string) string {
	switch s {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
		return fmt.Sprintf("%q", s)
	}
	if plainScalar.MatchString(s) {
		return s
	}
	return fmt.Sprintf("%q", s)
}

// TargetYAML is the proposed matrix.yaml target entry, as a line of the
// targets list.
func (res *Result) TargetYAML() string { return "  - " + res.targetEdit().Item + "\n" }

// RouteYAML is the proposed route-table change in words: each edit with
// the list it changes and why.
func (res *Result) RouteYAML() string {
	var b strings.Builder
	for _, e := range res.Edits {
		if e.List == "targets" {
			continue
		}
		switch {
		case e.Join != "":
			fmt.Fprintf(&b, "%s: add %s to %s of %s\n", e.List, strings.Join(e.Values, ", "), e.Field, e.Join)
		case e.First:
			fmt.Fprintf(&b, "%s: insert first\n  - %s\n", e.List, e.Item)
		default:
			fmt.Fprintf(&b, "%s: append\n  - %s\n", e.List, e.Item)
		}
		if e.Why != "" {
			fmt.Fprintf(&b, "  # %s\n", e.Why)
		}
	}
	if b.Len() == 0 {
		switch {
		case res.Native != "":
			return "no change: " + res.Native + "\n"
		default:
			return fmt.Sprintf("no change: the route already sends %s (%s)\n", res.Carriers, res.Row)
		}
	}
	return b.String()
}
