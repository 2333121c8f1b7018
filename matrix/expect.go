package matrix

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/replaycheck/replaycheck/internal/yamltext"
)

// Expectations are an implementation's own declarations, in a file of its
// own (`run --engine CMD --expect FILE`): the cells it is expected to fail,
// each pinned to the cause it fails for, and the cells it is expected to
// leave advisory. matrix.yaml's declarations are the reference table's and
// apply to the reference engine only.
type Expectations struct {
	// Path is the file the expectations were loaded from.
	Path string
	// KnownFailures are the cells expected to fail, each with its cause.
	KnownFailures []KnownFailure
	// Advisories are the cells expected to send less than the provider
	// reads.
	Advisories []KnownFailure
}

// KnownFailure returns the expected failure of a cell, if any.
func (e *Expectations) KnownFailure(target, scenario string) (KnownFailure, bool) {
	return declared(e.KnownFailures, target, scenario)
}

// Advisory returns the expected advisory of a cell, if any.
func (e *Expectations) Advisory(target, scenario string) (KnownFailure, bool) {
	return declared(e.Advisories, target, scenario)
}

// DeclaredIn names the expectations file in a cell's detail.
func (e *Expectations) DeclaredIn() string { return filepath.Base(e.Path) }

// DeclaredIn names the matrix file in a cell's detail.
func (f *File) DeclaredIn() string {
	if f.Path == "" {
		return "matrix.yaml"
	}
	return filepath.Base(f.Path)
}

// LoadExpectations reads an expectations file; its cells name targets and
// aliases of f.
func LoadExpectations(path string, f *File) (*Expectations, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("expectations: %w", err)
	}
	e, err := ParseExpectations(path, b, f)
	return e, yamltext.Truncated(b, err)
}

// ParseExpectations validates an expectations document; name is used in
// error positions.
func ParseExpectations(name string, b []byte, f *File) (*Expectations, error) {
	w, top, err := parseTop(name, b, "expectations", "version", "implementation", "known_failures", "advisories")
	if err != nil {
		return nil, err
	}
	if n, ok := top["implementation"]; ok {
		if _, err := w.str(n, "implementation"); err != nil {
			return nil, err
		}
	}
	e := &Expectations{Path: name}
	if e.KnownFailures, err = loadDeclarations(w, f, top["known_failures"], "known_failures", "expected failure", true); err != nil {
		return nil, err
	}
	for _, k := range e.KnownFailures {
		if strings.TrimSpace(k.Cause) == "" {
			return nil, fmt.Errorf("%s:%d: expected failure %s/%s: a cause is required (a phrase of the failure's evidence, such as the provider's error)", name, k.Line, k.Target, k.Scenario)
		}
	}
	if e.Advisories, err = loadDeclarations(w, f, top["advisories"], "advisories", "expected advisory", false); err != nil {
		return nil, err
	}
	return e, nil
}

// WriteExpectations writes the expectations of an implementation named
// impl: known and advisory cells sorted by target and scenario, each
// reason and cause quoted.
func WriteExpectations(out io.Writer, impl string, e *Expectations) error {
	var b strings.Builder
	b.WriteString("# The cells this implementation is expected to fail or leave advisory\n")
	b.WriteString("# (replaycheck run --engine CMD --expect FILE). Edit each reason to say why.\n")
	b.WriteString("version: 1\n")
	fmt.Fprintf(&b, "implementation: %s\n", quoteYAML(impl))
	for _, sec := range []struct {
		name  string
		list  []KnownFailure
		cause bool
	}{{"known_failures", e.KnownFailures, true}, {"advisories", e.Advisories, false}} {
		if len(sec.list) == 0 {
			continue
		}
		list := append([]KnownFailure(nil), sec.list...)
		sort.Slice(list, func(i, j int) bool {
			if list[i].Target != list[j].Target {
				return list[i].Target < list[j].Target
			}
			return list[i].Scenario < list[j].Scenario
		})
		fmt.Fprintf(&b, "%s:\n", sec.name)
		for _, k := range list {
			fmt.Fprintf(&b, "  - target: %s\n    scenario: %s\n    reason: %s\n", k.Target, k.Scenario, quoteYAML(k.Reason))
			if sec.cause {
				fmt.Fprintf(&b, "    cause: %s\n", quoteYAML(k.Cause))
			}
		}
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// quoteYAML quotes s as a YAML double-quoted scalar.
func quoteYAML(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
