package providers

import (
	"regexp"
	"strings"
	"testing"
)

// reference matches a public source: a URL or an owner/repo reference
// (owner/repo#12, owner/repo PR 12, owner/repo path/to/file).
var reference = regexp.MustCompile(`https?://[^\s;]+|\b[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*(#\d+| PR \d+| \S+/\S+|\s*$| [a-z]+/)`)

func TestConfirmedRulesCiteASource(t *testing.T) {
	ps, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		for _, r := range p.Rules {
			if r.Confidence != ConfidenceConfirmed {
				continue
			}
			if strings.TrimSpace(r.Source) == "" || !reference.MatchString(r.Source) {
				t.Errorf("%s rule %s is confirmed but its source %q is neither a URL nor an owner/repo reference", p.Name, r.ID, r.Source)
			}
		}
	}
}

func TestEverySourceLooksLikeAReference(t *testing.T) {
	ps, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		check := func(where, s string) {
			for _, part := range strings.Split(s, ";") {
				if part = strings.TrimSpace(part); !reference.MatchString(part) {
					t.Errorf("%s %s: %q is neither a URL nor an owner/repo reference", p.Name, where, part)
				}
			}
		}
		for _, s := range p.Sources {
			check("sources", s)
		}
		check("emits.source", p.Emits.Source)
		for _, r := range p.Rules {
			check("rule "+r.ID, r.Source)
		}
		for _, f := range p.Flags {
			check("flag "+f.Path, f.Source)
		}
		if p.Signing != nil {
			check("signing", p.Signing.Source)
		}
		for _, ig := range p.Ignore {
			check("ignore "+ig.Difference, ig.Source)
		}
		if p.PriorThinking != nil {
			check("prior_thinking", p.PriorThinking.Source)
		}
	}
}

func TestReferencePattern(t *testing.T) {
	for s, want := range map[string]bool{
		"https://api-docs.deepseek.com/guides/thinking_mode": true,
		"earendil-works/pi#4251":                             true,
		"NousResearch/hermes-agent PR 18263":                 true,
		"ollama/ollama openai/openai.go":                     true,
		"vllm-project/vllm#33616":                            true,
		"see the docs":                                       false,
		"hermes-agent":                                       false,
		"":                                                   false,
	} {
		if got := reference.MatchString(s); got != want {
			t.Errorf("reference.MatchString(%q) = %v, want %v", s, got, want)
		}
	}
}

// placeholder matches a brace pair that looks like a placeholder.
var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

func TestBodiesUseOnlyKnownPlaceholders(t *testing.T) {
	known := map[string]bool{}
	for _, ph := range Placeholders() {
		known[ph] = true
	}
	ps, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		for _, r := range p.Rules {
			for _, ph := range placeholder.FindAllString(r.Body, -1) {
				if !known[ph] {
					t.Errorf("%s rule %s: unknown placeholder %s in body", p.Name, r.ID, ph)
				}
			}
		}
	}
}
