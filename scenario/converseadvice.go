package scenario

import (
	"context"
	"net/http"
	"strings"

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
func (c *Conv) adviseIfConverseRead(ctx context.Context, ref Reference) {
	route := c.Target.Route
	if ref.Table.Dialects.Converse.For(route.Model).Replay != engine.ReplayStripped {
		return
	}
	for _, r := range []engine.ReasoningReplay{engine.ReplayUnsigned, engine.ReplaySigned} {
		v := &Conv{
			Target: c.Target, Dialect: c.Dialect, Profile: c.Profile,
			Impl:    Reference{Table: replayTable(ref.Table, route, r), Dir: ref.Dir},
			Client:  &http.Client{Transport: recordedOnly{c.Replay}},
			Session: &engine.Session{ID: c.Session.ID + "-replayed"},
		}
		if err := compactionRun(ctx, v); err != nil {
			continue
		}
		for _, n := range v.notes {
			if i := strings.Index(n, "the answer still states each kept turn's conclusion"); i >= 0 {
				c.Advise("the route's Converse row strips reasoningContent; the provider is recorded reading it when it is replayed %s: %s", r, n[i:])
				return
			}
		}
	}
}
