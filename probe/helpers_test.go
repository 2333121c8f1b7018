package probe_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/probe"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
	"github.com/replaycheck/replaycheck/sim"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// probeSim probes the simulator of a committed profile, served on
// loopback for the probe's duration, as a provider "Acme <profile>" at
// https://api.acme.example (path) with model: the simulator stands for a
// provider the table does not know. It returns the result and the --out
// directory.
func probeSim(t *testing.T, profile string, mode engine.APIMode, path, model string) (*probe.Result, string) {
	t.Helper()
	m, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(scenariotest.Profiles(t, "../providers")[profile], sim.Options{Seed: "probe"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	out := t.TempDir()
	res, err := probe.Run(context.Background(), probe.Options{
		Route:  engine.Route{APIMode: mode, Provider: "Acme " + profile, BaseURL: "https://api.acme.example" + path, Model: model},
		Matrix: m, Record: harness.RecordOptions{SendBaseURL: srv.URL + path}, Out: out, Date: "2026-12-02",
	})
	if err != nil {
		t.Fatalf("%s: %v", profile, err)
	}
	return res, out
}
