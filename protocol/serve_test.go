package protocol

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/scenario"
)

// TestServe feeds the server one request at a time and checks its reply
// line: the steps answer, and a request it cannot read is an error reply
// naming the field, never the end of the session.
func TestServe(t *testing.T) {
	mf, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{Hello: Hello{Implementation: Implementation{Name: "ref", Version: "1"}, Protocol: Version, APIModes: []string{"chat"}},
		Impl: scenario.Reference{Table: &mf.Table}}
	const route = `"route":{"api_mode":"chat","provider":"deepseek","base_url":"https://api.deepseek.com/v1","model":"deepseek-v4-flash"}`
	const session = `"session":{"id":"s","messages":[{"role":"user","content":"Why?"}]}`
	const decision = `"decision":{"carriers":["reasoning_content"],"pad":true}`
	tests := []struct {
		request string
		want    string
		reason  string
	}{
		{`{"id":1,"cmd":"hello","protocol":1}`, `{"id":1,"result":{"implementation":{"name":"ref","version":"1"},"protocol":1,"api_modes":["chat"]}}`, "hello answers the server's hello"},
		{`{"id":2,"cmd":"hello","protocol":2}`, `{"id":2,"error":{"message":"request.protocol: this connector speaks protocol 1, not 2"}}`, "a version mismatch is refused"},
		{`{"id":3,"cmd":"decide",` + route + `}`, `{"id":3,"result":{"carriers":["reasoning_content"],"pad":true,"row":"default","echo_family":"deepseek"`, "decide answers the table's decision"},
		{`{"id":4,"cmd":"shape",` + route + `,` + decision + `,` + session + `,"options":{"tools":[]}}`,
			`{"id":4,"result":{"body":{"model":"deepseek-v4-flash","messages":[{"role":"user","content":"Why?"}]}}}`, "shape answers the body, embedded as it is"},
		{`{"id":5,"cmd":"capture",` + route + `,"response":"{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"ok\",\"reasoning_content\":\"r\"}}]}"}`,
			`{"id":5,"result":{"message":{"role":"assistant","content":"ok","reasoning_content":"r"}}}`, "capture answers the stored message"},
		{`{"id":6,"cmd":"learn",` + route + `,` + decision + `,` + session + `,"body":{"messages":[]},"status":400,"response":"bad"}`,
			`{"id":6,"result":{"learnt":false}}`, "a refusal that teaches nothing is not learnt"},
		{`{"id":7,"cmd":"branch",` + session + `,"branch_id":"b"}`, `{"id":7,"result":{"session":{"id":"b","messages":[{"role":"user","content":"Why?"}],"model_config":{}}}}`, "branch renames the copy"},
		{`{"id":8,"cmd":"shape",` + route + `}`, `{"id":8,"error":{"message":"request.decision: missing (the shape command needs it)"}}`, "each command's fields are required"},
		{`{"id":9,"cmd":"jump"}`, `{"id":9,"error":{"message":"request.cmd: unknown command \"jump\"`, "unknown commands are refused"},
		{`{"id":10,"cmd":"decide","route":{"api_mode":"chat"}}`, `{"id":10,"error":{"message":"request.route.provider: missing"}}`, "requests are decoded strictly too"},
		{`{"id":10,"cmd":"decide",` + route + `,"x":1}`, `{"id":10,"error":{"message":"request.x: unknown field"}}`, "unknown request fields are refused"},
		{`{"id":11,"cmd":"capture",` + route + `,"response":"not json"}`, `{"id":11,"error":{"message":"chat: response body is not valid JSON at offset 1: invalid character 'o' in literal null (expecting 'u')"}}`, "a step's own error is an error reply"},
		{`not json`, `{"id":0,"error":{"message":"offset 1: invalid character 'o' in literal null`, "an unreadable line is answered with id 0"},
		{`{"id":12,"cmd":"bye"}`, `{"id":12,"result":{}}`, "bye answers and ends the session"},
	}
	var in strings.Builder
	for _, tc := range tests {
		in.WriteString(tc.request + "\n\n")
	}
	in.WriteString(`{"id":13,"cmd":"hello","protocol":1}` + "\n")
	var out bytes.Buffer
	if err := srv.Serve(context.Background(), strings.NewReader(in.String()), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(tests) {
		t.Fatalf("%d replies for %d requests (the request after bye must go unanswered):\n%s", len(lines), len(tests), out.String())
	}
	for i, tc := range tests {
		if !strings.HasPrefix(lines[i], tc.want) {
			t.Errorf("%s:\n got: %s\nwant: %s…", tc.reason, lines[i], tc.want)
		}
	}
}

// TestWriteReply: a reply line is the bytes encodeLine writes for the
// reply, whether its result is spliced in as it is (compact JSON) or
// encoded (a body with whitespace, a body that is no JSON, other
// results), and whether bodies are known to be valid JSON or not.
func TestWriteReply(t *testing.T) {
	for _, valid := range []bool{false, true} {
		testWriteReply(t, valid)
	}
	if _, err := encodeResult(BodyResult{Body: json.RawMessage(`{"model":`)}, false); err == nil {
		t.Error("a body that is no JSON was written")
	}
}

func testWriteReply(t *testing.T, validBodies bool) {
	body := `{"model":"m","messages":[{"role":"user","content":"<&>\u2028 \" } \\"},{"role":"user","content":"a\\\" "}]}`
	for _, tc := range []struct {
		id     int64
		result any
		pieces int
	}{
		{7, BodyResult{Body: json.RawMessage(body)}, 3},
		{8, BodyResult{Body: json.RawMessage(`{ "model" : "m",` + "\n" + `"messages":[ ] }`)}, 1},
		{9, SessionResult{Session: json.RawMessage(`{"messages":[]}`)}, 3},
		{10, SessionResult{Session: json.RawMessage(`{"messages":[] }`)}, 1},
		{11, EstimateResult{Tokens: 3}, 1},
		{-1, Empty{}, 1},
	} {
		result, err := encodeResult(tc.result, validBodies)
		if err != nil {
			t.Fatal(err)
		}
		if len(result) != tc.pieces {
			t.Errorf("reply %d (valid bodies %v): %d pieces, want %d", tc.id, validBodies, len(result), tc.pieces)
		}
		raw, err := encodeLine(tc.result)
		if err != nil {
			t.Fatal(err)
		}
		checkReplyLine(t, Reply{ID: tc.id, Result: bytes.TrimSuffix(raw, []byte("\n"))}, result)
	}
	for _, rep := range []Reply{{ID: 3, Error: &StepFailure{Message: "no"}}, {ID: 4, Unsupported: &Unsupported{Reason: "n/a"}}} {
		checkReplyLine(t, rep, nil)
	}
}

// checkReplyLine checks that writeReply writes rep, with result, as
// encodeLine writes rep.
func checkReplyLine(t *testing.T, rep Reply, result [][]byte) {
	t.Helper()
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	want, err := encodeLine(rep)
	if err != nil {
		t.Fatal(err)
	}
	if result != nil {
		rep.Result = nil
	}
	if err := writeReply(w, rep, result); err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("reply %d:\n%s\nwant\n%s", rep.ID, out.String(), want)
	}
}
