package probe_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/probe"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
	"github.com/replaycheck/replaycheck/sim"
	"github.com/replaycheck/replaycheck/suites/harness"
)

func TestProbeInfersProfile(t *testing.T) {
	m, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	profiles := scenariotest.Profiles(t, "../providers")
	tests := []struct {
		profile  string
		carriers string
		row      string
		mustEcho bool
		refused  []engine.Carrier
		reason   string
	}{
		{"cerebras", "reasoning", "acme-cerebras", false, []engine.Carrier{engine.ReasoningContent, engine.ReasoningDetails}, "a strict schema that reads reasoning gets a new row"},
		{"deepseek", "reasoning_content", "default", true, nil, "a must-echo provider gets a family and the default carriers"},
		{"openrouter", "reasoning_content,reasoning,reasoning_details", "gateways", false, nil, "a gateway reading everything joins the gateways row"},
	}
	for _, tt := range tests {
		s, err := sim.New(profiles[tt.profile], sim.Options{Seed: "probe"})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(s)
		out := t.TempDir()
		res, err := probe.Run(context.Background(), probe.Options{
			Route:  engine.Route{APIMode: engine.ModeChat, Provider: "Acme " + tt.profile, BaseURL: "https://api.acme.example/v1", Model: "acme-reasoner"},
			Matrix: m, Record: harness.RecordOptions{SendBaseURL: srv.URL}, Out: out, Date: "2026-12-02",
		})
		srv.Close()
		if err != nil {
			t.Fatalf("%s: %v", tt.profile, err)
		}
		if res.Carriers.String() != tt.carriers || res.Row != tt.row || res.MustEcho != tt.mustEcho {
			t.Errorf("%s: carriers %s row %q must-echo %v, want %s %q %v: %s", tt.profile, res.Carriers, res.Row, res.MustEcho, tt.carriers, tt.row, tt.mustEcho, tt.reason)
		}
		for _, c := range tt.refused {
			if res.Refused[c].Status < 400 || res.Refused[c].Body == "" {
				t.Errorf("%s: %s not recorded as refused with its body", tt.profile, c)
			}
		}
		if res.Provenance != harness.Simulated {
			t.Errorf("%s: provenance %s, want simulated (the simulator answered)", tt.profile, res.Provenance)
		}
		y, err := res.ProfileYAML()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := providers.Parse(res.Target.ID+".yaml", []byte(y)); err != nil {
			t.Errorf("%s: the draft profile does not validate: %v\n%s", tt.profile, err, y)
		}
		if !strings.Contains(res.TargetYAML(), "id: "+res.Target.ID) || res.RouteYAML() == "" {
			t.Errorf("%s: proposal YAML missing", tt.profile)
		}
		for _, c := range res.Column.Cells {
			if c.Status == report.StatusFail || c.Status == report.StatusUnverified {
				t.Errorf("%s: under the proposal %s/%s is %s: %s %s %s", tt.profile, c.Target, c.Scenario, c.Status, c.Detail, c.Expected, c.ProviderError)
			}
		}
	}
}
