package agent

import (
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// FakeKey is the API key every SDK variable gets: the simulator reads no
// key, and a real one never reaches an agent under check.
const FakeKey = "sk-replaycheck-fake-key"

// kept are the variables of replaycheck's own environment an agent run
// inherits (names, or prefixes ending in "_"); everything else — a user's
// real keys and proxy settings included — is left out.
var kept = []string{
	"PATH", "LANG", "LANGUAGE", "LC_", "TZ", "TERM", "TMPDIR", "USER", "LOGNAME", "SHELL",
	"GOROOT", "GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOSUMDB", "GONOSUMDB",
	"GOPRIVATE", "GOTOOLCHAIN", "CGO_ENABLED", "SYSTEMROOT",
}

// A Base is where the agent is pointed: the base URL it is given, and the
// identity of the target it plays.
type Base struct {
	// URL is the target's base URL as the agent reaches it: the
	// simulator's loopback address with the target's path, or under
	// --intercept the target's own URL.
	URL string
	// Provider, Model, Target and APIMode are the target's.
	Provider, Model, Target, APIMode string
}

// Environment builds an agent run's environment: the kept variables of
// parent, a fresh HOME and XDG directories under home, Go and npm caches
// pointed back at the user's (caches, not config, so `go run` and `npx`
// do not start cold), every base URL and key variable common SDKs read
// set to b and [FakeKey], then extra (NAME=VALUE, last wins).
func Environment(parent []string, home string, b Base, extra []string) []string {
	get := func(name string) string {
		for _, kv := range parent {
			if k, v, ok := strings.Cut(kv, "="); ok && k == name {
				return v
			}
		}
		return ""
	}
	var env []string
	for _, kv := range parent {
		k, _, _ := strings.Cut(kv, "=")
		if keep(k) {
			env = append(env, kv)
		}
	}
	set := func(k, v string) { env = append(env, k+"="+v) }
	if userHome := get("HOME"); userHome != "" {
		if get("GOPATH") == "" {
			set("GOPATH", filepath.Join(userHome, "go"))
		}
		if get("GOMODCACHE") == "" {
			gopath := get("GOPATH")
			if gopath == "" {
				gopath = filepath.Join(userHome, "go")
			}
			set("GOMODCACHE", filepath.Join(strings.Split(gopath, string(os.PathListSeparator))[0], "pkg", "mod"))
		}
		if get("GOCACHE") == "" {
			cache := get("XDG_CACHE_HOME")
			if cache == "" {
				cache = filepath.Join(userHome, ".cache")
			}
			set("GOCACHE", filepath.Join(cache, "go-build"))
		}
		if v := get("npm_config_cache"); v != "" {
			set("npm_config_cache", v)
		} else {
			set("npm_config_cache", filepath.Join(userHome, ".npm"))
		}
	}
	set("HOME", home)
	set("USERPROFILE", home)
	set("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	set("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	set("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	set("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	set("NO_COLOR", "1")
	root := strings.TrimSuffix(b.URL, "/")
	// Google's SDKs append their own /v1beta: they take the origin.
	// Anthropic's append /v1/messages to a base URL that keeps the
	// endpoint's path (https://api.deepseek.com/anthropic): they take the
	// root without a trailing /v1.
	origin := originOf(root)
	anthropicBase := strings.TrimSuffix(root, "/v1")
	for _, kv := range [][2]string{
		{"REPLAYCHECK_BASE_URL", root},
		{"REPLAYCHECK_MODEL", b.Model},
		{"REPLAYCHECK_PROVIDER", b.Provider},
		{"REPLAYCHECK_TARGET", b.Target},
		{"REPLAYCHECK_API_MODE", b.APIMode},
		{"OPENAI_BASE_URL", root},
		{"OPENAI_API_BASE", root},
		{"OPENAI_API_KEY", FakeKey},
		{"OPENAI_MODEL", b.Model},
		{"DEEPSEEK_BASE_URL", root},
		{"DEEPSEEK_API_KEY", FakeKey},
		{"ANTHROPIC_BASE_URL", anthropicBase},
		{"ANTHROPIC_API_KEY", FakeKey},
		{"ANTHROPIC_MODEL", b.Model},
		{"GOOGLE_GEMINI_BASE_URL", origin},
		{"GEMINI_BASE_URL", origin},
		{"GEMINI_API_KEY", FakeKey},
		{"GOOGLE_API_KEY", FakeKey},
		{"OPENROUTER_API_KEY", FakeKey},
	} {
		set(kv[0], kv[1])
	}
	return append(env, extra...)
}

// keep reports whether a variable of replaycheck's environment reaches
// the agent.
func keep(name string) bool {
	for _, k := range kept {
		if name == k || strings.HasSuffix(k, "_") && strings.HasPrefix(name, k) {
			return true
		}
	}
	return false
}

// originOf is scheme://host[:port] of a URL.
func originOf(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
		return u[:i+3+j]
	}
	return u
}

// proxyEnvironment points every client that reads the proxy variables at
// the run's proxy, loopback excepted (NO_PROXY), and asks Node (22.21+,
// 24+) to honour them in its built-in fetch (NODE_USE_ENV_PROXY).
func proxyEnvironment(proxy string) []string {
	var env []string
	for _, k := range []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"} {
		env = append(env, k+"="+proxy)
	}
	return append(env, "NO_PROXY=127.0.0.1,localhost,::1", "no_proxy=127.0.0.1,localhost,::1", "NODE_USE_ENV_PROXY=1")
}

// caEnvironment makes the run's CA the one Go, OpenSSL (Python, curl),
// requests and Node trust.
func caEnvironment(ca string) []string {
	return []string{"SSL_CERT_FILE=" + ca, "REQUESTS_CA_BUNDLE=" + ca, "CURL_CA_BUNDLE=" + ca, "NODE_EXTRA_CA_CERTS=" + ca}
}

// hostOf is a URL's hostname, lower-case.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// Interceptable reports whether a base URL names a public hostname that
// --intercept can serve: not an IP address, localhost, a dotless name or
// a .local, .localhost or .internal one, which clients reach without a
// proxy.
func Interceptable(base string) bool {
	h := hostOf(base)
	if h == "" || net.ParseIP(h) != nil || !strings.Contains(h, ".") {
		return false
	}
	for _, suffix := range []string{".local", ".localhost", ".internal"} {
		if strings.HasSuffix(h, suffix) {
			return false
		}
	}
	return true
}
