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

// WriteDir renders every report file and the badges ([Badges]), then
// writes them into dir, so a rendering error leaves the directory as it
// was. Badges of targets no longer in the matrix are removed, so the
// directory holds exactly what the matrix says.
func WriteDir(dir string, m *Matrix) error {
	rendered := map[string][]byte{}
	for _, f := range Files {
		var b bytes.Buffer
		if err := f.Write(&b, m); err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		rendered[f.Name] = b.Bytes()
	}
	for _, b := range Badges(m) {
		rendered[b.Path] = b.Badge.encode()
	}
	if err := os.MkdirAll(filepath.Join(dir, BadgeDir), 0o755); err != nil {
		return err
	}
	stale, err := filepath.Glob(filepath.Join(dir, BadgeDir, "*.json"))
	if err != nil {
		return err
	}
	for _, p := range stale {
		if _, keep := rendered[filepath.ToSlash(filepath.Join(BadgeDir, filepath.Base(p)))]; !keep {
			if err := os.Remove(p); err != nil {
				return err
			}
		}
	}
	for name, b := range rendered {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
