package dialects_test

import (
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/anthropic"
	"github.com/replaycheck/replaycheck/engine/dialects"
	"github.com/replaycheck/replaycheck/engine/responses"
	"github.com/replaycheck/replaycheck/matrix"
)

func TestEveryNativeModeHasADialect(t *testing.T) {
	f, err := matrix.Load("../../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []engine.APIMode{engine.ModeChat, engine.ModeAnthropic, engine.ModeBedrockConverse, engine.ModeGemini, engine.ModeResponses} {
		d, err := dialects.For(m, &f.Table)
		if err != nil || d.Mode() != m {
			t.Errorf("api mode %s: %v", m, err)
		}
	}
	if _, err := dialects.For("no-such-mode", &f.Table); err == nil {
		t.Error("an unknown api mode must be an error")
	}
	d, _ := dialects.For(engine.ModeAnthropic, &f.Table)
	if a, ok := d.(anthropic.Dialect); !ok || a.Table != &f.Table {
		t.Error("the Anthropic dialect must read its route data from the table it was given")
	}
	d, _ = dialects.For(engine.ModeResponses, &f.Table)
	if r, ok := d.(responses.Dialect); !ok || r.Table != &f.Table || r.Issuer != nil {
		t.Error("the Responses dialect must read its families from the table it was given, and capture for no route until bound")
	}
	if got := dialects.Modes(); len(got) != 5 || got[4] != engine.ModeResponses {
		t.Errorf("modes %v: want every api mode, responses last", got)
	}
}
