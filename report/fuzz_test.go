package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzReadJSON checks that ReadJSON never panics, and that whatever it accepts every renderer
// can render and WriteJSON writes back to the same matrix.
func FuzzReadJSON(f *testing.F) {
	golden, err := os.ReadFile(filepath.Join("testdata", "matrix.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden)
	f.Add([]byte(`{"targets":[],"scenarios":[],"cells":[]}`))
	f.Add([]byte(`{"targets":["a"],"scenarios":["x"],"cells":[{"target":"a","scenario":"x","status":"n/a","provenance":"","detail":""}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadJSON(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, r := range renderers {
			if err := r.write(&bytes.Buffer{}, m); err != nil {
				t.Fatalf("%s: accepted matrix does not render: %v", r.golden, err)
			}
		}
		var out bytes.Buffer
		if err := WriteJSON(&out, m); err != nil {
			t.Fatal(err)
		}
		back, err := ReadJSON(&out)
		if err != nil {
			t.Fatalf("written matrix does not read back: %v\n%s", err, out.String())
		}
		if diff := cmp.Diff(m, back, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip (-first +second):\n%s", diff)
		}
	})
}
