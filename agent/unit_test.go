package agent

import (
	"slices"
	"strings"
	"testing"
)

func TestArgumentsFillRequiredPropertiesByType(t *testing.T) {
	cases := []struct {
		schema, want, reason string
	}{
		{``, `{}`, "no schema: no arguments"},
		{`{"type":"object"}`, `{}`, "nothing required"},
		{`{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}},"required":["path"]}`,
			`{"path":"/w/replaycheck.txt"}`, "only required properties; a path gets the work file"},
		{`{"type":"object","properties":{"absolute_path":{"type":"string"},"offset":{"type":"number","minimum":0},"all":{"type":"boolean"}},"required":["absolute_path","offset","all"]}`,
			`{"absolute_path":"/w/replaycheck.txt","all":false,"offset":0}`, "numbers take their minimum, booleans false"},
		{`{"properties":{"mode":{"type":"string","enum":["fast","slow"]},"q":{"type":["null","string"]}},"required":["mode","q"]}`,
			`{"mode":"fast","q":"replaycheck"}`, "an enum gives its first value; a nullable type its non-null one"},
		{`{"type":"object","properties":{"command":{"type":"string"},"pattern":{"type":"string"},"n":{"type":"integer","default":3}},"required":["command","pattern","n"]}`,
			`{"command":"ls","n":3,"pattern":"*"}`, "a command runs ls, a pattern matches all, a default wins"},
		{`{"type":"object","properties":{"edits":{"type":"array","minItems":1,"items":{"type":"object","properties":{"old":{"type":"string"}},"required":["old"]}}},"required":["edits"]}`,
			`{"edits":[{"old":"replaycheck"}]}`, "arrays get minItems items, nested objects their required members"},
		{`{"type":"object","properties":{"x":{"anyOf":[{"type":"null"},{"type":"integer"}]}},"required":["x"]}`,
			`{"x":1}`, "anyOf takes its first non-null alternative"},
		{`{"type":"string"}`, `{}`, "a schema that is no object gives {}"},
	}
	for _, c := range cases {
		if got := Arguments([]byte(c.schema), "/w/replaycheck.txt"); got != c.want {
			t.Errorf("%s: Arguments(%s) = %s, want %s", c.reason, c.schema, got, c.want)
		}
	}
}

func TestPickPrefersATool(t *testing.T) {
	tools := []Tool{{Name: "bash"}, {Name: "write"}, {Name: "read_file"}, {Name: "list"}}
	cases := []struct {
		tools   []Tool
		want    string
		name    string
		wantErr string
		reason  string
	}{
		{tools, "", "read_file", "", "a tool that reads before one that runs or writes"},
		{tools[:2], "", "bash", "", "none reads: the first declared"},
		{tools, "write", "write", "", "--tool chooses"},
		{tools, "edit", "", `--tool "edit": the request declares no such tool (it declares bash, write, read_file, list)`, "--tool must be declared"},
		{nil, "", "", "the request declares no tools", "nothing to call"},
	}
	for _, c := range cases {
		got, err := Pick(c.tools, c.want)
		switch {
		case c.wantErr != "" && (err == nil || err.Error() != c.wantErr):
			t.Errorf("%s: error %v, want %q", c.reason, err, c.wantErr)
		case c.wantErr == "" && (err != nil || got.Name != c.name):
			t.Errorf("%s: picked %q (%v), want %q", c.reason, got.Name, err, c.name)
		}
	}
}

func TestDeclaredReadsEachDialect(t *testing.T) {
	cases := []struct {
		mode, body string
		want       []string
	}{
		{"chat", `{"tools":[{"type":"function","function":{"name":"a","parameters":{}}}]}`, []string{"a"}},
		{"anthropic", `{"tools":[{"name":"b","input_schema":{}}]}`, []string{"b"}},
		{"bedrock-converse", `{"toolConfig":{"tools":[{"toolSpec":{"name":"c","inputSchema":{"json":{}}}}]}}`, []string{"c"}},
		{"gemini", `{"tools":[{"functionDeclarations":[{"name":"d"},{"name":"e"}]}]}`, []string{"d", "e"}},
		{"responses", `{"tools":[{"type":"web_search"},{"type":"function","name":"f"}]}`, []string{"f"}},
	}
	for _, c := range cases {
		var names []string
		for _, tool := range Declared(c.mode, []byte(c.body)) {
			names = append(names, tool.Name)
		}
		if !slices.Equal(names, c.want) {
			t.Errorf("%s: declared %v, want %v", c.mode, names, c.want)
		}
	}
}

func TestEnvironmentKeepsNoSecretAndAFreshHome(t *testing.T) {
	parent := []string{"PATH=/usr/bin", "HOME=/home/u", "OPENAI_API_KEY=sk-real", "AWS_SECRET_ACCESS_KEY=x", "HTTPS_PROXY=http://corp:3128", "LC_ALL=C", "GOFLAGS=-mod=mod"}
	env := Environment(parent, "/tmp/h", Base{URL: "http://127.0.0.1:9/v1", Model: "m", Provider: "p", Target: "t", APIMode: "chat"}, []string{"EXTRA=1"})
	got := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v // last wins, as exec does
	}
	want := map[string]string{
		"PATH": "/usr/bin", "LC_ALL": "C", "GOFLAGS": "-mod=mod", "HOME": "/tmp/h", "XDG_CONFIG_HOME": "/tmp/h/.config",
		"OPENAI_API_KEY": FakeKey, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9",
		"REPLAYCHECK_MODEL": "m", "GOMODCACHE": "/home/u/go/pkg/mod", "GOCACHE": "/home/u/.cache/go-build", "EXTRA": "1",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	for _, k := range []string{"AWS_SECRET_ACCESS_KEY", "HTTPS_PROXY"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s reached the agent", k)
		}
	}
	for _, kv := range env {
		if strings.Contains(kv, "sk-real") {
			t.Errorf("the user's key reached the agent: %s", kv)
		}
	}
}

func TestNameKeepsNoArgument(t *testing.T) {
	cases := map[string][]string{
		"go-agent":                            {"/tmp/x/go-agent", "--base-url", "http://127.0.0.1:1/v1"},
		"node examples/agents/node/agent.mjs": {"node", "--no-warnings", "examples/agents/node/agent.mjs", "--key", "k"},
		"go run ./examples/agents/go":         {"go", "run", "./examples/agents/go", "--mode", "no-pad"},
		// An inline script holds the agent's configuration (a base URL, a key).
		"sh -c":                  {"sh", "-c", `printf %s '{"apiKey":"sk-x"}' > m.json && exec pi -p`},
		"bash -c":                {"bash", "-ec", "exec qwen -p hi"},
		"bash scripts/run-pi.sh": {"bash", "-e", "scripts/run-pi.sh", "--key", "k"},
	}
	for want, argv := range cases {
		if got := Name(argv); got != want {
			t.Errorf("Name(%q) = %q, want %q", argv, got, want)
		}
	}
}
