package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
)

// A workspace is a private copy of the inputs the CLI reads: matrix.yaml,
// the provider profiles and the deepseek target's cassettes. Each corpus
// row spoils one of them.
type workspace struct {
	dir, matrix, providers, cassettes, out string
}

func newWorkspace(t *testing.T) *workspace {
	t.Helper()
	dir := t.TempDir()
	w := &workspace{
		dir:       dir,
		matrix:    filepath.Join(dir, "matrix.yaml"),
		providers: filepath.Join(dir, "providers"),
		cassettes: filepath.Join(dir, "cassettes"),
		out:       filepath.Join(dir, "out"),
	}
	copyFile(t, repoMatrix, w.matrix)
	for _, name := range []string{"deepseek.yaml", "mistral.yaml"} {
		copyFile(t, filepath.Join(repoProviders, name), filepath.Join(w.providers, name))
	}
	entries, err := os.ReadDir(filepath.Join(repoCassettes, "deepseek"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		copyFile(t, filepath.Join(repoCassettes, "deepseek", e.Name()), filepath.Join(w.cassettes, "deepseek", e.Name()))
	}
	return w
}

// path returns the workspace path of a file.
func (w *workspace) path(name string) string { return filepath.Join(w.dir, name) }

// write writes a file of the workspace and returns its path.
func (w *workspace) write(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := w.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// spoil rewrites a workspace file through fn and returns its path.
func (w *workspace) spoil(t *testing.T, name string, fn func([]byte) []byte) string {
	t.Helper()
	b, err := os.ReadFile(w.path(name))
	if err != nil {
		t.Fatal(err)
	}
	return w.write(t, name, fn(b))
}

// replace returns an edit replacing the first old with new; the row fails
// when old is not there, so an edit can never silently do nothing.
func replace(t *testing.T, old, new string) func([]byte) []byte {
	return func(b []byte) []byte {
		if !bytes.Contains(b, []byte(old)) {
			t.Fatalf("%q is not in the file to spoil", old)
		}
		return bytes.Replace(b, []byte(old), []byte(new), 1)
	}
}

func truncate(n int) func([]byte) []byte { return func(b []byte) []byte { return b[:n] } }

// truncateAfter cuts the file just after the first occurrence of s, so a cut
// lands mid-line wherever the committed file puts s.
func truncateAfter(t *testing.T, s string) func([]byte) []byte {
	return func(b []byte) []byte {
		i := bytes.Index(b, []byte(s))
		if i < 0 {
			t.Fatalf("%q is not in the file to cut", s)
		}
		return b[:i+len(s)]
	}
}

// lineOf and offsetOf return the 1-based line and the byte offset of the
// first occurrence of s in the workspace file name, so expected positions
// follow the committed files.
func (w *workspace) lineOf(t *testing.T, name, s string) string {
	b, i := w.find(t, name, s)
	return strconv.Itoa(1 + bytes.Count(b[:i], []byte("\n")))
}

func (w *workspace) offsetOf(t *testing.T, name, s string) string {
	_, i := w.find(t, name, s)
	return strconv.Itoa(i)
}

// find returns the workspace file name and the offset of s in it.
func (w *workspace) find(t *testing.T, name, s string) ([]byte, int) {
	t.Helper()
	b, err := os.ReadFile(w.path(name))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte(s))
	if i < 0 {
		t.Fatalf("%q is not in %s", s, name)
	}
	return b, i
}

// run is the run command over the workspace, writing its report to out.
func (w *workspace) run(extra ...string) []string {
	return append([]string{"run", "--matrix", w.matrix, "--providers", w.providers, "--cassettes", w.cassettes, "--out", w.out}, extra...)
}

// A badInput is one row of the corpus: how to spoil an input, the command
// that reads it, and what the command must say.
type badInput struct {
	input  string // which input the row spoils
	reason string
	args   func(t *testing.T, w *workspace) []string
	code   int
	// stderr must hold each of these; each row names the file and the
	// position (line, byte offset, interaction index, JSON path).
	stderr func(w *workspace) []string
	// cell, when set, is the cell of the run's report that must be an
	// error cell whose detail holds each string; the other cells of the
	// target must still have been judged.
	cell   string
	detail func(w *workspace) []string
}

// repoImporter holds the importer's fixtures in every foreign format.
var repoImporter = filepath.Join("..", "..", "importer", "testdata")

func TestBadInputCorpus(t *testing.T) {
	before := committedDigest(t)
	deepseekRun := func(extra ...string) func(*testing.T, *workspace) []string {
		return func(t *testing.T, w *workspace) []string {
			return w.run(append([]string{"--target", "deepseek"}, extra...)...)
		}
	}
	cassette := filepath.Join("cassettes", "deepseek", "carriers.yaml")
	// The target's cell and those of its two aliases, which replay the same cassette.
	notJudged := func(*workspace) []string { return []string{"3 cells could not be judged (error)"} }
	explain := func(w *workspace) []string {
		return []string{"explain", "--matrix", w.matrix, "--provider", "deepseek", "--base-url", "https://api.deepseek.com/v1", "--model", "m"}
	}
	shape := func(w *workspace, session string) []string {
		return []string{"shape", "--matrix", w.matrix, "--provider", "deepseek", "--base-url", "https://api.deepseek.com/v1", "--model", "m", "--session", session}
	}
	responses := filepath.Join("testdata", "responses")
	sample := func(t *testing.T, w *workspace, name string) {
		copyFile(t, filepath.Join(responses, name), w.path(name))
	}

	rows := []badInput{
		// matrix.yaml
		{input: "matrix.yaml", reason: "a cut file names the line and says it may be truncated",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, "matrix.yaml", truncateAfter(t, "  - id: fireworks\n    note: ChatMessage"))
				return explain(w)
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{w.matrix + ":" + w.lineOf(t, "matrix.yaml", "  - id: fireworks") + ": carrier route fireworks: missing carriers", "(the file ends mid-line: truncated?)"}
			}},
		{input: "matrix.yaml", reason: "binary garbage is named by line and byte offset",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, "matrix.yaml", replace(t, "version: 1\n", "version: 1\n\x00\x01\x02\n"))
				return explain(w)
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{w.matrix + ":" + w.lineOf(t, "matrix.yaml", "\x00") + ": byte offset " + w.offsetOf(t, "matrix.yaml", "\x00") + ": control character 0x00: not YAML text"}
			}},
		{input: "matrix.yaml", reason: "an unknown key is named with its line",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, "matrix.yaml", replace(t, "version: 1\n", "version: 1\nroutes: []\n"))
				return explain(w)
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{w.matrix + ":" + w.lineOf(t, "matrix.yaml", "routes: []") + `: matrix: unknown key "routes"`}
			}},
		{input: "matrix.yaml", reason: "a duplicate target id is named with its line",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, "matrix.yaml", replace(t, "{id: kimi, ", "{id: deepseek, "))
				return explain(w)
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{w.matrix + ":" + w.lineOf(t, "matrix.yaml", "{id: deepseek, api_mode: chat, provider: kimi") + `: target: duplicate id "deepseek"`}
			}},
		{input: "matrix.yaml", reason: "an empty file is named",
			args: func(t *testing.T, w *workspace) []string {
				w.write(t, "matrix.yaml", []byte("# nothing\n"))
				return explain(w)
			},
			code:   exitHarness,
			stderr: func(w *workspace) []string { return []string{w.matrix + ": empty document"} }},
		{input: "matrix.yaml", reason: "a target naming a missing profile is an error cell naming the target's line; the run goes on",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, "matrix.yaml", replace(t, "profile: deepseek,\n", "profile: nope,\n"))
				return w.run("--target", "deepseek", "--scenario", "carriers,missing-echo")
			},
			code: exitHarness, stderr: func(*workspace) []string { return []string{"6 cells could not be judged (error)"} },
			cell: "deepseek/carriers",
			detail: func(w *workspace) []string {
				return []string{w.matrix + ":" + w.lineOf(t, "matrix.yaml", "profile: nope,") + `: target deepseek names profile "nope"`}
			}},

		// provider profiles
		{input: "profile", reason: "a rule whose source is misspelt is named with its line",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, "providers/deepseek.yaml", replace(t, "    source: https://api-docs.deepseek.com/guides/thinking_mode; NousResearch", "    sources_: x; NousResearch"))
				return deepseekRun()(t, w)
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{filepath.Join(w.providers, "deepseek.yaml") + ":" + w.lineOf(t, "providers/deepseek.yaml", "sources_:") + `: rule "reasoning-content-missing": unknown key "sources_" in rule`}
			}},
		{input: "profile", reason: "control bytes in a profile are named by line and offset",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, "providers/deepseek.yaml", func(b []byte) []byte { return append(b, 0x07) })
				return deepseekRun()(t, w)
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{filepath.Join(w.providers, "deepseek.yaml") + ":", "control character 0x07: not YAML text"}
			}},

		// cassettes: each spoils deepseek/carriers; the other deepseek cells still run
		{input: "cassette", reason: "a truncated cassette names the interaction's line and says it may be cut",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, cassette, truncate(300))
				return deepseekRun()(t, w)
			},
			code: exitHarness, stderr: notJudged, cell: "deepseek/carriers",
			detail: func(w *workspace) []string {
				return []string{w.path(cassette) + ":10: interaction 0: request needs method and url", "(the file ends mid-line: truncated?)"}
			}},
		{input: "cassette", reason: "a recorded request body that is not JSON names the interaction and the offset",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, cassette, replace(t, `body: '{"model":"deepseek-v4-flash"`, `body: '{"model:"deepseek-v4-flash"`))
				return deepseekRun()(t, w)
			},
			code: exitHarness, stderr: notJudged, cell: "deepseek/carriers",
			detail: func(w *workspace) []string {
				return []string{w.path(cassette) + ":10: interaction 0: request body: jsondiff: invalid JSON at offset 9"}
			}},
		{input: "cassette", reason: "a recorded response body that is not JSON names the interaction and the offset",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, cassette, replace(t, `body: '{"id":"chatcmpl`, `body: '{"id":chatcmpl`))
				return deepseekRun()(t, w)
			},
			code: exitHarness, stderr: notJudged, cell: "deepseek/carriers",
			detail: func(w *workspace) []string {
				return []string{w.path(cassette) + ": interaction 0 (the last answer replayed):", "response body is not valid JSON at offset 6"}
			}},
		{input: "cassette", reason: "a cassette whose provenance names another target is refused",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, cassette, replace(t, "  target: deepseek\n", "  target: nosuch\n"))
				return deepseekRun()(t, w)
			},
			code: exitHarness, stderr: notJudged, cell: "deepseek/carriers",
			detail: func(w *workspace) []string {
				return []string{w.path(cassette) + ": provenance names nosuch/carriers, but the file is the cassette of deepseek/carriers"}
			}},
		{input: "cassette", reason: "a cassette without provenance is refused",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, cassette, func(b []byte) []byte {
					i, j := bytes.Index(b, []byte("provenance:\n")), bytes.Index(b, []byte("interactions:\n"))
					return append(append([]byte{}, b[:i]...), b[j:]...)
				})
				return deepseekRun()(t, w)
			},
			code: exitHarness, stderr: notJudged, cell: "deepseek/carriers",
			detail: func(w *workspace) []string {
				return []string{w.path(cassette) + `: provenance kind "" (want simulated, recorded or agent)`}
			}},
		{input: "cassette", reason: "binary garbage is named by line and byte offset",
			args: func(t *testing.T, w *workspace) []string {
				w.write(t, cassette, []byte("version: 2\n\xff\xfe\x00garbage"))
				return deepseekRun()(t, w)
			},
			code: exitHarness, stderr: notJudged, cell: "deepseek/carriers",
			detail: func(w *workspace) []string {
				return []string{w.path(cassette) + ":2: byte offset 11: not UTF-8 text"}
			}},
		{input: "cassette", reason: "a duplicated interaction id is named as a duplicate with its line",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, cassette, replace(t, "  - id: 1\n", "  - id: 0\n"))
				return deepseekRun()(t, w)
			},
			code: exitHarness, stderr: notJudged, cell: "deepseek/carriers",
			detail: func(w *workspace) []string {
				return []string{w.path(cassette) + ":" + w.lineOf(t, cassette, "  - id: 0\n    request:\n      proto: HTTP/1.1\n      proto_major: 1\n      proto_minor: 1\n      content_length: 632") + ": interaction 1: id 0 duplicates interaction 0"}
			}},
		{input: "cassette", reason: "lint names a cut cassette by file and line, as a finding",
			args: func(t *testing.T, w *workspace) []string {
				w.spoil(t, cassette, truncate(300))
				return []string{"lint", "--matrix", w.matrix, "--providers", w.providers, "--cassettes", w.cassettes}
			},
			code: exitFailures,
			stderr: func(w *workspace) []string {
				return []string{w.path(cassette) + ":10: interaction 0: request needs method and url (the file ends mid-line: truncated?)"}
			}},

		// sessions
		{input: "session", reason: "malformed JSON names line and column",
			args: func(t *testing.T, w *workspace) []string {
				return shape(w, w.write(t, "s.json", []byte("{\n  \"messages\": [\n    {\"role\": \"user\",}\n  ]\n}\n")))
			},
			code: exitHarness, stderr: func(w *workspace) []string { return []string{w.path("s.json") + ":3:21: invalid JSON"} }},
		{input: "session", reason: "a message without a role names its index",
			args: func(t *testing.T, w *workspace) []string {
				return shape(w, w.write(t, "s.json", []byte(`[{"role":"user","content":"hi"},{"content":"no role"}]`)))
			},
			code: exitHarness, stderr: func(w *workspace) []string { return []string{w.path("s.json") + ": session: messages.1: missing role"} }},
		{input: "session", reason: "a reasoning_details item that is not an object names its path",
			args: func(t *testing.T, w *workspace) []string {
				return shape(w, w.write(t, "s.json", []byte(`[{"role":"user","content":"hi"},{"role":"assistant","content":"a","reasoning_details":["x"]}]`)))
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{w.path("s.json") + ": session: messages.1: reasoning_details.0: item is not a JSON object"}
			}},
		{input: "session", reason: "an unknown carrier in the model config names its path",
			args: func(t *testing.T, w *workspace) []string {
				return shape(w, w.write(t, "s.json", []byte(`{"messages":[{"role":"user","content":"hi"}],"model_config":{"rejected_carriers":[{"provider":"p","host":"h","model":"m","carriers":["thinking"]}]}}`)))
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{w.path("s.json") + ": session: model_config.rejected_carriers:", `"thinking"`}
			}},

		// responses and streams
		{input: "response", reason: "a whole body that is not JSON names line and column",
			args: func(t *testing.T, w *workspace) []string {
				return []string{"capture", w.write(t, "r.json", []byte("{\"choices\": [\n  {\"message\": }\n]}\n"))}
			},
			code: exitHarness, stderr: func(w *workspace) []string { return []string{w.path("r.json") + ":2:15: invalid JSON"} }},
		{input: "sse", reason: "a chat event that is not JSON names its byte offset",
			args: func(t *testing.T, w *workspace) []string {
				return []string{"capture", "--stream", w.write(t, "c.sse", []byte("data: {\"choices\":[]}\n\ndata: {not json}\n\n"))}
			},
			code: exitHarness, stderr: func(w *workspace) []string {
				return []string{w.path("c.sse") + ": chat: stream: event at offset 22: data is not valid JSON"}
			}},
		{input: "sse", reason: "a chat stream cut between events is truncated, not a whole answer",
			args: func(t *testing.T, w *workspace) []string {
				sample(t, w, "chat-stream.sse")
				p := w.spoil(t, "chat-stream.sse", func(b []byte) []byte { return b[:nthEventEnd(t, b, 3)] })
				return []string{"capture", "--stream", p}
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{w.path("chat-stream.sse") + ": chat: stream: ended at offset", "before a finish_reason or [DONE] (truncated)"}
			}},
		{input: "sse", reason: "an Anthropic stream cut between events is truncated",
			args: func(t *testing.T, w *workspace) []string {
				sample(t, w, "anthropic-stream.sse")
				p := w.spoil(t, "anthropic-stream.sse", func(b []byte) []byte { return b[:nthEventEnd(t, b, 3)] })
				return []string{"capture", "--api-mode", "anthropic", "--stream", p}
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{w.path("anthropic-stream.sse") + ": anthropic: stream: ended at offset", "before message_stop (truncated)"}
			}},
		{input: "sse", reason: "a Gemini event that is not JSON names its byte offset",
			args: func(t *testing.T, w *workspace) []string {
				return []string{"capture", "--api-mode", "gemini", "--stream", w.write(t, "g.sse", []byte("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}]}\n\ndata: {\"candidates\":[\n\n"))}
			},
			code: exitHarness, stderr: func(w *workspace) []string {
				return []string{w.path("g.sse") + ": gemini: stream: event at offset 61: data is not valid JSON"}
			}},
		{input: "event-stream", reason: "a frame cut short names its offset and length",
			args: func(t *testing.T, w *workspace) []string {
				sample(t, w, "converse-stream.bin")
				return []string{"capture", "--api-mode", "bedrock-converse", "--stream", w.spoil(t, "converse-stream.bin", truncate(500))}
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{w.path("converse-stream.bin") + ": bedrock: stream: frame at offset 310: truncated frame (190 of 192 bytes)"}
			}},
		{input: "event-stream", reason: "bytes that are not a frame name the offset and what is wrong",
			args: func(t *testing.T, w *workspace) []string {
				return []string{"capture", "--api-mode", "bedrock-converse", "--stream", w.write(t, "g.bin", []byte("garbage\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x10"))}
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{w.path("g.bin") + ": bedrock: stream: frame at offset 0: headers length"}
			}},

		// session stores
		{input: "store", reason: "a file that is not SQLite is named",
			args: func(t *testing.T, w *workspace) []string {
				return []string{"session", "show", "--db", w.write(t, "not.db", []byte(strings.Repeat("plain text, not SQLite\n", 100)))}
			},
			code: exitHarness, stderr: func(w *workspace) []string {
				return []string{"store: open " + w.path("not.db") + ": file is not a database"}
			}},
		{input: "store", reason: "another program's database is refused and left as it was",
			args: func(t *testing.T, w *workspace) []string {
				p := w.path("app.db")
				execSQL(t, p, "CREATE TABLE notes (body TEXT)")
				return []string{"session", "show", "--db", p}
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{"store: open " + w.path("app.db") + ": not a replaycheck session store: another program's database (tables notes"}
			}},
		{input: "store", reason: "a corrupt stored message names the session and the message",
			args: func(t *testing.T, w *workspace) []string {
				p := sampleStore(t)
				execSQL(t, p, "UPDATE messages SET body = substr(body, 1, 20) WHERE seq = 1")
				return []string{"session", "show", "--db", p, "another"}
			},
			code: exitHarness, stderr: func(*workspace) []string {
				return []string{`store: session "another": load: message 1: unexpected end of JSON input`}
			}},

		// engine protocol peers (run --engine)
		{input: "engine peer", reason: "a peer answering garbage to hello names the step, the request and the offending bytes",
			args: func(t *testing.T, w *workspace) []string {
				return w.run("--target", "deepseek", "--engine", `sh -c "echo not-json; sleep 5"`)
			},
			code: exitHarness,
			stderr: func(*workspace) []string {
				return []string{`engine protocol: hello request 1: malformed reply: offset 1: invalid character 'o'`, `"not-json"`}
			}},
		{input: "engine peer", reason: "a peer that never answers times out instead of hanging the run",
			args: func(t *testing.T, w *workspace) []string {
				return w.run("--target", "deepseek", "--engine", "sleep 30", "--engine-timeout", "200ms")
			},
			code:   exitHarness,
			stderr: func(*workspace) []string { return []string{"engine protocol: hello request 1: no answer within 200ms"} }},
		{input: "engine peer", reason: "a peer that is not a program is named",
			args: func(t *testing.T, w *workspace) []string {
				return w.run("--target", "deepseek", "--engine", w.path("no-such-connector"))
			},
			code:   exitHarness,
			stderr: func(w *workspace) []string { return []string{w.path("no-such-connector")} }},

		// imported recordings (import) and imported cassettes (run --evidence)
		{input: "import", reason: "a VCR.py cassette with a YAML syntax error names the interaction and the line; nothing is written",
			args: func(t *testing.T, w *workspace) []string {
				copyFile(t, filepath.Join(repoImporter, "vcrpy", "parsed-body.yaml"), w.path("bad.yaml"))
				w.spoil(t, "bad.yaml", replace(t, "      model: claude-opus-4-6\n      stream: true", "      model: [claude-opus-4-6\n      stream: true"))
				return []string{"import", "--matrix", w.matrix, "--out", w.out, "--source-repository", "me/x", "--source-path", "p", w.path("bad.yaml")}
			},
			code: exitHarness, stderr: func(w *workspace) []string { return []string{w.path("bad.yaml") + ": interaction 1: yaml: line"} }},
		{input: "import", reason: "a gzip body that is not gzip names the interaction",
			args: func(t *testing.T, w *workspace) []string {
				copyFile(t, filepath.Join(repoImporter, "vcrpy", "plain-and-gzip.yaml"), w.path("gz.yaml"))
				w.spoil(t, "gz.yaml", replace(t, "        H4sIAAAAAAAA/", "        H4sAAAAAAAAA/"))
				return []string{"import", "--matrix", w.matrix, "--out", w.out, "--source-repository", "me/x", "--source-path", "p", w.path("gz.yaml")}
			},
			code: exitHarness, stderr: func(w *workspace) []string {
				return []string{w.path("gz.yaml") + ": interaction 1: response body: gzip: "}
			}},
		{input: "import", reason: "bad base64 under !!binary names the interaction and the line",
			args: func(t *testing.T, w *workspace) []string {
				copyFile(t, filepath.Join(repoImporter, "vcrpy", "binary-eventstream.yaml"), w.path("b64.yaml"))
				w.spoil(t, "b64.yaml", replace(t, "        YXBwbGljYXRpb24vanNvbg==", "        YXBwbGljYXRpb24vanNvbg=!"))
				return []string{"import", "--matrix", w.matrix, "--out", w.out, "--source-repository", "me/x", "--source-path", "p", w.path("b64.yaml")}
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{w.path("b64.yaml") + ": interaction 0: request: header content-type: line 9: !!binary: bad base64"}
			}},
		{input: "import", reason: "an OpenRouter fixture line that is not JSON names the file, the interaction and the line",
			args: func(t *testing.T, w *workspace) []string {
				for _, f := range []string{"request.json", "response.jsonl", "response.meta.json"} {
					copyFile(t, filepath.Join(repoImporter, "openrouter", "tool-turn", f), w.path(filepath.Join("fx", f)))
				}
				w.spoil(t, "fx/response.jsonl", replace(t, `{"delay_ms":3}`, `{"delay_ms":3`))
				return []string{"import", "--matrix", w.matrix, "--out", w.out, "--source-repository", "me/x", "--source-path", "p", w.path("fx")}
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{w.path("fx/response.jsonl") + ": interaction 0: line 2: not valid JSON"}
			}},
		{input: "imported cassette", reason: "a cut imported cassette is listed in the evidence section; the matrix is still written and the run exits 3",
			args: func(t *testing.T, w *workspace) []string {
				w.write(t, "cassettes/deepseek/recorded/cut.yaml", []byte("version: 2\ninteractions:\n  - id: 0\n    request: {method: POST, url"))
				return w.run("--target", "deepseek", "--evidence", w.cassettes)
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{"1 imported cassette could not be read: the recorded-evidence section names it and why"}
			}},

		// gate bases
		{input: "gate base", reason: "a malformed base table names its line",
			args: func(t *testing.T, w *workspace) []string {
				base := w.write(t, "base.yaml", []byte("version: 1\ntargets: [\n"))
				return []string{"gate", "--base", base, "--matrix", w.matrix, "--providers", w.providers, "--cassettes", w.cassettes}
			},
			code: exitHarness, stderr: func(w *workspace) []string { return []string{w.path("base.yaml") + ": yaml: line 2:"} }},
		{input: "gate base", reason: "a base table with a broken row names its line",
			args: func(t *testing.T, w *workspace) []string {
				copyFile(t, w.matrix, w.path("base.yaml"))
				base := w.spoil(t, "base.yaml", replace(t, "    carriers: [reasoning_content]\n    providers: [fireworks]", "    carriers: [thinking]\n    providers: [fireworks]"))
				return []string{"gate", "--base", base, "--matrix", w.matrix, "--providers", w.providers, "--cassettes", w.cassettes}
			},
			code: exitHarness,
			stderr: func(w *workspace) []string {
				return []string{w.path("base.yaml") + ":" + w.lineOf(t, "base.yaml", "carriers: [thinking]") + ":", `"thinking"`}
			}},
		{input: "gate base", reason: "a base that is neither a file nor a git ref is named",
			args: func(t *testing.T, w *workspace) []string {
				return []string{"gate", "--base", "no-such-ref-" + filepath.Base(w.dir), "--matrix", w.matrix, "--providers", w.providers, "--cassettes", w.cassettes}
			},
			code: exitHarness, stderr: func(w *workspace) []string {
				return []string{`--base "no-such-ref-` + filepath.Base(w.dir) + `" is neither a file nor a git ref`}
			}},
	}

	for _, row := range rows {
		t.Run(row.input+": "+row.reason, func(t *testing.T) {
			w := newWorkspace(t)
			r := runMain(t, "", row.args(t, w)...)
			if r.code != row.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, row.code, r.stdout, r.stderr)
			}
			for _, want := range row.stderr(w) {
				if !strings.Contains(r.stderr+r.stdout, want) {
					t.Errorf("the output does not name %q:\nstdout:\n%s\nstderr:\n%s", want, r.stdout, r.stderr)
				}
			}
			if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
				t.Errorf("bad input must never panic:\n%s", r.stderr)
			}
			if row.cell != "" {
				checkErrorCell(t, w, row.cell, row.detail(w))
			}
			if row.input == "imported cassette" {
				b, err := os.ReadFile(filepath.Join(w.out, "matrix.json"))
				m, rerr := report.ReadJSON(bytes.NewReader(b))
				cut := filepath.ToSlash(filepath.Join(w.cassettes, "deepseek", "recorded", "cut.yaml"))
				if err != nil || rerr != nil || m.Evidence == nil || len(m.Evidence.Unreadable) != 1 || m.Evidence.Unreadable[0].Cassette != cut ||
					!strings.Contains(m.Evidence.Unreadable[0].Detail, "(the file ends mid-line: truncated?)") || len(m.Cells) != 9 {
					t.Errorf("the written report must list the unreadable cassette and every cell: %v %v %+v", err, rerr, m.Evidence)
				}
			}
			if row.input == "import" {
				if entries, _ := os.ReadDir(w.out); len(entries) > 0 {
					t.Errorf("a source that could not be imported wrote %d entries into --out", len(entries))
				}
			}
		})
	}
	if after := committedDigest(t); after != before {
		t.Error("the bad-input corpus changed a committed file (matrix.yaml, providers/, cassettes/ or reports/)")
	}
}

// checkErrorCell reads the report the run wrote and checks that id is an
// error cell naming the bad input, and that the run went on: every other
// cell was judged.
func checkErrorCell(t *testing.T, w *workspace, id string, want []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(w.out, "matrix.json"))
	if err != nil {
		t.Fatalf("the run wrote no report: %v", err)
	}
	m, err := report.ReadJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	target, sc, _ := strings.Cut(id, "/")
	c, ok := m.Cell(target, sc)
	if !ok || c.Status != report.StatusError {
		t.Fatalf("%s: %+v, want an error cell", id, c)
	}
	for _, s := range want {
		if !strings.Contains(c.Detail, s) {
			t.Errorf("%s: detail %q does not name %q", id, c.Detail, s)
		}
	}
	for _, other := range m.Cells {
		if other.ID() != id && other.Status == report.StatusError && !strings.Contains(other.Detail, "names profile") {
			t.Errorf("%s: the bad input spoilt another cell: %+v", other.ID(), other)
		}
	}
	if len(m.Cells) < 2 {
		t.Errorf("the run stopped at the bad cell: %d cells", len(m.Cells))
	}
}

// nthEventEnd returns the offset just after the n-th SSE event of b.
func nthEventEnd(t *testing.T, b []byte, n int) int {
	t.Helper()
	off := 0
	for range n {
		i := bytes.Index(b[off:], []byte("\n\n"))
		if i < 0 {
			t.Fatalf("the sample has fewer than %d events", n)
		}
		off += i + 2
	}
	return off
}

// execSQL runs statements on a SQLite file, creating it when missing.
func execSQL(t *testing.T, path, stmts string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), stmts); err != nil {
		t.Fatal(err)
	}
}

// committedDigest hashes the committed inputs and outputs the corpus must
// never touch.
func committedDigest(t *testing.T) string {
	t.Helper()
	h := sha256.New()
	for _, root := range []string{repoMatrix, repoProviders, repoCassettes, filepath.Join("..", "..", "reports")} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			h.Write([]byte(path))
			h.Write(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
