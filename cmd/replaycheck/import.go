package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/replaycheck/replaycheck/importer"
)

func runImport(ctx context.Context, std *streams, args []string) error {
	f := newFlags("import",
		"import [--out DIR] [--target ID] [--name NAME] [--source-repository R] [--source-path P]\n"+
			"       [--source-commit C] [--source-licence L] [--dry-run] PATH...",
		"Import reads recorded LLM traffic that other projects keep — VCR.py and\n"+
			"pytest-recording YAML cassettes (plain, pydantic-ai parsed_body, gzip and\n"+
			"!!binary bodies, whole cassettes gzip-compressed), go-vcr v3/v4 cassettes,\n"+
			"Vercel AI SDK fixtures (*.chunks.txt, *.json) and OpenRouter ai-sdk-provider\n"+
			"e2e fixture directories (request.json, response.jsonl, response.meta.json)\n"+
			"— from the files and directories given, and writes each source's exchanges\n"+
			"as go-vcr cassettes at DIR/<target>/recorded/<name>.yaml with recorded\n"+
			"provenance and the source cited, scrubbed exactly as record scrubs (only\n"+
			"Content-Type headers, no credential query parameters; a body that still\n"+
			"looks like it holds a key writes nothing). Each exchange goes to the target\n"+
			"of its host, path and model, or of the same host and api mode when the\n"+
			"route decision is the same; --target places every exchange at one target.\n"+
			"An exchange no target takes is printed with the reason, and every file\n"+
			"that is not a recording is printed with why it was skipped. The source\n"+
			"(repository, path, commit, licence) comes from the --source flags or a\n"+
			"MANIFEST.md table beside the files; --source-path is a directory's path\n"+
			"in its repository when PATH is a directory. `replaycheck run` checks the\n"+
			"imported cassettes (capture, reproduction, simulator fidelity) in its\n"+
			"recorded-evidence section. Malformed input exits 3 naming the file and the\n"+
			"interaction; the other sources are still imported.")
	var opts importer.Options
	f.StringVar(&opts.Out, "out", "cassettes", "the cassette `DIR`")
	f.StringVar(&opts.Target, "target", "", "place every exchange at target `ID`")
	f.StringVar(&opts.Name, "name", "", "the cassette `NAME` of a single source (default: its path below PATH)")
	f.StringVar(&opts.Source.Repository, "source-repository", "", "the public repository `R` the recordings come from (owner/name)")
	f.StringVar(&opts.Source.Path, "source-path", "", "the recording's path `P` in that repository")
	f.StringVar(&opts.Source.Commit, "source-commit", "", "the commit `C` the recordings were read at")
	f.StringVar(&opts.Source.Licence, "source-licence", "", "the recordings' licence `L` (SPDX id)")
	f.BoolVar(&opts.DryRun, "dry-run", false, "read and place everything, write nothing")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return f.usagef("missing PATH: the recordings to import")
	}
	if opts.Name != "" && importer.Name(opts.Name) != opts.Name {
		return f.usagef("--name %q: want lower-case words of letters and digits joined by -", opts.Name)
	}
	mf, err := f.loadMatrix()
	if err != nil {
		return err
	}
	if opts.Target != "" {
		if _, ok := mf.Target(opts.Target); !ok {
			return f.usagef("--target %q: no such target in %s", opts.Target, mf.Path)
		}
	}
	opts.Matrix = mf
	results, err := importer.Import(pos, opts)
	if err != nil {
		return err
	}
	failed := printImport(std.out, results, opts.DryRun)
	if failed > 0 {
		what := "sources"
		if failed == 1 {
			what = "source"
		}
		return fmt.Errorf("%d %s could not be imported (nothing written for them)", failed, what)
	}
	return nil
}

// printImport prints one block per entry and a summary line, and returns
// how many sources failed.
func printImport(w io.Writer, results []importer.Result, dryRun bool) int {
	var recordings, exchanges, placed, dialectOnly, unplaced, skipped, failed, written int
	for _, r := range results {
		switch {
		case r.Entry.Skip != "":
			skipped++
			fmt.Fprintf(w, "%s: skipped: %s\n", r.Entry.Path, r.Entry.Skip)
			continue
		case r.Err != nil && r.Recording == nil:
			failed++
			fmt.Fprintf(w, "%s: error: %v\n", r.Entry.Path, r.Err)
			continue
		}
		recordings++
		rec := r.Recording
		fmt.Fprintf(w, "%s: %s, %s", r.Entry.Path, rec.Format, plural(len(rec.Exchanges), "exchange"))
		if r.Source.Repository != "" {
			fmt.Fprintf(w, "; source %s %s", r.Source.Repository, r.Source.Path)
			if r.Source.Commit != "" {
				fmt.Fprintf(w, "@%s", r.Source.Commit[:min(12, len(r.Source.Commit))])
			}
			if r.Source.Licence != "" {
				fmt.Fprintf(w, " (%s)", r.Source.Licence)
			}
		}
		fmt.Fprintln(w)
		for i, p := range r.Placements {
			e := rec.Exchanges[i]
			exchanges++
			line := fmt.Sprintf("  interaction %d: %s", e.Index, e.Describe())
			if p.Route.Model != "" {
				line += " (" + p.Route.Model + ")"
			}
			if p.DialectOnly() {
				dialectOnly++
				fmt.Fprintf(w, "%s: %s\n", line, p.Note)
				continue
			}
			if p.Target == "" {
				unplaced++
				fmt.Fprintf(w, "%s: unplaced: %s\n", line, p.Unplaced)
				continue
			}
			placed++
			line += ": target " + p.Target
			if p.Note != "" {
				line += " (" + p.Note + ")"
			}
			fmt.Fprintln(w, line)
		}
		if r.Err != nil {
			failed++
			fmt.Fprintf(w, "  error: %v\n", r.Err)
			continue
		}
		verb := "wrote"
		if dryRun {
			verb = "would write"
		}
		for _, p := range r.Written {
			written++
			fmt.Fprintf(w, "  %s %s\n", verb, filepath.ToSlash(p))
		}
	}
	parts := []string{
		fmt.Sprintf("%s (%s: %d placed, %d checked against their dialect only, %d unplaced)", plural(recordings, "recording"), plural(exchanges, "exchange"), placed, dialectOnly, unplaced),
		fmt.Sprintf("%s written", plural(written, "cassette")),
		fmt.Sprintf("%d skipped", skipped),
		fmt.Sprintf("%d failed", failed),
	}
	fmt.Fprintf(w, "import: %s\n", strings.Join(parts, ", "))
	return failed
}

// plural returns "1 exchange" or "n exchanges".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
