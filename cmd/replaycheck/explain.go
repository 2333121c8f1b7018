package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/anthropic"
	"github.com/replaycheck/replaycheck/engine/chat"
)

// explainJSON is the --json output of explain; its keys are a stable
// contract.
type explainJSON struct {
	APIMode      string          `json:"api_mode"`
	Provider     string          `json:"provider"`
	Host         string          `json:"host"`
	Model        string          `json:"model"`
	Row          string          `json:"row"`
	EchoFamily   *string         `json:"echo_family"`
	Pad          bool            `json:"pad"`
	Carriers     []string        `json:"carriers"`
	Flags        json.RawMessage `json:"flags"`
	NativeFields []string        `json:"native_fields"`
	// The native dialect's decision, for the api mode that has one.
	Anthropic *explainAnthropic `json:"anthropic,omitempty"`
	Converse  *explainConverse  `json:"converse,omitempty"`
	Responses *explainResponses `json:"responses,omitempty"`
}

// explainAnthropic is what decides replay on an Anthropic route (SPEC §4.1).
type explainAnthropic struct {
	RouteClass       *string `json:"route_class"`
	Replay           string  `json:"replay"`
	Platform         string  `json:"platform"`
	LearnRejections  bool    `json:"learn_rejections"`
	PriorThinking    bool    `json:"prior_thinking"`
	PriorThinkingWhy string  `json:"prior_thinking_why"`
	// Thinking is the request's thinking object, as shape sends it.
	Thinking    json.RawMessage `json:"thinking"`
	ThinkingWhy string          `json:"thinking_why"`
}

// explainConverse is the Bedrock Converse policy of the model (SPEC §4.2).
type explainConverse struct {
	Policy          string `json:"policy"`
	Replay          string `json:"replay"`
	RequestThinking bool   `json:"request_thinking"`
	// Thinking is additionalModelRequestFields.thinking as shape sends
	// it, or null when no thinking is requested.
	Thinking    json.RawMessage `json:"thinking"`
	ThinkingWhy string          `json:"thinking_why"`
}

// explainResponses is the Responses issuing family of the route (SPEC §9.5).
type explainResponses struct {
	Family        string `json:"family"`
	ItemsReplayed bool   `json:"items_replayed"`
	Why           string `json:"why"`
}

// dialectExplain is the native dialect's part of a decision.
type dialectExplain struct {
	anthropic *explainAnthropic
	converse  *explainConverse
	responses *explainResponses
}

// thinkingRequest is the thinking object a Claude request carries, as the
// dialects shape it, and why.
func thinkingRequest(model string, adaptive bool) (json.RawMessage, string) {
	if adaptive {
		return json.RawMessage(engine.AdaptiveThinkingConfig), model + " refuses a thinking budget (anthropic.adaptive_thinking): adaptive thinking, display summarized keeps the thinking text"
	}
	return anthropic.AppendThinking(nil, false), fmt.Sprintf("a thinking budget of %d tokens", anthropic.BudgetTokens)
}

// explainDialect reads the native dialect's policy for a route.
func explainDialect(tbl *engine.Table, r engine.Route) dialectExplain {
	var out dialectExplain
	switch r.APIMode {
	case engine.ModeAnthropic:
		a, why := tbl.Dialects.Anthropic.Why(r.BaseURL, r.Model)
		out.anthropic = &explainAnthropic{Replay: string(a.Replay), Platform: a.Platform, LearnRejections: a.LearnRejections,
			PriorThinking: a.PriorThinking, PriorThinkingWhy: why}
		out.anthropic.Thinking, out.anthropic.ThinkingWhy = thinkingRequest(r.Model, a.Adaptive)
		if a.Route != "" {
			out.anthropic.RouteClass = &a.Route
		}
	case engine.ModeBedrockConverse:
		c := tbl.Dialects.Converse.For(r.Model)
		out.converse = &explainConverse{Policy: c.ID, Replay: string(c.Replay), RequestThinking: c.RequestThinking,
			Thinking: json.RawMessage("null"), ThinkingWhy: "the Converse row " + c.ID + " requests no thinking"}
		if c.RequestThinking {
			out.converse.Thinking, out.converse.ThinkingWhy = thinkingRequest(r.Model, tbl.Dialects.Anthropic.AdaptiveThinking.Only(r.Model))
		}
	case engine.ModeResponses:
		fam := tbl.Dialects.Responses.Family(r.Host())
		out.responses = &explainResponses{Family: fam, ItemsReplayed: fam != "" && strings.TrimSpace(r.Model) != ""}
		if out.responses.ItemsReplayed {
			out.responses.Why = "reasoning items issued by family " + fam + " for model " + strings.TrimSpace(r.Model) +
				" go back in position; items of other families or models never do (the turn goes without them)"
		} else {
			out.responses.Why = "the route names no host or no model, so no issued item can be its own: turns go without reasoning items"
		}
	}
	return out
}

func runExplain(_ context.Context, std *streams, args []string) error {
	f := newFlags("explain",
		"explain --provider P --base-url URL --model M [--api-mode MODE] [--echo-opt-in] [--rejected LIST] [--json [--indent|--compact]]",
		"Explain applies the route table (SPEC §2) to one route and prints the decision:\n"+
			"the matching carrier row, the must-echo family and pad, the carriers the\n"+
			"route reads, the vendor flags it sets and the private native fields it\n"+
			"reads, each with the reason for it. On a native api mode it prints what\n"+
			"decides there: the Anthropic route class, replay, platform and\n"+
			"prior-thinking verdict with its reason; the Converse model policy; the\n"+
			"Responses issuing family and whether reasoning items are replayed.")
	var rf routeFlags
	rf.register(f)
	var rejected listFlag
	f.Var(&rejected, "rejected", "carriers recorded as refused for the route, comma-separated `LIST`")
	asJSON := f.Bool("json", false, "print one JSON object instead of text")
	var layout jsonLayout
	layout.register(f)
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := layout.check(f); err != nil {
		return err
	}
	if err := f.atMost(pos, 0); err != nil {
		return err
	}
	route, err := rf.route(f)
	if err != nil {
		return err
	}
	rej, err := engine.ParseCarrierSet(rejected.String())
	if err != nil {
		return f.usagef("--rejected: %v", err)
	}
	mf, err := f.loadMatrix()
	if err != nil {
		return err
	}
	d := mf.Table.Decide(route, rej)
	flags, err := chat.FlagsObject(d.Flags)
	if err != nil {
		return fmt.Errorf("%s: vendor flags %s: %w", f.matrix, strings.Join(d.FlagIDs, ","), err)
	}
	dx := explainDialect(&mf.Table, d.Route)
	if *asJSON {
		out := explainJSON{
			APIMode: string(d.Route.APIMode), Provider: route.Provider, Host: route.Host(), Model: route.Model,
			Row: d.Row, Pad: d.Pad, Carriers: d.Carriers.Names(), Flags: flags, NativeFields: d.NativeFields,
			Anthropic: dx.anthropic, Converse: dx.converse, Responses: dx.responses,
		}
		if d.EchoFamily != "" {
			out.EchoFamily = &d.EchoFamily
		}
		return layout.writeValue(std.out, out)
	}
	return writeExplainText(std, d, dx, flags, rej)
}

func writeExplainText(std *streams, d engine.Decision, dx dialectExplain, flags []byte, rejected engine.CarrierSet) error {
	orNone := func(s string) string {
		if s == "" {
			return "none"
		}
		return s
	}
	r := d.Route
	carriers := d.Carriers.String()
	if d.Native {
		carriers = "native (the " + string(r.APIMode) + " dialect replays its own blocks)"
	}
	flagText := "none"
	if len(d.FlagIDs) > 0 {
		flagText = strings.Join(d.FlagIDs, ", ") + " " + string(flags)
	}
	pad := "no"
	if d.Pad {
		pad = "yes"
	}
	tw := tabwriter.NewWriter(std.out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "api mode\t%s\n", r.APIMode)
	fmt.Fprintf(tw, "provider\t%s\n", r.Provider)
	fmt.Fprintf(tw, "host\t%s\n", orNone(r.Host()))
	fmt.Fprintf(tw, "model\t%s\n", r.Model)
	fmt.Fprintf(tw, "row\t%s\n", d.Row)
	fmt.Fprintf(tw, "echo family\t%s\n", orNone(d.EchoFamily))
	fmt.Fprintf(tw, "pad\t%s\n", pad)
	fmt.Fprintf(tw, "carriers\t%s\n", carriers)
	if !rejected.Empty() {
		fmt.Fprintf(tw, "rejected\t%s\n", rejected)
	}
	fmt.Fprintf(tw, "flags\t%s\n", flagText)
	fmt.Fprintf(tw, "native fields\t%s\n", orNone(strings.Join(d.NativeFields, ", ")))
	yesNo := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	if a := dx.anthropic; a != nil {
		class := "none (an unknown relay)"
		if a.RouteClass != nil {
			class = *a.RouteClass
		}
		fmt.Fprintf(tw, "anthropic route\t%s\n", class)
		fmt.Fprintf(tw, "replay\t%s\n", a.Replay)
		fmt.Fprintf(tw, "platform\t%s\n", a.Platform)
		fmt.Fprintf(tw, "learnt rejections\t%s\n", yesNo(a.LearnRejections))
		fmt.Fprintf(tw, "prior thinking\t%s: %s\n", yesNo(a.PriorThinking), a.PriorThinkingWhy)
		fmt.Fprintf(tw, "thinking\t%s: %s\n", a.Thinking, a.ThinkingWhy)
	}
	if c := dx.converse; c != nil {
		fmt.Fprintf(tw, "converse policy\t%s\n", c.Policy)
		fmt.Fprintf(tw, "replay\t%s\n", c.Replay)
		fmt.Fprintf(tw, "thinking requested\t%s\n", yesNo(c.RequestThinking))
		fmt.Fprintf(tw, "thinking\t%s: %s\n", c.Thinking, c.ThinkingWhy)
	}
	if r := dx.responses; r != nil {
		fmt.Fprintf(tw, "responses family\t%s\n", orNone(r.Family))
		fmt.Fprintf(tw, "items replayed\t%s: %s\n", yesNo(r.ItemsReplayed), r.Why)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(std.out, "\nwhy:")
	for _, reason := range d.Reasons {
		fmt.Fprintf(std.out, "  - %s\n", reason)
	}
	return nil
}
