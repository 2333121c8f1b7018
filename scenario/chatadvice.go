package scenario

import (
	"context"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// carriersRead returns the standard carriers the provider's profile says it
// reads back on assistant messages for the target's model: those it lists
// in reads and refuses no rule for.
func (c *Conv) carriersRead() engine.CarrierSet {
	var out engine.CarrierSet
	if c.Profile == nil {
		return out
	}
	for _, name := range c.Profile.Reads {
		k, err := engine.ParseCarrier(name)
		if err != nil || refusesFieldFor(c.Target, c.Profile, providers.ConditionAssistantFieldPresent, name) {
			continue
		}
		out = out.With(k)
	}
	return out
}

// adviseIfChatRead is the compaction's quality half on a chat route whose
// answer after compaction states no kept turn's conclusion: whatever the
// route sent, the scenario runs again through the reference engine with
// the implementation's decision sending exactly the carriers the provider
// reads (its flags and native fields as decided; the variant battery
// records every set of carriers), and an answer that then states each
// kept turn's conclusion shows the provider reads what the route lost:
// the cell is advisory, a failure unless declared. The quality half is
// never n/a because of what the route sends: a provider that reads no
// carrier says so from its profile, and a cassette that holds no answer
// to the variant leaves the cell unverified.
func (c *Conv) adviseIfChatRead(ctx context.Context) error {
	read := c.carriersRead()
	if read.Empty() {
		return nil
	}
	d, err := c.Decision(ctx)
	if err != nil {
		return err
	}
	d.Carriers, d.Pad = read, d.Pad && read.Has(engine.ReasoningContent)
	note, stated, err := c.compactionVariant(ctx, Reference{Table: c.Table, Decider: Fixed(d)}, "-read")
	switch {
	case !c.Replaying():
		if err != nil && isTransportError(err) {
			return err
		}
	case err != nil:
		return fmt.Errorf("the answer after compaction: whether the provider reads what the route lost cannot be judged: the route sending what the provider reads (%s) got no answer from the cassette (%v): %w", read, err, harness.ErrNoMatch)
	case stated:
		c.Advise("after compaction the answer states no kept turn's conclusion; the provider is recorded reading %s: when the route sends it, %s", read, note)
	}
	return nil
}
