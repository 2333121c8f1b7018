package longsession

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestBudgetSize: the budget session is valid JSON of about 67 MB, with
// the carriers the budget names, and the same bytes every time.
func TestBudgetSize(t *testing.T) {
	b := Budget()
	if n := len(b); n < 60<<20 || n > 72<<20 {
		t.Fatalf("budget session is %d bytes, want about 67 MB", n)
	}
	var doc struct {
		Messages []map[string]json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if got, want := len(doc.Messages), 2+2*Turns; got != want {
		t.Fatalf("%d messages, want %d", got, want)
	}
	a := doc.Messages[2]
	for _, k := range []string{"reasoning_content", "reasoning", "reasoning_details", "tool_calls"} {
		if len(a[k]) < 2 {
			t.Errorf("assistant message has no %s", k)
		}
	}
	if len(a["reasoning_content"]) < ReasoningBytes {
		t.Errorf("reasoning_content is %d bytes, want at least %d", len(a["reasoning_content"]), ReasoningBytes)
	}
	if !bytes.Contains(a["reasoning"], []byte(`\n`)) || !bytes.Contains(a["reasoning"], []byte(`\"`)) {
		t.Error("reasoning has no escapes")
	}
	if !bytes.Equal(Generate(3, 100), Generate(3, 100)) {
		t.Error("two generations differ")
	}
}
