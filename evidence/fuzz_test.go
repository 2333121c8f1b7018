package evidence

import (
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/report"
	"github.com/tidwall/gjson"
)

// FuzzCompare holds arbitrary JSON against arbitrary JSON: the comparer
// never panics, every finding has a path and a finding verdict, and a
// value compared with itself gives no finding.
func FuzzCompare(f *testing.F) {
	f.Add(`{"role":"assistant","content":[{"type":"thinking","signature":"c2ln"}]}`, `{"role":"assistant","content":[{"type":"text","text":"a"}]}`)
	f.Add(`{"parts":[{"text":"a","thoughtSignature":"YQ=="}]}`, `[1,2,{"a":null}]`)
	f.Fuzz(func(t *testing.T, rec, eng string) {
		if !gjson.Valid(rec) || !gjson.Valid(eng) {
			return
		}
		c := &comparer{base: "m"}
		c.value(nil, gjson.Parse(rec), gjson.Parse(eng))
		for _, fd := range c.finish() {
			if fd.Path == "" || (fd.Verdict != report.VerdictPass && fd.Verdict != report.VerdictAdvisory && fd.Verdict != report.VerdictFail) {
				t.Errorf("finding %+v", fd)
			}
		}
		same := &comparer{base: "m"}
		same.value(nil, gjson.Parse(rec), gjson.Parse(rec))
		if got := same.finish(); len(got) > 0 {
			t.Errorf("%s against itself: %+v", rec, got)
		}
	})
}

// FuzzAnswerCarriers reads arbitrary answers of every dialect, whole and
// streamed, without panicking.
func FuzzAnswerCarriers(f *testing.F) {
	f.Add([]byte(`{"choices":[{"message":{"reasoning_content":"r"}}]}`), false)
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"reasoning\":\"a\"}}]}\n\n"), true)
	f.Fuzz(func(t *testing.T, body []byte, stream bool) {
		for _, mode := range []engine.APIMode{engine.ModeChat, engine.ModeAnthropic, engine.ModeBedrockConverse, engine.ModeGemini} {
			cs, err := answerCarriers(mode, body, stream)
			for _, c := range cs {
				if err == nil && c.value == "" {
					t.Errorf("%s: an empty carrier %+v", mode, c)
				}
			}
		}
	})
}

// FuzzStreamError reads arbitrary streams without panicking; what it
// returns is always one JSON value.
func FuzzStreamError(f *testing.F) {
	f.Add([]byte("event: error\ndata: {\"error\":{\"code\":\"tool_use_failed\"}}\n\n"))
	f.Add([]byte("data: {\"choices\":[]}\r\n\r\ndata: [DONE]\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		if got := streamError(body); got != nil && !gjson.ValidBytes(got) {
			t.Errorf("not JSON: %q", got)
		}
	})
}
