package scenario

import (
	"context"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/anthropic"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// refusesUnsignedThinking reports whether missing-echo applies to an
// Anthropic-compatible endpoint that signs nothing and refuses a tool-call
// turn without its thinking block (DeepSeek's and Kimi's /anthropic): the
// route must pad such a turn with a " " thinking block, as a chat route
// pads reasoning_content. A signing provider is left out: a made-up block
// can carry no signature, so no pad can satisfy it.
func refusesUnsignedThinking(t matrix.Target, p *providers.Profile) bool {
	return t.Route.APIMode == engine.ModeAnthropic && p.Signing == nil &&
		refusesFieldFor(t, p, providers.ConditionToolTurnFieldMissing, "thinking")
}

// sendUnpadded records the provider's answer to the padded request with
// its pad thinking blocks taken out: the bare tool-call turn as a route
// without the pad sends it, so the cassette shows what the endpoint does
// when thinking is missing.
func (c *Conv) sendUnpadded(ctx context.Context, ex engine.Exchange) error {
	body := ex.Body
	for i, m := range gjson.GetBytes(body, "messages").Array() {
		b := m.Get("content.0")
		if m.Get("role").Str != "assistant" || b.Get("type").Str != "thinking" || b.Get("thinking").Str != anthropic.Pad || b.Get("signature").Exists() {
			continue
		}
		var err error
		if body, err = sjson.DeleteBytes(body, fmt.Sprintf("messages.%d.content.0", i)); err != nil {
			return err
		}
	}
	_, _, err := c.send(ctx, ex.Path, body)
	return err
}
