package evidence

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/suites/harness"
)

type reportCheck = report.Check

// Conversations written for these tests (no provider recorded them).
const (
	deepseekURL = "https://api.deepseek.com/v1/chat/completions"
	dsTurn1     = `{"model":"deepseek-v4-flash","messages":[{"role":"user","content":"Is the cache warm?"}]}`
	dsAnswer1   = `{"choices":[{"index":0,"message":{"role":"assistant","content":"","reasoning_content":"Check the notes.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`
	dsTurn2     = `{"model":"deepseek-v4-flash","messages":[{"role":"user","content":"Is the cache warm?"},{"role":"assistant","content":"","reasoning_content":"Check the notes.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_1","content":"warm"}]}`
	dsAnswer2   = `{"choices":[{"index":0,"message":{"role":"assistant","content":"Yes.","reasoning_content":"It is warm."},"finish_reason":"stop"}]}`

	anthropicURL = "https://api.anthropic.com/v1/messages"
	anTurn1      = `{"model":"claude-opus-4-6","max_tokens":1024,"messages":[{"role":"user","content":"Which bridge?"}]}`
	anAnswer1    = `{"type":"message","role":"assistant","model":"claude-opus-4-6","content":[{"type":"thinking","thinking":"North is shorter.","signature":"c2lnLW9uZQ=="},{"type":"text","text":"North."}]}`
	anTurn2      = `{"model":"claude-opus-4-6","max_tokens":1024,"messages":[{"role":"user","content":"Which bridge?"},{"role":"assistant","content":[{"type":"thinking","thinking":"North is shorter.","signature":"c2lnLW9uZQ=="},{"type":"text","text":"North."}]},{"role":"user","content":"Why?"}]}`
	anAnswer2    = `{"type":"message","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"It is 200 m."}]}`
)

// TestChecks runs the three checks over conversations written for them and
// checks each verdict and the reason for it.
func TestChecks(t *testing.T) {
	dir := t.TempDir()
	writeCassette(t, dir, "deepseek", "tool-turn", []rt{{deepseekURL, dsTurn1, 200, dsAnswer1, ""}, {deepseekURL, dsTurn2, 200, dsAnswer2, ""}})
	// The client dropped the reasoning from its replay; the provider refused it.
	dropped := strings.Replace(dsTurn2, `"reasoning_content":"Check the notes.",`, "", 1)
	writeCassette(t, dir, "deepseek", "dropped-reasoning", []rt{{deepseekURL, dsTurn1, 200, dsAnswer1, ""},
		{deepseekURL, dropped, 400, `{"error":{"message":"The ` + "`reasoning_content`" + ` in the thinking mode must be passed back to the API.","type":"invalid_request_error"}}`, ""}})
	writeCassette(t, dir, "anthropic", "signed", []rt{{anthropicURL, anTurn1, 200, anAnswer1, ""}, {anthropicURL, anTurn2, 200, anAnswer2, ""}})
	// The client re-encoded the signature in the URL-safe alphabet and added a key.
	reencoded := strings.Replace(strings.Replace(anTurn2, `"c2lnLW9uZQ=="`, `"c2lnLW9uZQ"`, 1), `{"type":"text","text":"North."}`, `{"type":"text","text":"North.","citations":null}`, 1)
	writeCassette(t, dir, "anthropic", "reencoded", []rt{{anthropicURL, anTurn1, 200, anAnswer1, ""}, {anthropicURL, reencoded, 200, anAnswer2, ""}})
	// A turn answered by another endpoint of the source.
	writeCassette(t, dir, "anthropic", "cross", []rt{{anthropicURL, anTurn2, 200, anAnswer2, ""}},
		harness.Elsewhere{Interaction: 0, Request: "POST api.openai.com/v1/responses", APIMode: "responses", Unplaced: "placed at another target"})
	// The engine would need an answer nobody recorded: the client wrote the turn.
	writeCassette(t, dir, "anthropic", "written", []rt{{anthropicURL, anTurn2, 200, anAnswer2, ""}})

	tests := []struct {
		id                  string
		capture, repro, sim report.Verdict
		detail              string // a fragment of a detail (capture, reproduction or simulator)
		scenarios           []string
		reason              string
	}{
		{"anthropic/recorded/cross.yaml#0", report.VerdictPass, report.VerdictNotChecked, report.VerdictUnverifiable,
			"the assistant turn at messages.1 was answered by source interaction 0 (POST api.openai.com/v1/responses, api mode responses) at another endpoint; a turn answered by another provider is not reproduced", nil,
			"a turn another provider answered is reported, not reproduced"},
		{"anthropic/recorded/reencoded.yaml#0", report.VerdictPass, report.VerdictNA, report.VerdictAgree, "2 carriers held verbatim: content.0.thinking, content.0.signature",
			nil, "the first turn replays nothing"},
		{"anthropic/recorded/reencoded.yaml#1", report.VerdictPass, report.VerdictAdvisory, report.VerdictUnverifiable,
			"the engine sends less than the provider accepted, at 1 paths of 1 assistant turn", []string{"carriers", "signed-roundtrip"},
			"the extra key the client sent is less; the re-encoded signature is the same bytes"},
		{"anthropic/recorded/signed.yaml#1", report.VerdictPass, report.VerdictPass, report.VerdictUnverifiable,
			"the engine sends the 1 assistant turn the client sent and the provider accepted", []string{"carriers", "signed-roundtrip"},
			"the signed thinking block goes back byte for byte; the simulator cannot verify a signature it did not issue"},
		{"anthropic/recorded/written.yaml#0", report.VerdictPass, report.VerdictNotChecked, report.VerdictUnverifiable,
			"the assistant turn at messages.1 answers no recorded exchange: the client wrote that history itself", nil,
			"a native turn nobody recorded an answer for cannot be fed to the engine"},
		{"deepseek/recorded/dropped-reasoning.yaml#1", report.VerdictNA, report.VerdictNotChecked, report.VerdictAgree,
			"the provider refused the recorded request (400) and the engine's turns differ from it", nil,
			"the engine sends the reasoning the client dropped; the refusal says nothing about that"},
		{"deepseek/recorded/tool-turn.yaml#0", report.VerdictPass, report.VerdictNA, report.VerdictAgree, "1 carrier held verbatim: choices.0.message.reasoning_content",
			nil, "a first turn"},
		{"deepseek/recorded/tool-turn.yaml#1", report.VerdictPass, report.VerdictPass, report.VerdictAgree,
			"the engine sends the 1 assistant turn the client sent and the provider accepted, with 1 note (equivalent, or shown accepted elsewhere)", []string{"carriers", "missing-echo"},
			"the must-echo route replays reasoning_content on the tool turn as the client did"},
	}
	got := runOne(t, dir)
	if len(got) != 10 {
		t.Fatalf("%d exchanges, want 10", len(got))
	}
	for _, tc := range tests {
		i := slices.IndexFunc(got, func(g exchangeResult) bool { return g.id == tc.id })
		if i < 0 {
			t.Errorf("%s: no such exchange", tc.id)
			continue
		}
		g := got[i]
		details := g.capture.Detail + " | " + g.repro.Detail + " | " + g.sim.Detail
		if g.capture.Verdict != tc.capture || g.repro.Verdict != tc.repro || g.sim.Verdict != tc.sim || !strings.Contains(details, tc.detail) ||
			!slices.Equal(g.repro.Scenarios, tc.scenarios) {
			t.Errorf("%s: %s:\n got capture %s, reproduction %s %v, simulator %s: %s\n want %s, %s %v, %s with %q\n findings %+v",
				tc.id, tc.reason, g.capture.Verdict, g.repro.Verdict, g.repro.Scenarios, g.sim.Verdict, details, tc.capture, tc.repro, tc.scenarios, tc.sim, tc.detail, g.repro.Findings)
		}
	}
	// The re-encoded signature is noted, not failed.
	i := slices.IndexFunc(got, func(g exchangeResult) bool { return g.id == "anthropic/recorded/reencoded.yaml#1" })
	var notes []string
	for _, f := range got[i].repro.Findings {
		notes = append(notes, f.Path+" "+string(f.Verdict))
	}
	if want := []string{"messages.1.content.0.signature pass", "messages.1.content.1.citations advisory"}; !slices.Equal(notes, want) {
		t.Errorf("re-encoded: findings %v, want %v", notes, want)
	}
}

// TestLoadErrors lists what does not belong under recorded/ as unreadable,
// naming the file, and still reads the rest.
func TestLoadErrors(t *testing.T) {
	mf, _ := repo(t)
	dir := t.TempDir()
	writeCassette(t, dir, "deepseek", "ok", []rt{{deepseekURL, dsTurn1, 200, dsAnswer1, ""}})
	f, err := harness.Read(harness.RecordedPath(dir, "deepseek", "ok"))
	if err != nil {
		t.Fatal(err)
	}
	if err := harness.Write(harness.RecordedPath(dir, "kimi", "moved"), f); err != nil {
		t.Fatal(err)
	}
	cs, bad, err := Load(dir, mf, nil)
	if err != nil || len(cs) != 1 || cs[0].Name != "cassettes/deepseek/recorded/ok.yaml" || len(bad) != 1 ||
		!strings.Contains(bad[0].Detail, "kimi/recorded/moved.yaml: provenance names target deepseek, but the file sits under kimi") {
		t.Errorf("a cassette under another target: %+v %+v %v", cs, bad, err)
	}
	dir = t.TempDir()
	sim := &harness.File{Version: 2, Provenance: harness.Provenance{Kind: harness.Simulated, Target: "deepseek", Scenario: "carriers", Profile: "deepseek", ProfileVersion: 1}}
	if err := harness.Write(harness.RecordedPath(dir, "deepseek", "sim"), sim); err != nil {
		t.Fatal(err)
	}
	if _, bad, err := Load(dir, mf, nil); err != nil || len(bad) != 1 || !strings.Contains(bad[0].Detail, "deepseek/recorded/sim.yaml: not imported evidence") {
		t.Errorf("a scenario cassette under recorded/: %+v %v", bad, err)
	}
	cut := filepath.Join(dir, "deepseek", "recorded", "cut.yaml")
	if err := os.WriteFile(cut, []byte("version: 2\ninteractions:\n  - id: 0\n    request: {method: POST, url"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := Run(Inputs{Matrix: mf, Dir: dir, Targets: []string{"deepseek"}})
	if err != nil || len(ev.Unreadable) != 2 || ev.Unreadable[0].Cassette != filepath.ToSlash(cut) ||
		!strings.Contains(ev.Unreadable[0].Detail, "(the file ends mid-line: truncated?)") {
		t.Errorf("the section lists unreadable cassettes sorted by path, each naming its file and position: %+v %v", ev, err)
	}
	if !strings.Contains(ev.Summary(), "(2 more imported cassettes could not be read)") {
		t.Errorf("summary %q must count the unreadable cassettes", ev.Summary())
	}
}
