package chat_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/chat"
	"github.com/replaycheck/replaycheck/engine/internal/linebench"
)

// bigHistory builds 2,000 assistant turns holding 20 MB of reasoning in all
// (RC, R and an encrypted RD item each), with their user messages.
func bigHistory() []engine.Message {
	const turns = 2000
	per := 20 << 20 / turns / 3
	chunk := strings.Repeat("reasoning \"quoted\" line\n", per/24+1)[:per]
	msgs := make([]engine.Message, 0, 2*turns)
	for i := 0; i < turns; i++ {
		msgs = append(msgs,
			engine.Message{Role: "user", Content: json.RawMessage(fmt.Sprintf(`"question %d"`, i))},
			engine.Message{Role: "assistant", Content: json.RawMessage(`"answer"`), ReasoningContent: engine.Str(chunk), Reasoning: engine.Str(chunk),
				ReasoningDetails: []json.RawMessage{json.RawMessage(`{"type":"reasoning.encrypted","data":"` + strings.Repeat("QUJD", per/4) + `"}`)}})
	}
	return msgs
}

// plainMessage is the same message as a plain struct, for the baseline.
type plainMessage struct {
	Role             string            `json:"role"`
	Content          json.RawMessage   `json:"content,omitempty"`
	ReasoningContent *string           `json:"reasoning_content,omitempty"`
	Reasoning        *string           `json:"reasoning,omitempty"`
	ReasoningDetails []json.RawMessage `json:"reasoning_details,omitempty"`
}

// BenchmarkShape2000Turns20MB is the shaping budget: at most 1.5x a plain
// json.Marshal of the same messages (BenchmarkMarshalBaseline20MB).
func BenchmarkShape2000Turns20MB(b *testing.B) {
	table := enginetest.Table(b)
	s := &engine.Session{Messages: bigHistory()}
	d := table.Decide(engine.Route{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "m"}, 0)
	out, _ := chat.Dialect{}.Shape(s, d, engine.Request{})
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (chat.Dialect{}).Shape(s, d, engine.Request{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalBaseline20MB(b *testing.B) {
	msgs := bigHistory()
	plain := make([]plainMessage, len(msgs))
	for i, m := range msgs {
		plain[i] = plainMessage{m.Role, m.Content, m.ReasoningContent, m.Reasoning, m.ReasoningDetails}
	}
	out, _ := json.Marshal(plain)
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(plain); err != nil {
			b.Fatal(err)
		}
	}
}

// bigStream is a ~10 MB chat stream of small reasoning and content deltas
// framed as providers frame them (id, model, finish_reason), some pieces
// with escapes.
func bigStream() []byte {
	const head = `{"id":"chatcmpl-9x2","object":"chat.completion.chunk","created":1764296393,"model":"deepseek-reasoner","system_fingerprint":"fp_1","choices":[{"index":0,"delta":`
	var buf bytes.Buffer
	for i := 0; buf.Len() < 10<<20; i++ {
		piece := "thinking about the next step of the plan "
		if i%8 == 0 {
			piece = `so the \"plan\" is:\n`
		}
		buf.WriteString("data: " + head + `{"reasoning_content":"` + piece + `"},"logprobs":null,"finish_reason":null}]}` + "\n\n")
		buf.WriteString("data: " + head + `{"content":"and here is some visible text "},"logprobs":null,"finish_reason":null}]}` + "\n\n")
	}
	buf.WriteString("data: [DONE]\n\n")
	return buf.Bytes()
}

// BenchmarkCaptureStream10MB is the capture budget: linear, within 2x of
// reading the stream through bufio (BenchmarkBufioBaseline10MB).
func BenchmarkCaptureStream10MB(b *testing.B) {
	stream := bigStream()
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (chat.Dialect{}).CaptureStream(bytes.NewReader(stream)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBufioBaseline10MB reads the same stream line by line through
// bufio, each line as a string: the cost of merely reading it.
func BenchmarkBufioBaseline10MB(b *testing.B) { linebench.ReadStrings(b, bigStream()) }
