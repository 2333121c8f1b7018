package scenario

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/sim"
	"github.com/replaycheck/replaycheck/suites/harness"
	"github.com/tidwall/gjson"
)

// A drift is a provider that has started refusing a carrier the route
// sends: its profile with one more rule in front, refusing the carrier on
// assistant messages with the provider's own refusal of another standard
// carrier (same envelope, same wording, the field named). It is how
// learning happens in production, where no route row is stale but the
// provider changed.
type drift struct {
	carrier  engine.Carrier
	rule     providers.Rule
	template providers.Rule
	sim      *sim.Simulator
}

// driftFor returns the drift of a chat target whose route sends d's
// carriers: on the first carrier sent that the profile neither refuses
// for the model already nor cannot refuse in its own words. ok is false
// when there is none (the route sends nothing, or the profile has no
// refusal of a standard carrier to word it).
func driftFor(p *providers.Profile, t matrix.Target, d engine.Decision) (*drift, bool, error) {
	if p == nil || d.Native {
		return nil, false, nil
	}
	var template *providers.Rule
	for i, r := range p.Rules {
		if r.When.Kind == providers.ConditionAssistantFieldPresent && slices.Contains(standardCarriers, r.When.Field) && strings.Contains(r.Body, providers.PlaceholderField) {
			template = &p.Rules[i]
			break
		}
	}
	if template == nil {
		return nil, false, nil
	}
	for _, c := range engine.AllCarriers {
		if !d.Carriers.Has(c) || refusesFieldFor(t, p, providers.ConditionAssistantFieldPresent, string(c)) {
			continue
		}
		dr, err := inFront(p, c, *template, "drift-"+strings.ReplaceAll(string(c), "_", "-"),
			fmt.Sprintf("harness-made drift: the provider now refuses %s, worded as its rule %s", c, template.ID))
		if err != nil {
			return nil, false, fmt.Errorf("the drift of profile %s on %s: %w", p.Name, c, err)
		}
		return dr, true, nil
	}
	return nil, false, nil
}

// inFront returns profile p with one more rule in front, named id: it
// answers a request that carries c on an assistant message with the words
// of rule words (status, body, framing), whatever else the request holds.
// A harness-made rule is never confirmed, whatever its words' confidence.
func inFront(p *providers.Profile, c engine.Carrier, words providers.Rule, id, note string) (*drift, error) {
	rule := words
	rule.ID, rule.Note, rule.From, rule.Until = id, note, "", ""
	rule.When = providers.Condition{Kind: providers.ConditionAssistantFieldPresent, Field: string(c)}
	if rule.Confidence == providers.ConfidenceConfirmed {
		rule.Confidence = providers.ConfidencePartial
	}
	drifted := *p
	drifted.Rules = append([]providers.Rule{rule}, p.Rules...)
	drifted.Reads = slices.DeleteFunc(slices.Clone(p.Reads), func(r string) bool { return r == string(c) })
	s, err := sim.New(&drifted, sim.Options{Seed: FallbackSeed})
	if err != nil {
		return nil, err
	}
	return &drift{carrier: c, rule: rule, template: words, sim: s}, nil
}

// describe says what drifted, for the cell's detail.
func (dr *drift) describe() string {
	return fmt.Sprintf("the provider drifted to refusing %s (rule %s, worded as its rule %s, source: %s)", dr.carrier, dr.rule.ID, dr.template.ID, dr.template.Source)
}

// transport answers a request that carries the drifted carrier on an
// assistant message with the drifted provider's refusal, and sends every
// other request on to next (the cassette, or the recording).
func (dr *drift) transport(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		body, err := harness.RequestBody(req)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		if !dr.carried(body) {
			return next.RoundTrip(req)
		}
		w := &recorder{header: http.Header{}}
		dr.sim.ServeHTTP(w, req)
		return answer(req, w.status, w.header, w.body.Bytes()), nil
	})
}

// answer is a played HTTP answer to req.
func answer(req *http.Request, status int, header http.Header, body []byte) *http.Response {
	return &http.Response{
		StatusCode: status, Status: http.StatusText(status), Header: header,
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)),
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Request: req,
	}
}

// carried reports whether an assistant message of a chat body carries the
// drifted carrier.
func (dr *drift) carried(body []byte) bool {
	found := false
	gjson.GetBytes(body, "messages").ForEach(func(_, m gjson.Result) bool {
		if m.Get("role").Str == "assistant" && m.Get(gjsonKey(string(dr.carrier))).Exists() {
			found = true
		}
		return !found
	})
	return found
}

// gjsonKey escapes a key for a gjson path.
func gjsonKey(k string) string {
	return strings.NewReplacer(".", `\.`, "*", `\*`, "?", `\?`).Replace(k)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// recorder is the response writer of the drifted simulator.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *recorder) Header() http.Header { return w.header }

func (w *recorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *recorder) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}
