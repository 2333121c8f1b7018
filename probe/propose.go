package probe

import (
	"fmt"
	"sort"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/providers"
	"go.yaml.in/yaml/v3"
)

// TargetYAML is the proposed matrix.yaml target entry.
func (res *Result) TargetYAML() string {
	r := res.Target.Route
	return fmt.Sprintf("  - {id: %s, api_mode: %s, provider: %s, base_url: %q, model: %s, profile: %s}\n",
		res.Target.ID, r.APIMode, r.Provider, r.BaseURL, r.Model, res.Target.ID)
}

// RouteYAML is the proposed route-table change: the provider added to an
// existing row, or a new row, and a must-echo family when needed.
func (res *Result) RouteYAML() string {
	var b strings.Builder
	provider := strings.ToLower(strings.TrimSpace(res.Target.Route.Provider))
	host := res.Target.Route.Host()
	if res.Row == "default" {
		fmt.Fprintf(&b, "# no carrier row needed: the default route already sends %s\n", res.Carriers)
	} else if res.Row != "" {
		fmt.Fprintf(&b, "# carrier_routes: add to row %q (carriers %s):\n#   providers: [..., %s]\n#   hosts: [..., %s]\n", res.Row, res.Carriers, provider, host)
	} else {
		fmt.Fprintf(&b, "carrier_routes:\n  - id: %s\n    carriers: [%s]\n    providers: [%s]\n    hosts: [%s]\n",
			res.Target.ID, strings.Join(res.Carriers.Names(), ", "), provider, host)
	}
	if res.MustEcho {
		fmt.Fprintf(&b, "echo_families:\n  - name: %s\n    providers: [%s]\n    hosts: [%s]\n", res.Target.ID, provider, host)
	}
	return b.String()
}

// DraftProfile is the provider profile the recordings support. Every rule
// quotes the recorded body verbatim and is marked unconfirmed: a probe is
// evidence from one run, not documentation.
func (res *Result) DraftProfile(date string) *providers.Profile {
	r := res.Target.Route
	source := fmt.Sprintf("replaycheck probe of %s on %s", r.Host(), date)
	p := &providers.Profile{
		Name: res.Target.ID, Version: 1, Title: r.Provider + " (probed)", APIMode: string(r.APIMode),
		Hosts: []string{r.Host()}, Confidence: providers.ConfidenceUnconfirmed,
		ConfidenceNote: fmt.Sprintf("inferred by replaycheck probe from %d recorded requests (%s); confirm against the provider's documentation", res.Interactions, res.Provenance),
		Sources:        []string{source},
		Emits:          providers.Emits{Fields: res.Emitted, Stream: streamFraming(r.APIMode), Source: source},
	}
	for _, c := range engine.AllCarriers {
		if res.Accepted[c] && (res.Read[c] || len(res.Read) == 0) {
			p.Reads = append(p.Reads, string(c))
		}
	}
	refused := make([]string, 0, len(res.Refused))
	for c := range res.Refused {
		refused = append(refused, string(c))
	}
	sort.Strings(refused)
	for _, c := range refused {
		ref := res.Refused[engine.Carrier(c)]
		p.Rules = append(p.Rules, providers.Rule{
			ID: strings.ReplaceAll(c, "_", "-") + "-refused", Status: ref.Status, Body: ref.Body,
			When:   providers.Condition{Kind: providers.ConditionAssistantFieldPresent, Field: c},
			Source: source, Confidence: providers.ConfidenceUnconfirmed,
			Note: "recorded verbatim by the probe; the message index in the body is the probe's",
		})
	}
	if res.MustEcho {
		p.Rules = append(p.Rules, providers.Rule{
			ID: "reasoning-content-missing", Status: res.MustEchoRefusal.Status, Body: res.MustEchoRefusal.Body,
			When:   providers.Condition{Kind: providers.ConditionToolTurnFieldMissing, Field: "reasoning_content", BlankIsMissing: true},
			Source: source, Confidence: providers.ConfidenceUnconfirmed,
			Note: "a bare tool-call turn was refused and the one-space pad accepted",
		})
	}
	return p
}

// emittedFields names the reasoning fields a captured turn holds.
func emittedFields(m engine.Message) []string {
	var out []string
	if m.ReasoningContent != nil {
		out = append(out, "reasoning_content")
	}
	if m.Reasoning != nil {
		out = append(out, "reasoning")
	}
	if len(m.ReasoningDetails) > 0 {
		out = append(out, "reasoning_details")
	}
	return out
}

func streamFraming(mode engine.APIMode) string {
	if mode == engine.ModeBedrockConverse {
		return "aws-eventstream"
	}
	return "sse"
}

// ProfileYAML renders the draft profile as providers/<id>.yaml.
func (res *Result) ProfileYAML(date string) (string, error) {
	b, err := yaml.Marshal(res.DraftProfile(date))
	return string(b), err
}
