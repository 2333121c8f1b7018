package scenario

import (
	"context"

	"github.com/replaycheck/replaycheck/engine"
)

// adviseIfConverseRead is adviseIfPriorRead on a Bedrock Converse route:
// when the route's row strips reasoningContent, the compaction scenario is
// looked up again under each replay contract that sends it (the battery
// records them, thinking requested as the row requests it), and a
// recording whose answer still states each kept turn's conclusion makes
// the cell advisory: the row drops reasoning the provider reads. A row
// that replays reasoning gets no advice, and neither does a model that
// gives none to replay (nothing is sent under any contract, so no
// recording states a conclusion it read).
func (c *Conv) adviseIfConverseRead(ctx context.Context) {
	route := c.Target.Route
	if c.Table.Dialects.Converse.For(route.Model).Replay != engine.ReplayStripped {
		return
	}
	contracts := []engine.ReasoningReplay{engine.ReplayUnsigned, engine.ReplaySigned}
	variant := func(r engine.ReasoningReplay) *engine.Table { return replayTable(c.Table, route, r) }
	if r, note, ok := c.readWhenReplayed(ctx, contracts, variant, "-replayed"); ok {
		c.Advise("the route's Converse row strips reasoningContent; the provider is recorded reading it when it is replayed %s: %s", r, note)
	}
}
