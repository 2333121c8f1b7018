package scenario

import (
	"context"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/engine"
)

// geminiTextSignatureSource is Google's guide to thought signatures: a
// signature can sit on a text part of an answer that calls no function,
// and returning it keeps the model's own reasoning context on the next
// turn (only function-call signatures are validated, so losing it is never
// refused: it costs the model's quality).
const geminiTextSignatureSource = "https://ai.google.dev/gemini-api/docs/thought-signatures"

// textTurnSignature is signed-roundtrip's step for a Gemini route: two
// questions without tools, so the first answer is text whose thought
// reaches the model again only through the thoughtSignature on its text
// part. The second answer must state the first answer's conclusion (the
// simulator's memo, as Gemini reads its own signature); an implementation
// that never captures or replays a text part's signature is refused
// nothing, and fails here in the model's words.
func textTurnSignature(ctx context.Context, c *Conv) error {
	if c.Target.Route.APIMode != engine.ModeGemini {
		return nil
	}
	c.textOnly = true
	defer func() { c.textOnly = false }()
	s := &engine.Session{ID: c.Session.ID + "-text"}
	s.Messages = append(s.Messages, userMessage(questions[0]))
	first, err := c.TurnOn(ctx, s, false)
	if err := accepted("the text answer (no tools offered)", first, err); err != nil {
		return err
	}
	resp := gjson.ParseBytes(first.Exchanges[0].Response)
	sig := resp.Get(`candidates.0.content.parts.#(text!="")#.thoughtSignature`).Array()
	if len(sig) == 0 {
		sig = resp.Get(`candidates.0.content.parts.#.thoughtSignature`).Array()
	}
	thought := memos(memoInReasoning, resp.Get(`candidates.0.content.parts.#(thought==true)#.text`).Raw)
	if len(sig) == 0 || len(thought) == 0 {
		return &NotApplicableError{Reason: "the provider put no thoughtSignature on the text answer's part, so there is no text-turn signature to replay"}
	}
	s.Messages = append(s.Messages, userMessage(questions[1]))
	second, err := c.TurnOn(ctx, s, false)
	if err := accepted("the second question's answer (replays the text answer)", second, err); err != nil {
		return err
	}
	stated := AnswerMemos(second.Message)
	if missing := minus(thought, stated); len(missing) > 0 {
		sent := "it was not sent"
		if strings.Contains(string(second.Exchanges[0].Body), sig[0].Str) {
			sent = "it was sent"
		}
		return fail("the second question's answer",
			fmt.Sprintf("the first answer's thought context back (%s), carried by the thoughtSignature on its text part (%s)", memoList(missing), geminiTextSignatureSource),
			fmt.Sprintf("the text part's signature: %s; the model no longer states %s%s", sent, memoList(missing), quoteAnswer(second)))
	}
	c.Note("the text answer's thoughtSignature replayed: the next answer states its thought (%s)", memoList(thought))
	return nil
}

// userMessage is a user turn asking text.
func userMessage(text string) engine.Message {
	return engine.Message{Role: "user", Content: engine.AppendQuoted(nil, text)}
}
