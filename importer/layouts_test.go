package importer

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/gemini"
)

// The fixtures below are written for these tests from the layouts'
// published facts; no provider recorded them.

// geminiArray is a streamGenerateContent answer without alt=sse: one JSON
// array of chunks, a thought then a signed function call.
const geminiArray = `[{"candidates":[{"content":{"role":"model","parts":[{"text":"Checking the tide table.","thought":true}]},"index":0}],"modelVersion":"gemini-2.5-flash"}
,
{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"tide","args":{"port":"Brest"}},"thoughtSignature":"dGlkZS1zaWduYXR1cmUtZml4dHVyZQ=="}]},"finishReason":"STOP","index":0}],"modelVersion":"gemini-2.5-flash"}
]`

// langchainCassette is the layout langchain's CustomSerializer writes
// (yaml.safe_dump of VCR.py's cassette dictionary, then gzip): parallel
// requests and responses lists, headers as lists, bodies as !!binary
// bytes — here the response body itself gzip-compressed, as the provider
// sent it.
func langchainCassette(t *testing.T) []byte {
	t.Helper()
	req := base64.StdEncoding.EncodeToString([]byte(`{"contents":[{"role":"user","parts":[{"text":"When is high tide in Brest?"}]}]}`))
	resp := base64.StdEncoding.EncodeToString(gzipped([]byte(geminiArray)))
	y := `requests:
- body: !!binary |
    ` + req + `
  headers:
    content-type:
    - application/json
  method: POST
  uri: https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent
responses:
- body:
    string: !!binary |
      ` + resp + `
  headers:
    Content-Encoding:
    - gzip
    Content-Type:
    - application/json; charset=UTF-8
    Date:
    - Tue, 10 Mar 2026 09:00:00 GMT
  status:
    code: 200
    message: OK
`
	return gzipped([]byte(y))
}

// TestReadLayouts reads the cassette layouts other VCR.py serializers
// write, and checks that the Gemini JSON-array stream in them captures
// like its SSE form.
func TestReadLayouts(t *testing.T) {
	vcrJSON := `{"interactions":[{"request":{"method":"POST","uri":"https://api.deepseek.com/chat/completions","body":"{\"model\":\"deepseek-reasoner\",\"messages\":[]}","headers":{}},` +
		`"response":{"status":{"code":200,"message":"OK"},"headers":{"Content-Type":["application/json"]},"body":{"string":"{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"hi\",\"reasoning_content\":\"r\"}}]}"}}}],"version":1}`
	plainYAML := string(ungzip(t, langchainCassette(t)))
	tests := []struct {
		name     string
		data     []byte
		describe string
		date     string
		reason   string
	}{
		{"langchain.yaml.gz", langchainCassette(t), "POST generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent", "2026-03-10",
			"requests:/responses: lists, the whole file gzip-compressed, !!binary bodies, a gzip response body"},
		{"langchain.yaml", []byte(plainYAML), "POST generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent", "2026-03-10",
			"the same layout uncompressed"},
		{"b64.yaml", []byte(base64.StdEncoding.EncodeToString(langchainCassette(t)) + "\n"), "POST generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent", "2026-03-10",
			"a whole cassette kept as the base64 text of its gzip bytes"},
		{"vcr.json", []byte(vcrJSON), "POST api.deepseek.com/chat/completions", "",
			"VCR.py's JSON serializer: a .json cassette with an interactions list is no AI SDK fixture"},
	}
	for _, tc := range tests {
		rec, err := Read(writeTemp(t, tc.name, tc.data))
		if err != nil {
			t.Errorf("%s: %s: %v", tc.name, tc.reason, err)
			continue
		}
		if rec.Format != FormatVCRPy || len(rec.Exchanges) != 1 {
			t.Errorf("%s: %s: format %s with %d exchanges, want vcrpy with 1", tc.name, tc.reason, rec.Format, len(rec.Exchanges))
			continue
		}
		e := rec.Exchanges[0]
		if e.Describe() != tc.describe || e.Date != tc.date || e.Status != 200 {
			t.Errorf("%s: %s: %s %d dated %q, want %s 200 dated %q", tc.name, tc.reason, e.Describe(), e.Status, e.Date, tc.describe, tc.date)
		}
		r, ok := RouteOf(e)
		if !ok {
			t.Errorf("%s: %s: no route", tc.name, tc.reason)
			continue
		}
		if r.Mode == engine.ModeGemini {
			if !r.Stream || !bytes.Equal(e.ResponseBody, []byte(geminiArray)) {
				t.Errorf("%s: %s: stream %v, body %.80q: want the streamed JSON array, decompressed", tc.name, tc.reason, r.Stream, e.ResponseBody)
			}
			m, err := gemini.Dialect{}.CaptureStream(bytes.NewReader(e.ResponseBody))
			if err != nil {
				t.Errorf("%s: the JSON-array stream does not capture: %v", tc.name, err)
			} else if b, _ := m.MarshalJSON(); !bytes.Contains(b, []byte("dGlkZS1zaWduYXR1cmUtZml4dHVyZQ==")) || !bytes.Contains(b, []byte("Checking the tide table.")) {
				t.Errorf("%s: captured %s: want the thought and the call's signature", tc.name, b)
			}
		}
	}
}

// TestReadLayoutErrors checks the requests:/responses: layout's errors
// name the file and what is wrong.
func TestReadLayoutErrors(t *testing.T) {
	plain := string(ungzip(t, langchainCassette(t)))
	tests := []struct {
		name, data, want, reason string
	}{
		{"short.yaml", plain[:strings.Index(plain, "responses:")] + "responses: []\n", "short.yaml: line 9: 1 requests but 0 responses", "the lists pair up one to one"},
		{"none.yaml", plain[:strings.Index(plain, "responses:")], "none.yaml: line 1: a requests list without a responses list", "a requests list alone"},
		{"map.yaml", "requests: {}\nresponses: []\n", "map.yaml: line 1: requests: want a list, got a mapping", "requests is a list"},
		{"neither.yaml", "version: 1\n", "neither.yaml: no interactions list", "a cassette with neither layout"},
		{"bad-req.yaml", "requests:\n- just a string\nresponses:\n- {status: {code: 200}}\n", "bad-req.yaml: interaction 0: line 2: request: want a mapping, got a scalar", "a request that is no mapping"},
	}
	for _, tc := range tests {
		_, err := Read(writeTemp(t, tc.name, []byte(tc.data)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %s: error %v, want %q", tc.name, tc.reason, err, tc.want)
		}
	}
}

func ungzip(t *testing.T, b []byte) []byte {
	t.Helper()
	out, err := gunzip(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
