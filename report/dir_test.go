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

func TestWriteDirBadges(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, BadgeDir, "removed-target.json")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := sampleMatrix()
	if err := WriteDir(dir, m); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Error("the badge of a target no longer in the matrix was left behind")
	}
	for _, b := range Badges(m) {
		got, err := os.ReadFile(filepath.Join(dir, b.Path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, b.Badge.encode()) {
			t.Errorf("%s differs from its badge", b.Path)
		}
	}
}
