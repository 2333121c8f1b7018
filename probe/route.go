package probe

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
)

var idSyntax = regexp.MustCompile(`[^a-z0-9]+`)

// TargetID derives a kebab-case target id from a provider id.
func TargetID(provider string) string {
	id := strings.Trim(idSyntax.ReplaceAllString(strings.ToLower(provider), "-"), "-")
	if id == "" {
		id = "probe"
	}
	return id
}

// normaliseRoute returns the route the probe records: an Anthropic base
// URL is taken without a trailing /v1, since the Messages API is at
// <base>/v1/messages (the Anthropic SDK appends /v1/messages as the
// engine does), so a base URL ending in /v1 would send every request to
// /v1/v1/messages. The notes say what changed.
func normaliseRoute(r engine.Route) (engine.Route, []string) {
	if r.APIMode != engine.ModeAnthropic {
		return r, nil
	}
	trimmed, ok := withoutV1(r.BaseURL)
	if !ok {
		return r, nil
	}
	note := "the Anthropic Messages API is at <base URL>/v1/messages (the engine appends /v1/messages, as the Anthropic SDK does), so the base URL " +
		r.BaseURL + " is taken without its trailing /v1: " + trimmed
	r.BaseURL = trimmed
	return r, []string{note}
}

// normaliseSend applies the same to where requests are sent.
func normaliseSend(r engine.Route, send string) string {
	if r.APIMode != engine.ModeAnthropic || send == "" {
		return send
	}
	if trimmed, ok := withoutV1(send); ok {
		return trimmed
	}
	return send
}

// withoutV1 cuts a trailing /v1 path segment from a base URL.
func withoutV1(base string) (string, bool) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return base, false
	}
	p := strings.TrimSuffix(u.Path, "/")
	if !strings.HasSuffix(p, "/v1") {
		return base, false
	}
	u.Path = strings.TrimSuffix(p, "/v1")
	return u.String(), true
}

// proposedHost is the hostname a proposal may match the route on, or ""
// for a local endpoint (loopback, private addresses, dotless and .local
// names): such a host is shared by every server on the machine or
// network, so the proposal matches the provider id only.
func proposedHost(t *engine.Table, r engine.Route) string {
	h := r.Host()
	if t.Local.IsLocal(h) {
		return ""
	}
	return h
}
