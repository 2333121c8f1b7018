package agent

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/report"
)

// historyKeys are the request members that hold the conversation, by api
// mode's body: chat and Anthropic messages, Gemini contents, Responses
// input items.
var historyKeys = []string{"messages", "contents", "input"}

// resume judges the resume column: the live session's tool result went
// out (and was accepted), then the agent's resume command continued the
// session with a new prompt. The resumed session's first request must
// hold the live request's conversation as the live request sent it, turn
// for turn, reasoning included (SPEC §8: a resumed turn replays exactly
// like the live one), and be accepted.
func (j *judgement) resume() verdict {
	live := j.judged[0]
	if live.Rule != "" {
		return j.refused(live, "the provider accepts the live session's request that sends the tool result back")
	}
	if j.resumed == nil {
		return errorf("resume", "the live session %s before the resume command could run%s", j.ended(), j.output())
	}
	var first *Exchange
	for i := range j.log {
		if j.log[i].Index >= j.resumedFrom {
			first = &j.log[i]
			break
		}
	}
	if first == nil {
		return errorf("resume", "the resume command sent no request to the simulator: it %s", runEnded(*j.resumed, j))
	}
	if first.Own() {
		return errorf("resume", "request %d (the resumed session's first) is no model call the simulator can read: %s", first.Index, words(first.Response))
	}
	if first.Rule != "" {
		return j.refused(*first, "the provider accepts the resumed session's first request")
	}
	for _, key := range historyKeys {
		want := gjson.GetBytes(live.Body, key)
		if !want.IsArray() {
			continue
		}
		got := gjson.GetBytes(first.Body, key).Array()
		for i, w := range want.Array() {
			if i >= len(got) {
				return verdict{status: report.StatusFail, class: report.VerdictInvariant,
					detail:   fmt.Sprintf("request %d (the resumed session's first) holds %d %s, the live request %d held %d: the resumed session lost turns", first.Index, len(got), key, live.Index, len(want.Array())),
					expected: fmt.Sprintf("the live request's %d %s, as sent", len(want.Array()), key), actual: fmt.Sprintf("%d %s", len(got), key)}
			}
			if !sameValue(w.Raw, got[i].Raw) {
				expected, actual := differing(w, got[i])
				return verdict{status: report.StatusFail, class: report.VerdictInvariant,
					detail: fmt.Sprintf("request %d (the resumed session's first) sends %s.%d otherwise than the live request %d did: a resumed turn must replay exactly like the live one, reasoning included (SPEC §8)",
						first.Index, key, i, live.Index),
					expected: "as live: " + expected, actual: "resumed: " + actual}
			}
		}
		return verdict{status: report.StatusPass, detail: fmt.Sprintf("request %d (the resumed session's first) replays the live request's %d %s as sent, and was accepted; %s", first.Index, len(want.Array()), key, j.sent(*first))}
	}
	return errorf("resume", "request %d holds no conversation (%v) to compare", live.Index, historyKeys)
}

// sameValue reports whether two JSON texts hold the same value, whatever
// the order of their keys.
func sameValue(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return a == b
	}
	return reflect.DeepEqual(x, y)
}

// runEnded says how a run other than the judged one ended.
func runEnded(r run, j *judgement) string {
	k := *j
	k.run = r
	return k.ended()
}

// differing names the members of two objects that differ, each with its
// value on either side ("(absent)" where a side has none); other values
// are quoted whole, abbreviated.
func differing(live, resumed gjson.Result) (string, string) {
	if !live.IsObject() || !resumed.IsObject() {
		return abbreviate(live.Raw), abbreviate(resumed.Raw)
	}
	var keys []string
	seen := map[string]bool{}
	for _, r := range []gjson.Result{live, resumed} {
		r.ForEach(func(k, _ gjson.Result) bool {
			if !seen[k.Str] {
				seen[k.Str] = true
				keys = append(keys, k.Str)
			}
			return true
		})
	}
	var want, got []string
	for _, k := range keys {
		a, b := live.Get(gjson.Escape(k)), resumed.Get(gjson.Escape(k))
		if a.Exists() && b.Exists() && sameValue(a.Raw, b.Raw) {
			continue
		}
		want, got = append(want, k+": "+present(a)), append(got, k+": "+present(b))
	}
	return strings.Join(want, "; "), strings.Join(got, "; ")
}

// present is a member's value, abbreviated, or "(absent)".
func present(r gjson.Result) string {
	if !r.Exists() {
		return "(absent)"
	}
	return abbreviate(r.Raw)
}
