package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/replaycheck/replaycheck/engine"
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
}

func runExplain(_ context.Context, std *streams, args []string) error {
	f := newFlags("explain",
		"explain --provider P --base-url URL --model M [--api-mode MODE] [--echo-opt-in] [--rejected LIST] [--json [--indent|--compact]]",
		"Explain applies the route table (SPEC §2) to one route and prints the decision:\n"+
			"the matching carrier row, the must-echo family and pad, the carriers the\n"+
			"route reads, the vendor flags it sets and the private native fields it\n"+
			"reads, each with the reason for it.")
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
	if *asJSON {
		out := explainJSON{
			APIMode: string(d.Route.APIMode), Provider: route.Provider, Host: route.Host(), Model: route.Model,
			Row: d.Row, Pad: d.Pad, Carriers: d.Carriers.Names(), Flags: flags, NativeFields: d.NativeFields,
		}
		if d.EchoFamily != "" {
			out.EchoFamily = &d.EchoFamily
		}
		return layout.writeValue(std.out, out)
	}
	return writeExplainText(std, d, flags, rej)
}

func writeExplainText(std *streams, d engine.Decision, flags []byte, rejected engine.CarrierSet) error {
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
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(std.out, "\nwhy:")
	for _, reason := range d.Reasons {
		fmt.Fprintf(std.out, "  - %s\n", reason)
	}
	return nil
}
