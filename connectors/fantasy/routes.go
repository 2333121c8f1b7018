package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"charm.land/fantasy"
	"charm.land/fantasy/providers/openai"
	"charm.land/fantasy/providers/openaicompat"
	"charm.land/fantasy/providers/openrouter"
	"charm.land/fantasy/providers/vercel"
)

// The fantasy providers a chat route is given to, as a Crush user picks
// them: the provider type of the route's entry in crush.json.
const (
	kindOpenAICompat = "openaicompat"
	kindOpenRouter   = "openrouter"
	kindVercel       = "vercel"
	kindOpenAI       = "openai"
)

// providerKind is the fantasy provider a route is served by (README.md,
// "Route mapping"). fantasy has no route table of its own: the provider a
// user configures decides what is replayed.
func providerKind(r *route) string {
	host := hostOf(r.BaseURL)
	provider := strings.ToLower(strings.TrimSpace(r.Provider))
	switch {
	case provider == "openrouter" || hostIs(host, "openrouter.ai"):
		return kindOpenRouter
	case provider == "ai-gateway" || provider == "vercel" || hostIs(host, "ai-gateway.vercel.sh"):
		return kindVercel
	case hostIs(host, "api.openai.com"):
		return kindOpenAI
	}
	return kindOpenAICompat
}

// hostOf is the lower-cased hostname of a base URL, with or without a scheme.
func hostOf(base string) string {
	if !strings.Contains(base, "://") {
		base = "https://" + base
	}
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}

// hostIs reports whether host is domain or one of its subdomains.
func hostIs(host, domain string) bool {
	return host == domain || strings.HasSuffix(host, "."+domain)
}

// languageModel builds the route's fantasy language model over client.
func languageModel(r *route, client *http.Client) (fantasy.LanguageModel, error) {
	var (
		p   fantasy.Provider
		err error
	)
	switch providerKind(r) {
	case kindOpenRouter:
		p, err = openrouter.New(openrouter.WithAPIKey("replaycheck"), openrouter.WithHTTPClient(client))
	case kindVercel:
		p, err = vercel.New(vercel.WithAPIKey("replaycheck"), vercel.WithBaseURL(r.BaseURL), vercel.WithHTTPClient(client))
	case kindOpenAI:
		p, err = openai.New(openai.WithAPIKey("replaycheck"), openai.WithBaseURL(r.BaseURL), openai.WithHTTPClient(client))
	default:
		p, err = openaicompat.New(openaicompat.WithAPIKey("replaycheck"), openaicompat.WithBaseURL(r.BaseURL), openaicompat.WithHTTPClient(client))
	}
	if err != nil {
		return nil, fmt.Errorf("%s provider: %w", providerKind(r), err)
	}
	return p.LanguageModel(context.Background(), r.Model)
}

// carriersSent are the chat carriers fantasy's provider for the route puts
// on an assistant turn that holds reasoning: what decide reports.
func carriersSent(r *route) []string {
	switch providerKind(r) {
	case kindOpenRouter, kindVercel:
		if strings.HasPrefix(r.Model, "anthropic/") {
			return []string{"reasoning", "reasoning_details"}
		}
		return []string{"reasoning_details"}
	case kindOpenAI:
		return []string{}
	}
	return []string{"reasoning_content"}
}
