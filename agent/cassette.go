package agent

import (
	"fmt"
	"net/http"
	"strings"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// writeCassette writes a cell's exchanges to <dir>/<target>/<scenario>.yaml with
// provenance agent: the agent's requests at the target's own URL, the
// simulator's answers, Content-Type the only header, scrubbed as record
// scrubs. A cassette that still looks like it holds a credential is not
// written (the error says where).
func writeCassette(dir string, j *judgement, agentName string) (string, error) {
	f := &harness.File{Version: cassette.CassetteFormatV2, Provenance: harness.Provenance{
		Kind: harness.Agent, Target: j.target.ID, Scenario: j.scenario,
		Profile: j.profile.Name, ProfileVersion: j.profile.Version, AgentName: agentName,
	}}
	origin := originOf(strings.TrimSuffix(j.target.Route.BaseURL, "/"))
	for _, ex := range j.log {
		it := &cassette.Interaction{
			Request: cassette.Request{Method: ex.Method, URL: origin + ex.Path, Body: string(ex.Body),
				Headers: http.Header{"Content-Type": {"application/json"}}},
			Response: cassette.Response{Body: string(ex.Response), Code: ex.Status,
				Status:  fmt.Sprintf("%d %s", ex.Status, http.StatusText(ex.Status)),
				Headers: http.Header{}},
		}
		if ex.ContentType != "" {
			it.Response.Headers.Set("Content-Type", ex.ContentType)
		}
		harness.Scrub(it, engine.Hostname(it.Request.URL), []string{FakeKey})
		f.Interactions = append(f.Interactions, it)
	}
	if found := harness.Scan(f); len(found) > 0 {
		return "", fmt.Errorf("%s/%s: %s still looks like a credential (%s): no cassette written", j.target.ID, j.scenario, found[0].Where, found[0].What)
	}
	path := harness.Path(dir, j.target.ID, j.scenario)
	return path, harness.Write(path, f)
}
