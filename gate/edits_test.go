package gate

import (
	"reflect"
	"strings"
	"testing"
)

func TestLineEdits(t *testing.T) {
	base := "a\nb\nc\nd\ne\n"
	tests := []struct {
		head   string
		want   []Edit
		reason string
	}{
		{base, nil, "an unchanged file has no edit"},
		{"a\nB\nc\nd\ne\n", []Edit{{From: 2, To: 2}}, "one changed line"},
		{"a\nb\nx\ny\nc\nd\ne\n", []Edit{{From: 3, To: 4}}, "two added lines are one edit"},
		{"a\nb\nd\ne\n", []Edit{{From: 3, To: 3, Deleted: true}}, "a deleted line is shown on the line after it"},
		{"a\nb\nc\nd\n", []Edit{{From: 4, To: 4, Deleted: true}}, "a deletion at the end is shown on the last line"},
		{"A\nb\nc\nd\nE\n", []Edit{{From: 1, To: 1}, {From: 5, To: 5}}, "two edits apart stay apart"},
		{"a\nb\nc\nd\ne\nf\n", []Edit{{From: 6, To: 6}}, "an appended line"},
		{"a\nB\nd\ne\n", []Edit{{From: 2, To: 2}}, "a line changed and the next deleted is one edit of the changed line"},
		{"", []Edit{{From: 1, To: 1, Deleted: true}}, "everything deleted"},
		{"a\r\nB\r\nc\r\nd\r\ne\r\n", []Edit{{From: 2, To: 2}}, "CRLF line ends are not edits"},
	}
	for _, tt := range tests {
		if got := LineEdits([]byte(base), []byte(tt.head)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: edits %+v, want %+v: %s", tt.head, got, tt.want, tt.reason)
		}
	}
}

// TestLineEditsLarge: two files too large to match line by line in the
// table's bound still give the edited range.
func TestLineEditsLarge(t *testing.T) {
	var b, h strings.Builder
	for i := range 4000 {
		b.WriteString("line\n")
		if i%2 == 0 {
			h.WriteString("other\n")
		} else {
			h.WriteString("line\n")
		}
	}
	got := LineEdits([]byte(b.String()), []byte(h.String()))
	if len(got) != 1 || got[0].From != 1 || got[0].To != 3999 {
		t.Errorf("edits %+v, want one edit of lines 1-3999", got)
	}
}
