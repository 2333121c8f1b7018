package agent

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
)

// A judgement is one agent run of one scenario, to be judged.
type judgement struct {
	target   matrix.Target
	profile  *providers.Profile
	scenario string
	plan     plan
	run      run
	timeout  time.Duration
	log      []Exchange
	// others are the hosts the agent called that the run refused; served
	// is the hostname --intercept served ("" without it).
	others []string
	served string
	// call is the answer that called a tool; judged are the requests
	// after it that carry its id, in order.
	call   *Exchange
	judged []Exchange
	// resumed is the run of the agent's resume command (resume column
	// only), and resumedFrom the index of the first request it sent.
	resumed     *run
	resumedFrom int
}

// A verdict is a cell's outcome before it becomes a report cell.
type verdict struct {
	status                          report.Status
	detail                          string
	expected, actual, providerError string
	// class and confidence are the cell's verdict class and, for a
	// refusal, the refusing rule's confidence (report.Cell).
	class, confidence string
}

func errorf(step, format string, args ...any) verdict {
	return verdict{status: report.StatusError, detail: "step " + step + ": " + fmt.Sprintf(format, args...)}
}

// judge finds the judged request by its content and decides the cell
// from what the simulator received.
func judge(j *judgement) verdict {
	mode := string(j.target.Route.APIMode)
	if !j.run.Started {
		return errorf("start", "the agent command could not be started: %v", j.run.Err)
	}
	if len(j.log) == 0 {
		return errorf("first request", "the agent sent no request to the simulator: it %s%s", j.ended(), j.output())
	}
	for i := range j.log {
		if j.log[i].ToolCall != "" {
			j.call = &j.log[i]
			break
		}
	}
	if j.call == nil {
		return j.noToolCall(mode)
	}
	if j.call.Note != "" {
		return errorf("tool call", "request %d: %s", j.call.Index, j.call.Note)
	}
	for _, ex := range j.log[j.call.Index+1:] {
		if bytes.Contains(ex.Body, []byte(j.call.ToolCall)) {
			j.judged = append(j.judged, ex)
		}
	}
	if len(j.judged) == 0 {
		return errorf("tool result", "the simulator answered request %d with a call to %s (id %s); the agent %s without sending its result back%s",
			j.call.Index, j.call.Tool, j.call.ToolCall, j.ended(), j.output())
	}
	first := j.judged[0]
	if first.Own() {
		return errorf("tool result", "request %d (the tool result) is no %s model call the simulator can read: %s", first.Index, mode, words(first.Response))
	}
	if j.scenario == "fallback" {
		return j.fallback()
	}
	if j.scenario == "resume" {
		return j.resume()
	}
	if j.scenario == "compaction" {
		return j.compaction()
	}
	if first.Rule != "" {
		return j.refused(first, "the provider accepts the request that sends the tool result back")
	}
	if j.plan.check != nil {
		if v := j.plan.check(j); v.status != "" {
			return v
		}
	}
	return verdict{status: report.StatusPass, detail: fmt.Sprintf("request %d (the tool result) accepted; %s", first.Index, j.sent(first))}
}

// noToolCall is the verdict of a run in which the simulator never called
// a tool.
func (j *judgement) noToolCall(mode string) verdict {
	for _, ex := range j.log {
		if ex.Own() {
			return errorf("first request", "request %d is no %s model call the simulator can read: %s", ex.Index, mode, words(ex.Response))
		}
	}
	for _, ex := range j.log {
		if ex.Rule != "" {
			return j.refused(ex, "the provider accepts the agent's first request")
		}
	}
	declared := false
	for _, ex := range j.log {
		declared = declared || len(Declared(mode, ex.Body)) > 0
	}
	if !declared {
		return errorf("tool call", "none of the agent's %d requests declares a tool, so the simulator has nothing to call (it %s)", len(j.log), j.ended())
	}
	return errorf("tool call", "no request that declares tools ended with a user turn, so the simulator called no tool (the agent %s)", j.ended())
}

// refused is the fail of a request a profile rule refused, in the
// provider's words.
func (j *judgement) refused(ex Exchange, expected string) verdict {
	src, confidence := "", j.profile.Confidence
	for _, r := range j.profile.Rules {
		if r.ID == ex.Rule && r.Source != "" {
			src = " (" + firstSource(r.Source) + ")"
		}
		if r.ID == ex.Rule && r.Confidence != "" {
			confidence = r.Confidence
		}
	}
	return verdict{
		status: report.StatusFail, class: report.VerdictRefused, confidence: confidence,
		detail: fmt.Sprintf("request %d%s was refused: HTTP %d, rule %s of providers/%s.yaml%s: %s; %s",
			ex.Index, j.role(ex), ex.Status, ex.Rule, j.profile.Name, src, words(ex.Response), j.sent(ex)),
		expected:      expected,
		actual:        fmt.Sprintf("HTTP %d (rule %s)", ex.Status, ex.Rule),
		providerError: string(ex.Response),
	}
}

// role names what a request is in the conversation.
func (j *judgement) role(ex Exchange) string {
	if j.call != nil && ex.Index > j.call.Index && bytes.Contains(ex.Body, []byte(j.call.ToolCall)) {
		return " (the tool result)"
	}
	return ""
}

// fallback judges the fallback scenario: a refused carrier is dropped
// and the request retried exactly once.
func (j *judgement) fallback() verdict {
	first := j.judged[0]
	if first.Rule == "" {
		return verdict{status: report.StatusPass, detail: fmt.Sprintf("request %d (the tool result) accepted: the agent sent back nothing the provider refuses, so there was nothing to learn; %s", first.Index, j.sent(first))}
	}
	field := j.ruleField(first.Rule)
	if len(j.judged) == 1 {
		v := j.refused(first, "after the refusal the agent retries once without "+field)
		v.detail += fmt.Sprintf("; the agent did not retry (it %s): it must learn the refused field from the refusal and send the request again without it", j.ended())
		return v
	}
	second := j.judged[1]
	if second.Own() {
		return errorf("retry", "request %d (the retry) is no model call the simulator can read: %s", second.Index, words(second.Response))
	}
	if second.Rule != "" {
		n := 0
		for _, ex := range j.judged {
			if ex.Rule != "" {
				n++
			}
		}
		v := j.refused(second, "the retry leaves "+field+" out and is accepted")
		v.detail = fmt.Sprintf("the retry of request %d was refused again, %d requests refused in all: a refused field is learnt and the request retried once without it, never resent; %s", first.Index, n, v.detail)
		return v
	}
	return verdict{status: report.StatusPass, detail: fmt.Sprintf("request %d sent back %s and was refused (%s); the agent retried once without it (request %d), accepted; %s",
		first.Index, field, words(first.Response), second.Index, j.sent(second))}
}

// ruleField is the field a profile rule names.
func (j *judgement) ruleField(id string) string {
	for _, r := range j.profile.Rules {
		if r.ID == id && r.When.Field != "" {
			return r.When.Field
		}
	}
	return "the refused field"
}

// ended says how the agent's run ended.
func (j *judgement) ended() string { return j.run.ended(j.timeout) }

// ended says how the run ended, timeout being the run's bound.
func (r run) ended(timeout time.Duration) string {
	switch {
	case r.TimedOut:
		return fmt.Sprintf("hung past --timeout %s and was stopped", timeout)
	case r.Err != nil:
		return fmt.Sprintf("failed: %v", r.Err)
	case r.ExitCode != 0:
		return fmt.Sprintf("exited with status %d", r.ExitCode)
	}
	return "exited 0"
}

// output quotes the last lines the agent printed, for a cell it broke.
func (j *judgement) output() string {
	var lines []string
	for _, l := range strings.Split(j.run.Output, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	last := strings.Join(lines[max(0, len(lines)-3):], " | ")
	if len(last) > 300 {
		last = "…" + last[len(last)-300:]
	}
	return fmt.Sprintf(" (its output ends: %q)", last)
}

// sent describes the reasoning the tool-call turn carried in a request.
func (j *judgement) sent(ex Exchange) string {
	if j.call == nil {
		return "no tool call to look for"
	}
	list, known := carriersOn(string(j.target.Route.APIMode), ex.Body, j.call.ToolCall)
	switch {
	case !known:
		return "the " + string(j.target.Route.APIMode) + " turn is judged by the provider's rules alone"
	case len(list) == 0:
		return "the tool-call turn carried no reasoning"
	}
	return "the tool-call turn carried " + strings.Join(list, ", ")
}

// words is the provider's message in an error body: error.message or
// message, else the body itself, on one line.
func words(body []byte) string {
	if gjson.ValidBytes(body) {
		for _, path := range []string{"error.message", "message", "detail", "error"} {
			if v := gjson.GetBytes(body, path); v.Type == gjson.String && v.Str != "" {
				return strings.Join(strings.Fields(v.Str), " ")
			}
		}
	}
	s := strings.Join(strings.Fields(string(body)), " ")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

// firstSource is the first of a rule's ";"-separated sources.
func firstSource(s string) string {
	first, _, _ := strings.Cut(s, ";")
	return strings.TrimSpace(first)
}

// otherHosts is the error of a run in which the agent called a host the
// run does not serve: never a pass, whatever the judged request got.
func (j *judgement) otherHosts(v verdict) verdict {
	served := "only the simulator's loopback address is served"
	if j.served != "" {
		served = "only " + j.served + " is served"
	}
	e := errorf("other host", "the agent called %s, which the run refused (%s; nothing leaves loopback)", strings.Join(j.others, ", "), served)
	e.detail += fmt.Sprintf("; the judged request would have been %s: %s", v.status, v.detail)
	return e
}
