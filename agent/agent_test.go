package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// behaviourVar makes the test binary a fake agent (see TestMain).
const behaviourVar = "REPLAYCHECK_FAKE_AGENT"

// TestMain turns the test binary into a fake agent when behaviourVar is
// set: each behaviour is one way an agent can break the judged step.
func TestMain(m *testing.M) {
	if b := os.Getenv(behaviourVar); b != "" {
		os.Exit(fakeAgent(b))
	}
	os.Exit(m.Run())
}

// fakeAgent plays one behaviour against OPENAI_BASE_URL and returns the
// exit code.
func fakeAgent(behaviour string) int {
	base := os.Getenv("OPENAI_BASE_URL")
	post := func(body string) (int, []byte) {
		resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 0, nil
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	model := os.Getenv("OPENAI_MODEL")
	first := fmt.Sprintf(`{"model":%q,"messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"read_file","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}]}`, model)
	switch behaviour {
	case "silent":
		return 0
	case "crash":
		fmt.Fprintln(os.Stderr, "fake agent: cannot start: no config")
		return 2
	case "hang":
		time.Sleep(time.Minute)
		return 0
	case "garbage":
		post(`{"model":`)
		return 0
	case "other-host":
		// Telemetry to a host of its own, through the proxy the run sets.
		if resp, err := http.Get("https://telemetry.agent.example/v1/events"); err == nil {
			resp.Body.Close()
		}
		return fakeAgent("title-then-echo")
	case "no-tools":
		post(fmt.Sprintf(`{"model":%q,"messages":[{"role":"user","content":"hi"}]}`, model))
		return 0
	case "exit-after-call":
		post(first)
		return 1
	case "hang-after-call":
		post(first)
		time.Sleep(time.Minute)
		return 0
	case "garbage-result":
		_, b := post(first)
		id := gjson.GetBytes(b, "choices.0.message.tool_calls.0.id").String()
		post(`{"model":"` + model + `","messages":"` + id + `"}`)
		return 0
	case "title-then-echo", "title-then-bare":
		// A title request first, as real agents send, then the loop.
		post(fmt.Sprintf(`{"model":%q,"messages":[{"role":"user","content":"title for: hi"}]}`, model))
		_, b := post(first)
		msg := gjson.GetBytes(b, "choices.0.message")
		call := msg.Get("tool_calls.0")
		args := call.Get("function.arguments").String()
		var a struct{ Path string }
		_ = json.Unmarshal([]byte(args), &a)
		content, err := os.ReadFile(a.Path)
		if err != nil {
			content = []byte("error: " + err.Error())
		}
		assistant := map[string]any{"role": "assistant", "content": "", "tool_calls": json.RawMessage(msg.Get("tool_calls").Raw)}
		if behaviour == "title-then-echo" {
			assistant["reasoning_content"] = msg.Get("reasoning_content").String()
		}
		next, _ := json.Marshal(map[string]any{"model": model, "messages": []any{
			map[string]any{"role": "user", "content": "hi"}, assistant,
			map[string]any{"role": "tool", "tool_call_id": call.Get("id").String(), "content": string(content)},
		}})
		if status, _ := post(string(next)); status != 200 {
			return 0 // exits 0 after a 400, as opencode does
		}
		return 0
	}
	return 3
}

// deepseekOptions are Options for one deepseek cell played to the fake
// agent with behaviour b.
func deepseekOptions(t *testing.T, b, scenario string) Options {
	t.Helper()
	mf, err := matrix.Load(filepath.Join("..", "matrix.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	list, err := providers.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	profiles := map[string]*providers.Profile{}
	for _, p := range list {
		profiles[p.Name] = p
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Options{Matrix: mf, Profiles: profiles, Targets: []string{"deepseek"}, Scenarios: []string{scenario},
		Command: []string{self}, Env: []string{behaviourVar + "=" + b}, Timeout: 30 * time.Second, Name: "fake-agent"}
}

func TestCheckJudgesWhatTheSimulatorReceived(t *testing.T) {
	cases := []struct {
		behaviour, scenario string
		status              report.Status
		// detail must hold each of these.
		detail []string
		reason string
	}{
		{"silent", "carriers", report.StatusError, []string{"step first request", "sent no request", "exited 0"}, "an agent that sends nothing is never a pass"},
		{"crash", "carriers", report.StatusError, []string{"step first request", "exited with status 2", "cannot start: no config"}, "a crash names its exit status and the agent's last words"},
		{"hang", "carriers", report.StatusError, []string{"step first request", "hung past --timeout 1s"}, "a hang is stopped at the timeout"},
		{"garbage", "carriers", report.StatusError, []string{"step first request", "no chat model call the simulator can read", "not valid JSON"}, "an unparseable body is an error naming the step"},
		{"no-tools", "carriers", report.StatusError, []string{"step tool call", "declares a tool"}, "an agent that declares no tool cannot be driven"},
		{"exit-after-call", "carriers", report.StatusError, []string{"step tool result", "read_file", "exited with status 1"}, "exiting before the judged request is an error"},
		{"hang-after-call", "carriers", report.StatusError, []string{"step tool result", "hung past --timeout"}, "hanging before the judged request is an error"},
		{"garbage-result", "carriers", report.StatusError, []string{"step tool result", "request 1 (the tool result) is no chat model call"}, "the judged request must be readable"},
		{"title-then-echo", "carriers", report.StatusPass, []string{"request 2 (the tool result) accepted", "carried reasoning_content"}, "the judged turn is found by content past a title request"},
		{"title-then-echo", "missing-echo", report.StatusFail, []string{"must be passed back to the API", "reasoning-content-missing", `carried reasoning_content ""`}, "a bare tool turn echoed as \"\" gets DeepSeek V4's 400, in its words"},
		{"other-host", "carriers", report.StatusError, []string{"step other host", "telemetry.agent.example:443", "only the simulator's loopback address is served", "would have been pass"}, "a call to any other host is refused, named, and never a pass"},
		{"title-then-bare", "carriers", report.StatusFail, []string{"must be passed back to the API", "carried no reasoning"}, "an agent that drops reasoning_content fails in DeepSeek's words, though it exits 0"},
	}
	for _, c := range cases {
		t.Run(c.behaviour+"/"+c.scenario, func(t *testing.T) {
			o := deepseekOptions(t, c.behaviour, c.scenario)
			o.Out = t.TempDir()
			if strings.HasPrefix(c.behaviour, "hang") {
				o.Timeout = time.Second
			}
			m, err := Check(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			cell, _ := m.Cell("deepseek", c.scenario)
			if cell.Status != c.status {
				t.Fatalf("%s: status %s, want %s: %s", c.reason, cell.Status, c.status, cell.Detail)
			}
			for _, want := range c.detail {
				if !strings.Contains(cell.Detail, want) {
					t.Errorf("%s: detail lacks %q: %s", c.reason, want, cell.Detail)
				}
			}
			if err := m.Validate(); err != nil {
				t.Errorf("the row does not validate: %v", err)
			}
			if c.status == report.StatusFail && !strings.Contains(cell.ProviderError, "must be passed back") {
				t.Errorf("%s: provider error %q, want DeepSeek's body", c.reason, cell.ProviderError)
			}
			if cell.Cassette == "" {
				if c.behaviour != "silent" && c.behaviour != "crash" && c.behaviour != "hang" {
					t.Errorf("%s: no cassette kept", c.reason)
				}
				return
			}
			f, err := harness.Read(cell.Cassette)
			if err != nil {
				t.Fatalf("the kept cassette does not read: %v", err)
			}
			if f.Provenance.Kind != harness.Agent || f.Provenance.AgentName != "fake-agent" || f.Provenance.Profile != "deepseek" {
				t.Errorf("cassette provenance %+v", f.Provenance)
			}
			raw, _ := os.ReadFile(cell.Cassette)
			if bytes.Contains(raw, []byte(FakeKey)) {
				t.Errorf("the cassette holds the fake key")
			}
		})
	}
}

func TestInterceptServesTheTargetHostOnly(t *testing.T) {
	o := deepseekOptions(t, "other-host", "carriers")
	o.Intercept = true
	o.Command = append(o.Command, "{base_url}")
	m, err := Check(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	cell, _ := m.Cell("deepseek", "carriers")
	for _, want := range []string{"step other host", "telemetry.agent.example:443", "only api.deepseek.com is served", "would have been pass"} {
		if !strings.Contains(cell.Detail, want) {
			t.Errorf("detail lacks %q: %s", want, cell.Detail)
		}
	}
	// The fake agent reached the simulator at https://api.deepseek.com/v1
	// through the proxy, trusting the run's CA: its exchanges are kept.
	if cell.Status != report.StatusError || !strings.Contains(cell.Detail, "request 2 (the tool result) accepted") {
		t.Errorf("status %s: %s", cell.Status, cell.Detail)
	}
}

func TestInterceptRefusesALocalTarget(t *testing.T) {
	o := deepseekOptions(t, "silent", "carriers")
	o.Targets, o.Intercept = []string{"llama-cpp"}, true
	if _, err := Check(context.Background(), o); err == nil || !strings.Contains(err.Error(), "is local") {
		t.Errorf("Check(--intercept llama-cpp) = %v, want the local-host error", err)
	}
}
