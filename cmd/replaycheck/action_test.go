package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionFile is the composite GitHub Action at the repository root.
type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			Name             string            `yaml:"name"`
			Uses             string            `yaml:"uses"`
			Shell            string            `yaml:"shell"`
			WorkingDirectory string            `yaml:"working-directory"`
			Env              map[string]string `yaml:"env"`
			Run              string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

var expression = regexp.MustCompile(`\$\{\{\s*([a-z_.-]+)\s*\}\}`)

// TestActionRunsTheGate runs the action's shell steps as the Actions
// runner would (expressions substituted, the runner's files in a temporary
// directory) on a head table that regresses, and checks what a pull
// request would show: a failed step, ::error annotations, the job summary
// and the regressions output.
func TestActionRunsTheGate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds replaycheck as the action does")
	}
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action actionFile
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(&action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("runs.using %q, want composite", action.Runs.Using)
	}
	root, _ := filepath.Abs("../..")
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	runner := t.TempDir()
	workspace := t.TempDir()
	copyFile(t, strictReadsRC(t), filepath.Join(workspace, "matrix.yaml"))
	inputs := map[string]string{
		"base": abs(repoMatrix), "head": "matrix.yaml",
		"cassettes": abs(repoCassettes), "providers": abs(repoProviders), "working-directory": workspace,
	}
	for name, in := range action.Inputs {
		if _, set := inputs[name]; !set {
			inputs[name] = in.Default
		}
	}
	eval := func(s string) string {
		return expression.ReplaceAllStringFunc(s, func(m string) string {
			expr := expression.FindStringSubmatch(m)[1]
			switch {
			case expr == "github.action_path":
				return root
			case strings.HasPrefix(expr, "inputs."):
				v, ok := inputs[strings.TrimPrefix(expr, "inputs.")]
				if !ok {
					t.Fatalf("the action uses an undeclared input: %s", m)
				}
				return v
			}
			t.Fatalf("expression %s is not known to this test", m)
			return ""
		})
	}
	summary, output := filepath.Join(runner, "summary.md"), filepath.Join(runner, "output")
	goBin := filepath.Dir(goTool(t))
	var gateOut string
	var gateErr error
	for _, step := range action.Runs.Steps {
		if step.Uses != "" {
			continue // actions/setup-go: this machine has Go
		}
		if step.Shell != "bash" {
			t.Fatalf("step %q: shell %q (want bash)", step.Name, step.Shell)
		}
		cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", step.Run)
		cmd.Dir = eval(step.WorkingDirectory)
		cmd.Env = append(testEnv(t), "RUNNER_TEMP="+runner, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_OUTPUT="+output,
			"PATH="+goBin+string(os.PathListSeparator)+os.Getenv("PATH"))
		for k, v := range step.Env {
			cmd.Env = append(cmd.Env, k+"="+eval(v))
		}
		out, err := cmd.CombinedOutput()
		if step.Name == "gate" {
			gateOut, gateErr = string(out), err
			continue
		}
		if err != nil {
			t.Fatalf("step %q: %v\n%s", step.Name, err, out)
		}
	}
	if ee, ok := gateErr.(*exec.ExitError); !ok || ee.ExitCode() != exitFailures {
		t.Errorf("the gate step must fail with exit 1 on a regression, got %v\n%s", gateErr, gateOut)
	}
	if !strings.Contains(gateOut, "::error file=matrix.yaml,line="+targetLine(t, filepath.Join(workspace, "matrix.yaml"), "mistral")+",") {
		t.Errorf("no ::error annotation on mistral's line:\n%s", gateOut)
	}
	if s, _ := os.ReadFile(summary); !strings.Contains(string(s), "## replaycheck gate") || !strings.Contains(string(s), "| regression |") {
		t.Errorf("the job summary lacks the Markdown matrix diff:\n%s", s)
	}
	o, _ := os.ReadFile(output)
	if n := strings.Count(gateOut, "::error file="); !strings.Contains(string(o), "regressions="+strconv.Itoa(n)+"\n") || n == 0 {
		t.Errorf("GITHUB_OUTPUT %q, want regressions=%d", o, n)
	}
}

// goTool returns the go command of the toolchain running the tests.
func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	return p
}
