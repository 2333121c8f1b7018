package probe

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/suites/harness"
	"go.yaml.in/yaml/v3"
)

// AdoptFile is the file under a probe's --out directory that holds the
// proposal in the form `replaycheck adopt` applies.
const AdoptFile = "adopt.yaml"

// An Adoption is a probe's proposal as data: the files to copy into the
// repository and the edits of matrix.yaml, the target's first.
type Adoption struct {
	// Target is the new target's id.
	Target string `yaml:"target"`
	// Profile is the draft profile, relative to the adoption's directory
	// (providers/<target>.yaml); it goes to <providers>/<target>.yaml.
	Profile string `yaml:"profile"`
	// Cassettes are the target's cassettes, relative to the adoption's
	// directory (<target>/<scenario>.yaml); they go to
	// <cassettes>/<target>/<scenario>.yaml.
	Cassettes []string `yaml:"cassettes"`
	// Edits change matrix.yaml: the target, then the route table.
	Edits []matrix.Edit `yaml:"edits"`
}

// Adoption is the result's proposal as an [Adoption].
func (res *Result) Adoption() Adoption {
	a := Adoption{Target: res.Target.ID, Profile: "providers/" + res.Target.ID + ".yaml", Edits: res.Edits}
	for _, sc := range res.Scenarios {
		a.Cassettes = append(a.Cassettes, res.Target.ID+"/"+sc+".yaml")
	}
	return a
}

// WriteAdoption writes a under dir as adopt.yaml, with a header saying
// how to apply it.
func WriteAdoption(dir string, a Adoption) error {
	b, err := yaml.Marshal(a)
	if err != nil {
		return err
	}
	head := fmt.Sprintf("# The proposal of `replaycheck probe` for %s. Apply it to a checkout with\n#   replaycheck adopt %s\n"+
		"# (--matrix, --cassettes and --providers name the files it changes), then check it with\n#   replaycheck run --target %s\n",
		a.Target, dir, a.Target)
	return os.WriteFile(filepath.Join(dir, AdoptFile), append([]byte(head), b...), 0o644)
}

// ReadAdoption reads dir/adopt.yaml.
func ReadAdoption(dir string) (*Adoption, error) {
	path := filepath.Join(dir, AdoptFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("adopt: %w", err)
	}
	var a Adoption
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("adopt: %s: %w", path, err)
	}
	if a.Target == "" || a.Profile == "" || len(a.Edits) == 0 {
		return nil, fmt.Errorf("adopt: %s: want a target, a profile and edits", path)
	}
	return &a, nil
}

// Adopt applies an adoption read from dir to a checkout: it copies the
// draft profile into providersDir and the cassettes into cassettesDir,
// and writes matrixPath with the edits made. Nothing is written unless
// every part applies: the edited table must load and hold the target, and
// neither the target, its cassettes nor its profile may exist yet. It
// returns the adopted table and targets.
func Adopt(dir string, a *Adoption, matrixPath, cassettesDir, providersDir string) (*matrix.File, error) {
	text, err := os.ReadFile(matrixPath)
	if err != nil {
		return nil, fmt.Errorf("adopt: %w", err)
	}
	current, err := matrix.Parse(matrixPath, text)
	if err != nil {
		return nil, err
	}
	if _, exists := current.Target(a.Target); exists {
		return nil, fmt.Errorf("adopt: target %s is already in %s", a.Target, matrixPath)
	}
	edited, err := matrix.Apply(text, a.Edits)
	if err != nil {
		return nil, fmt.Errorf("adopt: %s: %w", matrixPath, err)
	}
	adopted, err := matrix.Parse(matrixPath, edited)
	if err != nil {
		return nil, fmt.Errorf("adopt: the edited route table does not load: %w", err)
	}
	if _, ok := adopted.Target(a.Target); !ok {
		return nil, fmt.Errorf("adopt: the edits add no target %s", a.Target)
	}
	copies := [][2]string{{filepath.Join(dir, a.Profile), filepath.Join(providersDir, a.Target+".yaml")}}
	for _, c := range a.Cassettes {
		copies = append(copies, [2]string{filepath.Join(dir, c), filepath.Join(cassettesDir, a.Target, filepath.Base(c))})
	}
	for _, c := range copies {
		if _, err := os.Stat(c[0]); err != nil {
			return nil, fmt.Errorf("adopt: %w", err)
		}
		if _, err := os.Stat(c[1]); !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("adopt: %s exists already: adopting never overwrites", c[1])
		}
	}
	for _, c := range copies[1:] {
		if _, err := harness.Read(c[0]); err != nil {
			return nil, fmt.Errorf("adopt: %w", err)
		}
	}
	for _, c := range copies {
		if err := copyFile(c[0], c[1]); err != nil {
			return nil, err
		}
	}
	if err := writeAtomic(matrixPath, edited); err != nil {
		return nil, err
	}
	return adopted, nil
}

// copyFile copies a file, creating the directory it goes to.
func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return fmt.Errorf("adopt: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return fmt.Errorf("adopt: %w", err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		return fmt.Errorf("adopt: %w", err)
	}
	return nil
}

// writeAtomic writes a file through a temporary file and a rename, so an
// interrupted adoption leaves the old file whole.
func writeAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".adopt-*")
	if err != nil {
		return fmt.Errorf("adopt: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("adopt: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("adopt: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("adopt: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("adopt: %w", err)
	}
	return nil
}
