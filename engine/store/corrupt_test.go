package store

import (
	"context"
	"strings"
	"testing"
)

func TestCorruptRows(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		reason string
		sql    string
		want   string
	}{
		{"a truncated message body", `UPDATE messages SET body = substr(body, 1, 40) WHERE session_id = 'c' AND seq = 3`,
			`store: session "c": load: message 3: unexpected end of JSON input`},
		{"a body that is not an object", `UPDATE messages SET body = CAST('[1,2]' AS BLOB) WHERE session_id = 'c' AND seq = 5`,
			`store: session "c": load: message 5: json: cannot unmarshal array`},
		{"a message without a role", `UPDATE messages SET body = CAST('{"content":"x"}' AS BLOB) WHERE session_id = 'c' AND seq = 1`,
			`store: session "c": load: message 1: missing role`},
		{"a reasoning_details item that is not an object", `UPDATE messages SET body = CAST('{"role":"assistant","reasoning_details":["x"]}' AS BLOB) WHERE session_id = 'c' AND seq = 2`,
			`store: session "c": load: message 2: reasoning_details.0: item is not a JSON object`},
		{"a gap in the sequence", `DELETE FROM messages WHERE session_id = 'c' AND seq = 6`,
			`store: session "c": load: message 6: sequence has a gap (next stored is 7)`},
		{"a broken model config", `UPDATE sessions SET config = CAST('{"rejected_carriers":7}' AS BLOB) WHERE id = 'c'`,
			`store: session "c": load: model config: json: cannot unmarshal number`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			st, _ := openTemp(t)
			if err := st.Create(ctx, richSession("c")); err != nil {
				t.Fatal(err)
			}
			if err := st.Create(ctx, richSession("healthy")); err != nil {
				t.Fatal(err)
			}
			if _, err := st.db.ExecContext(ctx, tt.sql); err != nil {
				t.Fatal(err)
			}
			_, err := st.Load(ctx, "c")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("Load error = %v, want prefix %q", err, tt.want)
			}
			if _, err := st.Load(ctx, "healthy"); err != nil {
				t.Errorf("another session suffers from the corruption: %v", err)
			}
		})
	}
}

// TestCorruptRowsLowestIndex: messages decode on all processors, and of
// several broken rows the error names the first, as one pass would.
func TestCorruptRowsLowestIndex(t *testing.T) {
	ctx := context.Background()
	st, _ := openTemp(t)
	if err := st.Create(ctx, longSession("c", 400, 64)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.db.ExecContext(ctx, `UPDATE messages SET body = CAST('{"content":"x"}' AS BLOB) WHERE session_id = 'c' AND seq IN (37, 211, 390)`); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		_, err := st.Load(ctx, "c")
		if want := `store: session "c": load: message 37: missing role`; err == nil || err.Error() != want {
			t.Fatalf("Load error = %v, want %q", err, want)
		}
	}
}
