package yamltext

import (
	"bytes"
	"errors"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		in, want, reason string
	}{
		{"a: 1\n\tb: \"é ✓\"\r\n", "", "tabs, CRLF and UTF-8 are text"},
		{"", "", "an empty file is text"},
		{"a: 1\nb: \x00\n", "f.yaml:2: byte offset 8: control character 0x00: not YAML text (binary data goes base64 under !!binary)", "a NUL byte is named by line and offset"},
		{"a: \x7f", "f.yaml:1: byte offset 3: control character 0x7f: not YAML text (binary data goes base64 under !!binary)", "DEL is a control character"},
		{"a: 1\n\nb: \xff\xfe", "f.yaml:3: byte offset 9: not UTF-8 text (binary data goes base64 under !!binary)", "invalid UTF-8 is named by line and offset"},
		{"a: \xe2\x9c", "f.yaml:1: byte offset 3: not UTF-8 text (binary data goes base64 under !!binary)", "a cut multi-byte rune is not text"},
	}
	for _, tt := range tests {
		got := ""
		if err := Check("f.yaml", []byte(tt.in)); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s:\n got  %q\n want %q", tt.reason, got, tt.want)
		}
	}
}

func TestTruncated(t *testing.T) {
	bad := errors.New("f.yaml:3: boom")
	tests := []struct {
		in   string
		err  error
		want string
		why  string
	}{
		{"a: 1\nb: [", bad, "f.yaml:3: boom (the file ends mid-line: truncated?)", "a file ending mid-line is probably cut"},
		{"a: 1\nb: [\n", bad, "f.yaml:3: boom", "a file ending with a newline gets no hint"},
		{"", bad, "f.yaml:3: boom", "an empty file is not cut mid-line"},
	}
	for _, tt := range tests {
		if got := Truncated([]byte(tt.in), tt.err); got == nil || got.Error() != tt.want || !errors.Is(got, bad) {
			t.Errorf("%s: got %v, want %q wrapping the error", tt.why, got, tt.want)
		}
	}
	if Truncated([]byte("a: ["), nil) != nil {
		t.Error("no error, no hint")
	}
}

// FuzzCheck compares Check with a plain oracle: valid UTF-8 without a
// control byte other than tab, line feed and carriage return.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"a: 1\n", "\x00", "\xff", "é\n\x01", "\uFFFD"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		text := utf8.Valid(b) && !bytes.ContainsFunc(b, func(r rune) bool {
			return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f
		})
		if err := Check("f", b); (err == nil) != text {
			t.Fatalf("Check(%q) = %v, but the input is text: %v", b, err, text)
		}
	})
}

// TestPosition: a YAML parser error names the line of the mistake, as a
// scanner error does.
func TestPosition(t *testing.T) {
	tests := []struct {
		doc  string
		line string
	}{
		{"a: 1\nb: [x\nc: 2\n", "yaml: line 2: did not find expected ',' or ']'"},
		{"a: 1\n\nb: {x\n", "yaml: line 3: did not find expected ',' or '}'"},
		{"a: 1\n  b: 2\n", "yaml: line 2: mapping values are not allowed in this context"},
		{"a: 1\nb: [\n", "yaml: line 2: did not find expected node content"},
	}
	for _, tt := range tests {
		var n yaml.Node
		if err := Position(yaml.Unmarshal([]byte(tt.doc), &n), []byte(tt.doc)); err == nil || err.Error() != tt.line {
			t.Errorf("%q: %v, want %s", tt.doc, err, tt.line)
		}
	}
	if Position(nil, nil) != nil {
		t.Error("no error is no error")
	}
}
