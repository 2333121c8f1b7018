package responses

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine/internal/layout"
)

// TestDeltaLayouts checks that repeated deltas are matched by layout (the
// varying sequence number after the delta included), that a matched delta
// still needs its item open, and that the fast and the general path store
// the same message.
func TestDeltaLayouts(t *testing.T) {
	var b strings.Builder
	ev := func(s string) { b.WriteString("event: x\ndata: " + s + "\n\n") }
	ev(`{"type":"response.output_item.added","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]},"sequence_number":1}`)
	for i, p := range []string{"Check ", "the \"TTL\"", " now."} {
		ev(`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":` + quoteTest(p) + `,"sequence_number":` + string(rune('2'+i)) + `}`)
	}
	ev(`{"type":"response.output_item.done","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"Check the \"TTL\" now."}],"encrypted_content":"gAAAA"},"sequence_number":5}`)
	ev(`{"type":"response.completed","response":{"status":"completed","output":[]},"sequence_number":6}`)
	stream := b.String()

	known := layout.NewCache[int64](eventReads...)
	fast, err := Dialect{}.captureStream(strings.NewReader(stream), known)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := Dialect{}.captureStream(strings.NewReader(stream), nil)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := fast.MarshalJSON()
	s, _ := slow.MarshalJSON()
	if string(f) != string(s) {
		t.Errorf("fast path %s\ngeneral path %s", f, s)
	}
	delta := []byte(`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"more","sequence_number":9}`)
	if idx, _, ok := known.Match(delta); !ok || idx != 0 {
		t.Errorf("a delta of the learnt layout with another piece and sequence number is not matched (%d, %v)", idx, ok)
	}
	// The matched delta after its item finished is refused all the same.
	late := stream[:strings.Index(stream, "event: x\ndata: {\"type\":\"response.completed\"")] + "data: " + string(delta) + "\n\n"
	if _, err := (Dialect{}).CaptureStream(strings.NewReader(late)); err == nil || !strings.Contains(err.Error(), "output item 0, which is not open") {
		t.Errorf("a late delta: %v", err)
	}
}

func quoteTest(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// FuzzLayoutsAgree checks that reading deltas by layout never changes the
// captured message or error: a stream of events (one data payload per line
// of the fuzz input) is captured with and without layouts.
func FuzzLayoutsAgree(f *testing.F) {
	added := `{"type":"response.output_item.added","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]}}`
	delta := func(p, end string) string {
		return `{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"` + p + `"` + end + `}`
	}
	f.Add(strings.Join([]string{
		added,
		delta("a", `,"sequence_number":1,"obfuscation":"x1"`),
		delta(`b\n`, `,"sequence_number":2,"obfuscation":"yz"`),
		delta("c", `,"output_index":1`),
		delta("d", `,"sequence_number":3,"obfuscation":7`),
		`{"type":"response.output_item.done","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"ab\nc"}],"encrypted_content":"gAAAA"}}`,
		delta("late", `,"sequence_number":9,"obfuscation":"x1"`),
		`{"type":"response.completed","response":{"status":"completed","output":[]}}`,
	}, "\n"))
	f.Fuzz(func(t *testing.T, input string) {
		var b strings.Builder
		for _, line := range strings.Split(input, "\n") {
			b.WriteString("data: " + strings.ReplaceAll(line, "\r", "") + "\n\n")
		}
		stream := b.String()
		want, wantErr := Dialect{}.captureStream(strings.NewReader(stream), nil)
		got, gotErr := Dialect{}.captureStream(strings.NewReader(stream), layout.NewCache[int64](eventReads...))
		if (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("with layouts: %v; without: %v", gotErr, wantErr)
		}
		if wantErr != nil {
			return
		}
		w, _ := want.MarshalJSON()
		g, _ := got.MarshalJSON()
		if string(w) != string(g) {
			t.Fatalf("with layouts: %s\nwithout: %s", g, w)
		}
	})
}
