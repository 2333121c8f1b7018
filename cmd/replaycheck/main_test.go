package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// testMatrix is the project's route table; the goldens show what it
// decides, so a table change shows up as a golden diff.
const testMatrix = "../../matrix.yaml"

type result struct {
	code           int
	stdout, stderr string
}

func runMain(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(stdin), &out, &errb)
	return result{code, out.String(), errb.String()}
}

// checkGolden compares got with testdata/golden/<name>, or rewrites it
// under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// goldenCase runs a command that must succeed and compares its output.
type goldenCase struct {
	reason string
	golden string
	args   []string
	stdin  string
}

func runGolden(t *testing.T, tests []goldenCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			r := runMain(t, tt.stdin, tt.args...)
			if r.code != 0 {
				t.Fatalf("%s: exit %d, stderr:\n%s", tt.reason, r.code, r.stderr)
			}
			if r.stderr != "" {
				t.Errorf("%s: unexpected stderr:\n%s", tt.reason, r.stderr)
			}
			checkGolden(t, tt.golden, r.stdout)
		})
	}
}

func TestHelp(t *testing.T) {
	runGolden(t, []goldenCase{
		{reason: "help lists every command", golden: "help.txt", args: []string{"help"}},
		{reason: "explain -h prints its flags", golden: "help-explain.txt", args: []string{"explain", "-h"}},
		{reason: "shape -h prints its flags", golden: "help-shape.txt", args: []string{"shape", "-h"}},
		{reason: "capture -h prints its flags", golden: "help-capture.txt", args: []string{"capture", "--help"}},
		{reason: "connector -h says what it serves", golden: "help-connector.txt", args: []string{"connector", "-h"}},
		{reason: "help session lists its subcommands", golden: "help-session.txt", args: []string{"help", "session"}},
		{reason: "help session show prints its flags", golden: "help-session-show.txt", args: []string{"help", "session", "show"}},
	})
	// Every command is reachable through help and -h alike.
	for _, c := range commands {
		viaHelp := runMain(t, "", "help", c.name)
		viaFlag := runMain(t, "", c.name, "-h")
		if viaHelp.code != 0 || viaHelp.stdout == "" || viaHelp.stdout != viaFlag.stdout {
			t.Errorf("%s: help and -h disagree or fail (exit %d / %d)", c.name, viaHelp.code, viaFlag.code)
		}
		if !strings.Contains(runMain(t, "", "help").stdout, c.name+" ") {
			t.Errorf("help does not list %s", c.name)
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
