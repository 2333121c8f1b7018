package harness

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/replaycheck/replaycheck/internal/yamltext"
	"go.yaml.in/yaml/v3"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Provenance kinds.
const (
	Simulated = "simulated"
	Recorded  = "recorded"
)

// Provenance says where a cassette's provider answers come from: simulated
// from a provider profile (name and version), or recorded from the live
// provider (date and base URL host) — never both.
type Provenance struct {
	Kind           string `yaml:"kind"`
	Target         string `yaml:"target"`
	Scenario       string `yaml:"scenario"`
	Profile        string `yaml:"profile,omitempty"`
	ProfileVersion int    `yaml:"profile_version,omitempty"`
	Date           string `yaml:"date,omitempty"`
	Host           string `yaml:"host,omitempty"`
}

var dateSyntax = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// Validate checks that the provenance is complete and not mixed.
func (p Provenance) Validate() error {
	switch p.Kind {
	case Simulated:
		if p.Profile == "" || p.ProfileVersion < 1 {
			return errors.New("simulated provenance needs profile and profile_version")
		}
		if p.Date != "" || p.Host != "" {
			return errors.New("simulated provenance must not carry a recording date or host")
		}
	case Recorded:
		if !dateSyntax.MatchString(p.Date) || p.Host == "" {
			return errors.New("recorded provenance needs date (YYYY-MM-DD) and host")
		}
		if p.Profile != "" || p.ProfileVersion != 0 {
			return errors.New("recorded provenance must not name a profile")
		}
	default:
		return fmt.Errorf("provenance kind %q (want %s or %s)", p.Kind, Simulated, Recorded)
	}
	if p.Target == "" || p.Scenario == "" {
		return errors.New("provenance needs target and scenario")
	}
	return nil
}

// Label is the short form shown in reports: "simulated" or "recorded".
func (p Provenance) Label() string { return p.Kind }

// A File is a cassette: the go-vcr v3 format (version 2) plus a provenance
// block that go-vcr itself ignores when it loads the file.
type File struct {
	Version      int                     `yaml:"version"`
	Provenance   Provenance              `yaml:"provenance"`
	Interactions []*cassette.Interaction `yaml:"interactions"`
}

// Path returns the cassette path of a cell: <dir>/<target>/<scenario>.yaml.
func Path(dir, target, scenario string) string {
	return filepath.Join(dir, target, scenario+".yaml")
}

// ErrNoCassette is returned by [Read] when the file does not exist.
var ErrNoCassette = errors.New("no cassette")

// Read loads and validates a cassette; errors name the file, the YAML
// line or the interaction index in play.
func Read(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", path, ErrNoCassette)
	}
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}

// Parse validates cassette bytes; name is used in error messages, which
// name the YAML line (of the interaction in play, when there is one).
func Parse(name string, b []byte) (*File, error) {
	f, err := parse(name, b)
	return f, yamltext.Truncated(b, err)
}

func parse(name string, b []byte) (*File, error) {
	if err := yamltext.Check(name, b); err != nil {
		return nil, err
	}
	var f File
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if f.Version != cassette.CassetteFormatV2 {
		return nil, fmt.Errorf("%s: cassette version %d (want %d)", name, f.Version, cassette.CassetteFormatV2)
	}
	if err := f.Provenance.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i, it := range f.Interactions {
		if err := checkInteraction(i, it); err != nil {
			return nil, fmt.Errorf("%s:%d: interaction %d: %w", name, interactionLine(b, i), i, err)
		}
	}
	return &f, nil
}

// checkInteraction checks what replay relies on in the i-th interaction.
func checkInteraction(i int, it *cassette.Interaction) error {
	switch {
	case it == nil:
		return errors.New("empty")
	case it.ID != i && it.ID >= 0 && it.ID < i:
		return fmt.Errorf("id %d duplicates interaction %d (ids count up from 0)", it.ID, it.ID)
	case it.ID != i:
		return fmt.Errorf("id %d out of sequence (ids count up from 0)", it.ID)
	case it.Request.Method == "" || it.Request.URL == "":
		return errors.New("request needs method and url")
	case it.Response.Code < 100 || it.Response.Code > 599:
		return fmt.Errorf("response code %d", it.Response.Code)
	}
	return nil
}

// interactionLine returns the YAML line where the i-th interaction starts.
// It parses the document again, which only the error path pays for.
func interactionLine(b []byte, i int) int {
	var doc yaml.Node
	if yaml.Unmarshal(b, &doc) != nil || len(doc.Content) == 0 {
		return 1
	}
	top := doc.Content[0]
	for k := 0; k+1 < len(top.Content); k += 2 {
		if top.Content[k].Value == "interactions" && i < len(top.Content[k+1].Content) {
			return top.Content[k+1].Content[i].Line
		}
	}
	return 1
}

// Write stores a cassette atomically: it writes a temporary file in the
// same directory and renames it over the old one, so a failed or
// interrupted write leaves the previous cassette intact. A cassette that
// [Read] would refuse is never written.
func Write(path string, f *File) error {
	if err := f.Provenance.Validate(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for i, it := range f.Interactions {
		if it == nil {
			return fmt.Errorf("%s: interaction %d: empty", path, i)
		}
		it.ID = i
	}
	var buf bytes.Buffer
	buf.WriteString("# replaycheck cassette (go-vcr v3 format). Generated: do not edit by hand.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(f); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	// A cassette that Read would refuse never replaces a good one.
	if _, err := Parse(path, buf.Bytes()); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".cassette-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
