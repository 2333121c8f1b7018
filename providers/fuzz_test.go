package providers

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// FuzzParse checks that no input makes Parse panic, that an accepted
// profile also passes Validate, and that every failure is a
// *ValidationError naming the file. The seeds are large, so run it with a
// short minimisation: go test ./providers -run XXX -fuzz FuzzParse
// -fuzztime=10s -fuzzminimizetime=1s.
func FuzzParse(f *testing.F) {
	entries, err := fs.ReadDir(embedded, ".")
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		data, err := embedded.ReadFile(e.Name())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(baseProfile))
	f.Add([]byte(""))
	f.Add([]byte("# only a comment\n"))
	f.Add([]byte("a: &x [*x]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(negFile, data)
		if err == nil {
			if p == nil {
				t.Fatal("Parse returned neither a profile nor an error")
			}
			if verr := p.Validate(); verr != nil {
				t.Fatalf("Parse accepted a profile Validate rejects: %v", verr)
			}
			return
		}
		var ve *ValidationError
		if !errors.As(err, &ve) || !strings.HasPrefix(err.Error(), negFile) {
			t.Fatalf("error %q is not a *ValidationError naming the file", err)
		}
	})
}
