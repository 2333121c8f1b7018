package harness

import (
	"testing"
)

// TestReplayParsesTheCassetteOnce checks that go-vcr replays the very
// interactions Read parsed and validated, not a second copy it loaded
// itself, and that a fresh replay has used none of them.
func TestReplayParsesTheCassetteOnce(t *testing.T) {
	r, err := OpenReplay("../../cassettes/openai/carriers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if len(r.File.Interactions) == 0 || len(r.vcr.Interactions) != len(r.File.Interactions) {
		t.Fatalf("go-vcr holds %d interactions, the parsed file %d", len(r.vcr.Interactions), len(r.File.Interactions))
	}
	for i := range r.File.Interactions {
		if r.vcr.Interactions[i] != r.File.Interactions[i] {
			t.Errorf("interaction %d: go-vcr replays a copy, not the parsed interaction", i)
		}
	}
	if !r.vcr.ReplayableInteractions || r.vcr.IsNew {
		t.Errorf("go-vcr cassette replayable=%v new=%v, want a loaded cassette whose interactions replay any number of times", r.vcr.ReplayableInteractions, r.vcr.IsNew)
	}
	if len(r.Unused()) != len(r.File.Interactions) || r.LastServed() != -1 {
		t.Errorf("a fresh replay of %d interactions has %d unused and last served %d", len(r.File.Interactions), len(r.Unused()), r.LastServed())
	}
}
