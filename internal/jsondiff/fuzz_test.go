package jsondiff

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

var fuzzSeeds = []string{
	``,
	`{}`,
	`{"b":1,"a":[1,2.50,-3e-7,{"z":null,"y":true}]}`,
	`{"messages":[{"role":"assistant","reasoning_content":"line\nline \"q\" \u00e9 \ud83d\ude00","content":null}]}`,
	`"\ud800\udc00\ud800 \udc00"`,
	`{"\u0061":1,"a\"":2}`,
	`[1,2,]`,
	`{"a":1,"a":2}`,
	"\"bad\xff\"",
	`  123456789012345678901234567890  `,
	`{"sig":"EpEgCo4gAb4+9vvWwdN+Nk/Q=="}`,
}

// FuzzCanonical checks that Canonical never panics, is idempotent, keeps
// the meaning of the document, agrees with encoding/json on what is valid,
// and names an offset inside the input when it refuses it.
func FuzzCanonical(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := Canonical(in)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not a *SyntaxError", err, err)
			}
			if se.Offset < 0 || se.Offset > int64(len(in)) || !strings.Contains(err.Error(), "at offset ") {
				t.Fatalf("error %q names offset %d outside the %d-byte input", err, se.Offset, len(in))
			}
			// encoding/json accepts duplicate keys and invalid UTF-8 (it
			// replaces it); everything else it must refuse too.
			if json.Valid(in) && utf8.Valid(in) && !strings.Contains(se.Msg, "duplicate object key") {
				t.Fatalf("Canonical refused %q, which encoding/json accepts: %v", in, err)
			}
			return
		}
		if !json.Valid(in) {
			t.Fatalf("Canonical accepted %q, which encoding/json refuses", in)
		}
		again, err := Canonical(c)
		if err != nil || !bytes.Equal(again, c) {
			t.Fatalf("not idempotent:\n  in %q\n  c1 %q\n  c2 %q (%v)", in, c, again, err)
		}
		if eq, err := Equal(in, c); err != nil || !eq {
			t.Fatalf("Equal(in, Canonical(in)) = %v, %v for %q", eq, err, in)
		}
		if d, err := Distance(in, c); err != nil || d != 0 {
			t.Fatalf("Distance(in, Canonical(in)) = %d, %v for %q", d, err, in)
		}
		if ds, err := Diff(c, in); err != nil || ds != nil {
			t.Fatalf("Diff(Canonical(in), in) = %v, %v for %q", ds, err, in)
		}
		if !reflect.DeepEqual(decode(t, in), decode(t, c)) {
			t.Fatalf("Canonical changed the meaning of %q: %q", in, c)
		}
	})
}

// FuzzDiff checks that Diff, Distance and Equal agree with each other and
// with canonical equality, and that Diff is ordered and symmetric.
func FuzzDiff(f *testing.F) {
	for _, a := range fuzzSeeds {
		f.Add([]byte(a), []byte(`{"b":1,"a":[1,2.5]}`))
	}
	f.Add([]byte(`[1,{"x":"y"}]`), []byte(`[1,{"x":"y","z":0},3]`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ca, errA := Canonical(a)
		cb, errB := Canonical(b)
		ds, err := Diff(a, b)
		if (err != nil) != (errA != nil || errB != nil) {
			t.Fatalf("Diff error %v, Canonical errors %v / %v", err, errA, errB)
		}
		if err != nil {
			return
		}
		same := bytes.Equal(ca, cb)
		eq, _ := Equal(a, b)
		dist, _ := Distance(a, b)
		if eq != same || (dist == 0) != same || (len(ds) == 0) != same || dist < len(ds) {
			t.Fatalf("canonical equal %v, Equal %v, Distance %d, %d differences", same, eq, dist, len(ds))
		}
		for j := 1; j < len(ds); j++ {
			if ds[j-1].Path == ds[j].Path {
				t.Fatalf("path %q reported twice", ds[j].Path)
			}
		}
		back, _ := Diff(b, a)
		for j := range back {
			back[j].Want, back[j].Got = back[j].Got, back[j].Want
		}
		if d := cmp.Diff(ds, back); d != "" {
			t.Fatalf("Diff(a, b) is not Diff(b, a) mirrored (-ab +ba):\n%s", d)
		}
	})
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("encoding/json cannot decode %q: %v", b, err)
	}
	return v
}
