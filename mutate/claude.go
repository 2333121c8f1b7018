package mutate

import (
	"fmt"
	"regexp"
	"sort"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/providers"
)

// claudeProfile is the profile whose closed id list speaks for Claude on
// every platform: Anthropic publishes the models that Bedrock, Vertex AI
// and Foundry serve under ids naming the same family and version.
const claudeProfile = "anthropic"

// claudeModels is what that list says of Claude versions: the families it
// names and the versions each has. A route whose model id spells a version
// of a listed family that no listed id has names no Claude model, on any
// platform (providers/anthropic.yaml, serves).
type claudeModels struct {
	by       *providers.Profile
	families []string
	versions map[string]bool
}

// claudeFamily finds the family word of a dateless-era Claude id
// ("claude-opus-4-6" names opus); the Claude 3 ids put the generation
// first and name none.
var claudeFamily = regexp.MustCompile(`claude[-_.]([a-z]+)[-_.][0-9]`)

func newClaudeModels(profiles map[string]*providers.Profile) claudeModels {
	p := profiles[claudeProfile]
	if p == nil || p.Serves == nil || len(p.Serves.IDs) == 0 {
		return claudeModels{}
	}
	c := claudeModels{by: p, versions: map[string]bool{}}
	seen := map[string]bool{}
	for _, id := range p.Serves.IDs {
		if m := claudeFamily.FindStringSubmatch(id); m != nil && !seen[m[1]] {
			seen[m[1]] = true
			c.families = append(c.families, m[1])
		}
	}
	sort.Strings(c.families)
	for _, id := range p.Serves.IDs {
		if f, v, ok := engine.ClaudeVersion(id, c.families); ok {
			c.versions[versionKey(f, v)] = true
		}
	}
	return c
}

func versionKey(family string, v engine.ModelVersion) string {
	return fmt.Sprintf("%s %d.%d", family, v.Major, v.Minor)
}

// unknown returns the fact that model names a Claude version no Claude
// model has ("no Claude model is opus 4.4 ..."), or "" when it names one
// that exists or names no listed family's version.
func (c claudeModels) unknown(model string) string {
	if c.by == nil {
		return ""
	}
	f, v, ok := engine.ClaudeVersion(model, c.families)
	if !ok || c.versions[versionKey(f, v)] {
		return ""
	}
	return fmt.Sprintf("no Claude model is %s on any platform (providers/%s.yaml serves lists every Claude id: %s)",
		versionKey(f, v), c.by.Name, c.by.Serves.Source)
}

// listed returns the Claude ids of the list, which every probe of the
// capability tables carries so that each real version is judged.
func (c claudeModels) listed() []string {
	if c.by == nil {
		return nil
	}
	return c.by.Serves.IDs
}
