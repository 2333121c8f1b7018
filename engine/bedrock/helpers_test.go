package bedrock_test

import (
	"bytes"
	"encoding/json"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/bedrock"
	"github.com/tidwall/gjson"
)

// sameJSON compares two JSON texts ignoring key order and whitespace;
// strings are compared exactly.
func sameJSON(a, b string) bool {
	var va, vb any
	if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
		return false
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return bytes.Equal(ja, jb)
}

// streamEvent is one ConverseStream event: its :event-type and JSON payload.
type streamEvent struct{ typ, payload string }

// encodeFrames writes events as event-stream frames with the SDK encoder,
// the way Bedrock frames a ConverseStream answer.
func encodeFrames(t testing.TB, events []streamEvent) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := eventstream.NewEncoder()
	for _, e := range events {
		var hs eventstream.Headers
		hs.Set(":event-type", eventstream.StringValue(e.typ))
		hs.Set(":content-type", eventstream.StringValue("application/json"))
		hs.Set(":message-type", eventstream.StringValue("event"))
		if err := enc.Encode(&buf, eventstream.Message{Headers: hs, Payload: []byte(e.payload)}); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// exceptionFrame is an event-stream exception frame, the way Bedrock
// reports a refusal in the middle of a stream.
func exceptionFrame(t testing.TB, typ, payload string) []byte {
	t.Helper()
	var buf bytes.Buffer
	var hs eventstream.Headers
	hs.Set(":message-type", eventstream.StringValue("exception"))
	hs.Set(":exception-type", eventstream.StringValue(typ))
	hs.Set(":content-type", eventstream.StringValue("application/json"))
	if err := eventstream.NewEncoder().Encode(&buf, eventstream.Message{Headers: hs, Payload: []byte(payload)}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func capture(t testing.TB, body string) engine.Message {
	t.Helper()
	m, err := bedrock.Dialect{}.Capture([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const region = "https://bedrock-runtime.us-east-1.amazonaws.com"

var tools = []engine.Tool{{Name: "weather", Parameters: json.RawMessage(`{"type":"object"}`)}}

// shape builds a Converse request for a model with the committed table.
func shape(t testing.TB, tbl *engine.Table, s *engine.Session, model string) []byte {
	t.Helper()
	r := engine.Route{APIMode: engine.ModeBedrockConverse, Provider: "bedrock", BaseURL: region, Model: model}
	body, err := bedrock.Dialect{Table: tbl}.Shape(s, tbl.Decide(r, 0), engine.Request{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	if !gjson.ValidBytes(body) {
		t.Fatalf("shaped body is not JSON: %s", body)
	}
	assertOpaqueFromHistory(t, body, s)
	return body
}

// assertOpaqueFromHistory fails when a request carries a signature or
// redacted blob that the history does not hold byte for byte.
func assertOpaqueFromHistory(t testing.TB, body []byte, s *engine.Session) {
	t.Helper()
	held := enginetest.HeldOpaque(s, "signature", "data", "reasoningContent.reasoningText.signature", "reasoningContent.redactedContent")
	for _, v := range wireOpaque(body) {
		if !held[v] {
			t.Errorf("the request carries an opaque value the history does not hold: %.40q", v)
		}
	}
}

// wireOpaque lists the signatures and redacted blobs of a request, in order.
func wireOpaque(body []byte) []string {
	out := []string{}
	gjson.GetBytes(body, "messages").ForEach(func(_, m gjson.Result) bool {
		m.Get("content").ForEach(func(_, b gjson.Result) bool {
			for _, k := range []string{"reasoningContent.reasoningText.signature", "reasoningContent.redactedContent"} {
				if v := b.Get(k).Str; v != "" {
					out = append(out, v)
				}
			}
			return true
		})
		return true
	})
	return out
}

func snapshot(t testing.TB, s *engine.Session) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
