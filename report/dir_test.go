package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "reports")
	m := sampleMatrix()
	if err := WriteDir(dir, m); err != nil {
		t.Fatal(err)
	}
	for _, f := range Files {
		got, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := f.Write(&want, m); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s differs from its renderer's output", f.Name)
		}
	}
	bad := sampleMatrix()
	bad.Cells[0].Status = "bogus"
	empty := filepath.Join(t.TempDir(), "untouched")
	if err := WriteDir(empty, bad); err == nil {
		t.Fatal("an invalid matrix was written")
	}
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("a rendering error must leave the directory as it was: %v", err)
	}
}
