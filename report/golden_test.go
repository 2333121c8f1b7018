package report

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// renderers are the five writers, by golden file name.
var renderers = []struct {
	golden string
	write  func(io.Writer, *Matrix) error
	reason string
}{
	{"matrix.json", WriteJSON, "matrix.json is the contract other tools read"},
	{"matrix.md", WriteMarkdown, "matrix.md is committed under reports/ and diffed in CI"},
	{"table.txt", func(w io.Writer, m *Matrix) error { return WriteTable(w, m, false) }, "the plain terminal grid must stay aligned"},
	{"table-color.txt", func(w io.Writer, m *Matrix) error { return WriteTable(w, m, true) }, "colour codes wrap the status text only"},
	{"junit.xml", WriteJUnit, "CI systems read junit.xml"},
	{"matrix.html", WriteHTML, "matrix.html is the page people open"},
}

func TestGolden(t *testing.T) {
	for _, tc := range renderers {
		t.Run(tc.golden, func(t *testing.T) {
			var out bytes.Buffer
			if err := tc.write(&out, sampleMatrix()); err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			checkGolden(t, tc.golden, out.Bytes())
		})
	}
}

// TestRenderersDeterministic checks that output depends on the matrix, not on the order of
// its cells, and follows the shared text rules: "\n" line ends and one trailing newline.
func TestRenderersDeterministic(t *testing.T) {
	for _, tc := range renderers {
		t.Run(tc.golden, func(t *testing.T) {
			var first, shuffled bytes.Buffer
			if err := tc.write(&first, sampleMatrix()); err != nil {
				t.Fatal(err)
			}
			m := sampleMatrix()
			for i, j := 0, len(m.Cells)-1; i < j; i, j = i+1, j-1 {
				m.Cells[i], m.Cells[j] = m.Cells[j], m.Cells[i]
			}
			if err := tc.write(&shuffled, m); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first.Bytes(), shuffled.Bytes()) {
				t.Errorf("%s: output changed when the cells were reversed", tc.reason)
			}
			out := first.String()
			if strings.Contains(out, "\r") {
				t.Errorf("%s: output contains a carriage return", tc.reason)
			}
			if !strings.HasSuffix(out, "\n") || strings.HasSuffix(out, "\n\n") {
				t.Errorf("%s: output must end in exactly one newline, ends %q", tc.reason, out[max(0, len(out)-20):])
			}
		})
	}
}

// TestRenderersRejectInvalid checks that no renderer writes anything for a matrix that breaks
// the rules of Validate.
func TestRenderersRejectInvalid(t *testing.T) {
	m := sampleMatrix()
	m.Cells = m.Cells[1:] // deepseek/carriers is missing
	for _, tc := range renderers {
		t.Run(tc.golden, func(t *testing.T) {
			var out bytes.Buffer
			err := tc.write(&out, m)
			if err == nil || err.Error() != "cells: no cell for deepseek/carriers" {
				t.Errorf("got error %v, want cells: no cell for deepseek/carriers", err)
			}
			if out.Len() != 0 {
				t.Errorf("wrote %d bytes for an invalid matrix", out.Len())
			}
		})
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestRenderersReportWriteErrors(t *testing.T) {
	for _, tc := range renderers {
		t.Run(tc.golden, func(t *testing.T) {
			err := tc.write(failingWriter{}, sampleMatrix())
			if err == nil || !strings.Contains(err.Error(), io.ErrClosedPipe.Error()) {
				t.Errorf("got %v, want the write error wrapped", err)
			}
		})
	}
}

// TestRenderersEmptyMatrix checks that a matrix with no targets still renders.
func TestRenderersEmptyMatrix(t *testing.T) {
	for _, tc := range renderers {
		t.Run(tc.golden, func(t *testing.T) {
			var out bytes.Buffer
			if err := tc.write(&out, &Matrix{}); err != nil {
				t.Fatalf("empty matrix: %v", err)
			}
			if !strings.Contains(out.String(), "0 targets") && !strings.Contains(out.String(), `"targets": []`) &&
				!strings.Contains(out.String(), `tests="0"`) {
				t.Errorf("empty matrix output does not say it is empty:\n%s", out.String())
			}
		})
	}
}
