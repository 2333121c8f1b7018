package scenario

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// switchedThinking is the reasoning of a tool-call turn another model
// answered before the user switched to the target's model; that model's
// service signed it ([foreignSignature]).
const switchedThinking = "Reasoning of the model used before the switch: the cache TTL looks wrong."

// crossModel replays to a Bedrock Converse target whose own turns carry no
// reasoning a tool-call turn another model reasoned in, as after a user
// switched models mid-session: the target's own tool-call turn with a
// signed reasoningContent block (a Claude model's, stored as Converse
// capture stores it) before its tool call. The route table's Converse row
// for the target's model decides what goes back (nothing when stripped,
// the block when signed, its text when unsigned), and the request must be
// accepted as sent. Recording, the turn is also sent under every other
// replay contract, so the cassette holds the model's answer to reasoning
// replayed with a signature, without one and not at all, and an edit of
// the row is judged from it. A target whose own turns carry reasoning is
// judged on that reasoning by every other scenario.
func crossModel(ctx context.Context, c *Conv) error {
	i, err := nativeToolTurn(c.Session)
	if err != nil {
		return err
	}
	own := c.Session.Messages[i]
	if len(own.ReasoningDetails) > 0 || slices.ContainsFunc(own.Native.Blocks, func(b json.RawMessage) bool {
		return gjson.GetBytes(b, "reasoningContent").Exists()
	}) {
		return nil
	}
	turn := own.Clone()
	turn.Native.Blocks = append([]json.RawMessage{reasoningTextBlock(switchedThinking, foreignSignature)}, turn.Native.Blocks...)
	turn.ReasoningDetails = []json.RawMessage{thinkingItem(switchedThinking, foreignSignature)}
	s := withTurn(c.Session, i, turn, "-switched-model")
	before := s.Clone()
	res, err := c.TurnOn(ctx, s, false)
	if !c.Replaying() && len(res.Exchanges) > 0 {
		if err := c.recordNativeReplays(ctx, before, res.Exchanges[0].Body); err != nil {
			return err
		}
	}
	if err := accepted("a tool-call turn another model reasoned in, replayed to "+c.Target.Route.Model, res, err); err != nil {
		return err
	}
	if stringValues(gjson.ParseBytes(res.Exchanges[0].Body))[switchedThinking] {
		c.Note("a turn another model reasoned in went back with its reasoning")
	} else {
		c.Note("a turn another model reasoned in went back without its reasoning")
	}
	return nil
}

// reasoningTextBlock is a Converse reasoning block:
// {"reasoningContent":{"reasoningText":{"text":T,"signature":S}}}.
func reasoningTextBlock(text, sig string) json.RawMessage {
	b := append([]byte(`{"reasoningContent":{"reasoningText":{"text":`), engine.AppendQuoted(nil, text)...)
	b = append(append(b, `,"signature":`...), engine.AppendQuoted(nil, sig)...)
	return append(b, `}}}`...)
}

// thinkingItem is the Anthropic-format reasoning_details item Converse
// capture stores beside such a block.
func thinkingItem(text, sig string) json.RawMessage {
	b := append([]byte(`{"type":"thinking","thinking":`), engine.AppendQuoted(nil, text)...)
	b = append(append(b, `,"signature":`...), engine.AppendQuoted(nil, sig)...)
	return append(b, '}')
}
