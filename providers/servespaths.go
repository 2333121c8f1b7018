package providers

import (
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
)

// ServesPath reports whether a route of api mode mode to the profile's
// hosts with base URL baseURL reaches its API by serves.paths: true when
// the profile declares no path, when mode is not the profile's own (the
// paths speak for no other mode), or when the base URL's path contains
// one of the declared runs of segments.
func (p *Profile) ServesPath(mode, baseURL string) bool {
	if p == nil || p.Serves == nil || len(p.Serves.Paths) == 0 || mode != p.APIMode {
		return true
	}
	return engine.EndpointMatch{Paths: p.Serves.Paths}.Matches(baseURL, "")
}

// pathIssues checks serves.paths: each a run of whole segments with a
// leading slash and no trailing one, none empty or listed twice.
func (s *Serves) pathIssues(path []string) []*ValidationError {
	var out []*ValidationError
	seen := map[string]bool{}
	for i, p := range s.Paths {
		where := at(path, "paths", strconv.Itoa(i))
		switch {
		case !strings.HasPrefix(p, "/") || p == "/" || strings.HasSuffix(p, "/") || strings.Contains(p, "//") || strings.TrimSpace(p) != p:
			out = append(out, issue(where, "serves: path %q is not a run of whole segments with a leading slash (\"/anthropic\")", p))
		case seen[p]:
			out = append(out, issue(where, "serves: path %q is listed twice", p))
		}
		seen[p] = true
	}
	return out
}
