package harness

import (
	"maps"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// keptHeaders are the only headers a cassette keeps: nothing that could
// identify or authenticate the recorder, nothing volatile.
var keptHeaders = []string{"Content-Type"}

// ScrubHeaders returns only the headers a cassette may keep. Authorization,
// x-api-key, x-goog-api-key, api-key, AWS SigV4 headers, cookies, dates and
// every other header are dropped.
func ScrubHeaders(h http.Header) http.Header {
	out := http.Header{}
	for _, k := range keptHeaders {
		if v := h.Values(k); len(v) > 0 {
			out[k] = append([]string(nil), v...)
		}
	}
	return out
}

// secretQueryKeys are query parameters that carry credentials.
var secretQueryKeys = []string{"key", "api_key", "apikey", "access_token", "token",
	"x-amz-signature", "x-amz-credential", "x-amz-security-token", "sig", "signature"}

// ScrubURL removes credential query parameters (key=… and AWS presigning
// parameters) from a URL.
func ScrubURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.RawQuery == "" {
		return raw
	}
	q := u.Query()
	for k := range q {
		for _, s := range secretQueryKeys {
			if strings.EqualFold(k, s) {
				q.Del(k)
			}
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// A Finding is something in a cassette that looks like a credential.
type Finding struct {
	Where string // e.g. "interaction 3 request header Authorization"
	What  string // e.g. "bearer token"
}

// secretPatterns are the credential shapes ScanText looks for. A pattern
// runs only on text holding one of its literals (compared ignoring case
// when fold is set), which every match holds: the scan of a cassette of
// megabytes is then a few substring searches.
var secretPatterns = []struct {
	what     string
	re       *regexp.Regexp
	literals []string
	fold     bool
}{
	{"bearer token", regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{12,}`), []string{"bearer"}, true},
	{"OpenAI-style key (sk-…)", regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{16,}`), []string{"sk-"}, false},
	{"Anthropic key (sk-ant-…)", regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{10,}`), []string{"sk-ant-"}, false},
	{"AWS access key id (AKIA…)", regexp.MustCompile(`\b(AKIA|ASIA)[A-Z0-9]{16}\b`), []string{"AKIA", "ASIA"}, false},
	{"Google API key (AIza…)", regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`), []string{"AIza"}, false},
	{"GitHub token", regexp.MustCompile(`\b(ghp|gho|ghu|ghs|github_pat)_[A-Za-z0-9_]{20,}`), []string{"ghp_", "gho_", "ghu_", "ghs_", "github_pat_"}, false},
	{"AWS SigV4 credential", regexp.MustCompile(`AWS4-HMAC-SHA256\s+Credential=`), []string{"AWS4-HMAC-SHA256"}, false},
	{"key= query parameter", regexp.MustCompile(`[?&](key|api_key|apikey|access_token)=[^&\s"]{8,}`), []string{"key=", "access_token="}, false},
}

// holdsAny reports whether s holds one of the literals, ignoring ASCII
// case when fold is set.
func holdsAny(s string, literals []string, fold bool) bool {
	for _, l := range literals {
		if !fold {
			if strings.Contains(s, l) {
				return true
			}
			continue
		}
		first := l[0] | 0x20
		for i := 0; i+len(l) <= len(s); i++ {
			if s[i]|0x20 == first && strings.EqualFold(s[i:i+len(l)], l) {
				return true
			}
		}
	}
	return false
}

// credentialHeaders may never appear in a cassette, whatever their value.
var credentialHeaders = []string{"Authorization", "X-Api-Key", "X-Goog-Api-Key", "Api-Key", "Cookie", "Set-Cookie",
	"X-Amz-Security-Token", "X-Amz-Date", "X-Amz-Content-Sha256", "Proxy-Authorization"}

// ScanText reports credential-looking strings in s.
func ScanText(where, s string) []Finding {
	var out []Finding
	for _, p := range secretPatterns {
		if holdsAny(s, p.literals, p.fold) && p.re.MatchString(s) {
			out = append(out, Finding{Where: where, What: p.what})
		}
	}
	return out
}

// ScanHeaders reports credential headers and long high-entropy values, in
// header-name order.
func ScanHeaders(where string, h http.Header) []Finding {
	var out []Finding
	for _, k := range slices.Sorted(maps.Keys(h)) {
		vs := h[k]
		for _, c := range credentialHeaders {
			if strings.EqualFold(k, c) {
				out = append(out, Finding{Where: where + " header " + k, What: "credential header"})
			}
		}
		for _, v := range vs {
			out = append(out, ScanText(where+" header "+k, v)...)
			if len(v) >= 32 && !strings.ContainsAny(v, " ;,") && entropy(v) > 4.0 {
				out = append(out, Finding{Where: where + " header " + k, What: "long high-entropy value"})
			}
		}
	}
	return out
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}

// Scan reports every credential-looking thing in a cassette, naming the
// interaction and the part in play.
func Scan(f *File) []Finding {
	var out []Finding
	for i, it := range f.Interactions {
		req := "interaction " + strconv.Itoa(i) + " request"
		resp := "interaction " + strconv.Itoa(i) + " response"
		out = append(out, ScanHeaders(req, it.Request.Headers)...)
		out = append(out, ScanHeaders(resp, it.Response.Headers)...)
		out = append(out, ScanText(req+" url", it.Request.URL)...)
		out = append(out, ScanText(req+" body", it.Request.Body)...)
		out = append(out, ScanText(resp+" body", it.Response.Body)...)
		for _, k := range slices.Sorted(maps.Keys(it.Request.Form)) {
			for _, v := range it.Request.Form[k] {
				out = append(out, ScanText(req+" form "+k, v)...)
			}
		}
	}
	return out
}
