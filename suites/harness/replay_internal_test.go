package harness

import (
	"net/http"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v3/recorder"
)

func TestReplayTransportRefusesTheNetwork(t *testing.T) {
	req, err := http.NewRequest("POST", "https://api.acme.test/v1/chat/completions", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := refuseNetwork{}.RoundTrip(req)
	if resp != nil || err == nil || err.Error() != "replay: refusing to reach api.acme.test: replay never uses the network" {
		t.Errorf("real transport of a replay answered %v, %v", resp, err)
	}
}

func TestReplayRecorderIsReplayOnly(t *testing.T) {
	r, err := OpenReplay("../../cassettes/openai/carriers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.rec.Mode() != recorder.ModeReplayOnly {
		t.Errorf("recorder mode %v, want replay-only", r.rec.Mode())
	}
	if len(r.Unused()) != len(r.File.Interactions) || len(r.File.Interactions) == 0 {
		t.Errorf("a fresh replay of %d interactions has %d unused", len(r.File.Interactions), len(r.Unused()))
	}
}
