package importer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
)

// A Placement says where one exchange goes.
type Placement struct {
	// Exchange is the exchange's index in its recording.
	Exchange int
	// Route is what the request says about where it went.
	Route Route
	// Target is the target that takes it, "" when unplaced.
	Target string
	// Note says how the target was chosen when it was not an exact match
	// (another model or path, a response-only fixture, --target).
	Note string
	// Unplaced says why no target takes it.
	Unplaced string
	// Dialect is set for a response-only exchange that no target takes:
	// nothing recorded says which provider answered, so capture is
	// checked against this api mode's dialect only (Note says why).
	Dialect engine.APIMode
}

// DialectOnly reports a response-only exchange checked against its
// dialect only.
func (p Placement) DialectOnly() bool { return p.Dialect != "" }

// Place picks the matrix target of an exchange, by host, path and model:
//
//  1. The api mode comes from the request path (a response-only fixture's
//     from its events). A path that speaks no known api mode is unplaced.
//  2. A forced target (--target) takes the exchange when it speaks the
//     same api mode, whatever its host and model: its dialect reads it.
//  3. A response-only fixture, which recorded no host, goes to the target
//     of its api mode and model family, or to its dialect alone
//     ([placeResponseOnly]). Otherwise the candidates are the targets of
//     that api mode on the exchange's host. None: unplaced.
//  4. A candidate whose base URL and model are the recorded ones is an
//     exact match.
//  5. Otherwise the first candidate, in matrix order, for which the route
//     decision is identical with the recorded base URL and model put in
//     its route — same carrier row, must-echo family, pad, carriers,
//     vendor flags, private native fields and prior-thinking answer, and
//     on native routes the same dialect policy (Anthropic route, replay,
//     platform, learnt rejections; Converse model policy) — takes it: the
//     engine would shape the recorded turn for it exactly as for the
//     recorded endpoint. A response-only fixture without a model goes to
//     the first candidate: only capture is checked on it, and capture
//     depends on the api mode alone.
//  6. Otherwise — no candidate on the host, or none deciding the same —
//     the first target of the api mode elsewhere whose provider profile
//     describes the recorded host and whose decision for the recorded
//     route is its own takes it ([placeElsewhere]): an Azure resource's
//     own host, another Bedrock region. The note says "placed at X: same
//     decision for HOST".
//  7. Otherwise the exchange is unplaced, naming the nearest candidate
//     and the first part of the decision that differs, or saying that no
//     profile describes the host; --target places it anyway.
func Place(e Exchange, mf *matrix.File, profiles map[string]*providers.Profile, forced string) Placement {
	p := Placement{Exchange: e.Index}
	r, ok := RouteOf(e)
	if !ok {
		p.Unplaced = "the path " + e.Path() + " speaks no api mode replaycheck knows"
		return p
	}
	p.Route = r
	if forced != "" {
		t, ok := mf.Target(forced)
		switch {
		case !ok:
			p.Unplaced = fmt.Sprintf("--target %s: no such target", forced)
		case t.Route.APIMode != r.Mode:
			p.Unplaced = fmt.Sprintf("--target %s speaks api mode %s, the exchange %s", forced, t.Route.APIMode, r.Mode)
		default:
			p.Target, p.Note = t.ID, "placed by --target"
		}
		return p
	}
	var cands []matrix.Target
	for _, t := range mf.Targets {
		if t.Route.APIMode == r.Mode && (e.ResponseOnly() || t.Route.Host() == e.Host()) {
			cands = append(cands, t)
		}
	}
	if e.ResponseOnly() {
		return placeResponseOnly(p, r, cands, mf.Table.Local, e.Vendor)
	}
	for _, t := range cands {
		if strings.TrimSuffix(t.Route.BaseURL, "/") == r.BaseURL && (r.Model == "" || r.Model == t.Route.Model) {
			p.Target = t.ID
			return p
		}
	}
	var nearest []difference
	for i, t := range cands {
		diff := decisionDiff(&mf.Table, t, recordedRoute(t, r))
		if len(diff) == 0 {
			p.Target = t.ID
			p.Note = fmt.Sprintf("%s is not the target's (%s); the route decision is the same", recordedWhat(t, r), targetWhat(t))
			return p
		}
		if i == 0 {
			nearest = diff
		}
	}
	if q, ok := placeElsewhere(p, e, r, mf, profiles); ok || len(cands) == 0 {
		return q
	}
	t := cands[0]
	p.Unplaced = fmt.Sprintf("%s is not a target's, and the nearest target %s (%s) decides differently: %s; --target %s places it anyway",
		recordedWhat(t, r), t.ID, targetWhat(t), nearest[0], t.ID)
	return p
}

// placeElsewhere places an exchange whose host no target of its api mode
// decides the same for (every Azure resource has a host of its own, every
// Bedrock region one): the first target, in matrix order, whose provider
// profile describes the recorded host ([providers.Profile.Describes]) and
// whose route decision for the recorded route is its own. ok is false when
// none does; p.Unplaced then says why, truly: the nearest target whose
// profile describes the host and the first part of the decision that
// differs, or that no profile describes the host (naming a target that
// decides the same for it, whose profile speaks for another provider).
func placeElsewhere(p Placement, e Exchange, r Route, mf *matrix.File, profiles map[string]*providers.Profile) (Placement, bool) {
	host := e.Host()
	var described, sameElsewhere *matrix.Target
	var diffOf []difference
	for i := range mf.Targets {
		t := &mf.Targets[i]
		if t.Route.APIMode != r.Mode || t.Route.Host() == host {
			continue
		}
		diff := decisionDiff(&mf.Table, *t, recordedRoute(*t, r))
		if !profiles[t.Profile].Describes(host) {
			if len(diff) == 0 && sameElsewhere == nil {
				sameElsewhere = t
			}
			continue
		}
		if len(diff) == 0 {
			p.Target = t.ID
			p.Note = fmt.Sprintf("placed at %s: same decision for %s (%s is not the target's (%s); its provider profile %s describes %s)",
				t.ID, host, recordedWhat(*t, r), targetWhat(*t), t.Profile, host)
			return p, true
		}
		if described == nil {
			described, diffOf = t, diff
		}
	}
	switch {
	case described != nil:
		p.Unplaced = fmt.Sprintf("no target of api mode %s on %s decides the same; target %s, whose provider profile %s describes %s, decides differently: %s; --target %s places it anyway",
			r.Mode, host, described.ID, described.Profile, host, diffOf[0], described.ID)
	case sameElsewhere != nil:
		p.Unplaced = fmt.Sprintf("no target of api mode %s on %s, and no target's provider profile describes %s (target %s decides the same for it, but its profile %s speaks for another provider)",
			r.Mode, host, host, sameElsewhere.ID, sameElsewhere.Profile)
	default:
		p.Unplaced = fmt.Sprintf("no target of api mode %s on %s, and no target's provider profile describes %s", r.Mode, host, host)
	}
	return p, false
}

// placeResponseOnly places a fixture that recorded the answer only: no
// host, no path, at most a model named in the answer. It goes to the
// target of its api mode whose model it names, else to the first whose
// model is of the same family and spelling ([kindOf]: qwen3-max and a
// DashScope qwen3 target; claude-sonnet-4-5 and Anthropic's own API, not
// Bedrock's us.anthropic.… ids), leaving out targets at local endpoints:
// they stand for self-hosting, which the fixture does not show. Nothing
// else would say which provider answered, so with no such target the
// exchange is checked against its api mode's dialect only, and no request
// line is ever made up for it. An answer carrying a provider's own marks
// (vendor, [Exchange.Vendor]: Azure's content filters) was answered by
// that provider, whatever its model: only that provider's targets take it,
// the one of its model first, else the first in matrix order.
func placeResponseOnly(p Placement, r Route, cands []matrix.Target, local engine.LocalRule, vendor string) Placement {
	const only = "only capture is checked on it"
	if vendor != "" {
		var own []matrix.Target
		for _, t := range cands {
			if t.Route.Provider == vendor {
				own = append(own, t)
			}
		}
		if len(own) == 0 {
			p.Dialect = r.Mode
			p.Note = fmt.Sprintf("no target: capture checked against the %s dialect only (the fixture recorded no request; its answer carries %s's own marks, and no %s target is %s's)", r.Mode, vendor, r.Mode, vendor)
			return p
		}
		t := own[0]
		for _, o := range own {
			if r.Model != "" && o.Route.Model == r.Model {
				t = o
				break
			}
		}
		p.Target = t.ID
		p.Note = fmt.Sprintf("the fixture recorded no request; its answer carries marks only %s writes (content filter verdicts), so %s answered it, whatever its model (%s) says; %s",
			vendor, vendor, orNone(r.Model), only)
		return p
	}
	for _, t := range cands {
		if r.Model != "" && r.Model == t.Route.Model {
			p.Target, p.Note = t.ID, "the fixture recorded no request; its model is the target's; "+only
			return p
		}
	}
	k, ok := kindOf(r.Model)
	if ok {
		for _, t := range cands {
			if tk, _ := kindOf(t.Route.Model); tk == k && !local.IsLocal(t.Route.Host()) {
				p.Target = t.ID
				p.Note = fmt.Sprintf("the fixture recorded no request; model %s is of the %s family, like the target's (%s), and spelt the same way (a %s id); %s",
					r.Model, k.family, targetWhat(t), k.spelling, only)
				return p
			}
		}
	}
	why := "it names no model"
	switch {
	case ok:
		why = fmt.Sprintf("no %s target serves a model of the %s family spelt like %s", r.Mode, k.family, r.Model)
	case r.Model != "":
		why = fmt.Sprintf("its model %s names no family", r.Model)
	}
	p.Dialect = r.Mode
	p.Note = fmt.Sprintf("no target: capture checked against the %s dialect only (the fixture recorded no request, and %s)", r.Mode, why)
	return p
}

// recordedRoute is the target's route with the recorded base URL and model.
func recordedRoute(t matrix.Target, r Route) engine.Route {
	rt := t.Route
	if r.BaseURL != "" {
		rt.BaseURL = r.BaseURL
	}
	if r.Model != "" {
		rt.Model = r.Model
	}
	return rt
}

// recordedWhat names what differs from the target: "model m", "path /p".
func recordedWhat(t matrix.Target, r Route) string {
	var parts []string
	if r.Model != "" && r.Model != t.Route.Model {
		parts = append(parts, "model "+r.Model)
	}
	if r.BaseURL != "" && r.BaseURL != strings.TrimSuffix(t.Route.BaseURL, "/") {
		parts = append(parts, "base URL "+r.BaseURL)
	}
	if len(parts) == 0 {
		return "the route"
	}
	return strings.Join(parts, " and ")
}

func targetWhat(t matrix.Target) string {
	return "model " + t.Route.Model + ", base URL " + t.Route.BaseURL
}

// difference is one part of a route decision that differs.
type difference string

// decisionDiff lists the parts of the route decision that differ between
// the target's own route and the recorded one, in a fixed order.
func decisionDiff(tbl *engine.Table, t matrix.Target, rec engine.Route) []difference {
	own, other := DecisionParts(tbl, t.Route), DecisionParts(tbl, rec)
	var out []difference
	for i := range own {
		if own[i].Value != other[i].Value {
			out = append(out, difference(fmt.Sprintf("%s %s here, %s for %s", own[i].Name, other[i].Value, own[i].Value, t.Route.Model)))
		}
	}
	return out
}

// A DecisionPart is one named part of a route decision.
type DecisionPart struct{ Name, Value string }

// DecisionParts describes everything the route table decides for a route
// that shapes its requests: the carrier decision (SPEC §2) and, on native
// routes, the dialect's policy (SPEC §4). Two routes with equal parts get
// the same wire copy of the same history.
func DecisionParts(tbl *engine.Table, r engine.Route) []DecisionPart {
	d := tbl.Decide(r, 0)
	parts := []DecisionPart{
		{"carrier row", d.Row},
		{"must-echo family", orNone(d.EchoFamily)},
		{"pad", strconv.FormatBool(d.Pad)},
		{"carriers", d.Carriers.String()},
		{"vendor flags", orNone(strings.Join(d.FlagIDs, ","))},
		{"private native fields", orNone(strings.Join(d.NativeFields, ","))},
		{"prior thinking", strconv.FormatBool(d.PriorThinking)},
	}
	switch r.APIMode {
	case engine.ModeAnthropic:
		a := tbl.Dialects.Anthropic.Decide(r.BaseURL, r.Model)
		parts = append(parts,
			DecisionPart{"anthropic route", orNone(a.Route)},
			DecisionPart{"replay", string(a.Replay)},
			DecisionPart{"platform", a.Platform},
			DecisionPart{"learnt signature rejections", strconv.FormatBool(a.LearnRejections)})
	case engine.ModeBedrockConverse:
		c := tbl.Dialects.Converse.For(r.Model)
		parts = append(parts,
			DecisionPart{"converse policy", c.ID},
			DecisionPart{"replay", string(c.Replay)},
			DecisionPart{"thinking requested", strconv.FormatBool(c.RequestThinking)})
	}
	return parts
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
