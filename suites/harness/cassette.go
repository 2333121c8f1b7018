package harness

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/replaycheck/replaycheck/internal/yamltext"
	"go.yaml.in/yaml/v3"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Provenance kinds.
const (
	Simulated = "simulated"
	Recorded  = "recorded"
	// Agent is a cassette of the exchanges between an unmodified agent and
	// a provider profile's simulator (`replaycheck agent`): the requests are
	// the agent's, the answers the simulator's.
	Agent = "agent"
)

// Provenance says where a cassette's provider answers come from: simulated
// from a provider profile (name and version), recorded from the live
// provider (date and base URL host) — never both — or, for kind agent, the
// profile's simulator answering an unmodified agent's own requests.
//
// A recorded cassette is either a scenario cassette (`record` against the
// live provider: target, scenario, date and host) or imported evidence
// (`import` of another project's recording: target, host, the [Source] it
// was read from, and no scenario, because the conversation is the
// recording's own). An imported cassette's date is the day the recording
// says it was made (its Date header), and may be unknown: its source
// commit pins it instead.
type Provenance struct {
	Kind           string  `yaml:"kind"`
	Target         string  `yaml:"target"`
	Scenario       string  `yaml:"scenario,omitempty"`
	Profile        string  `yaml:"profile,omitempty"`
	ProfileVersion int     `yaml:"profile_version,omitempty"`
	Date           string  `yaml:"date,omitempty"`
	Host           string  `yaml:"host,omitempty"`
	Source         *Source `yaml:"source,omitempty"`
	// AgentName names the agent an agent cassette's requests came from:
	// its command's base name, never its arguments.
	AgentName string `yaml:"agent,omitempty"`
}

// A Source says where an imported cassette was read from: the public
// repository, the file's path in it, the commit, the licence, and the
// foreign format, with the positions of the source's interactions this
// cassette keeps. Elsewhere lists the source's other interactions and what
// became of them, so an exchange left out of one cassette is never dropped
// silently.
type Source struct {
	Repository string `yaml:"repository"`
	Path       string `yaml:"path"`
	Commit     string `yaml:"commit,omitempty"`
	Licence    string `yaml:"licence,omitempty"`
	// Format is the foreign format the recording was kept in (see
	// importer.Formats).
	Format string `yaml:"format"`
	// Interactions are the 0-based positions, in the source, of this
	// cassette's interactions, in order.
	Interactions []int `yaml:"interactions"`
	// Elsewhere are the source's other interactions.
	Elsewhere []Elsewhere `yaml:"elsewhere,omitempty"`
	// ResponseOnly is the api mode of a fixture that recorded the answer
	// and no request (Vercel AI SDK fixtures): its interactions carry no
	// request line, because none was recorded, and the cassette names no
	// host. With no target it sits at [DialectOnlyPath]: nothing says
	// which provider answered, so only capture is checked, against this
	// api mode's dialect.
	ResponseOnly string `yaml:"response_only,omitempty"`
}

// Elsewhere is one interaction of an imported source that another cassette
// holds, or that could not be placed at any target.
type Elsewhere struct {
	// Interaction is its 0-based position in the source.
	Interaction int `yaml:"interaction"`
	// Request is "METHOD host/path".
	Request string `yaml:"request"`
	// APIMode is the api mode its path speaks.
	APIMode string `yaml:"api_mode"`
	// Target is the target whose cassette holds it, "" when unplaced.
	Target string `yaml:"target,omitempty"`
	// Unplaced says why no target took it.
	Unplaced string `yaml:"unplaced,omitempty"`
}

// Imported reports whether the cassette is imported evidence.
func (p Provenance) Imported() bool { return p.Source != nil }

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
	case Agent:
		if p.Profile == "" || p.ProfileVersion < 1 || p.AgentName == "" {
			return errors.New("agent provenance needs profile, profile_version and agent")
		}
		if p.Date != "" || p.Host != "" {
			return errors.New("agent provenance must not carry a recording date or host")
		}
	case Recorded:
		if p.Profile != "" || p.ProfileVersion != 0 {
			return errors.New("recorded provenance must not name a profile")
		}
		if p.Source != nil {
			return p.validateImported()
		}
		if !dateSyntax.MatchString(p.Date) || p.Host == "" {
			return errors.New("recorded provenance needs date (YYYY-MM-DD) and host")
		}
	default:
		return fmt.Errorf("provenance kind %q (want %s, %s or %s)", p.Kind, Simulated, Recorded, Agent)
	}
	if p.AgentName != "" && p.Kind != Agent {
		return errors.New("only agent provenance names an agent")
	}
	if p.Source != nil {
		return errors.New("only recorded provenance may name a source")
	}
	if p.Target == "" || p.Scenario == "" {
		return errors.New("provenance needs target and scenario")
	}
	return nil
}

// validateImported checks the provenance of imported evidence.
func (p Provenance) validateImported() error {
	s := p.Source
	switch {
	case s.ResponseOnly != "" && p.Host != "":
		return errors.New("imported provenance: a response-only source recorded no request, so it names no host")
	case s.ResponseOnly == "" && (p.Target == "" || p.Host == ""):
		return errors.New("imported provenance needs target and host")
	case p.Scenario != "":
		return errors.New("imported provenance must not name a scenario: the conversation is the recording's own")
	case p.Date != "" && !dateSyntax.MatchString(p.Date):
		return errors.New("imported provenance: date must be YYYY-MM-DD when given")
	case s.Repository == "" || s.Path == "" || s.Format == "":
		return errors.New("imported provenance: source needs repository, path and format")
	case len(s.Interactions) == 0:
		return errors.New("imported provenance: source names no interaction")
	}
	for i, e := range s.Elsewhere {
		if (e.Target == "") == (e.Unplaced == "") {
			return fmt.Errorf("imported provenance: source.elsewhere[%d]: name the target that holds interaction %d or why it is unplaced, not both", i, e.Interaction)
		}
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

// RecordedDir is the directory, below a target's cassettes, that holds the
// target's imported evidence.
const RecordedDir = "recorded"

// RecordedPath returns the path of an imported cassette:
// <dir>/<target>/recorded/<name>.yaml.
func RecordedPath(dir, target, name string) string {
	return filepath.Join(dir, target, RecordedDir, name+".yaml")
}

// dialectOnlyPrefix starts the directory of the imported cassettes that no
// target takes; no target id starts with "_".
const dialectOnlyPrefix = "_dialect-"

// DialectOnlyPath returns the path of an imported response-only cassette
// that no target takes, checked against api mode's dialect only:
// <dir>/_dialect-<mode>/recorded/<name>.yaml.
func DialectOnlyPath(dir, mode, name string) string {
	return filepath.Join(dir, dialectOnlyPrefix+mode, RecordedDir, name+".yaml")
}

// DialectOfDir returns the api mode of a directory name DialectOnlyPath
// writes (the part before recorded/), or ok false for a target's.
func DialectOfDir(name string) (mode string, ok bool) {
	mode, ok = strings.CutPrefix(name, dialectOnlyPrefix)
	return mode, ok && mode != ""
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
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file: a cassette holds version, provenance and interactions; record it again (replaycheck record)", name)
		}
		if hint := foreignCassette(b); hint != "" {
			return nil, fmt.Errorf("%s: %s", name, hint)
		}
		return nil, fmt.Errorf("%s: %w", name, yamltext.Position(err, b))
	}
	if f.Version != cassette.CassetteFormatV2 {
		return nil, fmt.Errorf("%s: cassette version %d (want %d)", name, f.Version, cassette.CassetteFormatV2)
	}
	if err := f.Provenance.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if src := f.Provenance.Source; src != nil && len(src.Interactions) != len(f.Interactions) {
		return nil, fmt.Errorf("%s: provenance source names %d interactions, the cassette holds %d", name, len(src.Interactions), len(f.Interactions))
	}
	responseOnly := f.Provenance.Source != nil && f.Provenance.Source.ResponseOnly != ""
	for i, it := range f.Interactions {
		if err := checkInteraction(i, it, responseOnly); err != nil {
			return nil, fmt.Errorf("%s:%d: interaction %d: %w", name, interactionLine(b, i), i, err)
		}
	}
	return &f, nil
}

// foreignCassette names the recorder of a file that is another tool's
// cassette, not replaycheck's, and says how to bring it in; "" otherwise.
func foreignCassette(b []byte) string {
	var doc struct {
		Interactions []struct {
			Request map[string]any `yaml:"request"`
		} `yaml:"interactions"`
		Requests []any `yaml:"requests"`
	}
	if yaml.Unmarshal(b, &doc) != nil {
		return ""
	}
	const importHint = ": bring it in as evidence with replaycheck import (it becomes cassettes/<target>/recorded/<name>.yaml), or record this cassette with replaycheck record"
	if len(doc.Requests) > 0 {
		return "a langchain-style cassette (requests: and responses:), not a replaycheck cassette" + importHint
	}
	for _, it := range doc.Interactions {
		if _, ok := it.Request["uri"]; ok {
			return "a VCR.py cassette (request.uri), not a replaycheck cassette" + importHint
		}
	}
	return ""
}

// checkInteraction checks what replay relies on in the i-th interaction.
// The interactions of a response-only source have an empty request line:
// none was recorded, and none may be made up.
func checkInteraction(i int, it *cassette.Interaction, responseOnly bool) error {
	switch {
	case it == nil:
		return errors.New("empty")
	case it.ID != i && it.ID >= 0 && it.ID < i:
		return fmt.Errorf("id %d duplicates interaction %d (ids count up from 0)", it.ID, it.ID)
	case it.ID != i:
		return fmt.Errorf("id %d out of sequence (ids count up from 0)", it.ID)
	case responseOnly && (it.Request.Method != "" || it.Request.URL != "" || it.Request.Body != ""):
		return errors.New("a response-only source recorded no request: the request line and body stay empty")
	case !responseOnly && (it.Request.Method == "" || it.Request.URL == ""):
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
