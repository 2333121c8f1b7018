package importer

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// TestRead reads one fixture of every format and checks what each
// exchange became: format, request line, status, decoded body, the date
// of its Date header, and the mode and model of a response-only fixture.
func TestRead(t *testing.T) {
	tests := []struct {
		path      string
		format    Format
		exchanges int
		index     int // the exchange checked
		describe  string
		status    int
		body      string // a fragment of the decoded response body
		reqBody   string // a fragment of the decoded request body
		date      string
		mode      engine.APIMode
		model     string
		reason    string
	}{
		{"vcrpy/plain-and-gzip.yaml", FormatVCRPy, 2, 0, "POST api.deepseek.com/v1/chat/completions", 200,
			`"reasoning_content":"Looking at the cache notes."`, `"stream":false`, "2026-03-03", "", "",
			"a plain body.string request and response; the Date header dates it"},
		{"vcrpy/plain-and-gzip.yaml", FormatVCRPy, 2, 1, "POST api.deepseek.com/v1/chat/completions", 200,
			`"reasoning_content":"Checked the notes twice."`, `"tool_call_id":"call_fx1"`, "", "", "",
			"a gzip-compressed !!binary body is decompressed"},
		{"vcrpy/parsed-body.yaml", FormatVCRPy, 3, 0, "POST api.anthropic.com/v1/messages", 200,
			`"signature":"c2lnbmF0dXJlLW9mLXRoZS1maXh0dXJl"`, `"temperature":1.0`, "", "", "",
			"parsed_body maps become JSON, and 1.0 keeps its literal"},
		{"vcrpy/parsed-body.yaml", FormatVCRPy, 3, 1, "POST api.anthropic.com/v1/messages", 200,
			"event: content_block_delta\ndata: {", `"stream":true`, "", "", "",
			"a stream kept under body.string stays verbatim"},
		{"vcrpy/parsed-body.yaml", FormatVCRPy, 3, 2, "POST api.anthropic.com/v1/messages", 400,
			`"effort: unknown level 'extreme' (fixture wording)"`, `"effort":"extreme"`, "", "", "",
			"a refusal keeps its status and body"},
		{"vcrpy/binary-eventstream.yaml", FormatVCRPy, 1, 0, "POST bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-opus-4-6-v1%3A0/converse-stream", 200,
			":event-type\x07\x00\x11contentBlockDelta", `"Bridge or ferry?"`, "", "", "",
			"!!binary headers and event-stream frames decode to their bytes"},
		{"vcrpy/whole-cassette.yaml.gz", FormatVCRPy, 3, 0, "POST api.anthropic.com/v1/messages", 200,
			`"thinking":"The north bridge is 200 m, the south one 350 m."`, "", "", "", "",
			"a whole cassette compressed with gzip is read like the plain one"},
		{"govcr/v3-full-fields.yaml", FormatGoVCR, 1, 0, "POST generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:generateContent", 200,
			`"thoughtSignature":"dGhvdWdodC1zaWduYXR1cmUtZml4dHVyZQ=="`, `"Name a river."`, "2026-03-04", "", "",
			"a go-vcr v3 cassette with every field written"},
		{"govcr/v4-omitempty.yaml", FormatGoVCR, 1, 0, "POST openrouter.ai/api/v1/chat/completions", 400,
			`"Provider returned error"`, `"reasoning_details"`, "", "", "",
			"a go-vcr v4 cassette without its empty fields"},
		{"aisdk/converse-reasoning.chunks.txt", FormatAISDKChunks, 1, 0, "response only (bedrock-converse)", 200,
			":event-type\x07\x00\x0cmessageStart", "", "", engine.ModeBedrockConverse, "",
			"Converse stream events become event-stream frames"},
		{"aisdk/gemini-tool-call.chunks.txt", FormatAISDKChunks, 1, 0, "response only (gemini)", 200,
			"data: {\"candidates\"", "", "", engine.ModeGemini, "gemini-3-pro-preview",
			"Gemini chunks become SSE data lines; modelVersion names the model"},
		{"aisdk/anthropic-thinking.chunks.txt", FormatAISDKChunks, 1, 0, "response only (anthropic)", 200,
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0", "", "", engine.ModeAnthropic, "claude-opus-4-6",
			"Anthropic events get their event: names back"},
		{"aisdk/chat-reasoning.chunks.txt", FormatAISDKChunks, 1, 0, "response only (chat)", 200,
			"data: [DONE]\n\n", "", "", engine.ModeChat, "deepseek-v4-flash",
			"chat chunks end with [DONE]"},
		{"aisdk/converse-reasoning.json", FormatAISDKJSON, 1, 0, "response only (bedrock-converse)", 200,
			`"reasoningText"`, "", "", engine.ModeBedrockConverse, "",
			"a whole response fixture is the body"},
		{"openrouter/tool-turn", FormatOpenRouterE2E, 1, 0, "POST openrouter.ai/api/v1/chat/completions", 200,
			": OPENROUTER PROCESSING\n\ndata: {", `"reasoning":{"enabled":true}`, "2026-03-05", "", "",
			"an e2e fixture directory: comments kept, delays dropped"},
		{"openrouter/tool-turn", FormatOpenRouterE2E, 1, 0, "POST openrouter.ai/api/v1/chat/completions", 200,
			`data: {"id":"gen-fx","object":"chat.completion.chunk","model":"anthropic/claude-sonnet-4.5","choices":[{"index":0,"delta":{"content":"Sunny."},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n",
			"", "2026-03-05", "", "", "text pieces of one event join into one data line"},
	}
	for _, tc := range tests {
		rec, err := Read(filepath.Join("testdata", tc.path))
		if err != nil {
			t.Errorf("%s: %s: %v", tc.path, tc.reason, err)
			continue
		}
		if rec.Format != tc.format || len(rec.Exchanges) != tc.exchanges {
			t.Errorf("%s: %s: format %s with %d exchanges, want %s with %d", tc.path, tc.reason, rec.Format, len(rec.Exchanges), tc.format, tc.exchanges)
			continue
		}
		e := rec.Exchanges[tc.index]
		switch {
		case e.Index != tc.index:
			t.Errorf("%s: %s: index %d", tc.path, tc.reason, e.Index)
		case e.Describe() != tc.describe:
			t.Errorf("%s: %s: describes as %q, want %q", tc.path, tc.reason, e.Describe(), tc.describe)
		case e.Status != tc.status:
			t.Errorf("%s: %s: status %d, want %d", tc.path, tc.reason, e.Status, tc.status)
		case !bytes.Contains(e.ResponseBody, []byte(tc.body)):
			t.Errorf("%s: %s: response body lacks %q:\n%.300s", tc.path, tc.reason, tc.body, e.ResponseBody)
		case !bytes.Contains(e.RequestBody, []byte(tc.reqBody)):
			t.Errorf("%s: %s: request body lacks %q:\n%.300s", tc.path, tc.reason, tc.reqBody, e.RequestBody)
		case e.Date != tc.date:
			t.Errorf("%s: %s: date %q, want %q", tc.path, tc.reason, e.Date, tc.date)
		case e.Mode != tc.mode || e.Model != tc.model:
			t.Errorf("%s: %s: mode %q model %q, want %q %q", tc.path, tc.reason, e.Mode, e.Model, tc.mode, tc.model)
		}
		if len(e.RequestBody) > 0 && !gjson.ValidBytes(e.RequestBody) {
			t.Errorf("%s: %s: the request body is not JSON: %.200s", tc.path, tc.reason, e.RequestBody)
		}
	}
}

// writeTemp writes a file named name into a new temporary directory.
func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// fixture returns a testdata file with one replacement made.
func fixture(t *testing.T, name, old, new string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s: %q not found", name, old)
	}
	return bytes.Replace(b, []byte(old), []byte(new), 1)
}

func gzipped(b []byte) []byte {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(b)
	zw.Close()
	return z.Bytes()
}

// TestReadErrors feeds malformed input of every kind and checks the error
// names the file and the interaction index (and the line or offset).
func TestReadErrors(t *testing.T) {
	frames := func(t *testing.T) string {
		b, _ := os.ReadFile(filepath.Join("testdata", "vcrpy", "binary-eventstream.yaml"))
		s := string(b)
		return s
	}
	tests := []struct {
		name   string
		data   func(t *testing.T) []byte
		want   []string
		reason string
	}{
		{"bad.yaml", func(t *testing.T) []byte {
			return fixture(t, "vcrpy/parsed-body.yaml", "      model: claude-opus-4-6\n      stream: true", "      model: [claude-opus-4-6\n      stream: true")
		}, []string{"bad.yaml: interaction 1: yaml: line"}, "a YAML syntax error names the interaction it falls in"},
		{"bad-gzip.yaml", func(t *testing.T) []byte {
			return fixture(t, "vcrpy/plain-and-gzip.yaml", "        H4sIAAAAAAAA/", "        H4sAAAAAAAAA/")
		}, []string{"bad-gzip.yaml: interaction 1: response body: gzip: "}, "a corrupted gzip body"},
		{"bad-base64.yaml", func(t *testing.T) []byte {
			return fixture(t, "vcrpy/binary-eventstream.yaml", "        YXBwbGljYXRpb24vanNvbg==", "        YXBwbGljYXRpb24vanNvbg=!")
		}, []string{"bad-base64.yaml: interaction 0: request: header content-type: line 9: !!binary: bad base64"}, "bad base64 in a !!binary header names its line"},
		{"bad-frames.yaml", func(t *testing.T) []byte {
			s := frames(t)
			i := strings.Index(s, "      string: !!binary |\n") + len("      string: !!binary |\n")
			body := s[i : strings.Index(s[i:], "    headers:")+i]
			raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(body), ""))
			if err != nil {
				t.Fatal(err)
			}
			raw[len(raw)-3] ^= 0xff // the last frame's CRC
			return []byte(s[:i] + "        " + base64.StdEncoding.EncodeToString(raw) + "\n" + s[i+len(body):])
		}, []string{"bad-frames.yaml: interaction 0: response body: event-stream: frame at offset "}, "a frame with a broken CRC names its offset"},
		{"truncated-frames.yaml", func(t *testing.T) []byte {
			s := frames(t)
			i := strings.Index(s, "      string: !!binary |\n") + len("      string: !!binary |\n")
			body := s[i : strings.Index(s[i:], "    headers:")+i]
			raw, _ := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(body), ""))
			return []byte(s[:i] + "        " + base64.StdEncoding.EncodeToString(raw[:len(raw)-20]) + "\n" + s[i+len(body):])
		}, []string{"truncated-frames.yaml: interaction 0: response body: event-stream: frame at offset "}, "a truncated stream"},
		{"bad-status.yaml", func(t *testing.T) []byte {
			return fixture(t, "vcrpy/parsed-body.yaml", "      code: 400\n", "      code: 4000\n")
		}, []string{`bad-status.yaml: interaction 2: response: line 134: status code "4000" is not an HTTP status`}, "a status out of range"},
		{"no-uri.yaml", func(t *testing.T) []byte {
			return fixture(t, "vcrpy/plain-and-gzip.yaml", "    uri: https://api.deepseek.com/v1/chat/completions\n", "")
		}, []string{"no-uri.yaml: interaction 1: request: line ", "no uri"}, "an interaction without a uri is refused"},
		{"dup-key.yaml", func(t *testing.T) []byte {
			return fixture(t, "vcrpy/parsed-body.yaml", "      max_tokens: 1024\n", "      max_tokens: 1024\n      max_tokens: 2048\n")
		}, []string{"dup-key.yaml: interaction 0: request body: line 12: duplicate key \"max_tokens\""}, "a duplicate key in a parsed body would be two JSON keys"},
		{"whole.yaml.gz", func(t *testing.T) []byte {
			z := gzipped([]byte("interactions: []\n"))
			return z[:len(z)-6]
		}, []string{"whole.yaml.gz: gzip: "}, "a truncated gzip cassette"},
		{"simulated.yaml", func(t *testing.T) []byte {
			return []byte("version: 2\nprovenance:\n  kind: simulated\ninteractions: []\n")
		}, []string{"simulated.yaml: a simulated cassette"}, "simulated answers are never recorded evidence"},
		{"bad-line.chunks.txt", func(t *testing.T) []byte {
			return fixture(t, "aisdk/chat-reasoning.chunks.txt", `"content":"Done."`, `"content":"Done.`)
		}, []string{"bad-line.chunks.txt: interaction 0: line 3: not valid JSON at byte offset"}, "a chunk line that is not JSON names its line"},
		{"mixed.chunks.txt", func(t *testing.T) []byte {
			b, _ := os.ReadFile(filepath.Join("testdata", "aisdk", "gemini-tool-call.chunks.txt"))
			return append(b, []byte(`{"type":"message_start","message":{"model":"m"}}`+"\n")...)
		}, []string{"mixed.chunks.txt: interaction 0: line 3: a anthropic event in a gemini stream"}, "one fixture holds one provider's stream"},
		{"unknown.json", func(t *testing.T) []byte { return []byte(`{"hello":"world"}`) },
			[]string{"unknown.json: interaction 0: the response's shape shows no api mode"}, "a JSON file that is no provider response"},
	}
	for _, tc := range tests {
		path := writeTemp(t, tc.name, tc.data(t))
		_, err := Read(path)
		if err == nil {
			t.Errorf("%s: %s: no error", tc.name, tc.reason)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %s:\n got  %v\n want it to contain %q", tc.name, tc.reason, err, w)
			}
		}
		if !strings.HasPrefix(err.Error(), path) {
			t.Errorf("%s: %s: the error does not start with the file: %v", tc.name, tc.reason, err)
		}
	}
}

// TestReadOpenRouterErrors breaks each file of an e2e fixture directory.
func TestReadOpenRouterErrors(t *testing.T) {
	tests := []struct {
		file, old, new, want, reason string
	}{
		{"response.jsonl", `{"delay_ms":40}`, `{"delay":40}`, "response.jsonl: interaction 0: line 4: want a", "an unknown line kind"},
		{"response.jsonl", `{"delay_ms":3}`, `{"delay_ms":3`, "response.jsonl: interaction 0: line 2: not valid JSON", "a broken line"},
		{"request.json", `"method": "POST",`, ``, "request.json: interaction 0: request needs method and url", "a request without a method"},
		{"response.meta.json", `"status": 200`, `"status": 20`, "response.meta.json: interaction 0: status 20 is not an HTTP status", "a bad status"},
		{"response.meta.json", `"is_binary": false`, `"is_binary": true`, "response.meta.json: interaction 0: is_binary: binary response bodies are not supported", "binary bodies"},
	}
	for _, tc := range tests {
		dir := filepath.Join(t.TempDir(), "fx")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range OpenRouterFiles {
			b, _ := os.ReadFile(filepath.Join("testdata", "openrouter", "tool-turn", f))
			if f == tc.file {
				b = fixture(t, "openrouter/tool-turn/"+f, tc.old, tc.new)
			}
			os.WriteFile(filepath.Join(dir, f), b, 0o644)
		}
		_, err := Read(dir)
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, tc.want)) {
			t.Errorf("%s: got %v, want %s", tc.reason, err, filepath.Join(dir, tc.want))
		}
	}
}

// TestWalk lists a tree: recordings, the fixture directory as one entry,
// the manifest and other files as skip entries with their reason.
func TestWalk(t *testing.T) {
	entries, err := Walk("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		line := e.Rel
		if e.Skip != "" {
			line += " skip: " + e.Skip
		}
		got = append(got, line)
	}
	want := []string{
		"MANIFEST.md skip: the source manifest: read for the sources of the recordings beside it",
		"aisdk/anthropic-thinking.chunks.txt", "aisdk/azure-responses-two-streams.chunks.txt", "aisdk/chat-reasoning.chunks.txt", "aisdk/converse-reasoning.chunks.txt",
		"aisdk/converse-reasoning.json", "aisdk/gemini-tool-call.chunks.txt",
		"govcr/v3-full-fields.yaml", "govcr/v4-omitempty.yaml",
		"openrouter/tool-turn",
		"vcrpy/binary-eventstream.yaml", "vcrpy/parsed-body.yaml", "vcrpy/plain-and-gzip.yaml", "vcrpy/whole-cassette.yaml.gz",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("walk:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	extra := writeTemp(t, "x/notes.txt", []byte("hi"))
	entries, _ = Walk(filepath.Dir(extra))
	if len(entries) != 1 || !strings.HasPrefix(entries[0].Skip, "not a recording") {
		t.Errorf("a stray file is reported, not dropped: %+v", entries)
	}
}

// TestReadSeveralStreams reads a chunks fixture holding two complete
// Responses streams (each from response.created to response.completed,
// sequence numbers counting from 0 again) as two exchanges, each framed
// alone, each marked as Azure's by its content_filters. The fixture is
// written for this test in the shape of vercel/ai's Azure Responses
// fixtures (packages/azure/src/__fixtures__), with values of its own.
func TestReadSeveralStreams(t *testing.T) {
	rec, err := Read(filepath.Join("testdata", "aisdk", "azure-responses-two-streams.chunks.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Exchanges) != 2 {
		t.Fatalf("%d exchanges, want 2", len(rec.Exchanges))
	}
	for i, want := range []string{`"encrypted_content":"ZW5jLWZpeHR1cmUtb25l"`, `"text":"High tide at 14:10."`} {
		e := rec.Exchanges[i]
		body := string(e.ResponseBody)
		if e.Index != i || e.Mode != engine.ModeResponses || e.Model != "gpt-5-mini" || e.Vendor != "azure" || !e.Stream ||
			strings.Count(body, "event: response.created\n") != 1 || strings.Count(body, "event: response.completed\n") != 1 || !strings.Contains(body, want) {
			t.Errorf("stream %d: index %d mode %s model %s vendor %q stream %v; body:\n%s", i, e.Index, e.Mode, e.Model, e.Vendor, e.Stream, body)
		}
	}
	if bytes.Contains(rec.Exchanges[1].ResponseBody, []byte("rs_fx_a1")) {
		t.Error("the second stream holds the first one's reasoning item")
	}
}

// TestFindSource reads the fixtures' manifest: a file's row, a fixture
// directory's row (cited as its directory), and a file no row lists.
func TestFindSource(t *testing.T) {
	tests := []struct {
		path, wantPath string
		ok             bool
		reason         string
	}{
		{"testdata/vcrpy/parsed-body.yaml", "importer/testdata/vcrpy/parsed-body.yaml", true, "a file's own row"},
		{"testdata/openrouter/tool-turn", "importer/testdata/openrouter/tool-turn", true, "a fixture directory is cited as the directory of its files"},
		{"testdata/vcrpy/plain-and-gzip.yaml", "", false, "a file the manifest does not list"},
	}
	for _, tc := range tests {
		src, ok, err := FindSource(tc.path)
		if err != nil || ok != tc.ok || src.Path != tc.wantPath || (ok && src.Repository != "replaycheck/replaycheck") {
			t.Errorf("%s: %s: got %+v %v %v", tc.path, tc.reason, src, ok, err)
		}
	}
	bad := writeTemp(t, "m/"+ManifestName, []byte("| file | source repo | path |\n|---|---|---|\n| `a.yaml` | | |\n"))
	if _, _, err := FindSource(filepath.Join(filepath.Dir(bad), "a.yaml")); err == nil || !strings.Contains(err.Error(), "MANIFEST.md:3: the row of a.yaml names no source repository or path") {
		t.Errorf("a row without a source: %v", err)
	}
}

func TestName(t *testing.T) {
	for _, tc := range []struct{ rel, want, reason string }{
		{"anthropic/Thinking roundtrip.yaml", "anthropic-thinking-roundtrip", "directories and words join with dashes"},
		{"bedrock/converse-stream.chunks.txt", "bedrock-converse-stream-chunks", "a chunks fixture keeps its kind, apart from the whole x.json beside it"},
		{"bedrock/converse-stream.json", "bedrock-converse-stream", "the format suffix goes"},
		{"a/b.yaml.gz", "a-b", "the compression suffix goes too"},
		{"openrouter/responses-stream", "openrouter-responses-stream", "a fixture directory"},
		{"__x__/y.json", "x-y", "no leading or doubled dashes"},
	} {
		if got := Name(tc.rel); got != tc.want {
			t.Errorf("%s: %s: got %q, want %q", tc.rel, tc.reason, got, tc.want)
		}
	}
}
