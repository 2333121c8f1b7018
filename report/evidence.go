package report

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Evidence is the recorded-evidence section of a matrix: what imported
// recordings of real provider traffic (`replaycheck import`, read from
// cassettes/<target>/recorded/) showed when the engine and the simulator
// were held against them. Targets has one row per matrix target, in matrix
// order, so a matrix with no evidence still says how much it has: none.
type Evidence struct {
	Targets   []EvidenceTarget   `json:"targets"`
	Exchanges []EvidenceExchange `json:"exchanges"`
	Profiles  []ProfileFidelity  `json:"profiles"`
	// Unreadable lists the imported cassettes that could not be read, by
	// path; their exchanges are not checked, and the run that meets them
	// is incomplete (exit 3).
	Unreadable []UnreadableCassette `json:"unreadable,omitempty"`
	// DialectOnly lists the response-only exchanges (fixtures that
	// recorded the answer and no request) that no target takes: nothing
	// recorded says which provider answered, so they back no cell and only
	// capture is checked, against their api mode's dialect. Sorted by
	// cassette, then interaction.
	DialectOnly []DialectCapture `json:"dialect_only,omitempty"`
}

// A DialectCapture is the capture check of one response-only exchange no
// target takes.
type DialectCapture struct {
	// Cassette is cassettes/_dialect-<mode>/recorded/<name>.yaml.
	Cassette    string `json:"cassette"`
	Interaction int    `json:"interaction"`
	// Dialect is the api mode whose dialect captured the answer.
	Dialect string `json:"dialect"`
	Source  string `json:"source"`
	Capture Check  `json:"capture"`
}

// ID returns "_dialect-<mode>/recorded/<name>#<interaction>".
func (d DialectCapture) ID() string {
	return strings.TrimPrefix(d.Cassette, "cassettes/") + "#" + fmt.Sprint(d.Interaction)
}

// An UnreadableCassette is an imported cassette that could not be read:
// its path and the error, which names the file and the YAML line or
// interaction index.
type UnreadableCassette struct {
	Cassette string `json:"cassette"`
	Detail   string `json:"detail"`
}

// EvidenceTarget counts one target's imported cassettes and exchanges.
type EvidenceTarget struct {
	Target    string `json:"target"`
	Cassettes int    `json:"cassettes"`
	Exchanges int    `json:"exchanges"`
}

// EvidenceExchange is one recorded exchange and what each check said.
type EvidenceExchange struct {
	// Cassette is the imported cassette, cassettes/<target>/recorded/<name>.yaml.
	Cassette string `json:"cassette"`
	// Interaction is the exchange's index in the cassette.
	Interaction int    `json:"interaction"`
	Target      string `json:"target"`
	// Request is "METHOD host/path" (no query string).
	Request string `json:"request"`
	Status  int    `json:"status"`
	// Source cites where the recording comes from: repository, path,
	// commit, licence and the interaction's position there.
	Source       string `json:"source"`
	Capture      Check  `json:"capture"`
	Reproduction Check  `json:"reproduction"`
	Simulator    Check  `json:"simulator"`
}

// A Check is what one check said about one exchange.
type Check struct {
	Verdict Verdict `json:"verdict"`
	// Detail is one paragraph: why this verdict.
	Detail string `json:"detail"`
	// Rule is the profile rule in play (simulator fidelity), if any.
	Rule string `json:"rule,omitempty"`
	// Findings are the differences behind a reproduction verdict.
	Findings []Finding `json:"findings,omitempty"`
	// Scenarios are the matrix columns the check is evidence for.
	Scenarios []string `json:"scenarios,omitempty"`
}

// A Finding is one place where what the engine sends differs from what
// the recorded client sent, with both sides and the judgement.
type Finding struct {
	// Path is the JSON path in the recorded request body.
	Path     string  `json:"path"`
	Engine   string  `json:"engine"`
	Recorded string  `json:"recorded"`
	Verdict  Verdict `json:"verdict"`
	Why      string  `json:"why"`
}

// ProfileFidelity counts how a provider profile's simulator answered the
// recorded requests of its targets.
type ProfileFidelity struct {
	Profile      string `json:"profile"`
	Exchanges    int    `json:"exchanges"`
	Agree        int    `json:"agree"`
	Disagree     int    `json:"disagree"`
	Unverifiable int    `json:"unverifiable"`
	NotChecked   int    `json:"not_checked"`
}

// Verdict is the outcome of a check.
type Verdict string

// The verdicts. Capture says pass or fail; reproduction pass, advisory or
// fail; simulator fidelity agree, disagree or unverifiable; any check may
// say not-checked (with the reason) or n/a (nothing to check).
const (
	VerdictPass         Verdict = "pass"
	VerdictAdvisory     Verdict = "advisory"
	VerdictFail         Verdict = "fail"
	VerdictAgree        Verdict = "agree"
	VerdictDisagree     Verdict = "disagree"
	VerdictUnverifiable Verdict = "unverifiable"
	VerdictNotChecked   Verdict = "not-checked"
	VerdictNA           Verdict = "n/a"
)

// checkVerdicts are the verdicts each check (and a finding) may give.
var checkVerdicts = map[string][]Verdict{
	"capture":      {VerdictPass, VerdictFail, VerdictNotChecked, VerdictNA},
	"reproduction": {VerdictPass, VerdictAdvisory, VerdictFail, VerdictNotChecked, VerdictNA},
	"simulator":    {VerdictAgree, VerdictDisagree, VerdictUnverifiable, VerdictNotChecked},
	"finding":      {VerdictPass, VerdictAdvisory, VerdictFail},
}

// Anchor returns the fragment id of the exchange's entry in the evidence
// section: "evidence-<target>-<name>-<interaction>".
func (e EvidenceExchange) Anchor() string {
	name := strings.TrimSuffix(path.Base(e.Cassette), ".yaml")
	return fmt.Sprintf("evidence-%s-%s-%d", e.Target, name, e.Interaction)
}

// ID returns "<target>/recorded/<name>#<interaction>".
func (e EvidenceExchange) ID() string {
	return strings.TrimPrefix(e.Cassette, "cassettes/") + "#" + fmt.Sprint(e.Interaction)
}

// Summary returns the one-line account of the evidence: how many
// exchanges, cassettes and targets, and each check's verdict counts.
func (ev *Evidence) Summary() string {
	withEvidence, cassettes := 0, 0
	for _, t := range ev.Targets {
		cassettes += t.Cassettes
		if t.Exchanges > 0 {
			withEvidence++
		}
	}
	head := fmt.Sprintf("%s in %s for %d of %s", plural(len(ev.Exchanges), "recorded exchange"),
		plural(cassettes, "cassette"), withEvidence, plural(len(ev.Targets), "target"))
	if n := len(ev.Unreadable); n > 0 {
		head += fmt.Sprintf(" (%s could not be read)", plural(n, "more imported cassette"))
	}
	if n := len(ev.DialectOnly); n > 0 {
		pass := 0
		for _, d := range ev.DialectOnly {
			if d.Capture.Verdict == VerdictPass {
				pass++
			}
		}
		head += fmt.Sprintf(", and %s no target takes, captured against the dialect only (%d pass)", plural(n, "response-only exchange"), pass)
	}
	if len(ev.Exchanges) == 0 {
		return head + ": no target has imported evidence (cassettes/<target>/recorded/ is empty)"
	}
	parts := []string{}
	for _, kind := range []string{"capture", "reproduction", "simulator"} {
		counts := map[Verdict]int{}
		for _, x := range ev.Exchanges {
			counts[x.check(kind).Verdict]++
		}
		var cs []string
		for _, v := range checkVerdicts[kind] {
			if counts[v] > 0 {
				cs = append(cs, fmt.Sprintf("%d %s", counts[v], v))
			}
		}
		parts = append(parts, kind+" "+strings.Join(cs, ", "))
	}
	return head + "; " + strings.Join(parts, "; ")
}

// check returns the named check of an exchange.
func (e EvidenceExchange) check(kind string) Check {
	switch kind {
	case "capture":
		return e.Capture
	case "reproduction":
		return e.Reproduction
	}
	return e.Simulator
}

// validate checks the evidence section against the matrix, returning the
// first broken rule with its JSON path:
//
//  1. Targets lists every matrix target once, in matrix order, and its
//     counts are the number of the target's exchanges and cassettes.
//  2. Each exchange names a listed target and sits at
//     cassettes/<target>/recorded/<name>.yaml; exchanges are sorted by
//     cassette, then interaction, and appear once.
//  3. Every verdict is one its check may give (a finding: pass, advisory
//     or fail).
//  4. Each profile's counts add up to its exchanges, and all profiles
//     together count every exchange once.
//  5. Each unreadable cassette names its path and error, sorted by path.
func (ev *Evidence) validate(targets []string) error {
	if len(ev.Targets) != len(targets) {
		return fmt.Errorf("evidence.targets: %d rows, want one per target (%d)", len(ev.Targets), len(targets))
	}
	exchanges, cassettes := map[string]int{}, map[string]map[string]bool{}
	for i, x := range ev.Exchanges {
		p := fmt.Sprintf("evidence.exchanges[%d]", i)
		if !slices.Contains(targets, x.Target) {
			return fmt.Errorf("%s.target: %q is not listed in targets", p, x.Target)
		}
		dir, name := path.Split(x.Cassette)
		if dir != "cassettes/"+x.Target+"/recorded/" || !strings.HasSuffix(name, ".yaml") || !validID(strings.TrimSuffix(name, ".yaml")) {
			return fmt.Errorf("%s.cassette: %q is not cassettes/%s/recorded/<name>.yaml", p, x.Cassette, x.Target)
		}
		if i > 0 {
			prev := ev.Exchanges[i-1]
			if prev.Cassette > x.Cassette || (prev.Cassette == x.Cassette && prev.Interaction >= x.Interaction) {
				return fmt.Errorf("%s: %s comes after %s: exchanges are sorted by cassette, then interaction, once each", p, x.ID(), prev.ID())
			}
		}
		for _, kind := range []string{"capture", "reproduction", "simulator"} {
			c := x.check(kind)
			if !slices.Contains(checkVerdicts[kind], c.Verdict) {
				return fmt.Errorf("%s.%s.verdict: %q is not a %s verdict (want one of %s)", p, kind, c.Verdict, kind, verdictList(checkVerdicts[kind]))
			}
			for j, f := range c.Findings {
				if !slices.Contains(checkVerdicts["finding"], f.Verdict) {
					return fmt.Errorf("%s.%s.findings[%d].verdict: %q (want one of %s)", p, kind, j, f.Verdict, verdictList(checkVerdicts["finding"]))
				}
			}
		}
		exchanges[x.Target]++
		if cassettes[x.Target] == nil {
			cassettes[x.Target] = map[string]bool{}
		}
		cassettes[x.Target][x.Cassette] = true
	}
	for i, t := range ev.Targets {
		p := fmt.Sprintf("evidence.targets[%d]", i)
		switch {
		case t.Target != targets[i]:
			return fmt.Errorf("%s.target: %q, want %q (the matrix's order)", p, t.Target, targets[i])
		case t.Exchanges != exchanges[t.Target]:
			return fmt.Errorf("%s.exchanges: %d, but %d exchanges name %s", p, t.Exchanges, exchanges[t.Target], t.Target)
		case t.Cassettes != len(cassettes[t.Target]):
			return fmt.Errorf("%s.cassettes: %d, but the exchanges of %s come from %d", p, t.Cassettes, t.Target, len(cassettes[t.Target]))
		}
	}
	for i, u := range ev.Unreadable {
		p := fmt.Sprintf("evidence.unreadable[%d]", i)
		switch {
		case u.Cassette == "" || u.Detail == "":
			return fmt.Errorf("%s: an unreadable cassette needs its path and the error", p)
		case i > 0 && ev.Unreadable[i-1].Cassette >= u.Cassette:
			return fmt.Errorf("%s: %s comes after %s: unreadable cassettes are sorted by path, once each", p, u.Cassette, ev.Unreadable[i-1].Cassette)
		}
	}
	for i, d := range ev.DialectOnly {
		p := fmt.Sprintf("evidence.dialect_only[%d]", i)
		dir, name := path.Split(d.Cassette)
		switch {
		case d.Dialect == "" || dir != "cassettes/_dialect-"+d.Dialect+"/recorded/" || !strings.HasSuffix(name, ".yaml"):
			return fmt.Errorf("%s.cassette: %q is not cassettes/_dialect-<dialect>/recorded/<name>.yaml for dialect %q", p, d.Cassette, d.Dialect)
		case !slices.Contains(checkVerdicts["capture"], d.Capture.Verdict):
			return fmt.Errorf("%s.capture.verdict: %q is not a capture verdict (want one of %s)", p, d.Capture.Verdict, verdictList(checkVerdicts["capture"]))
		case i > 0 && (ev.DialectOnly[i-1].Cassette > d.Cassette || ev.DialectOnly[i-1].Cassette == d.Cassette && ev.DialectOnly[i-1].Interaction >= d.Interaction):
			return fmt.Errorf("%s: %s comes after %s: sorted by cassette, then interaction, once each", p, d.ID(), ev.DialectOnly[i-1].ID())
		}
	}
	total := 0
	for i, pf := range ev.Profiles {
		if pf.Agree+pf.Disagree+pf.Unverifiable+pf.NotChecked != pf.Exchanges {
			return fmt.Errorf("evidence.profiles[%d]: %s counts %d exchanges but its verdicts add up to %d", i, pf.Profile, pf.Exchanges, pf.Agree+pf.Disagree+pf.Unverifiable+pf.NotChecked)
		}
		total += pf.Exchanges
	}
	if total != len(ev.Exchanges) {
		return fmt.Errorf("evidence.profiles: count %d exchanges, the section has %d", total, len(ev.Exchanges))
	}
	return nil
}

// cassettes returns the set of imported cassettes the section names.
func (ev *Evidence) cassettes() map[string]bool {
	out := map[string]bool{}
	if ev == nil {
		return out
	}
	for _, x := range ev.Exchanges {
		out[x.Cassette] = true
	}
	return out
}

func verdictList(vs []Verdict) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = string(v)
	}
	return strings.Join(names, ", ")
}
