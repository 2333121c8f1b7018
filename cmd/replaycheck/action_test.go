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
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

// actionStep is one step of the action.
type actionStep struct {
	Name             string            `yaml:"name"`
	Uses             string            `yaml:"uses"`
	Shell            string            `yaml:"shell"`
	WorkingDirectory string            `yaml:"working-directory"`
	Env              map[string]string `yaml:"env"`
	Run              string            `yaml:"run"`
}

var expression = regexp.MustCompile(`\$\{\{\s*([a-z_.-]+)\s*\}\}`)

// TestActionInAConsumerRepository runs the action's shell steps as the
// Actions runner would (expressions substituted, the runner's files in a
// temporary directory) in a scratch consumer repository that is not this
// one: a git repository holding a route table and its cassettes in a
// subdirectory, and no provider profiles (the embedded ones are used).
// Each pull request is a commit on top of the base: a harmful edit fails
// the step with annotations on the edited line and the regressed target's
// line, a harmless one passes, and an empty or missing cassette directory
// fails it with exit 3.
func TestActionInAConsumerRepository(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds replaycheck as the action does")
	}
	a := loadAction(t)
	consumer := t.TempDir()
	work := filepath.Join(consumer, "replay")
	copyFile(t, repoMatrix, filepath.Join(work, "matrix.yaml"))
	if err := os.CopyFS(filepath.Join(work, "cassettes"), os.DirFS(repoCassettes)); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(work, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, consumer, "init", "-q", "-b", "main")
	git(t, consumer, "add", ".")
	git(t, consumer, "commit", "-q", "-m", "base")
	base, _ := os.ReadFile(filepath.Join(work, "matrix.yaml"))
	// pr commits an edit of the table as a pull request's head (the base
	// is HEAD^, the action's default), runs the action's steps on it, and
	// resets the repository.
	pr := func(t *testing.T, edit func(string) string, inputs map[string]string) actionRun {
		t.Helper()
		edited := edit(string(base))
		if err := os.WriteFile(filepath.Join(work, "matrix.yaml"), []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, consumer, "commit", "-q", "--allow-empty", "-am", "head")
		defer git(t, consumer, "reset", "-q", "--hard", "HEAD^")
		return a.run(t, consumer, map[string]string{"working-directory": "replay"}, inputs)
	}

	t.Run("a harmful edit fails the step", func(t *testing.T) {
		r := pr(t, func(s string) string {
			return strings.Replace(s, "carriers: []\n    providers: [mistral", "carriers: [reasoning_content]\n    providers: [mistral", 1)
		}, nil)
		if r.code != exitFailures {
			t.Fatalf("exit %d, want 1\n%s", r.code, r.out)
		}
		edited := strconv.Itoa(1 + strings.Count(string(base[:strings.Index(string(base), "carriers: []\n    providers: [mistral")]), "\n"))
		for _, want := range []string{
			"::error file=matrix.yaml,line=" + edited + ",endLine=" + edited + ",title=replaycheck gate%3A this edit of the route table::",
			"::error file=matrix.yaml,line=" + targetLine(t, filepath.Join(work, "matrix.yaml"), "mistral") + ",title=replaycheck regression%3A mistral/strict-schema::",
			"Extra inputs are not permitted",
		} {
			if !strings.Contains(r.out, want) {
				t.Errorf("no %q in the step's output:\n%s", want, r.out)
			}
		}
		if !strings.Contains(r.summary, "## replaycheck gate") || !strings.Contains(r.summary, "| regression |") {
			t.Errorf("the job summary lacks the Markdown matrix diff:\n%s", r.summary)
		}
		if n := strings.Count(r.out, "title=replaycheck regression%3A"); n == 0 || !strings.Contains(r.output, "regressions="+strconv.Itoa(n)+"\n") {
			t.Errorf("GITHUB_OUTPUT %q, want regressions=%d", r.output, n)
		}
	})
	t.Run("a harmless edit passes", func(t *testing.T) {
		r := pr(t, func(s string) string {
			return strings.Replace(s, "note: schemas refuse unknown message keys with 400/422", "note: schemas refuse unknown message keys (400 or 422)", 1)
		}, nil)
		if r.code != exitOK || !strings.Contains(r.out, "gate: no regression") || !strings.Contains(r.out, "lint: ") {
			t.Errorf("exit %d, want 0 after lint and the gate:\n%s", r.code, r.out)
		}
		if !strings.Contains(r.output, "regressions=0\n") {
			t.Errorf("GITHUB_OUTPUT %q, want regressions=0", r.output)
		}
	})
	t.Run("an entry no target reaches fails the step", func(t *testing.T) {
		r := pr(t, func(s string) string {
			return strings.Replace(s, "hosts: [mistral.ai, groq.com,", "hosts: [mistral.ai, groq.com, api.together.xyz,", 1)
		}, map[string]string{"lint": "false"})
		if r.code != exitFailures || !strings.Contains(r.out, "title=replaycheck coverage%3A no target or alias reaches this entry::carrier_routes[strict].hosts: api.together.xyz") {
			t.Errorf("exit %d, want 1 with a coverage annotation:\n%s", r.code, r.out)
		}
	})
	t.Run("an agent's connector is held to its baseline", func(t *testing.T) {
		// The passing baseline is TestGateOverAnEngine's: here, the step's
		// wiring of a baseline that no longer holds.
		eng, expect := pythonExample(t)
		same := func(s string) string { return s }
		b, _ := os.ReadFile(expect)
		fewer := filepath.Join(t.TempDir(), "fewer.yaml")
		text := strings.Replace(string(b), "  - target: sambanova\n    scenario: fallback\n", "  - target: hunyuan\n    scenario: carriers\n", 1)
		if err := os.WriteFile(fewer, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		r := pr(t, same, map[string]string{"engine": eng, "baseline": fewer, "lint": "false"})
		if r.code != exitFailures || !strings.Contains(r.out, "REGRESSION  sambanova/fallback: fail") || !strings.Contains(r.output, "regressions=2\n") ||
			!strings.Contains(r.summary, "REGRESSION  hunyuan/carriers") {
			t.Errorf("exit %d, want 1 with 2 regressions in the output and the summary:\n%s\n%s", r.code, r.out, r.output)
		}
	})
	for _, dir := range []string{"empty", "nope"} {
		t.Run("cassettes "+dir+" fails the step with exit 3", func(t *testing.T) {
			r := pr(t, func(s string) string {
				return strings.Replace(s, "default_carriers: [reasoning_content]", "default_carriers: []", 1)
			}, map[string]string{"cassettes": dir})
			if r.code != exitHarness || !strings.Contains(r.out, "::error title=replaycheck gate::cassettes "+dir+": ") || strings.Contains(r.out, "no regression") {
				t.Errorf("exit %d, want 3 naming the directory:\n%s", r.code, r.out)
			}
		})
	}
}

// action is the parsed action.yml and the replaycheck it built.
type action struct {
	actionFile
	root string
	// runner is RUNNER_TEMP, where the build step leaves the binary.
	runner string
}

// loadAction parses the action and runs its build step once.
func loadAction(t *testing.T) *action {
	t.Helper()
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	a := &action{runner: t.TempDir()}
	if err := yaml.Unmarshal(b, &a.actionFile); err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using %q, want composite", a.Runs.Using)
	}
	a.root, _ = filepath.Abs("../..")
	built := false
	for _, step := range a.Runs.Steps {
		if step.Uses != "" || step.Name == "gate" {
			continue // actions/setup-go: this machine has Go
		}
		r := a.step(t, step, "", nil)
		if r.code != 0 {
			t.Fatalf("step %q: exit %d\n%s", step.Name, r.code, r.out)
		}
		built = true
	}
	if !built {
		t.Fatal("the action has no build step")
	}
	return a
}

// actionRun is what one run of the gate step left.
type actionRun struct {
	code                 int
	out, summary, output string
}

// run runs the gate step in the workspace with the inputs given (the
// defaults for the others).
func (a *action) run(t *testing.T, workspace string, inputs ...map[string]string) actionRun {
	t.Helper()
	set := map[string]string{}
	for _, in := range inputs {
		for k, v := range in {
			set[k] = v
		}
	}
	for name, in := range a.Inputs {
		if _, ok := set[name]; !ok {
			set[name] = in.Default
		}
	}
	for _, step := range a.Runs.Steps {
		if step.Name == "gate" {
			return a.step(t, step, workspace, set)
		}
	}
	t.Fatal("the action has no gate step")
	return actionRun{}
}

// step runs one shell step as the Actions runner would: expressions
// substituted, in its working directory under the workspace, with the
// runner's files.
func (a *action) step(t *testing.T, step actionStep, workspace string, inputs map[string]string) actionRun {
	t.Helper()
	if step.Shell != "bash" {
		t.Fatalf("step %q: shell %q (want bash)", step.Name, step.Shell)
	}
	eval := func(s string) string {
		return expression.ReplaceAllStringFunc(s, func(m string) string {
			expr := expression.FindStringSubmatch(m)[1]
			switch {
			case expr == "github.action_path":
				return a.root
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
	files := t.TempDir()
	summary, output := filepath.Join(files, "summary.md"), filepath.Join(files, "output")
	cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", step.Run)
	cmd.Dir = filepath.Join(workspace, eval(step.WorkingDirectory))
	cmd.Env = append(testEnv(t), "RUNNER_TEMP="+a.runner, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_OUTPUT="+output,
		"PATH="+filepath.Dir(goTool(t))+string(os.PathListSeparator)+os.Getenv("PATH"))
	for k, v := range step.Env {
		cmd.Env = append(cmd.Env, k+"="+eval(v))
	}
	out, err := cmd.CombinedOutput()
	r := actionRun{out: string(out)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("step %q: %v", step.Name, err)
	}
	s, _ := os.ReadFile(summary)
	o, _ := os.ReadFile(output)
	r.summary, r.output = string(s), string(o)
	return r
}

// git runs git in dir as a throwaway committer.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=replaycheck test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = testEnv(t, "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
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
