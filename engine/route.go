package engine

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// An APIMode is a wire dialect (SPEC §1).
type APIMode string

// The API modes.
const (
	ModeChat            APIMode = "chat"
	ModeAnthropic       APIMode = "anthropic"
	ModeBedrockConverse APIMode = "bedrock-converse"
	ModeGemini          APIMode = "gemini"
	ModeResponses       APIMode = "responses"
)

// ParseAPIMode reads an api mode; the empty string means chat.
func ParseAPIMode(s string) (APIMode, bool) {
	switch m := APIMode(strings.TrimSpace(s)); m {
	case "":
		return ModeChat, true
	case ModeChat, ModeAnthropic, ModeBedrockConverse, ModeGemini, ModeResponses:
		return m, true
	}
	return "", false
}

// A Route is where a request goes: api mode, provider id, base URL and model,
// plus the per-provider echo opt-in (SPEC §2).
type Route struct {
	APIMode   APIMode
	Provider  string
	BaseURL   string
	Model     string
	EchoOptIn bool
}

// String names the route for a report: its api mode (chat when unset),
// then (provider, base URL, model): "chat (custom,
// https://api.kimi.com/coding/v1, kimi-k2.6)".
func (r Route) String() string {
	mode := r.APIMode
	if mode == "" {
		mode = ModeChat
	}
	return fmt.Sprintf("%s (%s, %s, %s)", mode, r.Provider, r.BaseURL, r.Model)
}

// Host returns the route's normalised hostname (SPEC §2.1).
func (r Route) Host() string { return Hostname(r.BaseURL) }

// Key returns the key under which refusals are recorded for the route: the
// provider trimmed and lower-cased, the hostname, and the model trimmed
// (SPEC §6).
func (r Route) Key() RouteKey {
	return RouteKey{
		Provider: strings.ToLower(strings.TrimSpace(r.Provider)),
		Host:     r.Host(),
		Model:    strings.TrimSpace(r.Model),
	}
}

// A RouteKey identifies a (provider, host, model) for recorded refusals.
type RouteKey struct {
	Provider string `json:"provider"`
	Host     string `json:"host"`
	Model    string `json:"model"`
}

// Hostname extracts the hostname of a base URL: a bare host without scheme is
// accepted; the result is lower-cased with any trailing dot removed, and empty
// when nothing parses.
func Hostname(baseURL string) string {
	if u := parseBaseURL(baseURL); u != nil {
		return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	}
	return ""
}

// parseBaseURL parses a base URL, a bare host without scheme included; nil
// when it is empty or does not parse.
func parseBaseURL(baseURL string) *url.URL {
	s := strings.TrimSpace(baseURL)
	if s == "" {
		return nil
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil
	}
	return u
}

// HostMatches reports whether hostname equals domain or is a subdomain of it.
// Paths and look-alikes never match: only the hostname is compared.
func HostMatches(hostname, domain string) bool {
	domain = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(domain)), ".")
	if hostname == "" || domain == "" {
		return false
	}
	return hostname == domain || strings.HasSuffix(hostname, "."+domain)
}

func hostMatchesAny(hostname string, domains []string) bool {
	for _, d := range domains {
		if HostMatches(hostname, d) {
			return true
		}
	}
	return false
}

// IsLocal reports whether hostname is a local endpoint under the rule
// ([Hostname] gives the hostname of a base URL).
func (l LocalRule) IsLocal(hostname string) bool { return l.isLocalHost(hostname) }

// isLocalHost applies the local-endpoint rule of the route table to a
// hostname: an exact local name, a local suffix, a dotless name (when
// enabled), an address in one of the rule's ranges, or (when enabled) a
// loopback, private, link-local or unspecified IP address.
func (l LocalRule) isLocalHost(hostname string) bool {
	if hostname == "" {
		return false
	}
	for _, h := range l.Hostnames {
		if hostname == h {
			return true
		}
	}
	for _, suf := range l.Suffixes {
		if strings.HasSuffix(hostname, suf) {
			return true
		}
	}
	addr, err := netip.ParseAddr(strings.Trim(hostname, "[]"))
	if err != nil {
		return l.Dotless && !strings.Contains(hostname, ".")
	}
	addr = addr.Unmap()
	for _, r := range l.Ranges {
		if r.Contains(addr) {
			return true
		}
	}
	return l.PrivateAddresses && (addr.IsLoopback() || addr.IsPrivate() || addr.IsLinkLocalUnicast() || addr.IsUnspecified())
}
