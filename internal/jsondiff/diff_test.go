package jsondiff

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

func TestDiff(t *testing.T) {
	long := strings.Repeat("x", 200)
	tests := []struct {
		reason    string
		want, got string
		diffs     []Difference
		distance  int
	}{
		{
			reason: "equal documents have no differences",
			want:   `{"a":1,"b":"x"}`, got: `{"b":"x","a":1}`,
			diffs: nil, distance: 0,
		},
		{
			reason:   "a dropped carrier is absent in got",
			want:     `{"messages":[{"role":"user"},{"role":"assistant","reasoning_content":"x"}]}`,
			got:      `{"messages":[{"role":"user"},{"role":"assistant"}]}`,
			diffs:    []Difference{{"messages.1.reasoning_content", `"x"`, Absent}},
			distance: 1,
		},
		{
			reason: "an extra field is absent in want",
			want:   `{"a":1}`, got: `{"a":1,"reasoning":""}`,
			diffs:    []Difference{{"reasoning", Absent, `""`}},
			distance: 1,
		},
		{
			reason: "numbers differ by literal text",
			want:   `{"temperature":1.0}`, got: `{"temperature":1}`,
			diffs:    []Difference{{"temperature", `1.0`, `1`}},
			distance: 1,
		},
		{
			reason: "a type change is one difference at its path",
			want:   `{"content":"hi"}`, got: `{"content":[{"type":"text","text":"hi"}]}`,
			diffs:    []Difference{{"content", `"hi"`, `[{"text":"hi","type":"text"}]`}},
			distance: 2,
		},
		{
			reason: "extra array elements are one difference per index",
			want:   `[1]`, got: `[1,2,{"a":1,"b":2}]`,
			diffs:    []Difference{{"1", Absent, `2`}, {"2", Absent, `{"a":1,"b":2}`}},
			distance: 3,
		},
		{
			reason: "missing array elements are one difference per index",
			want:   `{"m":[0,1,2]}`, got: `{"m":[0]}`,
			diffs:    []Difference{{"m.1", `1`, Absent}, {"m.2", `2`, Absent}},
			distance: 2,
		},
		{
			reason: "indices sort numerically, keys by bytes",
			want:   `{"b":[0,0,0,0,0,0,0,0,0,0,0,0],"a":1,"B":1}`,
			got:    `{"b":[0,0,1,0,0,0,0,0,0,0,0,1],"a":2,"B":2}`,
			diffs: []Difference{
				{"B", `1`, `2`}, {"a", `1`, `2`}, {"b.2", `0`, `1`}, {"b.11", `0`, `1`},
			},
			distance: 4,
		},
		{
			reason: "the root is the empty path",
			want:   `1`, got: `"1"`,
			diffs:    []Difference{{"", `1`, `"1"`}},
			distance: 1,
		},
		{
			reason: "escaping alone is not a difference, and values are shown canonical",
			want:   `{"t":"a\/b","u":"\u00e9"}`, got: `{"t":"a/b","u":"\u00e8"}`,
			diffs:    []Difference{{"u", `"é"`, `"è"`}},
			distance: 1,
		},
		{
			reason: "keys with path syntax are escaped like gjson.Escape",
			want:   `{"a.b":{"*":1,"?":2,"x|y":3}}`, got: `{"a.b":{"*":0,"?":0,"x|y":0}}`,
			diffs: []Difference{
				{`a\.b.\*`, `1`, `0`}, {`a\.b.\?`, `2`, `0`}, {`a\.b.x\|y`, `3`, `0`},
			},
			distance: 3,
		},
		{
			reason: "long values are shortened with the count of bytes left out",
			want:   `{"s":"` + long + `"}`, got: `{"s":"y"}`,
			diffs:    []Difference{{"s", `"` + strings.Repeat("x", 119) + "…(+82 bytes)", `"y"`}},
			distance: 1,
		},
		{
			reason:   "a missing subtree weighs its leaves, empty containers count as leaves",
			want:     `{"tool_calls":[{"id":"c1","function":{"name":"f","arguments":"{}"},"extra":{},"list":[]}]}`,
			got:      `{}`,
			diffs:    []Difference{{"tool_calls", `[{"extra":{},"function":{"arguments":"{}","name":"f"},"id":"c1","list":[]}]`, Absent}},
			distance: 5,
		},
	}
	for _, tt := range tests {
		diffs, err := Diff([]byte(tt.want), []byte(tt.got))
		if err != nil {
			t.Errorf("%s: Diff error: %v", tt.reason, err)
			continue
		}
		if d := cmp.Diff(tt.diffs, diffs); d != "" {
			t.Errorf("%s: Diff mismatch (-want +got):\n%s", tt.reason, d)
		}
		dist, err := Distance([]byte(tt.want), []byte(tt.got))
		if err != nil || dist != tt.distance {
			t.Errorf("%s: Distance = %d, %v; want %d", tt.reason, dist, err, tt.distance)
		}
		eq, err := Equal([]byte(tt.want), []byte(tt.got))
		if err != nil || eq != (len(tt.diffs) == 0) {
			t.Errorf("%s: Equal = %v, %v; want %v", tt.reason, eq, err, len(tt.diffs) == 0)
		}
	}
}

func TestDiffPathsResolveWithGJSON(t *testing.T) {
	keys := []string{"plain", "a.b", "*", "a?", "#", "@this", "x|y", "!", "=", "%", "(", "back\\slash", "q\"uote", "sp ace", "é世", "1", "-_:", ""}
	for _, k := range keys {
		if got := string(appendEscapedKey(nil, []byte(k))); got != gjson.Escape(k) {
			t.Errorf("key %q: escaped %q, gjson.Escape gives %q", k, got, gjson.Escape(k))
		}
		want := `{"outer":{` + quote(k) + `:[10,{"v":` + quote(k) + `}]}}`
		got := `{"outer":{` + quote(k) + `:[10,{"v":"changed"}]}}`
		diffs, err := Diff([]byte(want), []byte(got))
		if err != nil || len(diffs) != 1 {
			t.Errorf("key %q: Diff = %v, %v; want one difference", k, diffs, err)
			continue
		}
		res := gjson.Get(want, diffs[0].Path)
		if !res.Exists() || res.Raw != diffs[0].Want {
			t.Errorf("key %q: gjson.Get(want, %q) = %q (exists %v), want %s", k, diffs[0].Path, res.Raw, res.Exists(), diffs[0].Want)
		}
	}
}

// quote spells s as a canonical JSON string.
func quote(s string) string { return string(appendQuotedWTF8(nil, []byte(s))) }

func TestDiffErrorsNameTheDocument(t *testing.T) {
	tests := []struct {
		reason    string
		want, got string
		err       string
	}{
		{"bad want", `{"a":}`, `{}`, `jsondiff: want: invalid JSON at offset 5: unexpected character '}' looking for a value`},
		{"bad got", `{}`, `{"a":1`, `jsondiff: got: invalid JSON at offset 6: unexpected end of input in object`},
	}
	for _, tt := range tests {
		if _, err := Diff([]byte(tt.want), []byte(tt.got)); err == nil || err.Error() != tt.err {
			t.Errorf("%s: Diff error = %v, want %s", tt.reason, err, tt.err)
		}
		if _, err := Distance([]byte(tt.want), []byte(tt.got)); err == nil || err.Error() != tt.err {
			t.Errorf("%s: Distance error = %v, want %s", tt.reason, err, tt.err)
		}
	}
}

func TestDistanceRanksNearest(t *testing.T) {
	got := `{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"ok","reasoning_content":"r"}]}`
	recorded := []struct {
		reason string
		body   string
	}{
		{"different model and no reasoning", `{"model":"n","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"ok"}]}`},
		{"only the reasoning carrier is missing", `{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"ok"}]}`},
		{"a different conversation", `{"model":"m","messages":[{"role":"user","content":"bye"}]}`},
	}
	best, bestDist := -1, 0
	for j, r := range recorded {
		d, err := Distance([]byte(r.body), []byte(got))
		if err != nil {
			t.Fatalf("%s: %v", r.reason, err)
		}
		if best < 0 || d < bestDist {
			best, bestDist = j, d
		}
	}
	if best != 1 || bestDist != 1 {
		t.Errorf("nearest = %d (%s) at distance %d, want 1 (%s) at distance 1", best, recorded[best].reason, bestDist, recorded[1].reason)
	}
}
