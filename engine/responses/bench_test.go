package responses_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/linebench"
	"github.com/replaycheck/replaycheck/engine/responses"
)

// bigStream builds a ~10 MB Responses stream framed as OpenAI frames it:
// named events, item ids, a sequence number on every event and a random
// obfuscation value on every delta. A reasoning item's summary arrives in
// many small deltas, then the finished item with its encrypted content,
// then the answer in many deltas, its finished item, and the final
// response repeating both items whole.
func bigStream() []byte {
	var b bytes.Buffer
	seq := 0
	ev := func(typ, rest string) {
		fmt.Fprintf(&b, "event: %s\ndata: {\"type\":%q,%s,\"sequence_number\":%d}\n\n", typ, typ, rest, seq)
		seq++
	}
	const rs, msg = "rs_0c71d6d8526a7a4b006920e03fd67c819da5eead157faee94b", "msg_0c71d6d8526a7a4b006920e0478738819d856fca72ba249557"
	var summary, answer strings.Builder
	ev("response.created", `"response":{"id":"resp_1","object":"response","status":"in_progress","model":"gpt-5.1","output":[]}`)
	ev("response.output_item.added", `"output_index":0,"item":{"id":"`+rs+`","type":"reasoning","summary":[]}`)
	piece := "reasoning about the \"cache\" step "
	for i := 0; b.Len() < 5<<20; i++ {
		summary.WriteString(piece)
		ev("response.reasoning_summary_text.delta", fmt.Sprintf(`"item_id":%q,"output_index":0,"summary_index":0,"delta":%q,"obfuscation":"%08x"`, rs, piece, i*2654435761%(1<<32)))
	}
	reasoning := fmt.Sprintf(`{"id":%q,"type":"reasoning","summary":[{"type":"summary_text","text":%s}],"encrypted_content":%q}`, rs, quote(summary.String()), "gAAAAABpVY4A"+strings.Repeat("Ab-_", 1500)+"==")
	ev("response.output_item.done", `"output_index":0,"item":`+reasoning)
	ev("response.output_item.added", `"output_index":1,"item":{"id":"`+msg+`","type":"message","status":"in_progress","content":[],"role":"assistant"}`)
	for i := 0; b.Len() < 9<<20; i++ {
		answer.WriteString("the answer, word by word ")
		ev("response.output_text.delta", fmt.Sprintf(`"item_id":%q,"output_index":1,"content_index":0,"delta":"the answer, word by word ","logprobs":[],"obfuscation":"%08x"`, msg, i*2246822519%(1<<32)))
	}
	message := fmt.Sprintf(`{"id":%q,"type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":%q}],"role":"assistant"}`, msg, answer.String())
	ev("response.output_item.done", `"output_index":1,"item":`+message)
	ev("response.completed", `"response":{"id":"resp_1","object":"response","status":"completed","error":null,"model":"gpt-5.1","output":[`+reasoning+`,`+message+`],"usage":{"input_tokens":10,"output_tokens":2000000}}`)
	return b.Bytes()
}

// BenchmarkCaptureStream measures capture of a 10 MB stream; compare with
// BenchmarkReadBufio (DESIGN.md budget: within 2x).
func BenchmarkCaptureStream(b *testing.B) {
	data := bigStream()
	dl := responses.Dialect{}.ForRoute(engine.Route{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-5.1"})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dl.CaptureStream(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadBufio is the budget's baseline: the same bytes read line by
// line through bufio, each line as a string (what any consumer of the
// lines holds).
func BenchmarkReadBufio(b *testing.B) {
	linebench.ReadStrings(b, bigStream())
}
