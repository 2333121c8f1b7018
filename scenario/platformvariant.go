package scenario

import (
	"context"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/dialects"
)

// recordMessagesPlatform records, on an Anthropic route the table serves
// on a Claude platform's own request shape (Bedrock InvokeModel, Vertex
// rawPredict: the model in the path), the provider's answer to the same
// request in the Messages API's shape (POST /v1/messages, the model in
// the body), which a table that loses the platform would send. The
// cassette then holds the platform's answer to a request of the wrong
// shape (the provider's profile says what it is), so an edit of
// anthropic.platforms is judged from it rather than left unverified.
func (c *Conv) recordMessagesPlatform(ctx context.Context, s *engine.Session) error {
	if c.Target.Route.APIMode != engine.ModeAnthropic {
		return nil
	}
	ref, ok := c.Impl.(Reference)
	if !ok || ref.Table == nil || ref.Table.Dialects.Anthropic.Platform(c.Target.Route.BaseURL, c.Target.Route.Model) == engine.PlatformMessages {
		return nil
	}
	alt := *ref.Table
	alt.Dialects.Anthropic.Platforms = nil
	dia, err := dialects.For(engine.ModeAnthropic, &alt)
	if err != nil {
		return err
	}
	d, err := c.DecisionFor(ctx, s)
	if err != nil {
		return err
	}
	body, err := dia.Shape(s, d, c.Request(false))
	if err != nil {
		return err
	}
	_, _, err = c.send(ctx, dia.Path(c.Target.Route, false), body)
	return err
}
