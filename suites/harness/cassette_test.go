package harness_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/replaycheck/replaycheck/suites/harness"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

func simulated() harness.Provenance {
	return harness.Provenance{Kind: harness.Simulated, Target: "acme", Scenario: "carriers", Profile: "acme", ProfileVersion: 2}
}

func recorded() harness.Provenance {
	return harness.Provenance{Kind: harness.Recorded, Target: "acme", Scenario: "carriers", Date: "2026-03-01", Host: "api.acme.test"}
}

func imported() harness.Provenance {
	return harness.Provenance{Kind: harness.Recorded, Target: "acme", Host: "api.acme.test", Source: &harness.Source{
		Repository: "example/agent", Path: "tests/cassettes/roundtrip.yaml", Commit: "0123abc", Licence: "MIT",
		Format: "vcrpy", Interactions: []int{1, 2},
		Elsewhere: []harness.Elsewhere{{Interaction: 0, Request: "POST api.other.test/v1/x", APIMode: "chat", Unplaced: "no target"}},
	}}
}

func agent() harness.Provenance {
	return harness.Provenance{Kind: harness.Agent, Target: "acme", Scenario: "missing-echo", Profile: "acme", ProfileVersion: 1, AgentName: "my-agent"}
}

func TestProvenanceValidate(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*harness.Provenance)
		base   func() harness.Provenance
		want   string
		reason string
	}{
		{"simulated", func(*harness.Provenance) {}, simulated, "", "profile and version make a simulated cassette"},
		{"recorded", func(*harness.Provenance) {}, recorded, "", "date and host make a recorded cassette"},
		{"simulated-no-profile", func(p *harness.Provenance) { p.Profile = "" }, simulated,
			"simulated provenance needs profile and profile_version", "the profile is what the answers come from"},
		{"simulated-no-version", func(p *harness.Provenance) { p.ProfileVersion = 0 }, simulated,
			"simulated provenance needs profile and profile_version", "a profile change must be traceable to a version"},
		{"simulated-with-date", func(p *harness.Provenance) { p.Date = "2026-03-01" }, simulated,
			"simulated provenance must not carry a recording date or host", "simulated is never called recorded"},
		{"simulated-with-host", func(p *harness.Provenance) { p.Host = "api.acme.test" }, simulated,
			"simulated provenance must not carry a recording date or host", "a host suggests a live recording"},
		{"recorded-no-date", func(p *harness.Provenance) { p.Date = "" }, recorded,
			"recorded provenance needs date (YYYY-MM-DD) and host", "a recording is dated"},
		{"recorded-bad-date", func(p *harness.Provenance) { p.Date = "1 March 2026" }, recorded,
			"recorded provenance needs date (YYYY-MM-DD) and host", "dates are ISO days"},
		{"recorded-no-host", func(p *harness.Provenance) { p.Host = "" }, recorded,
			"recorded provenance needs date (YYYY-MM-DD) and host", "a recording names the endpoint"},
		{"recorded-with-profile", func(p *harness.Provenance) { p.Profile = "acme" }, recorded,
			"recorded provenance must not name a profile", "mixed provenance is refused"},
		{"recorded-with-version", func(p *harness.Provenance) { p.ProfileVersion = 1 }, recorded,
			"recorded provenance must not name a profile", "a profile version is simulator data"},
		{"unknown-kind", func(p *harness.Provenance) { p.Kind = "synthetic" }, simulated,
			`provenance kind "synthetic" (want simulated, recorded or agent)`, "there are three kinds"},
		{"no-kind", func(p *harness.Provenance) { p.Kind = "" }, recorded,
			`provenance kind "" (want simulated, recorded or agent)`, "the kind is required"},
		{"no-target", func(p *harness.Provenance) { p.Target = "" }, simulated,
			"provenance needs target and scenario", "the cell is named"},
		{"no-scenario", func(p *harness.Provenance) { p.Scenario = "" }, recorded,
			"provenance needs target and scenario", "the cell is named"},
		{"imported", func(*harness.Provenance) {}, imported, "", "target, host and a cited source make imported evidence"},
		{"imported-dated", func(p *harness.Provenance) { p.Date = "2026-01-07" }, imported, "", "a Date header dates an imported recording"},
		{"imported-bad-date", func(p *harness.Provenance) { p.Date = "Wed, 07 Jan 2026" }, imported,
			"imported provenance: date must be YYYY-MM-DD when given", "dates are ISO days"},
		{"imported-no-host", func(p *harness.Provenance) { p.Host = "" }, imported,
			"imported provenance needs target and host", "evidence names the endpoint it came from"},
		{"imported-with-scenario", func(p *harness.Provenance) { p.Scenario = "carriers" }, imported,
			"imported provenance must not name a scenario: the conversation is the recording's own", "an imported conversation is not a scenario's"},
		{"imported-no-repository", func(p *harness.Provenance) { p.Source.Repository = "" }, imported,
			"imported provenance: source needs repository, path and format", "evidence cites its public source"},
		{"imported-no-interactions", func(p *harness.Provenance) { p.Source.Interactions = nil }, imported,
			"imported provenance: source names no interaction", "each interaction is traced to its source position"},
		{"imported-elsewhere-both", func(p *harness.Provenance) { p.Source.Elsewhere[0].Target = "acme" }, imported,
			"imported provenance: source.elsewhere[0]: name the target that holds interaction 0 or why it is unplaced, not both", "an interaction is either placed or unplaced"},
		{"imported-response-only", func(p *harness.Provenance) { p.Host, p.Source.ResponseOnly = "", "chat" }, imported, "",
			"a response-only fixture recorded no host: its api mode stands instead"},
		{"imported-response-only-dialect", func(p *harness.Provenance) { p.Target, p.Host, p.Source.ResponseOnly = "", "", "gemini" }, imported, "",
			"a response-only fixture no target takes names no target"},
		{"imported-response-only-host", func(p *harness.Provenance) { p.Source.ResponseOnly = "chat" }, imported,
			"imported provenance: a response-only source recorded no request, so it names no host", "a host would be made up"},
		{"imported-no-target", func(p *harness.Provenance) { p.Target = "" }, imported,
			"imported provenance needs target and host", "only a response-only source goes without a target"},
		{"imported-simulated", func(p *harness.Provenance) {
			p.Kind, p.Profile, p.ProfileVersion = harness.Simulated, "acme", 1
			p.Host = ""
		}, imported,
			"only recorded provenance may name a source", "simulated is never called recorded"},
		{"agent", func(*harness.Provenance) {}, agent, "", "the simulator's profile and the agent's name make an agent cassette"},
		{"agent-unnamed", func(p *harness.Provenance) { p.AgentName = "" }, agent,
			"agent provenance needs profile, profile_version and agent", "the requests are the agent's: it is named"},
		{"agent-dated", func(p *harness.Provenance) { p.Date, p.Host = "2026-01-07", "api.acme.test" }, agent,
			"agent provenance must not carry a recording date or host", "the answers are simulated, never recorded"},
		{"simulated-naming-agent", func(p *harness.Provenance) { p.AgentName = "my-agent" }, simulated,
			"only agent provenance names an agent", "a simulated cassette's requests are the engine's"},
	}
	for _, tc := range tests {
		p := tc.base()
		tc.edit(&p)
		err := p.Validate()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: %s: error %q, want %q", tc.name, tc.reason, got, tc.want)
		}
	}
	if simulated().Label() != "simulated" || recorded().Label() != "recorded" {
		t.Error("labels are the kinds")
	}
}

// validCassette is a two-interaction cassette; edits replace one line.
const validCassette = `version: 2
provenance:
  kind: simulated
  target: acme
  scenario: carriers
  profile: acme
  profile_version: 1
interactions:
  - id: 0
    request:
      method: POST
      url: https://api.acme.test/v1/chat/completions
      body: '{"model":"m"}'
    response:
      code: 200
      body: '{"ok":true}'
  - id: 1
    request:
      method: POST
      url: https://api.acme.test/v1/chat/completions
      body: '{"model":"n"}'
    response:
      code: 400
      body: '{"error":"no"}'
`

func TestParse(t *testing.T) {
	f, err := harness.Parse("c.yaml", []byte(validCassette))
	if err != nil {
		t.Fatal(err)
	}
	if f.Version != 2 || f.Provenance != (harness.Provenance{Kind: "simulated", Target: "acme", Scenario: "carriers", Profile: "acme", ProfileVersion: 1}) ||
		len(f.Interactions) != 2 || f.Interactions[1].Response.Code != 400 || f.Interactions[0].Request.Body != `{"model":"m"}` {
		t.Errorf("parsed %+v", f)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, old, new, want, reason string
	}{
		{"unknown-key", "      code: 400\n", "      code: 400\n      latency: 5\n",
			"c.yaml: yaml: unmarshal errors:\n  line 24: field latency not found in type cassette.Response",
			"a misspelt field is refused with its line, not dropped"},
		{"unknown-top-key", "version: 2\n", "version: 2\nrecorded_at: today\n",
			"c.yaml: yaml: unmarshal errors:\n  line 2: field recorded_at not found in type harness.File",
			"the top level is closed too"},
		{"wrong-version", "version: 2\n", "version: 1\n",
			"c.yaml: cassette version 1 (want 2)", "go-vcr v3 reads format 2 only"},
		{"bad-provenance", "  profile_version: 1\n", "  profile_version: 1\n  host: api.acme.test\n",
			"c.yaml: simulated provenance must not carry a recording date or host", "mixed provenance is refused on read"},
		{"id-sequence", "  - id: 1\n", "  - id: 3\n",
			"c.yaml:17: interaction 1: id 3 out of sequence (ids count up from 0)", "ids count from 0 with no gaps"},
		{"no-method", "      method: POST\n      url: https://api.acme.test/v1/chat/completions\n      body: '{\"model\":\"n\"}'",
			"      url: https://api.acme.test/v1/chat/completions\n      body: '{\"model\":\"n\"}'",
			"c.yaml:17: interaction 1: request needs method and url", "a request without a method matches nothing"},
		{"no-url", "      url: https://api.acme.test/v1/chat/completions\n      body: '{\"model\":\"m\"}'", "      body: '{\"model\":\"m\"}'",
			"c.yaml:9: interaction 0: request needs method and url", "a request without a URL matches nothing"},
		{"bad-code", "      code: 400\n", "      code: 40\n",
			"c.yaml:17: interaction 1: response code 40", "status codes are 100-599"},
		{"no-code", "      code: 200\n", "",
			"c.yaml:9: interaction 0: response code 0", "a response needs a status"},
		{"empty-interaction", "interactions:\n", "interactions:\n  -\n",
			"c.yaml:9: interaction 0: empty", "a null entry is not an interaction"},
		{"duplicate-id", "  - id: 1\n", "  - id: 0\n",
			"c.yaml:17: interaction 1: id 0 duplicates interaction 0 (ids count up from 0)", "a copied interaction is named as a duplicate"},
		{"not-utf8", "      code: 400\n", "      code: 400\n      body: \"\xff\xfe\"\n",
			"c.yaml:24: byte offset 473: not UTF-8 text (binary data goes base64 under !!binary)", "binary garbage is named by line and offset"},
		{"truncated", "      body: '{\"error\":\"no\"}'\n", "      body: '{\"err",
			"c.yaml: yaml: line 24: found unexpected end of stream (the file ends mid-line: truncated?)", "a cut file says so"},
		{"malformed", "version: 2\n", "version: [2\n",
			"c.yaml: yaml: line 2: did not find expected ',' or ']'", "the YAML error keeps the file name (a flow opened on the first line is reported where the parser gave up)"},
		{"wrong-type", "      code: 200\n", "      code: ok\n",
			"c.yaml: yaml: unmarshal errors:\n  line 15: cannot unmarshal !!str `ok` into int", "a code is a number"},
	}
	for _, tc := range tests {
		if !strings.Contains(validCassette, tc.old) {
			t.Fatalf("%s: %q is not in the valid cassette", tc.name, tc.old)
		}
		doc := strings.Replace(validCassette, tc.old, tc.new, 1)
		_, err := harness.Parse("c.yaml", []byte(doc))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %s:\n got  %v\n want %s", tc.name, tc.reason, err, tc.want)
		}
	}
	for _, tc := range []struct{ doc, want, reason string }{
		{"", "c.yaml: empty file: a cassette holds version, provenance and interactions", "an empty file says so, not EOF"},
		{"interactions:\n- request: {body: x, method: POST, uri: 'https://api.deepseek.com/v1/chat/completions'}\n  response: {status: {code: 200}}\nversion: 1\n",
			"c.yaml: a VCR.py cassette (request.uri), not a replaycheck cassette: bring it in as evidence with replaycheck import", "another recorder's cassette points to import"},
		{"requests:\n- {method: POST}\nresponses:\n- {status: 200}\n",
			"c.yaml: a langchain-style cassette (requests: and responses:), not a replaycheck cassette: bring it in", "langchain's layout too"},
	} {
		if _, err := harness.Parse("c.yaml", []byte(tc.doc)); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got  %v\n want %s…", tc.reason, err, tc.want)
		}
	}
}

func TestReadMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.yaml")
	_, err := harness.Read(path)
	if !errors.Is(err, harness.ErrNoCassette) || !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("error %v", err)
	}
}

func TestPath(t *testing.T) {
	if got := harness.Path("cassettes", "bedrock-converse-claude", "signed-roundtrip"); got != filepath.Join("cassettes", "bedrock-converse-claude", "signed-roundtrip.yaml") {
		t.Errorf("path %s", got)
	}
	if got := harness.RecordedPath("cassettes", "anthropic", "thinking-roundtrip"); got != filepath.Join("cassettes", "anthropic", "recorded", "thinking-roundtrip.yaml") {
		t.Errorf("recorded path %s", got)
	}
}

// TestParseImportedCountsInteractions checks that an imported cassette
// traces every interaction to its source position, one for one.
func TestParseImportedCountsInteractions(t *testing.T) {
	prov := "provenance:\n  kind: recorded\n  target: acme\n  host: api.acme.test\n  source:\n    repository: example/agent\n" +
		"    path: tests/c.yaml\n    format: vcrpy\n    interactions: [%s]\ninteractions:\n"
	body := validCassette[strings.Index(validCassette, "interactions:\n")+len("interactions:\n"):]
	for _, tc := range []struct {
		positions, want, reason string
	}{
		{"0, 3", "", "two interactions traced to source positions 0 and 3"},
		{"0", "c.yaml: provenance source names 1 interactions, the cassette holds 2", "an untraced interaction is refused"},
	} {
		doc := "version: 2\n" + fmt.Sprintf(prov, tc.positions) + body
		_, err := harness.Parse("c.yaml", []byte(doc))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: error %q, want %q", tc.reason, got, tc.want)
		}
	}
}

// interaction builds one interaction.
func interaction(method, url, reqBody string, code int, respBody string) *cassette.Interaction {
	return &cassette.Interaction{
		Request: cassette.Request{Method: method, URL: url, Body: reqBody,
			Headers: map[string][]string{"Content-Type": {"application/json"}}},
		Response: cassette.Response{Code: code, Status: "", Body: respBody,
			Headers: map[string][]string{"Content-Type": {"application/json"}}},
	}
}

// eventStreamFrame encodes one AWS event-stream frame: binary prelude,
// headers and CRCs, so the body is not valid UTF-8.
func eventStreamFrame(t *testing.T, payload string) string {
	t.Helper()
	var b bytes.Buffer
	msg := eventstream.Message{Payload: []byte(payload)}
	msg.Headers.Set(":event-type", eventstream.StringValue("chunk"))
	msg.Headers.Set(":message-type", eventstream.StringValue("event"))
	if err := eventstream.NewEncoder().Encode(&b, msg); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteReadRoundTrip(t *testing.T) {
	frames := eventStreamFrame(t, `{"bytes":"eyJ0eXBlIjoibWVzc2FnZV9zdGFydCJ9"}`) + eventStreamFrame(t, `{"bytes":"e30="}`)
	if utf8.ValidString(frames) {
		t.Fatal("the event-stream body should hold non-UTF-8 bytes")
	}
	in := &harness.File{Version: 2, Provenance: recorded(), Interactions: []*cassette.Interaction{
		interaction("POST", "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/invoke-with-response-stream", `{"messages":[]}`, 200, frames),
		interaction("POST", "https://api.acme.test/v1/chat/completions", "{\"x\":\"caf\xc3\xa9 \\u00e9\"}", 400, "not json: \x00\xff\xfe"),
	}}
	in.Interactions[0].ID = 7 // Write renumbers
	in.Interactions[0].Response.Headers = map[string][]string{"Content-Type": {"application/vnd.amazon.eventstream"}}
	path := filepath.Join(t.TempDir(), "acme", "carriers.yaml")
	if err := harness.Write(path, in); err != nil {
		t.Fatal(err)
	}
	out, err := harness.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if out.Provenance != recorded() || len(out.Interactions) != 2 {
		t.Fatalf("read back %+v", out)
	}
	for i, it := range out.Interactions {
		want := in.Interactions[i]
		if it.ID != i || it.Request.Method != want.Request.Method || it.Request.URL != want.Request.URL ||
			it.Request.Body != want.Request.Body || it.Response.Code != want.Response.Code ||
			it.Response.Body != want.Response.Body || it.Response.Headers.Get("Content-Type") != want.Response.Headers.Get("Content-Type") {
			t.Errorf("interaction %d changed in the round trip:\n got  %+v\n want %+v", i, it, want)
		}
	}
	dec := eventstream.NewDecoder()
	r := strings.NewReader(out.Interactions[0].Response.Body)
	for _, want := range []string{`{"bytes":"eyJ0eXBlIjoibWVzc2FnZV9zdGFydCJ9"}`, `{"bytes":"e30="}`} {
		m, err := dec.Decode(r, nil)
		if err != nil || string(m.Payload) != want {
			t.Errorf("frame after the round trip: %q, %v", m.Payload, err)
		}
	}
}

func TestWriteFormat(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "carriers.yaml")
	f := &harness.File{Version: 2, Provenance: simulated(), Interactions: []*cassette.Interaction{
		interaction("POST", "https://api.acme.test/v1/chat/completions", `{}`, 200, `{}`)}}
	if err := harness.Write(path, f); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("# replaycheck cassette (go-vcr v3 format). Generated: do not edit by hand.\nversion: 2\nprovenance:\n  kind: simulated\n")) {
		t.Errorf("cassette starts %q", b[:min(len(b), 160)])
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v: want 0644", st.Mode(), err)
	}
	// Writing the same file twice gives the same bytes.
	if err := harness.Write(path, f); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(path)
	if !bytes.Equal(b, again) {
		t.Error("a second write of the same cassette changed its bytes")
	}
	assertNoTemp(t, dir)
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(dir, ".cassette-*.tmp"))
	if err != nil || len(left) > 0 {
		t.Errorf("temporary files left behind: %v %v", left, err)
	}
}

func TestWriteKeepsOldCassetteOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "carriers.yaml")
	good := &harness.File{Version: 2, Provenance: simulated(), Interactions: []*cassette.Interaction{
		interaction("POST", "https://api.acme.test/v1/chat/completions", `{}`, 200, `{}`)}}
	if err := harness.Write(path, good); err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		file   *harness.File
		want   string
		reason string
	}{
		{"mixed-provenance", &harness.File{Version: 2, Provenance: harness.Provenance{Kind: harness.Simulated, Target: "acme", Scenario: "carriers", Profile: "acme", ProfileVersion: 1, Host: "x"}},
			path + ": simulated provenance must not carry a recording date or host", "refused before anything is written"},
		{"nil-interaction", &harness.File{Version: 2, Provenance: simulated(), Interactions: []*cassette.Interaction{nil}},
			path + ": interaction 0: empty", "bad input is an error, never a panic"},
		{"no-version", &harness.File{Provenance: simulated()},
			path + ": cassette version 0 (want 2)", "a file Read would refuse is never written"},
		{"bad-code", &harness.File{Version: 2, Provenance: simulated(), Interactions: []*cassette.Interaction{
			interaction("POST", "https://api.acme.test/v1/chat/completions", `{}`, 0, `{}`)}},
			path + ":10: interaction 0: response code 0", "an unreadable cassette must not replace a good one"},
	}
	for _, tc := range tests {
		err := harness.Write(path, tc.file)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %s: error %v, want %s", tc.name, tc.reason, err, tc.want)
		}
		if now, _ := os.ReadFile(path); !bytes.Equal(now, old) {
			t.Errorf("%s: the old cassette changed", tc.name)
		}
	}
	assertNoTemp(t, dir)

	// A rename that fails (the target is a non-empty directory) leaves no
	// temporary file behind.
	blocked := filepath.Join(dir, "blocked.yaml")
	if err := os.MkdirAll(filepath.Join(blocked, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := harness.Write(blocked, good); err == nil {
		t.Error("writing over a directory succeeded")
	}
	assertNoTemp(t, dir)

	// A directory that cannot be written to (checked only where
	// permissions apply: root ignores them).
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(dir, 0o755)
		if err := harness.Write(path, good); err == nil {
			t.Error("writing into a read-only directory succeeded")
		}
		if now, _ := os.ReadFile(path); !bytes.Equal(now, old) {
			t.Error("read-only directory: the old cassette changed")
		}
		assertNoTemp(t, dir)
	}
}
