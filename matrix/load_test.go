package matrix_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
)

func TestCommittedMatrixLoads(t *testing.T) {
	f, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != "../matrix.yaml" {
		t.Errorf("path %q", f.Path)
	}
	if len(f.Targets) != 71 {
		t.Errorf("%d targets, want 71", len(f.Targets))
	}
	seen := map[string]bool{}
	for _, tg := range f.Targets {
		if seen[tg.ID] || tg.Line == 0 || tg.Profile == "" || tg.Route.Model == "" {
			t.Errorf("target %+v: duplicate, unpositioned or incomplete", tg)
		}
		seen[tg.ID] = true
	}
	if tg, ok := f.Target("bedrock-converse-claude"); !ok || tg.Route.APIMode != engine.ModeBedrockConverse || tg.Route.Provider != "bedrock" {
		t.Errorf("bedrock-converse-claude: %+v, %v", tg, ok)
	}
	if tg, ok := f.Target("deepseek"); !ok || tg.Route.BaseURL != "https://api.deepseek.com/v1" || tg.Profile != "deepseek" || tg.Route.APIMode != engine.ModeChat {
		t.Errorf("deepseek: %+v, %v", tg, ok)
	}
	if _, ok := f.Target("nope"); ok {
		t.Error("an unknown target was found")
	}

	var rows []string
	for _, r := range f.Table.Rows {
		rows = append(rows, r.ID+"="+strings.Join(r.Carriers.Names(), "+"))
	}
	if got := strings.Join(rows, " "); got != "strict= fireworks=reasoning_content gateways=reasoning_content+reasoning+reasoning_details details-vendors=reasoning_content+reasoning_details local-family=reasoning_content+reasoning" {
		t.Errorf("rows %s", got)
	}

	var fams []string
	for _, fam := range f.Table.EchoFamilies {
		fams = append(fams, fam.Name)
	}
	if got := strings.Join(fams, " "); got != "kimi deepseek mimo" {
		t.Errorf("echo families %s", got)
	}
	if k := f.Table.EchoFamilies[0]; strings.Join(k.ProvidersRaw, ",") != "kimi-coding,kimi-coding-cn" || len(k.ModelSubstrings) != 0 {
		t.Errorf("kimi family %+v: raw providers only, no model substring", k)
	}

	if f.Table.Default != engine.NewCarrierSet(engine.ReasoningContent) {
		t.Errorf("default %v", f.Table.Default)
	}
	l := f.Table.Local
	if l.Carriers != engine.NewCarrierSet(engine.ReasoningContent, engine.Reasoning) || !l.PrivateAddresses ||
		strings.Join(l.Hostnames, ",") != "localhost" || strings.Join(l.Suffixes, ",") != ".local,.internal,.localhost" {
		t.Errorf("local endpoint %+v", l)
	}

	var flags []string
	for _, fr := range f.Table.Flags {
		var set []string
		for _, s := range fr.Set {
			set = append(set, s.Path+"="+string(s.Value))
		}
		flags = append(flags, fr.ID+"{"+strings.Join(set, ",")+"}")
	}
	if got := strings.Join(flags, " "); got != `glm-preserved-thinking{thinking.type="enabled",thinking.clear_thinking=false} dashscope-preserve-thinking{preserve_thinking=true} kimi-keep-all{thinking.type="enabled",thinking.keep="all"}` {
		t.Errorf("flags %s", got)
	}
	for _, fr := range f.Table.Flags {
		for _, s := range fr.Set {
			if !json.Valid(s.Value) {
				t.Errorf("flag %s %s: value %q is not JSON", fr.ID, s.Path, s.Value)
			}
		}
	}

	var native []string
	for _, r := range f.Table.NativeFields {
		native = append(native, r.Field+":"+strings.Join(r.Match.Providers, ",")+"/"+strings.Join(append(r.Match.Hosts, r.Match.HostPatterns...), ",")+"/"+strings.Join(r.Match.Models, ",")+
			strings.Join(r.Match.Paths, ","))
	}
	if got := strings.Join(native, " "); got != "gemini://gemini,gemma gemini:gemini/generativelanguage.googleapis.com/ "+
		"gemini:vertex,vertex-ai,google-vertex/aiplatform.googleapis.com,*-aiplatform.googleapis.com//endpoints copilot:/githubcopilot.com/" {
		t.Errorf("native fields %s", got)
	}

	var known []string
	for _, k := range f.KnownFailures {
		if strings.TrimSpace(k.Reason) == "" || strings.TrimSpace(k.Cause) == "" || k.Line == 0 {
			t.Errorf("known failure %s/%s: no reason, cause or line", k.Target, k.Scenario)
		}
		known = append(known, k.Target+"/"+k.Scenario)
	}
	if got := strings.Join(known, " "); got != "gemini-openai/strict-schema gemini-openai/fallback sambanova/fallback hunyuan/fallback fireworks/flags glm~8/flags kimi~9/flags vercel-ai-gateway-deepseek/missing-echo "+
		"bedrock-converse-nova/carriers bedrock-converse-nova/resume bedrock-converse-nova/compaction bedrock-converse-nova/branch bedrock-converse-openai/signed-roundtrip gemini-openai~1/strict-schema "+
		"vercel-ai-gateway-anthropic/carriers vercel-ai-gateway-anthropic/fallback vercel-ai-gateway-anthropic/signed-roundtrip "+
		"vercel-ai-gateway-anthropic/resume vercel-ai-gateway-anthropic/compaction vercel-ai-gateway-anthropic/branch" {
		t.Errorf("known failures %s", got)
	}
	if k, ok := f.KnownFailure("fireworks", "flags"); !ok || !strings.Contains(k.Reason, "reasoning_history") {
		t.Errorf("fireworks/flags: %+v, %v", k, ok)
	}
	if _, ok := f.KnownFailure("fireworks", "carriers"); ok {
		t.Error("fireworks/carriers is not declared")
	}
}

func TestTargetLinesPointAtTheirEntries(t *testing.T) {
	raw, err := os.ReadFile("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := matrix.Parse("matrix.yaml", raw)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	for _, tg := range f.Targets {
		if !strings.Contains(lines[tg.Line-1], "id: "+tg.ID+",") {
			t.Errorf("target %s: line %d is %q", tg.ID, tg.Line, lines[tg.Line-1])
		}
	}
	for _, k := range f.KnownFailures {
		if !strings.Contains(lines[k.Line-1], "target: "+k.Target) {
			t.Errorf("known failure %s/%s: line %d is %q", k.Target, k.Scenario, k.Line, lines[k.Line-1])
		}
	}
}

// head is the smallest valid matrix; each error case appends from line 3.
const head = "version: 1\ndefault_carriers: [reasoning_content]\n"

// tgt is a valid target entry (line 4 when it follows "targets:" on line 3).
const tgt = "  - {id: a, api_mode: chat, provider: a, base_url: \"https://a.com/v1\", model: m, profile: a}\n"

func TestParseErrors(t *testing.T) {
	const row = "carrier_routes:\n  - {id: a, carriers: [], providers: [a], hosts: [%s]}\n"
	hostRow := func(h string) string { return strings.Replace(row, "%s", h, 1) }
	const badHost = "m.yaml:4: carrier route a hosts: bad host %q (want a lower-case hostname without scheme, port or path)"
	hostErr := func(h string) string { return strings.Replace(badHost, "%q", `"`+h+`"`, 1) }
	const flagHead = "flags:\n  - id: f\n    providers: [zai]\n    source: https://docs.example.com/flags\n    set:\n"
	const wantMode = "(want reasoning_content, reasoning or reasoning_details)"
	tests := []struct {
		name   string
		doc    string // appended to head unless it starts with "!"
		want   string
		reason string
	}{
		{"unknown-top-key", "carrier_rows: []\n",
			`m.yaml:3: matrix: unknown key "carrier_rows" (want one of version, echo_families, carrier_routes, local_endpoint, default_carriers, flags, native_fields, anthropic, bedrock_converse, responses, targets, known_failures, advisories, unreachable, survivors)`,
			"a misspelt section is named with its line, not ignored"},
		{"duplicate-top-key", "default_carriers: []\n",
			`m.yaml:3: matrix: duplicate key "default_carriers"`,
			"a section given twice would silently replace the first"},
		{"unknown-carrier", "carrier_routes:\n  - {id: a, carriers: [reasoning_content, thinking], providers: [a]}\n",
			`m.yaml:4: carrier route a carriers: unknown carrier "thinking" ` + wantMode,
			"carriers are the three wire fields"},
		{"carrier-abbreviation", "carrier_routes:\n  - {id: a, carriers: [RC], providers: [a]}\n",
			`m.yaml:4: carrier route a carriers: unknown carrier "RC" ` + wantMode,
			"the CLI's short names are not accepted in the table"},
		{"default-carrier", "!version: 1\ndefault_carriers: [reasoning_contents]\n",
			`m.yaml:2: default_carriers: unknown carrier "reasoning_contents" ` + wantMode,
			"the default set is checked like a row"},
		{"missing-version", "!default_carriers: [reasoning_content]\n",
			"m.yaml:1: version must be 1 (the format of this file)",
			"a file without a version may be of another format"},
		{"other-version", "!version: 2\ndefault_carriers: [reasoning_content]\n",
			"m.yaml:1: version must be 1 (the format of this file)",
			"a future format is refused, not misread"},
		{"null-flag-value", "flags:\n  - id: f\n    providers: [zai]\n    source: https://docs.example.com/flags\n    set:\n      - {path: thinking.keep, value: }\n",
			"m.yaml:8: flag f: setting thinking.keep has no value",
			"an empty value would send JSON null"},
		{"missing-default", "!# a comment\nversion: 1\n",
			"m.yaml:2: missing default_carriers",
			"every remote route needs a fallback set"},
		{"duplicate-row", "carrier_routes:\n  - {id: a, carriers: [], providers: [a]}\n  - {id: a, carriers: [], providers: [b]}\n",
			`m.yaml:5: carrier route: duplicate or reserved id "a"`,
			"row ids name report cells, so they are unique"},
		{"reserved-default", "carrier_routes:\n  - {id: default, carriers: [], providers: [a]}\n",
			`m.yaml:4: carrier route: duplicate or reserved id "default"`,
			"default names the route that matches no row"},
		{"reserved-default-local", "carrier_routes:\n  - {id: default-local, carriers: [], providers: [a]}\n",
			`m.yaml:4: carrier route: duplicate or reserved id "default-local"`,
			"default-local names the local-endpoint rule"},
		{"reserved-native", "carrier_routes:\n  - {id: native, carriers: [], providers: [a]}\n",
			`m.yaml:4: carrier route: duplicate or reserved id "native"`,
			"native names the native dialects"},
		{"row-id-not-kebab", "carrier_routes:\n  - {id: Strict_Row, carriers: [], providers: [a]}\n",
			`m.yaml:4: carrier route: id "Strict_Row" must be kebab-case`,
			"ids appear in labels and CLI filters"},
		{"row-empty-match", "carrier_routes:\n  - {id: a, carriers: [reasoning]}\n",
			"m.yaml:4: carrier route a: empty match (give providers or hosts)",
			"a row that matches nothing is dead data"},
		{"row-missing-carriers", "carrier_routes:\n  - {id: a, providers: [a]}\n",
			"m.yaml:4: carrier route a: missing carriers (use [] for none)",
			"an absent list must not be read as the strict row by accident"},
		{"row-empty-entry", "carrier_routes:\n  - {id: a, carriers: [], providers: [\"\"]}\n",
			`m.yaml:4: carrier route a providers: empty entry`,
			"an empty provider id would match a route with no provider"},
		{"echo-empty-match", "echo_families:\n  - {name: kimi}\n",
			"m.yaml:4: echo family kimi: empty match (give providers, models or hosts)",
			"a family that matches nothing is dead data"},
		{"echo-duplicate", "echo_families:\n  - {name: kimi, providers: [a]}\n  - {name: kimi, providers: [b]}\n",
			`m.yaml:5: echo family: duplicate name "kimi"`,
			"family names are unique"},
		{"echo-provider-upper", "echo_families:\n  - {name: kimi, providers: [Moonshot]}\n",
			`m.yaml:4: echo family kimi providers: "Moonshot" must be lower-case and trimmed (matching is case-insensitive)`,
			"providers are compared lower-cased, so an upper-case entry never matches"},
		{"flag-empty-match", "flags:\n  - {id: f, set: [{path: a, value: 1}], source: s}\n",
			"m.yaml:4: flag f: empty match (give providers, hosts or models)",
			"a flag that matches nothing is dead data"},
		{"native-empty-match", "native_fields:\n  - {field: gemini}\n",
			"m.yaml:4: native field rule gemini: empty match",
			"a rule that matches nothing is dead data"},
		{"host-scheme", hostRow("\"https://a.com\""), hostErr("https://a.com"), "hosts are bare hostnames"},
		{"host-path", hostRow("a.com/v1"), hostErr("a.com/v1"), "paths belong to base URLs"},
		{"host-port", hostRow("\"a.com:443\""), hostErr("a.com:443"), "ports are not part of the match"},
		{"host-upper", hostRow("API.a.com"), hostErr("API.a.com"), "hosts are compared lower-cased"},
		{"host-space", hostRow("\"a .com\""), hostErr("a .com"), "a space never occurs in a hostname"},
		{"host-padded", hostRow("\" a.com\""), hostErr(" a.com"), "quoted padding is not trimmed"},
		{"provider-upper", "carrier_routes:\n  - {id: a, carriers: [], providers: [Mistral]}\n",
			`m.yaml:4: carrier route a providers: "Mistral" must be lower-case and trimmed (matching is case-insensitive)`,
			"providers are compared lower-cased"},
		{"provider-padded", "carrier_routes:\n  - {id: a, carriers: [], providers: [\"mistral \"]}\n",
			`m.yaml:4: carrier route a providers: "mistral " must be lower-case and trimmed (matching is case-insensitive)`,
			"a trailing space never matches a trimmed provider id"},
		{"flag-messages", flagHead + "      - {path: messages, value: []}\n",
			`m.yaml:8: flag f: path "messages" would overwrite the request's messages`,
			"a flag must not replace the conversation"},
		{"flag-model", flagHead + "      - {path: model.name, value: x}\n",
			`m.yaml:8: flag f: path "model.name" would overwrite the request's model`,
			"a flag must not redirect the request to another model"},
		{"flag-bad-path", flagHead + "      - {path: \"thinking..type\", value: x}\n",
			`m.yaml:8: flag f: bad path "thinking..type" (want dot-separated keys)`,
			"paths are plain sjson keys"},
		{"flag-no-source", "flags:\n  - id: f\n    providers: [zai]\n    set: [{path: a, value: 1}]\n",
			"m.yaml:4: flag f: missing source",
			"every vendor flag cites its documentation"},
		{"flag-no-value", flagHead + "      - {path: thinking.type}\n",
			"m.yaml:8: flag f: setting thinking.type has no value",
			"a setting without a value would send nothing meaningful"},
		{"flag-nothing-set", "flags:\n  - {id: f, providers: [zai], source: s}\n",
			"m.yaml:4: flag f: nothing to set",
			"a flag sets at least one field"},
		{"flag-duplicate", "flags:\n  - {id: f, providers: [a], source: s, set: [{path: a, value: 1}]}\n  - {id: f, providers: [b], source: s, set: [{path: a, value: 1}]}\n",
			`m.yaml:5: flag: id "f" must be kebab-case and unique`,
			"flag ids are unique"},
		{"native-unknown-field", "native_fields:\n  - {field: openai, models: [gpt]}\n",
			`m.yaml:4: native field rule: unknown field "openai" (want gemini or copilot)`,
			"only two private native fields exist"},
		{"target-duplicate", "targets:\n" + tgt + tgt,
			`m.yaml:5: target: duplicate id "a"`,
			"target ids name cassette folders"},
		{"target-not-kebab", "targets:\n  - {id: DeepSeek, provider: a, base_url: \"https://a.com\", model: m, profile: a}\n",
			`m.yaml:4: target: id "DeepSeek" must be kebab-case`,
			"target ids are kebab-case words"},
		{"target-api-mode", "targets:\n  - {id: a, api_mode: completions, provider: a, base_url: \"https://a.com\", model: m, profile: a}\n",
			`m.yaml:4: target a: unknown api_mode "completions"`,
			"api modes are the engine's dialects"},
		{"target-relative-url", "targets:\n  - {id: a, provider: a, base_url: api.a.com/v1, model: m, profile: a}\n",
			`m.yaml:4: target a: base_url "api.a.com/v1" must be an absolute URL`,
			"a base URL without scheme has no host to route on"},
		{"target-path-url", "targets:\n  - {id: a, provider: a, base_url: /v1, model: m, profile: a}\n",
			`m.yaml:4: target a: base_url "/v1" must be an absolute URL`,
			"a bare path has no host"},
		{"target-no-model", "targets:\n  - {id: a, provider: a, base_url: \"https://a.com\", profile: a}\n",
			"m.yaml:4: target a: missing model",
			"the route decision reads the model"},
		{"target-no-profile", "targets:\n  - {id: a, provider: a, base_url: \"https://a.com\", model: m}\n",
			"m.yaml:4: target a: missing profile",
			"simulated cassettes come from the named profile"},
		{"target-missing-several", "targets:\n  - {id: a, base_url: \"https://a.com\"}\n",
			"m.yaml:4: target a: missing provider",
			"with several keys missing the first in file order is named, every time"},
		{"known-unknown-target", "targets:\n" + tgt + "known_failures:\n  - {target: b, scenario: carriers, cause: c, reason: r}\n",
			`m.yaml:6: known failure: unknown target "b" (want a target's id, or an alias's name: id~N)`,
			"a declaration for no target is stale"},
		{"known-unknown-scenario", "targets:\n" + tgt + "known_failures:\n  - {target: a, scenario: carrier, cause: c, reason: r}\n",
			`m.yaml:6: known failure: unknown scenario "carrier" (want one of carriers, missing-echo, strict-schema, fallback, signed-roundtrip, resume, compaction, branch, flags)`,
			"scenarios are the matrix columns"},
		{"known-no-reason", "targets:\n" + tgt + "known_failures:\n  - {target: a, scenario: carriers, cause: c, reason: \" \"}\n",
			"m.yaml:6: known failure a/carriers: a reason is required",
			"a known failure without a reason explains nothing"},
		{"known-twice", "targets:\n" + tgt + "known_failures:\n  - {target: a, scenario: carriers, cause: c, reason: r}\n  - {target: a, scenario: carriers, cause: c, reason: s}\n",
			"m.yaml:7: known failure a/carriers: declared twice",
			"one reason per cell"},
		{"known-unknown-alias", "targets:\n" + tgt + "known_failures:\n  - {target: a~1, scenario: carriers, cause: c, reason: r}\n",
			`m.yaml:6: known failure: unknown target "a~1" (want a target's id, or an alias's name: id~N)`,
			"an alias's own declaration names an alias the target has"},
		{"survivor-no-needs", "survivors:\n  - {edit: \"drop groq.com from carrier_routes[strict].hosts\", needs: \" \"}\n",
			`m.yaml:4: survivor "drop groq.com from carrier_routes[strict].hosts": needs is required: the recording that would kill it`,
			"a survivor is declared only with the recording that would kill it"},
		{"survivor-twice", "survivors:\n  - {edit: e, needs: n}\n  - {edit: e, needs: m}\n",
			`m.yaml:5: survivor "e": declared twice (first at line 4)`,
			"one recording per mutant"},
		{"survivor-unknown-key", "survivors:\n  - {edit: e, needs: n, reason: r}\n",
			`m.yaml:4: survivor: unknown key "reason" (want one of edit, needs)`,
			"a survivor names its recording under needs"},
		{"alias-no-note", "targets:\n  - {id: a, provider: a, base_url: \"https://a.com\", model: m, profile: a,\n     aliases: [{provider: custom, base_url: \"https://a.com\", model: m}]}\n",
			"m.yaml:5: target a alias: missing note",
			"an alias says who reaches the endpoint that way"},
		{"alias-relative-url", "targets:\n  - {id: a, provider: a, base_url: \"https://a.com\", model: m, profile: a,\n     aliases: [{provider: custom, base_url: a.com, model: m, note: n}]}\n",
			`m.yaml:5: target a alias: base_url "a.com" must be an absolute URL`,
			"an alias routes on its host like a target"},
		{"alias-repeats-target", "targets:\n  - {id: a, provider: a, base_url: \"https://a.com\", model: m, profile: a,\n     aliases: [{provider: a, base_url: \"https://a.com\", model: m, note: n}]}\n",
			"m.yaml:5: target a alias: repeats the target or another alias (a, https://a.com, m)",
			"an alias that is the target checks nothing more"},
		{"alias-unknown-key", "targets:\n  - {id: a, provider: a, base_url: \"https://a.com\", model: m, profile: a,\n     aliases: [{provider: a, base_url: \"https://b.com\", model: m, note: n, api_mode: gemini}]}\n",
			`m.yaml:5: target a alias: unknown key "api_mode" (want one of provider, base_url, model, note)`,
			"an alias has its target's api mode"},
		{"alias-other-platform", "anthropic:\n  routes: [{id: r, replay: stripped, hosts: [a.com]}]\n  platforms: [{platform: bedrock, hosts: [b.com]}]\n  prior_thinking: {default_keeps_from: \"1\"}\n" +
			"targets:\n  - {id: a, api_mode: anthropic, provider: a, base_url: \"https://a.com\", model: m, profile: a,\n     aliases: [{provider: a, base_url: \"https://b.com\", model: m, note: n}]}\n",
			"m.yaml:9: target a alias: the bedrock platform serves it, but the target is on messages: an alias reaches the same endpoint, with the same request shape",
			"the target's cassettes hold one request shape"},
		{"unreachable-no-entry", "carrier_routes:\n  - {id: s, carriers: [], hosts: [a.com]}\nunreachable:\n  - {entry: \"carrier_routes[s].hosts\", value: b.com, reason: r}\n",
			"m.yaml:6: unreachable carrier_routes[s].hosts: b.com: no such entry in the route table (entries are named like carrier_routes[strict].hosts)",
			"a declaration for no entry is stale"},
		{"advisory-no-reason", "targets:\n  - {id: t, api_mode: chat, provider: p, base_url: \"https://a.example\", model: m, profile: p}\nadvisories:\n  - {target: t, scenario: carriers, reason: \" \"}\n",
			"m.yaml:6: advisory t/carriers: a reason is required",
			"an advisory says why the route sends less than the provider reads"},
		{"advisory-unknown-target", "advisories:\n  - {target: nope, scenario: carriers, reason: r}\n",
			"m.yaml:4: advisory: unknown target \"nope\" (want a target's id, or an alias's name: id~N)",
			"an advisory names a target"},
		{"unreachable-no-reason", "carrier_routes:\n  - {id: s, carriers: [], hosts: [a.com]}\nunreachable:\n  - {entry: \"carrier_routes[s].hosts\", value: a.com, reason: \" \"}\n",
			"m.yaml:6: unreachable carrier_routes[s].hosts: a.com: a reason is required",
			"an unreachable entry says why no target reaches it"},
		{"unreachable-twice", "carrier_routes:\n  - {id: s, carriers: [], hosts: [a.com]}\nunreachable:\n  - {entry: \"carrier_routes[s].hosts\", value: a.com, reason: r}\n  - {entry: \"carrier_routes[s].hosts\", value: a.com, reason: r}\n",
			"m.yaml:7: unreachable carrier_routes[s].hosts: a.com: declared twice (first at line 6)",
			"one reason per entry"},
		{"malformed", "targets: [\n",
			"m.yaml: yaml: line 3: did not find expected node content",
			"the YAML library's error still names the file"},
		{"tab-indent", "!version: 1\n\tdefault_carriers: []\n",
			"m.yaml: yaml: line 2: found a tab character that violates indentation",
			"tabs are not YAML indentation"},
		{"empty", "!",
			"m.yaml: empty document",
			"an empty file is not a route table"},
		{"comment-only", "!# nothing here\n",
			"m.yaml: empty document",
			"a file of comments is as empty as an empty one"},
		{"not-a-mapping", "!- version\n",
			"m.yaml:1: matrix must be a mapping",
			"the document is a mapping of sections"},
		{"mapping-for-list", "targets:\n  id: a\n",
			"m.yaml:4: targets must be a list",
			"a section that holds entries is a list"},
		{"list-for-mapping", "local_endpoint: [localhost]\n",
			"m.yaml:3: local_endpoint must be a mapping",
			"the local rule is one mapping"},
		{"scalar-for-list", "carrier_routes:\n  - {id: a, carriers: reasoning, providers: [a]}\n",
			"m.yaml:4: carrier route a carriers must be a list",
			"a bare carrier name is not a set"},
		{"list-for-string", "targets:\n  - {id: [a]}\n",
			"m.yaml:4: target id must be a string",
			"ids are scalars"},
		{"bool-as-string", "local_endpoint: {private_addresses: \"yes\"}\n",
			"m.yaml:3: local_endpoint private_addresses must be true or false",
			"a quoted word is not a boolean"},
		{"bad-range", "local_endpoint:\n  ranges: [100.64.0.0/10, 100.64.0.1/10]\n",
			`m.yaml:4: local_endpoint ranges: "100.64.0.1/10" is not an address range like 100.64.0.0/10`,
			"a range is a network address and its prefix length, host bits zero"},
		{"not-a-range", "local_endpoint:\n  ranges: [tailscale]\n",
			`m.yaml:4: local_endpoint ranges: "tailscale" is not an address range like 100.64.0.0/10`,
			"a name is no range"},
	}
	for _, tc := range tests {
		doc := head + tc.doc
		if rest, ok := strings.CutPrefix(tc.doc, "!"); ok {
			doc = rest
		}
		_, err := matrix.Parse("m.yaml", []byte(doc))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %s:\n got  %v\n want %s", tc.name, tc.reason, err, tc.want)
		}
	}
}

func TestParseIsDeterministic(t *testing.T) {
	doc := []byte(head + "targets:\n  - {id: a, base_url: \"https://a.com\"}\n")
	first, _ := matrix.Parse("m.yaml", doc)
	if first != nil {
		t.Fatal("a target without provider, model and profile loaded")
	}
	for range 50 {
		_, err := matrix.Parse("m.yaml", doc)
		if err == nil || err.Error() != "m.yaml:4: target a: missing provider" {
			t.Fatalf("error %v: the same file must give the same error", err)
		}
	}
}

func TestParseAcceptsMinimal(t *testing.T) {
	f, err := matrix.Parse("m.yaml", []byte(head+"targets:\n"+tgt))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Targets) != 1 || f.Targets[0].Line != 4 || f.Targets[0].Route.APIMode != engine.ModeChat || len(f.Table.Rows) != 0 {
		t.Errorf("minimal file loaded as %+v", f)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := matrix.Load("testdata/does-not-exist.yaml")
	if err == nil || !strings.HasPrefix(err.Error(), "matrix: open testdata/does-not-exist.yaml") {
		t.Errorf("error %v", err)
	}
}

func FuzzParse(f *testing.F) {
	committed, err := os.ReadFile("../matrix.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(committed)
	f.Add([]byte(head + "targets:\n" + tgt + "known_failures:\n  - {target: a, scenario: carriers, reason: r}\n"))
	f.Add([]byte(head + "flags:\n  - {id: f, providers: [a], source: s, set: [{path: a.b, value: {x: [1, &v y]}}]}\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte(""))
	f.Add([]byte("---\n---\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := matrix.Parse("fuzz.yaml", b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml:") {
				t.Errorf("error %q does not start with the file name", err)
			}
			return
		}
		if file == nil || file.Path != "fuzz.yaml" {
			t.Errorf("nil error with file %+v", file)
		}
	})
}
