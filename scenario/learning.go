package scenario

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// The steps of this file are SPEC §6's negative rules as fallback steps,
// each judged from the provider's answers: a value complaint is never
// learnt, a refused field is retried once and never twice, a field learnt
// before and refused again is never retried nor relearnt, and a route
// that must echo reasoning_content never records it as refused. Where no
// profile rule makes the provider answer so, the answer is played, in
// words a profile quotes with its source (the target's own where it has
// them), and the cell's detail says what was played.

// committedProfiles are the profiles compiled into the binary: the words
// a played answer borrows when the target's own profile has none.
var committedProfiles = sync.OnceValues(providers.Embedded)

// lentWords returns the words of a played answer: a rule of the target's
// own profile that pick accepts (holding today, for the target's model),
// else the first confirmed rule pick accepts among the committed chat
// profiles in name order. lender is the profile the words are from; ok
// is false when no profile has such words.
func lentWords(own *providers.Profile, model string, pick func(*providers.Profile, providers.Rule) bool) (words providers.Rule, lender *providers.Profile, ok bool, err error) {
	if own != nil {
		for _, r := range own.Rules {
			if r.HoldsOn("") && r.When.AppliesTo(model) && pick(own, r) {
				return r, own, true, nil
			}
		}
	}
	all, err := committedProfiles()
	if err != nil {
		return providers.Rule{}, nil, false, fmt.Errorf("the committed provider profiles: %w", err)
	}
	for _, p := range all {
		if p.APIMode != string(engine.ModeChat) {
			continue
		}
		for _, r := range p.Rules {
			if r.HoldsOn("") && r.Confidence == providers.ConfidenceConfirmed && pick(p, r) {
				return r, p, true, nil
			}
		}
	}
	return providers.Rule{}, nil, false, nil
}

// rendered is a rule's body as the simulator fills it for carrier c at a
// message index.
func rendered(p *providers.Profile, r providers.Rule, c engine.Carrier) []byte {
	return []byte(p.RenderBody(r, map[string]string{"index": "1", "field": string(c)}))
}

// complainsAbout picks a provider's complaint about the value of carrier
// c: its refusal of a blank value (a tool-turn rule that counts a blank
// value as missing), a 4xx whose body names c without unknown-field
// wording.
func complainsAbout(c engine.Carrier) func(*providers.Profile, providers.Rule) bool {
	return func(p *providers.Profile, r providers.Rule) bool {
		body := rendered(p, r, c)
		return r.When.Kind == providers.ConditionToolTurnFieldMissing && r.When.BlankIsMissing &&
			r.Status >= 400 && r.Status < 500 && !engine.IsUnknownFieldRefusal(r.Status, body) && engine.NamedCarriers(body).Has(c)
	}
}

// refusesUnknown picks a provider's unknown-field refusal of carrier c on
// an assistant message: a body SPEC §6 counts, naming c.
func refusesUnknown(c engine.Carrier) func(*providers.Profile, providers.Rule) bool {
	return func(p *providers.Profile, r providers.Rule) bool {
		body := rendered(p, r, c)
		return r.When.Kind == providers.ConditionAssistantFieldPresent && r.When.Field == string(c) &&
			engine.IsUnknownFieldRefusal(r.Status, body) && engine.NamedCarriers(body).Has(c)
	}
}

// A play is an answer the provider gives in a step although no rule of its
// profile gives it for the request: the target's profile with one rule in
// front, answering a request that carries one carrier in borrowed words.
type play struct {
	*drift
	// lender names the profile the words are from.
	lender string
	// what says what the provider is played doing.
	what string
}

// newPlay plays the provider of profile p answering a request that
// carries c with the words of rule words of profile lender (the lender's
// profile stands in for p when the target has none).
func newPlay(p *providers.Profile, c engine.Carrier, words providers.Rule, lender *providers.Profile, id, what string) (*play, error) {
	if p == nil {
		p = lender
	}
	dr, err := inFront(p, c, words, id, "harness-made: "+what+", in the words of "+lender.Name+" rule "+words.ID)
	if err != nil {
		return nil, fmt.Errorf("the play %s on profile %s: %w", id, p.Name, err)
	}
	return &play{drift: dr, lender: lender.Name, what: what}, nil
}

// cite says what was played and whose words it used, for the cell's
// detail.
func (pl *play) cite() string {
	return fmt.Sprintf("played: %s, in the words of providers/%s.yaml rule %s, source: %s", pl.what, pl.lender, pl.template.ID, pl.template.Source)
}

// over swaps the conversation's transport for rt until restore is called.
func (c *Conv) over(rt http.RoundTripper) (restore func()) {
	old := c.Client
	c.Client = &http.Client{Transport: rt}
	return func() { c.Client = old }
}

// again plays a provider that refuses again in the words it refused in
// before: armed, it answers every request with that refusal (its status
// and body as they were); unarmed, it sends requests on to next and arms
// itself at the first 4xx that comes back.
type again struct {
	next   http.RoundTripper
	armed  bool
	status int
	body   []byte
}

func (a *again) RoundTrip(req *http.Request) (*http.Response, error) {
	if !a.armed {
		resp, err := a.next.RoundTrip(req)
		if err != nil || resp.StatusCode < 400 || resp.StatusCode > 499 {
			return resp, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		a.armed, a.status, a.body = true, resp.StatusCode, body
		return answer(req, resp.StatusCode, resp.Header, body), nil
	}
	if _, err := harness.RequestBody(req); err != nil {
		return nil, err
	}
	return answer(req, a.status, http.Header{"Content-Type": {"application/json"}}, a.body), nil
}

// refused reports whether err is the provider's refusal ending a turn.
func refused(err error) bool {
	var r *engine.RefusalError
	return errors.As(err, &r)
}

// sequel says what a turn did after its first request: the retries and
// the provider's answer to the last one, in its own words.
func sequel(res engine.TurnResult) string {
	n := len(res.Exchanges)
	if n < 2 {
		return ""
	}
	last := res.Exchanges[n-1]
	out := fmt.Sprintf("; retried %d time(s) (verdicts %s), the last request carrying %s", n-1, strings.Join(res.Verdicts, " | "), carriedList(last.Carried))
	if last.Status >= 400 {
		return out + fmt.Sprintf(", and the provider refused it (%d): %s", last.Status, providerWords(last.Response))
	}
	return out + fmt.Sprintf(", and the provider answered %d", last.Status)
}

// providerWords is a provider's answer as the cell quotes it: the body,
// trimmed, cut after 400 bytes.
func providerWords(body []byte) string {
	const most = 400
	w := strings.TrimSpace(string(body))
	if len(w) > most {
		return strings.ToValidUTF8(w[:most], "") + "…"
	}
	return w
}

func carriedList(names []string) string {
	if len(names) == 0 {
		return "no carrier"
	}
	return strings.Join(names, ",")
}

// valueComplaint is SPEC §6's first negative rule: a 4xx that names a
// carrier the request sends but not in unknown-field wording complains
// about the field's value, and is never learnt. On a copy of the session,
// the provider is played complaining about the value of the first carrier
// the request carries for which a profile quotes such a complaint: the
// target's own refusal of a blank value where its profile has one, else
// the first committed chat profile's (DeepSeek V4's refusal of an empty
// reasoning_content). The turn must end with the complaint: one request,
// nothing recorded. A request that carries no such carrier plays nothing,
// and the detail says so.
func valueComplaint(ctx context.Context, c *Conv) error {
	s := c.Session.Clone()
	body, err := c.Shape(ctx, s, false)
	if err != nil {
		return err
	}
	carried := c.Dialect.Carried(body)
	key := c.Target.Route.Key()
	before := s.Config.RejectedFor(key)
	for _, car := range engine.AllCarriers {
		if !slices.Contains(carried, string(car)) {
			continue
		}
		words, lender, ok, err := lentWords(c.Profile, c.Target.Route.Model, complainsAbout(car))
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		pl, err := newPlay(c.Profile, car, words, lender, "value-complaint-"+strings.ReplaceAll(string(car), "_", "-"),
			"the provider complains about the value of "+string(car)+" (a 4xx naming it without unknown-field wording)")
		if err != nil {
			return err
		}
		restore := c.over(pl.transport(c.Client.Transport))
		res, err := c.TurnOn(ctx, s, false)
		restore()
		what := fmt.Sprintf("a complaint about the value of %s (%s)", car, pl.cite())
		if len(res.Exchanges) > 0 {
			first := res.Exchanges[0]
			what = fmt.Sprintf("a complaint about the value of %s, %d %s (%s)", car, first.Status, providerWords(first.Response), pl.cite())
		}
		if learnt := s.Config.RejectedFor(key); learnt != before || len(res.Verdicts) > 0 {
			return fail(what, "nothing learnt and no retry: a 4xx without unknown-field wording is a value complaint (SPEC §6)",
				fmt.Sprintf("learnt %s from it%s", learnt.Minus(before), sequel(res)))
		}
		if len(res.Exchanges) != 1 || !refused(err) {
			if err != nil && !refused(err) {
				return err
			}
			return fail(what, "the complaint ending the turn, after one request", fmt.Sprintf("%d request(s)%s", len(res.Exchanges), sequel(res)))
		}
		c.Note("a complaint about the value of %s was not learnt (%s)", car, pl.cite())
		return nil
	}
	c.Note("no value complaint played: the request carries no carrier a profile quotes a value complaint about")
	return nil
}

// oneRetry is "retried exactly once" (SPEC §6, §9 invariant 6): on a copy
// of the session the turn the learning step takes is played with the
// retry refused again in the words of the first refusal (its status and
// body repeated). The refusal was learnt once; the second must end the
// turn: two requests. A turn whose first request is accepted, or whose
// refusal teaches nothing, plays nothing: the learning step judges it.
func oneRetry(ctx context.Context, c *Conv, play string) error {
	s := c.Session.Clone()
	ag := &again{next: c.Client.Transport}
	restore := c.over(ag)
	res, err := c.TurnOn(ctx, s, false)
	restore()
	if !ag.armed || len(res.Verdicts) == 0 {
		if err != nil && !refused(err) {
			return err
		}
		return nil
	}
	// The refusal's words are left out of the failure: a known failure of
	// the cell may be pinned to them, and retrying is another cause.
	first := res.Exchanges[0]
	what := fmt.Sprintf("%s, the retry refused again in the same words (played: the provider's %d refusal naming %s, repeated)", play, first.Status, engine.NamedCarriers(first.Response))
	if n := len(res.Exchanges); n != 2 || len(res.Verdicts) != 1 {
		return fail(what, "one retry, then the refusal ends the turn: a second refusal of the same field is never retried (SPEC §6)",
			fmt.Sprintf("%d requests: the refusal was retried %d times, on %d verdicts of the implementation", n, n-1, len(res.Verdicts)))
	}
	if err != nil && !refused(err) {
		return err
	}
	c.Note("the retry refused again in the same words (played) was not retried")
	return nil
}

// refusedAgain is "never relearnt" (SPEC §6): after resume, on a copy of
// the resumed session, the provider is played refusing again in the words
// of the refusal the verdict was learnt from (its status and body). The
// request no longer carries the learnt fields, so the refusal teaches
// nothing: one request, no verdict, the model config as it was.
func refusedAgain(ctx context.Context, c *Conv, resumed *engine.Session, refusal engine.Exchange) error {
	s := resumed.Clone()
	key := c.Target.Route.Key()
	learnt := s.Config.RejectedFor(key)
	restore := c.over(&again{armed: true, status: refusal.Status, body: refusal.Response})
	res, err := c.TurnOn(ctx, s, false)
	restore()
	what := fmt.Sprintf("after resume, the provider refusing %s again (played: its %d refusal repeated)", learnt, refusal.Status)
	if got := s.Config.RejectedFor(key); len(res.Exchanges) != 1 || len(res.Verdicts) > 0 || got != learnt {
		return fail(what, "no retry and nothing relearnt: the verdict was learnt before the resume (SPEC §6)",
			fmt.Sprintf("%d request(s), recorded %s%s", len(res.Exchanges), got, sequel(res)))
	}
	if err != nil && !refused(err) {
		return err
	}
	c.Note("after resume, the provider refusing %s again (played) was neither retried nor relearnt", learnt)
	return nil
}

// needsReasoningContent returns the rule of a target's profile by which
// its provider refuses a tool-call turn without reasoning_content (the
// must-echo providers: DeepSeek, Kimi, MiMo and their gateways), for the
// target's model and holding today.
func needsReasoningContent(t matrix.Target, p *providers.Profile) (providers.Rule, bool) {
	if p == nil {
		return providers.Rule{}, false
	}
	for _, r := range p.Rules {
		if r.When.Kind == providers.ConditionToolTurnFieldMissing && r.When.Field == string(engine.ReasoningContent) && r.When.AppliesTo(t.Route.Model) && r.HoldsOn("") {
			return r, true
		}
	}
	return providers.Rule{}, false
}

// mustEcho says why a route must keep sending reasoning_content, or ""
// when it need not: its provider refuses tool-call turns without it, or
// the harness's table puts it in a must-echo family.
func mustEcho(c *Conv, d engine.Decision) string {
	var why []string
	if r, ok := needsReasoningContent(c.Target, c.Profile); ok {
		why = append(why, fmt.Sprintf("the provider refuses a tool-call turn without reasoning_content, rule %s of providers/%s.yaml", r.ID, c.Profile.Name))
	}
	family := d.EchoFamily
	if c.Table != nil {
		family = c.Table.EchoFamily(c.Target.Route)
	}
	if family != "" {
		why = append(why, "the table's "+family+" must-echo family")
	}
	return strings.Join(why, "; ")
}

// mustEchoFallback is fallback on a route that must echo reasoning_content
// (SPEC §6: "the must-echo tier never records RC"). After the value
// complaint, the provider is played refusing reasoning_content in
// unknown-field wording (a strict schema's confirmed refusal, as no
// must-echo provider is reported to refuse it). Learning it would leave
// every later tool-call turn without the field the provider needs, so the
// refusal must end the turn unlearnt: every request carries
// reasoning_content, reasoning_content is never recorded, and at most one
// retry drops the other carriers the refusal names. The verdict then
// persists across resume; the provider played refusing again is neither
// retried nor relearnt; and, refusing no more, it accepts the first
// request as sent, reasoning_content on it.
func mustEchoFallback(ctx context.Context, c *Conv, d engine.Decision) error {
	why := mustEcho(c, d)
	c.User(questions[0])
	c.Session.Messages = append(c.Session.Messages, foreignTurn())
	if err := c.ToolResult("The cache TTL is 0 in CI."); err != nil {
		return err
	}
	body, err := c.Shape(ctx, c.Session, false)
	if err != nil {
		return err
	}
	if !slices.Contains(c.Dialect.Carried(body), string(engine.ReasoningContent)) {
		return &NotApplicableError{Reason: "the provider needs reasoning_content back (" + why + "), but the route sends none, so there is no refusal of it to leave unlearnt (the missing-echo column judges the route)"}
	}
	if err := valueComplaint(ctx, c); err != nil {
		return err
	}
	words, lender, ok, err := lentWords(c.Profile, c.Target.Route.Model, refusesUnknown(engine.ReasoningContent))
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("no committed chat profile quotes an unknown-field refusal of reasoning_content to play")
	}
	pl, err := newPlay(c.Profile, engine.ReasoningContent, words, lender, "must-echo-refusal",
		"the provider refuses reasoning_content in unknown-field wording")
	if err != nil {
		return err
	}
	key := c.Target.Route.Key()
	restore := c.over(pl.transport(c.Client.Transport))
	res, err := c.Turn(ctx, false)
	restore()
	what := fmt.Sprintf("a route that must echo reasoning_content (%s), %s", why, pl.cite())
	learnt := c.Session.Config.RejectedFor(key)
	if learnt.Has(engine.ReasoningContent) {
		return fail(what, "reasoning_content never recorded: the provider needs it on every tool-call turn, so its refusal ends the turn unlearnt (SPEC §6)",
			fmt.Sprintf("recorded %s%s", learnt, sequel(res)))
	}
	for i, ex := range res.Exchanges {
		if !slices.Contains(ex.Carried, string(engine.ReasoningContent)) {
			return fail(what, "every request carrying reasoning_content", fmt.Sprintf("request %d went without it%s", i+1, sequel(res)))
		}
	}
	if n := len(res.Exchanges); n > 2 || len(res.Verdicts) != n-1 {
		return fail(what, "at most one retry, without the other carriers the refusal drops; the refusal repeated is never retried (SPEC §6)",
			fmt.Sprintf("%d requests: the refusal was retried %d times, on %d verdicts of the implementation", n, n-1, len(res.Verdicts)))
	}
	if !refused(err) {
		if err != nil {
			return err
		}
		return fail(what, "the refusal ending the turn", "the turn was accepted")
	}
	if learnt.Empty() {
		c.Note("the provider refusing reasoning_content on a route that must echo it (%s) was not learnt and not retried (%s)", why, pl.cite())
	} else {
		c.Note("the provider refusing reasoning_content on a route that must echo it (%s) was not learnt for it: %s learnt and retried once, reasoning_content kept (%s)", why, learnt, pl.cite())
	}

	resumed, err := c.Impl.Reload(ctx, c.Session)
	if err != nil {
		return err
	}
	if got := resumed.Config.RejectedFor(key); got != learnt {
		return fail("the resumed session's model config", "the verdict "+learnt.String(), got.String())
	}
	played := resumed.Clone()
	restore = c.over(pl.transport(c.Client.Transport))
	again, err := c.TurnOn(ctx, played, false)
	restore()
	if got := played.Config.RejectedFor(key); len(again.Exchanges) != 1 || len(again.Verdicts) > 0 || got != learnt {
		return fail("after resume, the provider refusing reasoning_content again ("+pl.cite()+")",
			"no retry and nothing relearnt (SPEC §6)", fmt.Sprintf("%d request(s), recorded %s%s", len(again.Exchanges), got, sequel(again)))
	}
	if !slices.Contains(again.Exchanges[0].Carried, string(engine.ReasoningContent)) {
		return fail("after resume, the provider refusing reasoning_content again", "the request carrying reasoning_content", "it went without it")
	}
	if err != nil && !refused(err) {
		return err
	}
	c.Note("after resume, the verdict held: the refusal played again was neither retried nor relearnt")
	after, err := c.TurnOn(ctx, resumed, false)
	if err := accepted("the first turn after resume, the provider refusing no more", after, err); err != nil {
		return err
	}
	if !slices.Contains(after.Exchanges[0].Carried, string(engine.ReasoningContent)) {
		return fail("the first request after resume", "reasoning_content on it", "it went without it")
	}
	return nil
}
