package main

import (
	"bytes"
	"encoding/json"
	"io"
)

// bigJSON is the size from which printing commands write JSON compact
// unless --indent asks otherwise: indenting a long session's body costs
// more than shaping it, and nobody reads 67 MB by eye.
const bigJSON = 1 << 20

// A jsonLayout is the --indent / --compact choice of a printing command.
type jsonLayout struct {
	indent, compact *bool
}

// register adds --indent and --compact to f.
func (l *jsonLayout) register(f *commandFlags) {
	l.indent = f.Bool("indent", false, "indent the JSON output by two spaces, however large (default: indented up to 1 MiB, compact above)")
	l.compact = f.Bool("compact", false, "write the JSON output on one line, however small")
}

// check refuses both flags at once.
func (l *jsonLayout) check(f *commandFlags) error {
	if *l.indent && *l.compact {
		return f.usagef("--indent and --compact: give one")
	}
	return nil
}

// indented reports whether a document of n bytes is written indented.
func (l *jsonLayout) indented(n int) bool {
	switch {
	case l == nil || l.indent == nil:
		return n < bigJSON
	case *l.indent:
		return true
	case *l.compact:
		return false
	}
	return n < bigJSON
}

// write writes a compact JSON document, indented if the layout says so,
// and a final newline; strings, opaque ones included, keep their exact
// bytes. A compact document is written as it is.
func (l *jsonLayout) write(w io.Writer, doc []byte) error {
	if !l.indented(len(doc)) {
		if _, err := w.Write(doc); err != nil {
			return err
		}
		_, err := w.Write([]byte{'\n'})
		return err
	}
	var buf bytes.Buffer
	buf.Grow(len(doc) + len(doc)/4)
	if err := json.Indent(&buf, doc, "", "  "); err != nil {
		return err
	}
	buf.WriteByte('\n')
	_, err := w.Write(buf.Bytes())
	return err
}

// writeValue writes v as JSON, without HTML escaping, laid out by l.
func (l *jsonLayout) writeValue(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return l.write(w, bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}))
}
