package harness_test

import (
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/suites/harness"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// recordedToolTurn is the reference engine's wire form of a tool turn:
// content null beside the tool call, the tool result named.
const recordedToolTurn = `{"model":"m","messages":[{"role":"user","content":"q"},` +
	`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"lookup","arguments":"{}"}}],"reasoning_content":"r"},` +
	`{"role":"tool","tool_call_id":"c1","name":"lookup","content":"ok"}]}`

// otherToolTurn is another implementation's form of the same turn: content
// "", no tool-result name, no tool-call type.
const otherToolTurn = `{"model":"m","messages":[{"role":"user","content":"q"},` +
	`{"role":"assistant","content":"","tool_calls":[{"id":"c1","function":{"name":"lookup","arguments":"{}"}}],"reasoning_content":"r"},` +
	`{"role":"tool","tool_call_id":"c1","content":"ok"}]}`

func toolTurnReplay(t *testing.T, m *harness.Matching) *harness.Replay {
	t.Helper()
	path := harness.Path(t.TempDir(), "acme", "carriers")
	it := interaction("POST", chatURL, recordedToolTurn, 200, `{"answer":"recorded"}`)
	if err := harness.Write(path, &harness.File{Version: 2, Provenance: simulated(), Interactions: []*cassette.Interaction{it}}); err != nil {
		t.Fatal(err)
	}
	r, err := harness.OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	r.Matching = m
	return r
}

func declaring(differences ...string) *providers.Profile {
	p := &providers.Profile{Name: "acme", Version: 1}
	for _, d := range differences {
		p.Ignore = append(p.Ignore, providers.Ignore{Difference: d, Source: "https://example.com/" + d, Confidence: providers.ConfidenceConfirmed})
	}
	return p
}

// TestReplayMatchesUpToDeclaredDifferences: a request that differs from a
// recorded one only in what the profile declares ignorable gets the
// recorded answer, and the match names the differences it relied on; one
// undeclared difference, or strict replay, leaves it unmatched.
func TestReplayMatchesUpToDeclaredDifferences(t *testing.T) {
	all := []string{providers.DifferenceToolResultName, providers.DifferenceToolCallContent, providers.DifferenceToolCallType}
	tests := []struct {
		matching *harness.Matching
		matched  bool
		reason   string
	}{
		{&harness.Matching{Profile: declaring(all...)}, true, "every difference is declared"},
		{&harness.Matching{Profile: declaring(providers.DifferenceToolResultName, providers.DifferenceToolCallType)}, false, `content "" against null is not declared`},
		{&harness.Matching{Profile: declaring(providers.DifferenceToolCallContent, providers.DifferenceToolCallType)}, false, "the tool-result name is not declared"},
		{&harness.Matching{Profile: declaring(providers.DifferenceToolResultName, providers.DifferenceToolCallContent)}, false, "the tool-call type is not declared"},
		{nil, false, "strict replay matches exactly"},
	}
	for _, tc := range tests {
		r := toolTurnReplay(t, tc.matching)
		resp, err := r.RoundTrip(post(t, chatURL, otherToolTurn))
		if tc.matched != (err == nil) {
			t.Errorf("%s: err = %v, want matched %v", tc.reason, err, tc.matched)
			continue
		}
		if !tc.matched {
			if !errors.Is(err, harness.ErrNoMatch) {
				t.Errorf("%s: err = %v, want ErrNoMatch", tc.reason, err)
			}
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		if string(b) != `{"answer":"recorded"}` {
			t.Errorf("%s: answered %s", tc.reason, b)
		}
		loose := r.LooseMatches()
		if len(loose) != 1 || loose[0].Interaction != 0 || !slices.Equal(loose[0].Differences, all) {
			t.Errorf("%s: loose matches %+v, want interaction 0 relying on %v", tc.reason, loose, all)
		}
		if _, ok := r.Lookup("POST", "/v1/chat/completions", []byte(otherToolTurn)); !ok {
			t.Errorf("%s: Lookup does not find what RoundTrip matched", tc.reason)
		}
	}
	// A real difference (other reasoning) is never declared away.
	r := toolTurnReplay(t, &harness.Matching{Profile: declaring(all...)})
	if _, err := r.RoundTrip(post(t, chatURL, strings.Replace(otherToolTurn, `"reasoning_content":"r"`, `"reasoning_content":"other"`, 1))); !errors.Is(err, harness.ErrNoMatch) {
		t.Errorf("a request with other reasoning matched: %v", err)
	}
}

// TestReplayFallsBackToTheProfile: what no recorded request matches is
// answered by the fallback simulator and recorded as a judgement naming
// the rule; an answer the simulator gives without a rule (a request it
// cannot read) leaves the request unmatched, saying why.
func TestReplayFallsBackToTheProfile(t *testing.T) {
	sim := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch {
		case strings.Contains(string(b), "refuse"):
			w.Header().Set("Replaycheck-Rule", "reasoning-content-missing")
			w.WriteHeader(400)
			io.WriteString(w, `{"error":"refused"}`)
		case strings.Contains(string(b), "garbage"):
			w.WriteHeader(400)
			io.WriteString(w, `{"error":"sim acme: request body: messages: expected an array"}`)
		default:
			io.WriteString(w, `{"answer":"simulated"}`)
		}
	})
	r := toolTurnReplay(t, &harness.Matching{Profile: declaring(), Fallback: sim})
	for _, tc := range []struct{ body, want string }{{`{"messages":[],"x":"ok"}`, `{"answer":"simulated"}`}, {`{"messages":[],"x":"refuse"}`, `{"error":"refused"}`}} {
		resp, err := r.RoundTrip(post(t, chatURL, tc.body))
		if err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		if b, _ := io.ReadAll(resp.Body); string(b) != tc.want {
			t.Errorf("%s: answered %s, want %s", tc.body, b, tc.want)
		}
	}
	want := []harness.Judgement{{Status: 200}, {Status: 400, Rule: "reasoning-content-missing"}}
	if got := r.Judgements(); !slices.Equal(got, want) {
		t.Errorf("judgements %+v, want %+v", got, want)
	}
	if _, err := r.RoundTrip(post(t, chatURL, `{"x":"garbage"}`)); !errors.Is(err, harness.ErrNoMatch) {
		t.Fatalf("an answer without a rule was taken as a judgement: %v", err)
	}
	if m := r.Misses(); len(m) != 1 || !strings.Contains(m[0].Explain(), "the acme profile's simulator could not judge it (400") {
		t.Errorf("misses %+v: want the simulator's reason", m)
	}
}

// TestReplayFallbackOnRecordedCassettes: against a live recording the
// simulator cannot verify the provider's own signatures, so a refusal by a
// signature rule is no judgement there; any other rule still judges.
func TestReplayFallbackOnRecordedCassettes(t *testing.T) {
	p := declaring()
	p.Rules = []providers.Rule{
		{ID: "signature-invalid", When: providers.Condition{Kind: providers.ConditionSignatureInvalid, Field: "reasoning_details"}},
		{ID: "field-missing", When: providers.Condition{Kind: providers.ConditionToolTurnFieldMissing, Field: "reasoning_content"}},
	}
	refuse := func(rule string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Replaycheck-Rule", rule)
			w.WriteHeader(400)
		})
	}
	path := harness.Path(t.TempDir(), "acme", "carriers")
	it := interaction("POST", chatURL, recordedToolTurn, 200, `{"answer":"recorded"}`)
	live := harness.Provenance{Kind: harness.Recorded, Target: "acme", Scenario: "carriers", Date: "2026-01-02", Host: "api.acme.test"}
	if err := harness.Write(path, &harness.File{Version: 2, Provenance: live, Interactions: []*cassette.Interaction{it}}); err != nil {
		t.Fatal(err)
	}
	for rule, judged := range map[string]bool{"signature-invalid": false, "field-missing": true} {
		r, err := harness.OpenReplay(path)
		if err != nil {
			t.Fatal(err)
		}
		r.Matching = &harness.Matching{Profile: p, Fallback: refuse(rule)}
		_, err = r.RoundTrip(post(t, chatURL, `{"messages":[]}`))
		if judged != (err == nil) {
			t.Errorf("rule %s: err = %v, want judged %v", rule, err, judged)
		}
	}
}
