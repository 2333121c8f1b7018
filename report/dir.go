package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Files are the report files [WriteDir] writes, with their renderers: the
// files `make reports` commits under reports/ and `replaycheck run --out`
// writes.
var Files = []struct {
	Name  string
	Write func(io.Writer, *Matrix) error
}{
	{"matrix.md", WriteMarkdown},
	{"matrix.json", WriteJSON},
	{"junit.xml", WriteJUnit},
	{"matrix.html", WriteHTML},
}

// WriteDir renders every report file, then writes them into dir, so a
// rendering error leaves the directory as it was.
func WriteDir(dir string, m *Matrix) error {
	rendered := make([][]byte, len(Files))
	for i, f := range Files {
		var b bytes.Buffer
		if err := f.Write(&b, m); err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		rendered[i] = b.Bytes()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, f := range Files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), rendered[i], 0o644); err != nil {
			return err
		}
	}
	return nil
}
