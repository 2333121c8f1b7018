package providers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/internal/yamltext"
	"go.yaml.in/yaml/v3"
)

// Load reads and validates the profile at path. Every error names the file
// and line: providers/deepseek.yaml:12: rule "x": unknown condition kind "y".
func Load(path string) (*Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: cannot read profile: %w", path, err)
	}
	return Parse(path, data)
}

// LoadDir loads every *.yaml profile in dir (not its subdirectories) and
// returns them sorted by name. Problems in all files are reported together.
func LoadDir(dir string) ([]*Profile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: cannot list profiles: %w", dir, err)
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".yaml") {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no profiles (*.yaml)", dir)
	}
	return parseAll(names, func(name string) (*Profile, error) {
		return Load(filepath.Join(dir, name))
	})
}

// parseAll loads each named file, joins the errors of all of them and sorts
// the profiles by name.
func parseAll(names []string, load func(name string) (*Profile, error)) ([]*Profile, error) {
	var (
		out  []*Profile
		errs []error
	)
	for _, name := range names {
		p, err := load(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, p)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Parse decodes and validates one profile read from file (used for the
// file stem check and in error messages). It rejects YAML syntax errors,
// more than one document, unknown or repeated keys, values of the wrong
// type, and everything [Profile.Validate] rejects; each error is a
// *[ValidationError] with the file and line, and all of them are joined.
func Parse(file string, data []byte) (*Profile, error) {
	p, err := parse(file, data)
	return p, yamltext.Truncated(data, err)
}

func parse(file string, data []byte) (*Profile, error) {
	root, err := parseNode(file, data)
	if err != nil {
		return nil, err
	}
	if list := keyIssues(root, reflect.TypeOf(Profile{}), ""); len(list) > 0 {
		for _, e := range list {
			e.File = file
		}
		return nil, joinIssues(list)
	}
	var p Profile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&p); err != nil {
		return nil, yamlError(file, err)
	}
	list := p.issues()
	if stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)); p.Name != "" && p.Name != stem {
		list = append(list, issue(at(nil, "name"), "name %q does not match the file stem %q", p.Name, stem))
	}
	for _, e := range list {
		e.File, e.Line = file, lineOf(root, e.path)
	}
	if err := joinIssues(list); err != nil {
		return nil, err
	}
	return &p, nil
}

// parseNode parses data into its single document's root mapping.
func parseNode(file string, data []byte) (*yaml.Node, error) {
	if err := yamltext.Check(file, data); err != nil {
		var te *yamltext.Error
		if errors.As(err, &te) {
			return nil, &ValidationError{File: file, Line: te.Line, Msg: fmt.Sprintf("byte offset %d: %s", te.Offset, te.Detail)}
		}
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, yamlError(file, err)
		}
		docs = append(docs, &n)
	}
	switch {
	case len(docs) == 0:
		return nil, &ValidationError{File: file, Msg: "empty profile"}
	case len(docs) > 1:
		return nil, &ValidationError{File: file, Line: docs[1].Line, Msg: "more than one YAML document; a profile file holds one"}
	}
	root := docs[0]
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if deref(root).Kind != yaml.MappingNode {
		return nil, &ValidationError{File: file, Line: root.Line, Msg: "a profile is a YAML mapping"}
	}
	return deref(root), nil
}

// yamlLine matches the "line N: " prefix of yaml's messages.
var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// parserProblems start the messages of yaml's parser (not scanner) errors,
// whose line yaml reports 0-based and at the start of the enclosing
// construct (the rule's mapping, not the broken key inside it).
var parserProblems = []string{"did not find expected", "found duplicate", "found incompatible", "found undefined"}

// yamlError turns a yaml decoding error into file:line errors.
func yamlError(file string, err error) error {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	list := make([]*ValidationError, 0, len(msgs))
	for _, m := range msgs {
		e := &ValidationError{File: file, Msg: strings.TrimPrefix(m, "yaml: ")}
		if g := yamlLine.FindStringSubmatch(m); g != nil {
			e.Line, _ = strconv.Atoi(g[1])
			e.Msg = g[2]
			for _, p := range parserProblems {
				if strings.HasPrefix(e.Msg, p) {
					e.Line++
					break
				}
			}
		}
		list = append(list, e)
	}
	return joinIssues(list)
}

// ByName indexes profiles by their name.
func ByName(list []*Profile) map[string]*Profile {
	out := make(map[string]*Profile, len(list))
	for _, p := range list {
		out[p.Name] = p
	}
	return out
}
