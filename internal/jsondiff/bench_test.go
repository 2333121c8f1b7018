package jsondiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// requestBody builds a chat request of at least size bytes that looks like
// the ones the engine sends: many turns with long reasoning text full of
// newlines and quotes, tool calls whose arguments are JSON in a string,
// non-ASCII text, numbers and keys in struct (unsorted) order.
func requestBody(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"model":"deepseek-reasoner","temperature":0.7,"max_tokens":4096,"messages":[`)
	para := strings.Repeat(`Let me think about the \"weather\" tool.\nThe user asked about S\u00e3o Paulo — 天气 and 12°C.\n`, 20)
	for turn := 0; b.Len() < size; turn++ {
		if turn > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"role":"user","content":"question %d: what is the weather in city %d?"},`, turn, turn)
		fmt.Fprintf(&b, `{"role":"assistant","content":"","reasoning_content":"%s","tool_calls":[{"id":"call_%08d","type":"function","function":{"name":"weather","arguments":"{\"city\":\"c%d\",\"days\":%d}"}}]},`, para, turn, turn, turn%7)
		fmt.Fprintf(&b, `{"role":"tool","tool_call_id":"call_%08d","content":"{\"temp\":%d.5,\"sig\":\"EpEgCo4gAb4+9vvWwdN+NkNiCCwrqvFI8uf9IiD2A47Bm4Sga0kUTm4e/QuEnsZnNuSXJaINVVvcoApg6YCzMYcXrBNlwWW71iY4l9\"}"}`, turn, turn%40)
	}
	b.WriteString(`],"stream":true}`)
	return b.Bytes()
}

func TestRequestBodyIsValid(t *testing.T) {
	body := requestBody(1 << 16)
	if !json.Valid(body) {
		t.Fatal("benchmark body is not valid JSON")
	}
	c, err := Canonical(body)
	if err != nil {
		t.Fatal(err)
	}
	var x, y any
	if json.Unmarshal(body, &x) != nil || json.Unmarshal(c, &y) != nil || fmt.Sprint(x) != fmt.Sprint(y) {
		t.Fatal("Canonical changed the benchmark body")
	}
}

func BenchmarkCanonical10MB(b *testing.B) {
	body := requestBody(10 << 20)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Canonical(body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompactBaseline10MB is encoding/json's Compact on the same body:
// a validating pass that neither sorts nor re-escapes, for comparison.
func BenchmarkCompactBaseline10MB(b *testing.B) {
	body := requestBody(10 << 20)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		if err := json.Compact(&out, body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDistance10MB(b *testing.B) {
	want := requestBody(10 << 20)
	got := bytes.Replace(want, []byte(`"days\":3`), []byte(`"days\":4`), 1)
	b.SetBytes(int64(len(want) + len(got)))
	b.ReportAllocs()
	for b.Loop() {
		if d, err := Distance(want, got); err != nil || d != 1 {
			b.Fatal(d, err)
		}
	}
}
