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
	live, first, v := j.continued("resume", "resumed")
	if first == nil {
		return v
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

// continued returns the live session's judged request and the first
// request of the command that continued it (step names the column, what
// the continued session), or a verdict and no request when either was
// refused, unreadable or never sent.
func (j *judgement) continued(step, what string) (Exchange, *Exchange, verdict) {
	live := j.judged[0]
	if live.Rule != "" {
		return live, nil, j.refused(live, "the provider accepts the live session's request that sends the tool result back")
	}
	if j.resumed == nil {
		return live, nil, errorf(step, "the live session %s before the %s command could run%s", j.ended(), step, j.output())
	}
	for i := range j.log {
		first := &j.log[i]
		if first.Index < j.resumedFrom {
			continue
		}
		switch {
		case first.Own():
			return live, nil, errorf(step, "request %d (the %s session's first) is no model call the simulator can read: %s", first.Index, what, words(first.Response))
		case first.Rule != "":
			return live, nil, j.refused(*first, "the provider accepts the "+what+" session's first request")
		}
		return live, first, verdict{}
	}
	return live, nil, errorf(step, "the %s command sent no request to the simulator: it %s", step, j.resumed.ended(j.timeout))
}

// compaction judges the compaction column: the agent's compact command
// compacted the live session and continued it. What the compacted
// session's first request still sends of the live turns (found by the tool
// call's id) must be sent as the live request sent it, reasoning included:
// compaction drops whole turns, never the reasoning of the turns it keeps
// (SPEC §7). A turn dropped whole passes, said so.
func (j *judgement) compaction() verdict {
	live, first, v := j.continued("compaction", "compacted")
	if first == nil {
		return v
	}
	id := `"` + j.call.ToolCall + `"`
	for _, key := range historyKeys {
		want := gjson.GetBytes(live.Body, key)
		if !want.IsArray() {
			continue
		}
		var turn gjson.Result
		for _, w := range want.Array() {
			if strings.Contains(w.Raw, id) && !strings.Contains(w.Raw, `"tool_call_id"`) && w.Get("role").Str != "tool" {
				turn = w
				break
			}
		}
		for _, g := range gjson.GetBytes(first.Body, key).Array() {
			if !turn.Exists() || !strings.Contains(g.Raw, id) || g.Get("role").Str == "tool" || strings.Contains(g.Raw, `"tool_call_id"`) {
				continue
			}
			if !sameValue(turn.Raw, g.Raw) {
				expected, actual := differing(turn, g)
				return verdict{status: report.StatusFail, class: report.VerdictInvariant,
					detail:   fmt.Sprintf("request %d (the compacted session's first) keeps the turn that called %s but sends it otherwise than the live request %d did: compaction drops whole turns, and the turns it keeps keep their reasoning (SPEC §7)", first.Index, j.call.ToolCall, live.Index),
					expected: "as live: " + expected, actual: "compacted: " + actual}
			}
			return verdict{status: report.StatusPass, detail: fmt.Sprintf("request %d (the compacted session's first) keeps the turn that called %s as the live request sent it, and was accepted; %s", first.Index, j.call.ToolCall, j.sent(*first))}
		}
		return verdict{status: report.StatusPass, detail: fmt.Sprintf("request %d (the compacted session's first) dropped the turn that called %s whole, and was accepted", first.Index, j.call.ToolCall)}
	}
	return errorf("compaction", "request %d holds no conversation (%v) to compare", live.Index, historyKeys)
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
