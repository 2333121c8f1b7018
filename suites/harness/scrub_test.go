package harness_test

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/suites/harness"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

func TestScrubHeaders(t *testing.T) {
	h := http.Header{}
	for _, k := range []string{"Authorization", "X-Api-Key", "X-Goog-Api-Key", "Api-Key", "Cookie", "Set-Cookie",
		"X-Amz-Date", "X-Amz-Security-Token", "X-Amz-Content-Sha256", "Date", "X-Request-Id", "Anthropic-Version", "User-Agent"} {
		h.Set(k, "value-of-"+k)
	}
	h.Add("Content-Type", "text/event-stream")
	h.Add("Content-Type", "charset=utf-8")
	got := harness.ScrubHeaders(h)
	want := http.Header{"Content-Type": {"text/event-stream", "charset=utf-8"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scrubbed %v, want %v", got, want)
	}
	got["Content-Type"][0] = "changed"
	if h.Get("Content-Type") != "text/event-stream" {
		t.Error("the scrubbed copy shares its values with the input")
	}
	if got := harness.ScrubHeaders(http.Header{"Authorization": {"Bearer x"}}); len(got) != 0 {
		t.Errorf("no Content-Type: %v", got)
	}
	if got := harness.ScrubHeaders(nil); got == nil || len(got) != 0 {
		t.Errorf("nil headers: %#v", got)
	}
}

func TestScrubURL(t *testing.T) {
	tests := []struct {
		in, want string
		reason   string
	}{
		{"https://generativelanguage.googleapis.com/v1beta/models/g:streamGenerateContent?alt=sse&key=AIzaSecret",
			"https://generativelanguage.googleapis.com/v1beta/models/g:streamGenerateContent?alt=sse", "Gemini's key= goes, alt= stays"},
		{"https://a.test/v1?api_key=s&apikey=s&access_token=s&token=s&sig=s&signature=s&model=m",
			"https://a.test/v1?model=m", "every credential parameter goes"},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/m/invoke?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20260301&X-Amz-Signature=abc&X-Amz-Security-Token=t&X-Amz-Expires=300",
			"https://bedrock-runtime.us-east-1.amazonaws.com/model/m/invoke?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=300", "AWS presigning secrets go, whatever their case"},
		{"https://a.test/v1?KEY=s&Key=t&keys=kept", "https://a.test/v1?keys=kept", "names compare case-insensitively, and whole"},
		{"https://a.test/v1/chat/completions", "https://a.test/v1/chat/completions", "no query, no change"},
		{"https://a.test/v1?key=s", "https://a.test/v1", "an emptied query leaves no ?"},
		{"::not a url?key=s", "::not a url?key=s", "an unparseable URL is returned as is"},
	}
	for _, tc := range tests {
		if got := harness.ScrubURL(tc.in); got != tc.want {
			t.Errorf("%s: %s\n got  %s\n want %s", tc.in, tc.reason, got, tc.want)
		}
	}
}

// one wraps a single interaction into a cassette for Scan.
func one(edit func(*cassette.Interaction)) *harness.File {
	it := interaction("POST", "https://api.acme.test/v1/chat/completions", `{"model":"m"}`, 200, `{"ok":true}`)
	edit(it)
	return &harness.File{Version: 2, Provenance: simulated(), Interactions: []*cassette.Interaction{it}}
}

func TestScanFinds(t *testing.T) {
	const aws = "AKIAIOSFODNN7EXAMPLE"
	tests := []struct {
		name   string
		edit   func(*cassette.Interaction)
		where  string
		what   string
		reason string
	}{
		{"authorization", func(i *cassette.Interaction) { i.Request.Headers.Set("Authorization", "x") }, "interaction 0 request header Authorization", "credential header",
			"the header is refused whatever its value"},
		{"x-api-key", func(i *cassette.Interaction) { i.Request.Headers["x-api-key"] = []string{"k"} }, "interaction 0 request header x-api-key", "credential header",
			"header names compare case-insensitively"},
		{"cookie", func(i *cassette.Interaction) { i.Request.Headers.Set("Cookie", "a=b") }, "interaction 0 request header Cookie", "credential header",
			"cookies identify the recorder"},
		{"set-cookie", func(i *cassette.Interaction) { i.Response.Headers.Set("Set-Cookie", "a=b") }, "interaction 0 response header Set-Cookie", "credential header",
			"response headers are scanned too"},
		{"bearer", func(i *cassette.Interaction) { i.Response.Body = `{"echo":"Bearer abcdefghijklmnop"}` }, "interaction 0 response body", "bearer token",
			"a bearer token echoed in a body"},
		{"openai-key", func(i *cassette.Interaction) { i.Request.Body = `{"k":"sk-proj-abcdefghijklmnop1234"}` }, "interaction 0 request body", "OpenAI-style key (sk-…)",
			"an OpenAI key pasted into a prompt"},
		{"anthropic-key", func(i *cassette.Interaction) { i.Response.Body = `{"k":"sk-ant-api03-abcdefghij"}` }, "interaction 0 response body", "Anthropic key (sk-ant-…)",
			"an Anthropic key"},
		{"aws-key", func(i *cassette.Interaction) { i.Request.Body = `{"id":"` + aws + `"}` }, "interaction 0 request body", "AWS access key id (AKIA…)",
			"an AWS access key id"},
		{"google-key", func(i *cassette.Interaction) { i.Request.Body = `"AIzaSyA1234567890abcdefghijklmnopqrstuv"` }, "interaction 0 request body", "Google API key (AIza…)",
			"a Google API key"},
		{"github-token", func(i *cassette.Interaction) { i.Response.Body = "ghp_abcdefghijklmnopqrstuvwxyz0123" }, "interaction 0 response body", "GitHub token",
			"a GitHub token"},
		{"sigv4", func(i *cassette.Interaction) {
			i.Request.Body = "AWS4-HMAC-SHA256 Credential=x/20260301/us-east-1/bedrock/aws4_request"
		}, "interaction 0 request body", "AWS SigV4 credential", "a SigV4 authorization value"},
		{"key-in-url", func(i *cassette.Interaction) { i.Request.URL = "https://a.test/v1/models?key=abcdefgh123" }, "interaction 0 request url", "key= query parameter",
			"a key left in the URL"},
		{"entropy", func(i *cassette.Interaction) { i.Response.Headers.Set("X-Trace", "Zx8fK2pQ9vLm4Rt7Yw1Bn6Hc3Jd5Gs0E") }, "interaction 0 response header X-Trace", "long high-entropy value",
			"an unknown header holding a random-looking token"},
		{"form", func(i *cassette.Interaction) { i.Request.Form = url.Values{"token": {"sk-abcdefghijklmnopqrst"}} }, "interaction 0 request form token", "OpenAI-style key (sk-…)",
			"form values are scanned"},
	}
	for _, tc := range tests {
		got := harness.Scan(one(tc.edit))
		found := false
		for _, f := range got {
			if f.Where == tc.where && f.What == tc.what {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %s: findings %v, want {%s %s}", tc.name, tc.reason, got, tc.where, tc.what)
		}
	}
}

func TestScanPasses(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*cassette.Interaction)
		reason string
	}{
		{"plain", func(*cassette.Interaction) {}, "an ordinary interaction"},
		{"task-words", func(i *cassette.Interaction) { i.Request.Body = `{"q":"the risk-assessment-of-the-desk-task is done"}` }, "sk- inside a word is not a key"},
		{"content-type", func(i *cassette.Interaction) {
			i.Response.Headers.Set("Content-Type", "application/vnd.amazon.eventstream; charset=utf-8")
		}, "a long Content-Type with separators is not a token"},
		{"short-bearer", func(i *cassette.Interaction) { i.Response.Body = `{"error":"Bearer token missing"}` }, "an error message about bearer tokens"},
		{"signature", func(i *cassette.Interaction) {
			i.Response.Body = `{"signature":"joqEmeXKRC+pO6ymt0g8M0lSY/4D67TFctdxODbWag0="}`
		}, "a thinking signature in a body is data, not a credential"},
		{"key-short", func(i *cassette.Interaction) { i.Request.URL = "https://a.test/v1?key=x" }, "a placeholder key is too short to be one"},
	}
	for _, tc := range tests {
		if got := harness.Scan(one(tc.edit)); len(got) != 0 {
			t.Errorf("%s: %s: findings %v", tc.name, tc.reason, got)
		}
	}
}

func TestScanOrderIsStable(t *testing.T) {
	f := one(func(i *cassette.Interaction) {
		for _, k := range []string{"X-Api-Key", "Authorization", "Cookie", "Api-Key", "X-Goog-Api-Key", "Proxy-Authorization"} {
			i.Request.Headers.Set(k, "Zx8fK2pQ9vLm4Rt7Yw1Bn6Hc3Jd5Gs0E")
		}
		i.Request.Form = url.Values{"b": {"sk-abcdefghijklmnopqrst"}, "a": {"sk-abcdefghijklmnopqrst"}, "c": {"sk-abcdefghijklmnopqrst"}}
	})
	first := harness.Scan(f)
	if len(first) != 15 {
		t.Fatalf("%d findings, want 15 (6 headers twice, 3 form values): %v", len(first), first)
	}
	for range 30 {
		if got := harness.Scan(f); !reflect.DeepEqual(got, first) {
			t.Fatalf("findings changed order between scans:\n%v\n%v", first, got)
		}
	}
	if first[0].Where != "interaction 0 request header Api-Key" || first[14].Where != "interaction 0 request form c" {
		t.Errorf("findings are not in key order: first %v, last %v", first[0], first[14])
	}
}

func TestCommittedCassettesAreClean(t *testing.T) {
	paths, err := filepath.Glob("../../cassettes/*/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no committed cassettes: %v", err)
	}
	for _, p := range paths {
		f, err := harness.Read(p)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if fd := harness.Scan(f); len(fd) > 0 {
			t.Errorf("%s: %v", p, fd)
		}
		b, _ := os.ReadFile(p)
		if strings.Contains(strings.ToLower(string(b)), "authorization") {
			t.Errorf("%s: mentions authorization", p)
		}
	}
	t.Logf("%d cassettes scanned", len(paths))
}

// TestHoldsAny: the literal prefilter never hides what a pattern matches.
func TestHoldsAny(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want string
	}{
		{"Authorization: BeArEr abcdefghijklmnop", "bearer token"},
		{"x sk-abcdefghijklmnopqrstu", "OpenAI-style key (sk-…)"},
		{"https://h/p?api_key=abcdefghij", "key= query parameter"},
		{"https://h/p?access_token=abcdefghij", "key= query parameter"},
		{"id AKIAABCDEFGHIJKLMNOP ok", "AWS access key id (AKIA…)"},
	} {
		found := false
		for _, f := range harness.ScanText("x", tc.s) {
			found = found || f.What == tc.want
		}
		if !found {
			t.Errorf("%q: no %s found", tc.s, tc.want)
		}
	}
	if got := harness.ScanText("x", "no credential here: a bearer of news"); len(got) != 0 {
		t.Errorf("findings %v in plain text", got)
	}
}
