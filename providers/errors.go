package providers

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// A ValidationError is one problem found in a profile. A profile read from
// YAML carries the file and line of the offending key; a profile built in
// memory and checked with [Profile.Validate] carries only its name.
type ValidationError struct {
	// File is the path the profile was read from, "" when built in memory.
	File string
	// Line is the 1-based line of the offending YAML node, 0 when unknown.
	Line int
	// Profile is the profile's name, used when File is empty.
	Profile string
	// Msg says what is wrong, led by the rule or flag in play.
	Msg string

	// path locates the offending node from the document root
	// ("rules", "2", "when", "kind"); Parse turns it into Line.
	path []string
}

// Error renders the problem as file:line: msg (or profile <name>: msg).
func (e *ValidationError) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	case e.File != "":
		return e.File + ": " + e.Msg
	case e.Profile != "":
		return "profile " + e.Profile + ": " + e.Msg
	}
	return e.Msg
}

// issue builds a ValidationError at path.
func issue(path []string, format string, args ...any) *ValidationError {
	return &ValidationError{Msg: fmt.Sprintf(format, args...), path: path}
}

// joinIssues orders problems by line (then message) and joins them; nil when
// there are none. Each joined error is a *ValidationError.
func joinIssues(list []*ValidationError) error {
	if len(list) == 0 {
		return nil
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].Line != list[j].Line {
			return list[i].Line < list[j].Line
		}
		return list[i].Msg < list[j].Msg
	})
	errs := make([]error, len(list))
	for i, e := range list {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// at appends a path element; it never aliases the parent slice.
func at(path []string, elems ...string) []string {
	out := make([]string, 0, len(path)+len(elems))
	return append(append(out, path...), elems...)
}

// quoteList renders a list of words as "a, b or c".
func quoteList(list []string) string {
	switch len(list) {
	case 0:
		return ""
	case 1:
		return list[0]
	}
	return strings.Join(list[:len(list)-1], ", ") + " or " + list[len(list)-1]
}
