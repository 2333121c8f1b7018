package report

import (
	"cmp"
	"slices"
)

// Matrix is the route-by-route result: targets × scenarios.
type Matrix struct {
	// Implementation names the replay implementation checked: the reference
	// engine, or an agent's own code over the engine protocol.
	Implementation *Implementation `json:"implementation,omitempty"`
	Targets        []string        `json:"targets"`   // target ids, in matrix.yaml order
	Scenarios      []string        `json:"scenarios"` // scenario names, canonical order
	Cells          []Cell          `json:"cells"`     // sorted by target order, then scenario order
	// Evidence is the recorded-evidence section; nil when the matrix was
	// built without looking for imported recordings.
	Evidence *Evidence `json:"evidence,omitempty"`
	// Curve is the post-compaction quality curve; nil when the matrix was
	// built without running it (make reports runs it).
	Curve *QualityCurve `json:"curve,omitempty"`
	// Aliases are the targets' aliases with their cells, in target order;
	// nil when the matrix was built without them (an engine over the
	// protocol, or a run of named cells).
	Aliases []AliasRow `json:"aliases,omitempty"`
}

// Implementation names a replay implementation, as it names itself in the
// engine protocol's hello.
type Implementation struct {
	Name     string `json:"name"`               // e.g. replaycheck-reference
	Version  string `json:"version"`            // the implementation's own version
	Language string `json:"language,omitempty"` // e.g. go, python
	Homepage string `json:"homepage,omitempty"` // where the implementation lives
}

// String renders "name version (language)".
func (i Implementation) String() string {
	s := i.Name + " " + i.Version
	if i.Language != "" {
		s += " (" + i.Language + ")"
	}
	return s
}

// Cell is the outcome of one scenario against one target.
type Cell struct {
	Target        string `json:"target"`
	Scenario      string `json:"scenario"`
	Status        Status `json:"status"`                   // pass | fail | unverified | n/a | known-fail | advisory | error
	Provenance    string `json:"provenance"`               // simulated | recorded | profile | agent | "" when n/a
	Detail        string `json:"detail"`                   // one paragraph: why this status
	Expected      string `json:"expected,omitempty"`       // for non-pass cells
	Actual        string `json:"actual,omitempty"`         // what the provider or the engine did
	ProviderError string `json:"provider_error,omitempty"` // the provider's recorded error body
	Cassette      string `json:"cassette,omitempty"`       // cassettes/<target>/<scenario>.yaml
	// Recorded lists the recorded cassettes behind a "recorded" provenance:
	// the cell's own cassette when it was recorded live, or the imported
	// cassettes whose exchanges are evidence for this target and scenario,
	// joined by ", ". Empty for simulated cells.
	Recorded string `json:"recorded,omitempty"`
	// Verdict says what judged a failing (or known-failing) cell:
	// VerdictRefused, VerdictAnswer or VerdictInvariant.
	Verdict string `json:"verdict,omitempty"`
	// Confidence is how sure a refusal is: ConfidenceRecorded for a live
	// recording, else the confidence of the profile rule that refused
	// (confirmed, partial or unconfirmed).
	Confidence string `json:"confidence,omitempty"`
}

// The verdict classes of a failing cell.
const (
	// VerdictRefused: the provider refused what the implementation sent.
	VerdictRefused = "refused"
	// VerdictAnswer: the provider accepted, and its answer shows reasoning
	// lost (an earlier conclusion it no longer states, one it reads but is
	// not sent).
	VerdictAnswer = "answer"
	// VerdictInvariant: the provider accepted, and only a SPEC invariant
	// broke (what the request or the stored session holds).
	VerdictInvariant = "invariant"
)

// VerdictText says in words what judged a failing cell, "" when nothing
// did (a passing cell, a declaration's own finding).
func (c Cell) VerdictText() string {
	switch c.Verdict {
	case VerdictRefused:
		switch {
		case c.Confidence == ConfidenceRecorded:
			return "the provider refused it (a live recording)"
		case c.Confidence != "":
			return "the provider refused it (a " + c.Confidence + " profile rule)"
		}
		return "the provider refused it"
	case VerdictAnswer:
		return "the provider accepted; its answer shows reasoning lost"
	case VerdictInvariant:
		return "the provider accepted; a SPEC invariant broke"
	}
	return ""
}

// ConfidenceRecorded is the confidence of a refusal a live recording holds.
const ConfidenceRecorded = "recorded"

// Guessed reports whether a refusal rests on a profile rule that is only
// partial or unconfirmed: an extrapolated body or behaviour.
func (c Cell) Guessed() bool { return c.Confidence == "partial" || c.Confidence == "unconfirmed" }

// FailClasses counts the failing cells by what they rest on: refusals and
// answers on documented evidence (a recording, or a confirmed rule),
// refusals on partial or unconfirmed rules, and SPEC invariants the
// provider accepted.
func (m *Matrix) FailClasses() (documented, guessed, invariant int) {
	for _, c := range m.Cells {
		switch {
		case c.Status != StatusFail:
		case c.Verdict == VerdictInvariant:
			invariant++
		case c.Guessed():
			guessed++
		default:
			documented++
		}
	}
	return documented, guessed, invariant
}

// Status is the outcome of a cell; see the package documentation for what each value means.
type Status string

// The seven cell statuses.
const (
	// StatusPass means the provider accepted the request and the scenario's assertions hold.
	StatusPass Status = "pass"
	// StatusFail means the provider refused the request, or an invariant broke.
	StatusFail Status = "fail"
	// StatusUnverified means no recorded interaction matches this exact request.
	StatusUnverified Status = "unverified"
	// StatusNA means the scenario does not apply to the target.
	StatusNA Status = "n/a"
	// StatusKnownFail means the cell is declared failing in matrix.yaml with a reason.
	StatusKnownFail Status = "known-fail"
	// StatusAdvisory means the request was accepted, but the table sends less than the provider
	// is recorded to accept.
	StatusAdvisory Status = "advisory"
	// StatusError means the cell could not be judged: its input (a cassette, a profile) could not
	// be read, or the implementation under test crashed, timed out or answered malformed output.
	// The detail names the file and the position, or the step and the request.
	StatusError Status = "error"
)

// The provenances a judged cell can carry.
const (
	// ProvenanceSimulated marks a cassette generated from a provider profile.
	ProvenanceSimulated = "simulated"
	// ProvenanceRecorded marks a cassette recorded from the live provider.
	ProvenanceRecorded = "recorded"
	// ProvenanceProfile marks a cell at least one of whose requests no
	// cassette holds: the provider's profile judged it, through its
	// simulator (the detail names each rule and its source).
	ProvenanceProfile = "profile"
	// ProvenanceAgent marks a cell judged from the requests an unmodified
	// agent sent to the provider's simulator (`replaycheck agent`): its
	// cassette keeps those exchanges.
	ProvenanceAgent = "agent"
)

// Statuses returns the seven statuses in the order reports list them.
func Statuses() []Status {
	return []Status{StatusPass, StatusFail, StatusUnverified, StatusNA, StatusKnownFail, StatusAdvisory, StatusError}
}

// Valid reports whether s is one of the seven statuses.
func (s Status) Valid() bool {
	return slices.Contains(Statuses(), s)
}

// Anchor returns the fragment id of the cell's detail entry, "detail-<target>-<scenario>",
// used by the Markdown and HTML renderers to link a grid cell to its detail.
func (c Cell) Anchor() string {
	return "detail-" + c.Target + "-" + c.Scenario
}

// ID returns the cell's "<target>/<scenario>" id, the prefix of its spec ids.
func (c Cell) ID() string {
	return c.Target + "/" + c.Scenario
}

// Sort orders m.Targets by targetOrder, m.Scenarios by scenarioOrder, and m.Cells by target,
// then scenario, in those orders. Ids missing from an order sort after the listed ones, by
// name; the sort is stable, so duplicate cells keep their relative order.
func (m *Matrix) Sort(targetOrder, scenarioOrder []string) {
	byTarget, byScenario := rank(targetOrder), rank(scenarioOrder)
	slices.SortStableFunc(m.Targets, byTarget.compare)
	slices.SortStableFunc(m.Scenarios, byScenario.compare)
	slices.SortStableFunc(m.Cells, func(a, b Cell) int {
		return cmp.Or(byTarget.compare(a.Target, b.Target), byScenario.compare(a.Scenario, b.Scenario))
	})
}

// Cell returns the cell for target × scenario, and whether there is one.
func (m *Matrix) Cell(target, scenario string) (Cell, bool) {
	for _, c := range m.Cells {
		if c.Target == target && c.Scenario == scenario {
			return c, true
		}
	}
	return Cell{}, false
}

// Counts returns how many cells have each status; all seven statuses are present as keys, with
// zero for those no cell has.
func (m *Matrix) Counts() map[Status]int {
	counts := make(map[Status]int, len(Statuses()))
	for _, s := range Statuses() {
		counts[s] = 0
	}
	for _, c := range m.Cells {
		counts[c.Status]++
	}
	return counts
}

// Failed reports whether any cell has [StatusFail].
func (m *Matrix) Failed() bool { return m.has(StatusFail) }

// Errored reports whether any cell has [StatusError]: the matrix is incomplete.
func (m *Matrix) Errored() bool { return m.has(StatusError) }

func (m *Matrix) has(s Status) bool {
	return slices.ContainsFunc(m.Cells, func(c Cell) bool { return c.Status == s })
}

// order maps an id to its position in a declared order.
type order map[string]int

// rank returns the position of each id in ids; a repeated id keeps its first position.
func rank(ids []string) order {
	o := make(order, len(ids))
	for i, id := range ids {
		if _, ok := o[id]; !ok {
			o[id] = i
		}
	}
	return o
}

// compare orders ranked ids by rank, before unranked ids, which are ordered by name.
func (o order) compare(a, b string) int {
	ra, okA := o[a]
	rb, okB := o[b]
	switch {
	case okA && okB:
		return cmp.Compare(ra, rb)
	case okA:
		return -1
	case okB:
		return 1
	}
	return cmp.Compare(a, b)
}
