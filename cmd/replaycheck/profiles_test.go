package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/sim"
)

// redactionTrigger is Anthropic's documented test string that makes a
// model answer with redacted thinking; the simulator honours it.
const redactionTrigger = "ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253D5E2D82641AC0E52CC2876CB"

// A trigger is a request built to make one rule fire, with the values its
// answer's placeholders must take.
type trigger struct {
	reason string
	path   string
	body   string
	index  int
	at     string
	// more are the Responses item placeholders ({item}, {item_type},
	// {ref}) the answer must fill.
	more map[string]string
}

// simServer is one profile's simulator on loopback.
type simServer struct {
	url string
	p   *providers.Profile
}

func (s simServer) post(t *testing.T, path, body string) (int, string, string) {
	t.Helper()
	resp, err := http.Post(s.url+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// TestProfileRulesAgainstSimulator checks every rule of every committed
// profile against the simulator: a request built to meet the rule's
// condition gets the rule's status and its verbatim body, placeholders
// filled ({index}, {field}, {path}, {request_id}).
func TestProfileRulesAgainstSimulator(t *testing.T) {
	_, profiles := loadRepo(t)
	rules := 0
	for _, name := range profileNames(profiles) {
		p := profiles[name]
		for _, rule := range p.Rules {
			rules++
			// the simulator answers as a day the rule held
			s, err := sim.New(p, sim.Options{Seed: "rules", Date: dayOf(rule)})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			hs := httptest.NewServer(s)
			srv := simServer{url: hs.URL, p: p}
			t.Run(name+"/"+rule.ID, func(t *testing.T) {
				model, ok := modelFor(rule.When)
				if !ok {
					t.Fatalf("no model id satisfies models %q except %q", rule.When.Models, rule.When.ExceptModels)
				}
				triggers, err := triggersFor(t, srv, rule.When, model)
				if err != nil {
					t.Fatalf("%v: extend triggersFor in profiles_test.go for this condition", err)
				}
				for _, tr := range triggers {
					checkRule(t, srv, rule, tr, false)
					if rule.StreamFraming == providers.StreamSSE {
						checkRule(t, srv, rule, tr, true)
					}
				}
			})
			hs.Close()
		}
	}
	if rules < 20 {
		t.Errorf("only %d rules checked; the profiles did not load", rules)
	}
}

// dayOf returns a day the rule held: "" (today) for a rule that still
// holds, else the day before its until.
func dayOf(r providers.Rule) string {
	if r.Until == "" {
		return ""
	}
	until, err := time.Parse(time.DateOnly, r.Until)
	if err != nil {
		return r.Until
	}
	return until.AddDate(0, 0, -1).Format(time.DateOnly)
}

// checkRule sends tr (streamed when stream) and compares the answer with
// the rule's rendered body.
func checkRule(t *testing.T, srv simServer, rule providers.Rule, tr trigger, stream bool) {
	t.Helper()
	body := tr.body
	if stream {
		body = strings.Replace(body, "{", `{"stream":true,`, 1)
	}
	sum := sha256.Sum256([]byte(body))
	vals := map[string]string{
		"index":      strconv.Itoa(tr.index),
		"field":      rule.When.Field,
		"path":       tr.at,
		"request_id": "sim_" + hex.EncodeToString(sum[:])[:12],
	}
	for k, v := range tr.more {
		vals[k] = v
	}
	want := srv.p.RenderBody(rule, vals)
	wantType := rule.ContentType
	if wantType == "" {
		wantType = "application/json"
	}
	if stream {
		want, wantType = "data:"+want+"\n\n", "text/event-stream"
	}
	status, ctype, got := srv.post(t, tr.path, body)
	what := tr.reason
	if stream {
		what += ", streamed"
	}
	if status != rule.Status || got != want {
		t.Errorf("%s: answered %d\n%s\nwant %d\n%s", what, status, got, rule.Status, want)
	}
	if ctype != wantType {
		t.Errorf("%s: Content-Type %q, want %q", what, ctype, wantType)
	}
	if strings.Contains(got, "{index}") || strings.Contains(got, "{path}") || strings.Contains(got, "{request_id}") || strings.Contains(got, "{item") || strings.Contains(got, "{ref}") {
		t.Errorf("%s: a placeholder was left unfilled: %s", what, got)
	}
}

// modelFor picks a model id the condition applies to.
func modelFor(c providers.Condition) (string, bool) {
	for _, m := range append(append([]string(nil), c.Models...), "sim-model") {
		if c.AppliesTo(m) {
			return m, true
		}
	}
	return "", false
}

// Message builders.
func q(s string) string { return strconv.Quote(s) }

func chatBody(model string, msgs ...string) string {
	return `{"model":` + q(model) + `,"messages":[` + strings.Join(msgs, ",") + `]}`
}

const (
	chatUser     = `{"role":"user","content":"What is in the notes?"}`
	chatUserNext = `{"role":"user","content":"And then?"}`
	chatTool     = `{"role":"tool","tool_call_id":"c1","content":"the notes"}`
	chatCall     = `{"id":"c1","type":"function","function":{"name":"lookup","arguments":"{}"}}`
)

// chatAssistant is an assistant message with extra members.
func chatAssistant(extra string) string {
	return `{"role":"assistant","content":"ok"` + extra + `}`
}

// triggersFor builds the requests that meet condition c on the profile's
// dialect, for model.
func triggersFor(t *testing.T, srv simServer, c providers.Condition, model string) ([]trigger, error) {
	if c.Kind == providers.ConditionTopLevelFieldPresent {
		return topLevelTriggers(srv.p.APIMode, c, model)
	}
	switch srv.p.APIMode {
	case providers.APIModeChat:
		return chatTriggers(c, model)
	case providers.APIModeAnthropic:
		if c.Kind == providers.ConditionPathNotServed {
			body := `{"model":` + q(model) + `,"max_tokens":1024,"messages":[{"role":"user","content":"hi"}]}`
			return []trigger{{"a request in the Messages API's shape at " + c.Field, c.Field, body, 0, c.Field, nil}}, nil
		}
		triggers, err := anthropicTriggers(c, model)
		return onOwnPath(srv.p, triggers, model), err
	case providers.APIModeBedrockConverse:
		return converseTriggers(t, srv, c, model)
	case providers.APIModeGemini:
		return geminiTriggers(c, model)
	case providers.APIModeResponses:
		return responsesTriggers(t, srv, c, model)
	}
	return nil, fmt.Errorf("api mode %s", srv.p.APIMode)
}

// topLevelTriggers adds the condition's field to the body of a plain
// one-message request.
func topLevelTriggers(mode string, c providers.Condition, model string) ([]trigger, error) {
	var path, body string
	switch mode {
	case providers.APIModeChat:
		path, body = "/v1/chat/completions", chatBody(model, chatUser)
	case providers.APIModeAnthropic:
		path, body = "/v1/messages", `{"model":`+q(model)+`,"max_tokens":1024,"messages":[{"role":"user","content":"hi"}]}`
	case providers.APIModeBedrockConverse:
		path, body = "/model/"+url.PathEscape(model)+"/converse", `{"messages":[{"role":"user","content":[{"text":"hi"}]}]}`
	case providers.APIModeGemini:
		path, body = "/v1beta/models/"+url.PathEscape(model)+":generateContent", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`
	default:
		return nil, fmt.Errorf("api mode %s", mode)
	}
	var value any = true
	if len(c.Values) > 0 {
		value = c.Values[0] // the condition holds for these values only
	}
	body, err := sjson.Set(body, c.Field, value)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Field, err)
	}
	return []trigger{{"the request carries top-level " + c.Field, path, body, 0, c.Field, nil}}, nil
}

func chatTriggers(c providers.Condition, model string) ([]trigger, error) {
	const path = "/v1/chat/completions"
	one := func(reason, msg, at string, msgs ...string) trigger {
		all := append([]string{chatUser, msg}, msgs...)
		return trigger{reason: reason, path: path, body: chatBody(model, all...), index: 1, at: "messages.1." + at}
	}
	toolTurn := func(extra string) string { return chatAssistant(`,"tool_calls":[` + chatCall + `]` + extra) }
	switch {
	case c.Kind == providers.ConditionAssistantFieldPresent:
		return []trigger{one("an assistant message carries "+c.Field, chatAssistant(`,`+q(c.Field)+`:"r"`), c.Field, chatUserNext)}, nil
	case c.Kind == providers.ConditionToolTurnFieldMissing:
		out := []trigger{one("a tool-call turn without "+c.Field, toolTurn(""), c.Field, chatTool)}
		if c.BlankIsMissing {
			out = append(out, one("a tool-call turn with "+c.Field+` ""`, toolTurn(`,`+q(c.Field)+`:""`), c.Field, chatTool))
		}
		if c.WhitespaceIsMissing {
			out = append(out, one("a tool-call turn with "+c.Field+` " "`, toolTurn(`,`+q(c.Field)+`:" "`), c.Field, chatTool))
		}
		return out, nil
	case strings.HasPrefix(c.Field, "reasoning_details") && c.Kind == providers.ConditionSignatureInvalid:
		return []trigger{
			one("a reasoning.text item with a forged signature", chatAssistant(`,"reasoning_details":[{"type":"reasoning.text","text":"t","signature":"Zm9yZ2Vk","index":0}]`), "reasoning_details.0", chatUserNext),
			one("a reasoning.encrypted item that is not the provider's", chatAssistant(`,"reasoning_details":[{"type":"reasoning.encrypted","data":"Zm9yZ2Vk","index":0}]`), "reasoning_details.0", chatUserNext),
		}, nil
	case strings.HasPrefix(c.Field, "reasoning_details") && c.Kind == providers.ConditionSignatureMissing:
		return []trigger{one("a reasoning.text item without its signature", chatAssistant(`,"reasoning_details":[{"type":"reasoning.text","text":"t","index":0}]`), "reasoning_details.0", chatUserNext)}, nil
	case c.Field == "reasoning_opaque" && c.Kind == providers.ConditionSignatureInvalid:
		return []trigger{one("a reasoning_opaque the provider did not issue", chatAssistant(`,"reasoning_opaque":"Zm9yZ2Vk"`), "reasoning_opaque", chatUserNext)}, nil
	case c.Field == "reasoning_opaque" && c.Kind == providers.ConditionSignatureMissing:
		return []trigger{one("the last tool-call turn without reasoning_opaque", toolTurn(""), "reasoning_opaque", chatTool)}, nil
	case strings.HasSuffix(c.Field, "thought_signature") && c.Kind == providers.ConditionSignatureMissing:
		sub := "extra_content.google.thought_signature"
		if strings.HasSuffix(c.Field, "function.thought_signature") {
			sub = "function.thought_signature"
		}
		return []trigger{one("a current-turn tool call without its thought signature", toolTurn(""), "tool_calls.0."+sub, chatTool)}, nil
	case strings.Contains(c.Field, "extra_content") && c.Kind == providers.ConditionSignatureInvalid:
		call := `{"id":"c1","type":"function","function":{"name":"lookup","arguments":"{}"},"extra_content":{"google":{"thought_signature":"Zm9yZ2Vk"}}}`
		return []trigger{one("a tool call with a forged thought signature", chatAssistant(`,"tool_calls":[`+call+`]`), "tool_calls.0.extra_content.google.thought_signature", chatTool)}, nil
	}
	return nil, fmt.Errorf("chat: no trigger for %s(%s)", c.Kind, c.Field)
}

// onOwnPath moves Anthropic triggers off /v1/messages for a platform
// profile that serves no model call there (a path_not_served rule): onto
// Bedrock's InvokeModel path, or Vertex's rawPredict one.
func onOwnPath(p *providers.Profile, triggers []trigger, model string) []trigger {
	for _, r := range p.Rules {
		if r.When.Kind != providers.ConditionPathNotServed {
			continue
		}
		own := "/model/" + url.PathEscape(model) + "/invoke"
		if slices.ContainsFunc(p.Hosts, func(h string) bool { return strings.HasSuffix(h, "aiplatform.googleapis.com") }) {
			own = "/v1/projects/demo/locations/us-east5/publishers/anthropic/models/" + url.PathEscape(model) + ":rawPredict"
		}
		for i := range triggers {
			if strings.HasSuffix(triggers[i].path, r.When.Field) {
				triggers[i].path = own
			}
		}
	}
	return triggers
}

func anthropicTriggers(c providers.Condition, model string) ([]trigger, error) {
	const path = "/v1/messages"
	user := `{"role":"user","content":"What is in the notes?"}`
	body := func(extra string, msgs ...string) string {
		return `{"model":` + q(model) + `,"max_tokens":2048` + extra + `,"messages":[` + strings.Join(msgs, ",") + `]}`
	}
	thinking := func(block string) string {
		return body("", user, `{"role":"assistant","content":[`+block+`,{"type":"text","text":"ok"}]}`, `{"role":"user","content":"And then?"}`)
	}
	switch {
	case c.Kind == providers.ConditionSignatureMissing && strings.HasPrefix(c.Field, "thinking"):
		return []trigger{{"a thinking block without its signature", path, thinking(`{"type":"thinking","thinking":"t"}`), 1, "messages.1.content.0", nil}}, nil
	case c.Kind == providers.ConditionSignatureInvalid && strings.HasPrefix(c.Field, "thinking"):
		return []trigger{{"a thinking block with a forged signature", path, thinking(`{"type":"thinking","thinking":"t","signature":"Zm9yZ2Vk"}`), 1, "messages.1.content.0", nil}}, nil
	case c.Kind == providers.ConditionToolTurnFieldMissing && c.Field == "thinking":
		b := body(`,"thinking":{"type":"enabled","budget_tokens":1024}`, user,
			`{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"lookup","input":{}}]}`,
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"the notes"}]}`)
		return []trigger{{"thinking enabled and a tool_use turn without its thinking block", path, b, 1, "messages.1.content.0", nil}}, nil
	}
	return nil, fmt.Errorf("anthropic: no trigger for %s(%s)", c.Kind, c.Field)
}

func converseTriggers(t *testing.T, srv simServer, c providers.Condition, model string) ([]trigger, error) {
	path := "/model/" + url.PathEscape(model) + "/converse"
	user := `{"role":"user","content":[{"text":"What is in the notes?"}]}`
	body := func(extra string, msgs ...string) string {
		return `{"messages":[` + strings.Join(msgs, ",") + `]` + extra + `}`
	}
	reasoning := func(rc string) string {
		return body("", user, `{"role":"assistant","content":[{"reasoningContent":`+rc+`},{"text":"ok"}]}`, `{"role":"user","content":[{"text":"And then?"}]}`)
	}
	switch {
	case c.Kind == providers.ConditionSignatureMissing && strings.Contains(c.Field, "reasoningText"):
		return []trigger{{"reasoningText without its signature", path, reasoning(`{"reasoningText":{"text":"t"}}`), 1, "messages.1.content.0", nil}}, nil
	case c.Kind == providers.ConditionSignatureInvalid && strings.Contains(c.Field, "reasoningText"):
		return []trigger{{"reasoningText with a forged signature", path, reasoning(`{"reasoningText":{"text":"t","signature":"Zm9yZ2Vk"}}`), 1, "messages.1.content.0", nil}}, nil
	case c.Kind == providers.ConditionAssistantFieldPresent && c.Field == "reasoningContent":
		return []trigger{{"reasoningContent sent back, unsigned", path, reasoning(`{"reasoningText":{"text":"t"}}`), 1, "messages.1.content.0", nil}}, nil
	case c.Kind == providers.ConditionToolTurnFieldMissing && strings.HasPrefix(c.Field, "reasoningContent"):
		b := body(`,"additionalModelRequestFields":{"thinking":{"type":"enabled","budget_tokens":1024}}`, user,
			`{"role":"assistant","content":[{"toolUse":{"toolUseId":"t1","name":"lookup","input":{}}}]}`,
			`{"role":"user","content":[{"toolResult":{"toolUseId":"t1","content":[{"text":"the notes"}]}}]}`)
		return []trigger{{"thinking on and a toolUse turn without reasoningContent", path, b, 1, "messages.1.content.0", nil}}, nil
	case c.Kind == providers.ConditionSealedBlobForeign && strings.Contains(c.Field, "redactedContent"):
		// A genuine blob, sealed by this simulator for another model, with
		// thinking on (a profile may emit reasoning only then).
		other := "other-" + model
		status, _, answer := srv.post(t, "/model/"+url.PathEscape(other)+"/converse", body(`,"additionalModelRequestFields":{"thinking":{"type":"enabled","budget_tokens":1024}}`, `{"role":"user","content":[{"text":`+q(redactionTrigger)+`}]}`))
		blob := gjson.Get(answer, "output.message.content.0.reasoningContent.redactedContent").String()
		if status != 200 || blob == "" {
			return nil, fmt.Errorf("bedrock-converse: the simulator gave no redactedContent for the redaction trigger (%d): %s", status, answer)
		}
		return []trigger{{"a redacted blob sealed for another model", path, reasoning(`{"redactedContent":` + q(blob) + `}`), 1, "messages.1.content.0", nil}}, nil
	}
	return nil, fmt.Errorf("bedrock-converse: no trigger for %s(%s)", c.Kind, c.Field)
}

func geminiTriggers(c providers.Condition, model string) ([]trigger, error) {
	path := "/v1beta/models/" + url.PathEscape(model) + ":generateContent"
	user := `{"role":"user","parts":[{"text":"What is in the notes?"}]}`
	result := `{"role":"user","parts":[{"functionResponse":{"name":"lookup","response":{"r":"the notes"}}}]}`
	body := func(call string) string {
		return `{"contents":[` + user + `,{"role":"model","parts":[` + call + `]},` + result + `]}`
	}
	switch {
	case c.Kind == providers.ConditionSignatureMissing && c.Field == "thoughtSignature":
		return []trigger{{"a current-turn functionCall without its thoughtSignature", path, body(`{"functionCall":{"name":"lookup","args":{}}}`), 1, "contents.1.parts.0", nil}}, nil
	case c.Kind == providers.ConditionSignatureInvalid && c.Field == "thoughtSignature":
		return []trigger{{"a forged thoughtSignature", path, body(`{"functionCall":{"name":"lookup","args":{}},"thoughtSignature":"Zm9yZ2Vk"}`), 1, "contents.1.parts.0", nil}}, nil
	}
	return nil, fmt.Errorf("gemini: no trigger for %s(%s)", c.Kind, c.Field)
}

// responsesTriggers replays a turn the simulator issued (its reasoning
// item and call carry the ids it recognises), broken the way the condition
// describes.
func responsesTriggers(t *testing.T, srv simServer, c providers.Condition, model string) ([]trigger, error) {
	const path = "/v1/responses"
	user := `{"role":"user","content":"What is in the notes?"}`
	body := func(items ...string) string {
		return `{"model":` + q(model) + `,"input":[` + strings.Join(items, ",") + `],"store":false}`
	}
	status, _, answer := srv.post(t, path, `{"model":`+q(model)+`,"input":[`+user+`],"tools":[{"type":"function","name":"lookup"}]}`)
	rs, fc := gjson.Get(answer, "output.0"), gjson.Get(answer, "output.1")
	if status != 200 || rs.Get("type").Str != "reasoning" || fc.Get("type").Str != "function_call" {
		return nil, fmt.Errorf("responses: the simulator gave no reasoning item and call (%d): %s", status, answer)
	}
	output := `{"type":"function_call_output","call_id":` + q(fc.Get("call_id").Str) + `,"output":"the notes"}`
	edit := func(path, v string, del bool) string {
		var out string
		var err error
		if del {
			out, err = sjson.Delete(rs.Raw, path)
		} else {
			out, err = sjson.Set(rs.Raw, path, v)
		}
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	rsItem := map[string]string{"item": rs.Get("id").Str, "item_type": "reasoning"}
	switch {
	case c.Kind == providers.ConditionReasoningWithoutFollower:
		return []trigger{
			{"a reasoning item without the call it led to", path, body(user, rs.Raw, output), 1, "input.1", rsItem},
			{"a reasoning item before a plain assistant message", path, body(user, rs.Raw, `{"role":"assistant","content":"ok"}`), 1, "input.1", rsItem},
		}, nil
	case c.Kind == providers.ConditionItemWithoutReasoning:
		return []trigger{{"a call sent with its id, without its reasoning item", path, body(user, fc.Raw, output), 1, "input.1",
			map[string]string{"item": fc.Get("id").Str, "item_type": "function_call", "ref": rs.Get("id").Str}}}, nil
	case c.Kind == providers.ConditionToolOutputMissing:
		call := `{"type":"function_call","call_id":"call-a","name":"lookup","arguments":"{}"}`
		return []trigger{{"a call whose output comes after a message", path, body(user, call, `{"role":"assistant","content":"thinking"}`, `{"type":"function_call_output","call_id":"call-a","output":"x"}`), 1, "input.1",
			map[string]string{"item": "call-a", "item_type": "function_call"}}}, nil
	case c.Kind == providers.ConditionSignatureInvalid && c.Field == "reasoning.encrypted_content":
		return []trigger{{"encrypted content the provider did not issue", path, body(user, edit("encrypted_content", "Zm9yZ2Vk", false), fc.Raw, output), 1, "input.1.encrypted_content", rsItem}}, nil
	case c.Kind == providers.ConditionSignatureMissing && c.Field == "reasoning.encrypted_content":
		return []trigger{{"a reasoning item without its encrypted content", path, body(user, edit("encrypted_content", "", true), fc.Raw, output), 1, "input.1.encrypted_content", rsItem}}, nil
	case c.Kind == providers.ConditionSignatureInvalid && c.Field == "reasoning.signature":
		return []trigger{{"a reasoning item with a forged signature", path, body(user, edit("signature", "Zm9yZ2Vk", false), fc.Raw, output), 1, "input.1.signature", rsItem}}, nil
	}
	return nil, fmt.Errorf("responses: no trigger for %s(%s)", c.Kind, c.Field)
}
