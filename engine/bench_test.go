package engine_test

import (
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

// BenchmarkCompact10000Turns is the compaction budget: one pass, linear in
// the history (compare with BenchmarkCompact2500Turns: a quarter of it).
func BenchmarkCompact10000Turns(b *testing.B) { benchCompact(b, 10000) }

func BenchmarkCompact2500Turns(b *testing.B) { benchCompact(b, 2500) }

func BenchmarkCompact20000Turns(b *testing.B) { benchCompact(b, 20000) }

func benchCompact(b *testing.B, turns int) {
	table := enginetest.Table(b)
	d := table.Decide(engine.Route{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "m"}, 0)
	s := longSession(turns, 200)
	threshold := engine.Estimate(s.Messages, d) / 2
	b.ReportAllocs()
	for b.Loop() {
		res := engine.Compact(s, d, engine.CompactOptions{Threshold: threshold})
		if res.CannotShrink || res.Dropped == 0 {
			b.Fatal("compaction did not converge")
		}
	}
}
