package responses_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"github.com/replaycheck/replaycheck/engine/responses"
)

// TestShapeReplaysItemsInPosition: on the issuing route every stored item
// goes back in its place, byte for byte but for its output "status", each
// reasoning item before the call or message it led to, the tool results
// after the calls.
func TestShapeReplaysItemsInPosition(t *testing.T) {
	s := loopSession(t)
	got := inputOf(shape(t, s, openaiRoute, engine.Request{}))
	want := []string{
		`{"role":"user","content":"Why does the cache test fail?"}`,
		reasoningItem("rs_a", "Check the TTL. [memo:aaaaaaaa]", encA), replayed(callItem("fc_a", "call_a")),
		reasoningItem("rs_b", "Check the clock.", encB), replayed(callItem("fc_b", "call_b")),
		`{"type":"function_call_output","call_id":"call_a","output":"ttl=0"}`,
		`{"type":"function_call_output","call_id":"call_b","output":"clock ok"}`,
		reasoningItem("rs_c", "Both point at CI.", encC), replayed(messageItem("msg_c", "The TTL is 0 in CI.")),
		`{"role":"user","content":"And the fix?"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("input\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// replayed is a stored output item as the engine replays it: without its
// "status", which describes the output and which no recording shows a
// service taking back, and without its text parts' "logprobs" (the
// probabilities of an answer already given, which recorded clients leave
// out).
func replayed(item string) string {
	return strings.ReplaceAll(strings.Replace(item, `"status":"completed",`, "", 1), `"logprobs":[],`, "")
}

// TestShapeFamilies is SPEC §9.5: reasoning items reach only their issuing
// family and model; everywhere else the turn goes without them, from the
// standard view (no item ids, no reasoning, nothing reconstructed).
func TestShapeFamilies(t *testing.T) {
	standard := []string{
		`{"role":"user","content":"Why does the cache test fail?"}`,
		`{"type":"function_call","call_id":"call_a","name":"lookup","arguments":"{\"q\":\"ttl\"}"}`,
		`{"type":"function_call","call_id":"call_b","name":"lookup","arguments":"{\"q\":\"ttl\"}"}`,
		`{"type":"function_call_output","call_id":"call_a","output":"ttl=0"}`,
		`{"type":"function_call_output","call_id":"call_b","output":"clock ok"}`,
		`{"role":"assistant","content":"The TTL is 0 in CI."}`,
		`{"role":"user","content":"And the fix?"}`,
	}
	for _, tc := range []struct {
		reason string
		route  engine.Route
	}{
		{"another model on the issuer's host", otherModel},
		{"another family (an Azure resource) serving the same model", azureRoute},
		{"a relay serving the same model", relayRoute},
	} {
		body := shape(t, loopSession(t), tc.route, engine.Request{})
		if got := inputOf(body); strings.Join(got, "\n") != strings.Join(standard, "\n") {
			t.Errorf("%s:\n got %s\nwant %s", tc.reason, strings.Join(got, "\n     "), strings.Join(standard, "\n     "))
		}
		for _, enc := range []string{encA, encB, encC} {
			if strings.Contains(string(body), enc) {
				t.Errorf("%s: an item of another family reached the wire", tc.reason)
			}
		}
	}
}

// TestShapeLeavesItemsOut covers every reason a stored item stays out, and
// what happens to the items after it.
func TestShapeLeavesItemsOut(t *testing.T) {
	issued := func(items ...string) engine.Message { return capture(t, openaiRoute, body(items...)) }
	user := enginetest.User("q")
	for _, tc := range []struct {
		reason string
		msgs   []engine.Message
		config engine.ModelConfig
		want   []string
	}{
		{
			reason: "an unanswered call leaves with its reasoning, and the answered call after it loses its id",
			msgs: []engine.Message{user, issued(reasoningItem("rs_a", "a", encA), callItem("fc_a", "call_a"), reasoningItem("rs_b", "b", encB), callItem("fc_b", "call_b")),
				enginetest.ToolResult("call_b", "r")},
			want: []string{`{"role":"user","content":"q"}`, reasoningItem("rs_b", "b", encB),
				`{"type":"function_call","arguments":"{\"q\":\"ttl\"}","call_id":"call_b","name":"lookup"}`, `{"type":"function_call_output","call_id":"call_b","output":"r"}`},
		},
		{
			reason: "a reasoning item without encrypted content is not sent (store is false), and its call goes without its id",
			msgs: []engine.Message{user, issued(`{"id":"rs_a","type":"reasoning","summary":[{"type":"summary_text","text":"a"}]}`, callItem("fc_a", "call_a")),
				enginetest.ToolResult("call_a", "r")},
			want: []string{`{"role":"user","content":"q"}`, `{"type":"function_call","arguments":"{\"q\":\"ttl\"}","call_id":"call_a","name":"lookup"}`,
				`{"type":"function_call_output","call_id":"call_a","output":"r"}`},
		},
		{
			reason: "an item whose encrypted content the session recorded as refused stays out",
			msgs: []engine.Message{user, issued(reasoningItem("rs_a", "a", encA), callItem("fc_a", "call_a")),
				enginetest.ToolResult("call_a", "r")},
			config: engine.ModelConfig{SealedBlobs: []string{engine.Fingerprint(responses.FieldEncrypted, encA)}},
			want: []string{`{"role":"user","content":"q"}`, `{"type":"function_call","arguments":"{\"q\":\"ttl\"}","call_id":"call_a","name":"lookup"}`,
				`{"type":"function_call_output","call_id":"call_a","output":"r"}`},
		},
		{
			reason: "a reasoning item that ended its output (nothing followed it) is never sent alone",
			msgs:   []engine.Message{user, issued(messageItem("msg_a", "hi"), reasoningItem("rs_a", "a", encA))},
			want:   []string{`{"role":"user","content":"q"}`, replayed(messageItem("msg_a", "hi"))},
		},
		{
			reason: "a relay's readable reasoning with a signature is replayed as it came",
			msgs:   []engine.Message{user, issued(`{"type":"reasoning","id":"rs_x","summary":[],"content":[{"type":"reasoning_text","text":"t"}],"signature":"sig"}`, messageItem("msg_x", "hi"))},
			want:   []string{`{"role":"user","content":"q"}`, `{"type":"reasoning","id":"rs_x","summary":[],"content":[{"type":"reasoning_text","text":"t"}],"signature":"sig"}`, replayed(messageItem("msg_x", "hi"))},
		},
		{
			reason: "a relayed signature the session recorded as refused stays out",
			msgs:   []engine.Message{user, issued(`{"type":"reasoning","id":"rs_x","summary":[],"signature":"sig"}`, messageItem("msg_x", "hi"))},
			config: engine.ModelConfig{RejectedSignatures: []string{engine.Fingerprint(responses.FieldSignature, "sig")}},
			want:   []string{`{"role":"user","content":"q"}`, `{"type":"message","content":[{"type":"output_text","annotations":[],"text":"hi"}],"role":"assistant"}`},
		},
	} {
		s := &engine.Session{Messages: tc.msgs, Config: tc.config}
		if got := inputOf(shape(t, s, openaiRoute, engine.Request{})); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %s\nwant %s", tc.reason, strings.Join(got, "\n     "), strings.Join(tc.want, "\n     "))
		}
	}
}

// TestShapeWithoutIssuerOrNativeTurn: a turn whose issuer is unknown, a
// display-only branch that changed the text, and a chat-captured turn all
// replay from the standard view.
func TestShapeWithoutIssuerOrNativeTurn(t *testing.T) {
	noIssuer, err := responses.Dialect{Table: enginetest.Table(t)}.Capture([]byte(body(reasoningItem("rs_c", "c", encC), messageItem("msg_c", "done"))))
	if err != nil {
		t.Fatal(err)
	}
	edited := capture(t, openaiRoute, body(reasoningItem("rs_c", "c", encC), messageItem("msg_c", "done")))
	edited.Content = json.RawMessage(`"edited for display"`)
	chat := engine.Message{Role: "assistant", Content: json.RawMessage(`"from chat"`), ReasoningContent: engine.Str("readable thinking")}
	for _, tc := range []struct {
		reason string
		m      engine.Message
		want   string
	}{
		{"a capture that recorded no issuer", noIssuer, `{"role":"assistant","content":"done"}`},
		{"a display-only edit of the text", edited, `{"role":"assistant","content":"edited for display"}`},
		{"a chat turn: readable reasoning is never made into a reasoning item", chat, `{"role":"assistant","content":"from chat"}`},
	} {
		s := &engine.Session{Messages: []engine.Message{enginetest.User("q"), tc.m}}
		got := inputOf(shape(t, s, openaiRoute, engine.Request{}))
		if len(got) != 2 || got[1] != tc.want {
			t.Errorf("%s: input %v, want the user item and %s", tc.reason, got, tc.want)
		}
	}
}

// TestShapeEnvelope checks the request keys around the input.
func TestShapeEnvelope(t *testing.T) {
	s := &engine.Session{Messages: []engine.Message{{Role: "system", Content: json.RawMessage(`"Be brief."`)}, enginetest.User("q")}}
	tools := []engine.Tool{{Name: "lookup", Description: "Look up.", Parameters: json.RawMessage(`{"type":"object"}`)}}
	for _, tc := range []struct {
		reason string
		req    engine.Request
		want   string
	}{
		{"a plain request", engine.Request{},
			`{"model":"gpt-5.1","instructions":"Be brief.","input":[{"role":"user","content":"q"}],"reasoning":{"summary":"auto"},"include":["reasoning.encrypted_content"],"store":false}`},
		{"system prompt, tools, another model and a stream", engine.Request{System: "You help.", Tools: tools, Model: "gpt-5-mini", Stream: true},
			`{"model":"gpt-5-mini","instructions":"You help.\n\nBe brief.","input":[{"role":"user","content":"q"}],"tools":[{"type":"function","name":"lookup","description":"Look up.","parameters":{"type":"object"}}],"reasoning":{"summary":"auto"},"include":["reasoning.encrypted_content"],"store":false,"stream":true}`},
	} {
		if got := string(shape(t, s, openaiRoute, tc.req)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.reason, got, tc.want)
		}
	}
}

// TestShapeUserContent covers the content forms a user message may hold.
func TestShapeUserContent(t *testing.T) {
	for _, tc := range []struct {
		reason, content, want string
	}{
		{"a string stays as stored, escapes included", `"caf\u00e9 \"q\""`, `{"role":"user","content":"caf\u00e9 \"q\""}`},
		{"chat text parts become input_text", `[{"type":"text","text":"a"},{"type":"input_image","image_url":"u"}]`, `{"role":"user","content":[{"type":"input_text","text":"a"},{"type":"input_image","image_url":"u"}]}`},
		{"empty content gives no item", `""`, ``},
		{"null content gives no item", `null`, ``},
	} {
		s := &engine.Session{Messages: []engine.Message{{Role: "user", Content: json.RawMessage(tc.content)}}}
		if got := strings.Join(inputOf(shape(t, s, openaiRoute, engine.Request{})), ""); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.reason, got, tc.want)
		}
	}
	dev := &engine.Session{Messages: []engine.Message{{Role: "developer", Content: json.RawMessage(`"Answer in French."`)}}}
	if got := strings.Join(inputOf(shape(t, dev, openaiRoute, engine.Request{})), ""); got != `{"role":"developer","content":"Answer in French."}` {
		t.Errorf("a developer message keeps its role: %s", got)
	}
}

// TestShapeInvariants: shaping never mutates the session and gives the
// same bytes twice (SPEC §9.1, §9.2).
func TestShapeInvariants(t *testing.T) {
	s := loopSession(t)
	before, _ := json.Marshal(s)
	a := shape(t, s, openaiRoute, engine.Request{})
	b := shape(t, s, openaiRoute, engine.Request{})
	after, _ := json.Marshal(s)
	if string(before) != string(after) {
		t.Error("shaping mutated the session")
	}
	if string(a) != string(b) {
		t.Error("same inputs, different bytes")
	}
}

// TestShapeBadInput names the message in play.
func TestShapeBadInput(t *testing.T) {
	table := enginetest.Table(t)
	for _, tc := range []struct {
		reason string
		m      engine.Message
		want   string
	}{
		{"an unknown role", engine.Message{Role: "critic", Content: json.RawMessage(`"x"`)}, `responses: messages.1: unsupported role "critic"`},
		{"user content that is neither a string nor an array", engine.Message{Role: "user", Content: json.RawMessage(`{"a":1}`)}, "responses: messages.1: content is neither a string nor an array"},
	} {
		s := &engine.Session{Messages: []engine.Message{enginetest.User("q"), tc.m}}
		_, err := responses.Dialect{Table: table}.Shape(s, table.Decide(openaiRoute, 0), engine.Request{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.reason, err, tc.want)
		}
	}
}

// TestCompactionKeepsItems is SPEC §7: compaction drops whole turns and
// the kept turns keep their reasoning items; the next request carries
// them byte for byte, and the estimate converges in one pass.
func TestCompactionKeepsItems(t *testing.T) {
	s := loopSession(t)
	s.Messages = append(s.Messages,
		capture(t, openaiRoute, body(reasoningItem("rs_d", "Ship the TTL fix.", "gAAAAABpVY4A-encrypted+D=="), messageItem("msg_d", "Ship it."))),
		enginetest.User("Anything else?"))
	table := enginetest.Table(t)
	d := table.Decide(openaiRoute, 0)
	if !engine.StaleThinkingReachesWire(d) {
		t.Fatal("a Responses route gets back its earlier turns' items: their price must count")
	}
	threshold := engine.Estimate(s.Messages, d) - 10
	res := engine.Compact(s, d, engine.CompactOptions{Threshold: threshold})
	if res.Dropped == 0 || res.CannotShrink || res.After > threshold {
		t.Fatalf("compaction: %+v", res)
	}
	if again := engine.Compact(res.Session, d, engine.CompactOptions{Threshold: threshold}); again.Dropped != 0 || again.CannotShrink {
		t.Fatalf("a second pass did work: %+v", again)
	}
	body := string(shape(t, res.Session, openaiRoute, engine.Request{}))
	if !strings.Contains(body, reasoningItem("rs_d", "Ship the TTL fix.", "gAAAAABpVY4A-encrypted+D==")) {
		t.Errorf("the kept turn's reasoning item is not on the wire byte for byte: %s", body)
	}
	if strings.Contains(body, encA) {
		t.Errorf("a summarised-away turn's item is still sent: %s", body)
	}
}

// TestBranchShapesLikeParent is SPEC §7: a branch carries its own items
// and issuer, and shapes exactly as its parent.
func TestBranchShapesLikeParent(t *testing.T) {
	s := loopSession(t)
	b := engine.Branch(s, "b")
	if got, want := string(shape(t, b, openaiRoute, engine.Request{})), string(shape(t, s, openaiRoute, engine.Request{})); got != want {
		t.Errorf("branch\n got %s\nwant %s", got, want)
	}
	b.Messages[1].Native.Blocks[0][3] = 'X'
	b.Messages[1].Native.Issuer.Host = "elsewhere"
	if s.Messages[1].Native.Blocks[0][3] == 'X' || s.Messages[1].Native.Issuer.Host != "api.openai.com" {
		t.Error("the branch shares its items or issuer with the parent")
	}
}
