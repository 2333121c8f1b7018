package layout

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

const template = `{"id":"c1","choices":[{"index":0,"delta":{"content":"hello"},"finish_reason":null}],"usage":null}`

var readsChat = []string{"choices", "error"}

// learnt returns a cache that has learnt template's layout.
func learnt(t testing.TB) *Cache[string] {
	c := NewCache[string](readsChat...)
	root := gjson.Parse(template)
	c.Learn(template, root.Get("choices.0.delta.content"), root.Get("choices").Index+len(root.Get("choices").Raw), "content")
	return c
}

// TestMatch checks which events share the template's layout.
func TestMatch(t *testing.T) {
	c := learnt(t)
	for _, tc := range []struct {
		reason, data, value string
		ok                  bool
	}{
		{"the learnt event itself", template, "hello", true},
		{"another piece", `{"id":"c1","choices":[{"index":0,"delta":{"content":" world"},"finish_reason":null}],"usage":null}`, " world", true},
		{"an empty piece", `{"id":"c1","choices":[{"index":0,"delta":{"content":""},"finish_reason":null}],"usage":null}`, "", true},
		{"escapes are decoded", `{"id":"c1","choices":[{"index":0,"delta":{"content":"a\"b\u00e9\n"},"finish_reason":null}],"usage":null}`, "a\"bé\n", true},
		{"the ignored end may vary", `{"id":"c1","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}],"usage":{"total":12},"obfuscation":"q"}`, "x", true},
		{"a read key in the end", `{"id":"c1","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}],"error":{"message":"no"}}`, "", false},
		{"a second choices key", `{"id":"c1","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}],"choices":[]}`, "", false},
		{"another id", `{"id":"c2","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}],"usage":null}`, "", false},
		{"a finish reason", `{"id":"c1","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}],"usage":null}`, "", false},
		{"a raw control byte in the piece", "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\nb\"},\"finish_reason\":null}],\"usage\":null}", "", false},
		{"an unterminated piece", `{"id":"c1","choices":[{"index":0,"delta":{"content":"abc`, "", false},
		{"a malformed end", `{"id":"c1","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}],"usage":nul}`, "", false},
		{"a second member after the piece", `{"id":"c1","choices":[{"index":0,"delta":{"content":"x","reasoning":"y"},"finish_reason":null}]}`, "", false},
	} {
		tag, piece, ok := c.Match([]byte(tc.data))
		var b strings.Builder
		piece.WriteTo(&b)
		if ok != tc.ok || piece.String() != tc.value || b.String() != tc.value || piece.Empty() != (tc.value == "") || ok && tag != "content" {
			t.Errorf("%s: Match = %q %q (written %q) %v, want %q %v", tc.reason, tag, piece.String(), b.String(), ok, tc.value, tc.ok)
		}
	}
}

// TestLearnKeepsFew checks that a cache keeps the latest layouts and
// forgets the oldest.
func TestLearnKeepsFew(t *testing.T) {
	c := NewCache[int](readsChat...)
	events := []string{
		`{"a":0,"v":"x"}`, `{"a":1,"v":"x"}`, `{"a":2,"v":"x"}`, `{"a":3,"v":"x"}`, `{"a":4,"v":"x"}`,
	}
	for i, e := range events {
		v := gjson.Get(e, "v")
		c.Learn(e, v, v.Index+len(v.Raw), i)
	}
	if _, _, ok := c.Match([]byte(`{"a":0,"v":"y"}`)); ok {
		t.Errorf("the oldest of %d layouts is still matched; a cache keeps %d", len(events), slots)
	}
	for i := 1; i < len(events); i++ {
		if tag, v, ok := c.Match([]byte(events[i])); !ok || tag != i || v.String() != "x" {
			t.Errorf("layout %d: Match = %d %q %v", i, tag, v.String(), ok)
		}
	}
}

// TestLearnRefusesForeignValue checks that a value that is not a string of
// data is not learnt.
func TestLearnRefusesForeignValue(t *testing.T) {
	c := NewCache[string](readsChat...)
	c.Learn(template, gjson.Parse(`"hello"`), len(template), "content") // Index 0: not from template
	c.Learn(template, gjson.Get(template, "choices.0.index"), len(template), "content")
	if _, _, ok := c.Match([]byte(template)); ok {
		t.Error("a value with no offset in the event, or not a string, was learnt")
	}
}

// FuzzMatch checks that every matched event is valid JSON whose general
// reading (gjson) gives the matched piece, with one choice.
func FuzzMatch(f *testing.F) {
	f.Add(template)
	f.Add(`{"id":"c1","choices":[{"index":0,"delta":{"content":"\ud800"},"finish_reason":null}],"x":[1,{"y":"z"}]}`)
	c := learnt(f)
	f.Fuzz(func(t *testing.T, data string) {
		_, piece, ok := c.Match([]byte(data))
		value := piece.String()
		if !ok {
			return
		}
		if !gjson.Valid(data) {
			t.Fatalf("matched invalid JSON %q", data)
		}
		root := gjson.Parse(data)
		n := 0
		root.ForEach(func(k, _ gjson.Result) bool {
			if k.Str == "choices" || k.Str == "error" {
				n++
			}
			return true
		})
		if got := root.Get("choices.0.delta.content"); n != 1 || got.Str != value {
			t.Fatalf("matched %q as %q; gjson reads %q with %d read keys", data, value, got.Str, n)
		}
	})
}

// TestMatchRemembersTheEnd checks that a layout keeps the last end it
// validated, so the next event that differs from it only in numbers is
// matched without validating its end again.
func TestMatchRemembersTheEnd(t *testing.T) {
	c := learnt(t)
	l := &c.recent[0]
	if string(l.end.bytes) != `,"usage":null}` {
		t.Fatalf("the learnt end is %q", l.end.bytes)
	}
	head := `{"id":"c1","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]`
	for _, tc := range []struct{ end, kept string }{
		{`,"usage":{"total":12}}`, `,"usage":{"total":12}}`},                             // validated, kept
		{`,"usage":{"total":13}}`, `,"usage":{"total":12}}`},                             // other numbers only
		{`,"usage":{"total":130},"extra":true}`, `,"usage":{"total":130},"extra":true}`}, // a new key: validated, kept
	} {
		if _, _, ok := c.Match([]byte(head + tc.end)); !ok {
			t.Fatalf("end %s was not matched", tc.end)
		}
		if string(l.end.bytes) != tc.kept {
			t.Errorf("after matching %s the layout keeps %s, want %s", tc.end, l.end.bytes, tc.kept)
		}
	}
}
