package scenario

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// adviseIfPriorRead asks the cassette, on an Anthropic route that replays
// no earlier turn's thinking after compaction (or a Bedrock Converse route
// whose row strips reasoningContent), whether the provider was recorded
// stating every kept turn's conclusion when the same scenario went with
// earlier turns' thinking replayed (signed or unsigned: the native
// variants of the battery). If it was, the route drops reasoning the
// provider reads, and the cell is advisory. Only recorded answers are
// consulted: a variant the cassette does not hold gives no advice and no
// miss.
func (c *Conv) adviseIfPriorRead(ctx context.Context) error {
	if c.Table == nil || c.variant {
		return nil
	}
	if c.Target.Route.APIMode == engine.ModeChat {
		return c.adviseIfChatRead(ctx)
	}
	if !c.Replaying() {
		return nil
	}
	switch c.Target.Route.APIMode {
	case engine.ModeAnthropic:
	case engine.ModeBedrockConverse:
		c.adviseIfConverseRead(ctx)
		return nil
	default:
		return nil
	}
	// A model its profile documents as keeping only the last turn's
	// thinking ignores earlier turns' (SPEC §4.1): a recording that reads
	// it is no evidence the route drops anything. The profile decides,
	// never the table under test, so a table that stops replaying it to a
	// model that keeps it is seen.
	if c.Profile.KeepsOnlyLastTurnThinking(c.Target.Route.Model) {
		return nil
	}
	own := c.Table.Dialects.Anthropic.Decide(c.Target.Route.BaseURL, c.Target.Route.Model)
	contracts := []engine.ReasoningReplay{engine.ReplaySigned, engine.ReplayUnsigned}
	variant := func(r engine.ReasoningReplay) *engine.Table {
		return anthropicVariant(c.Table, r, true, own.LearnRejections)
	}
	if r, note, ok := c.readWhenReplayed(ctx, contracts, variant, "-prior"); ok {
		c.Advise("after compaction the route replays no earlier turn's thinking; the provider is recorded reading it when it is replayed %s: %s", r, note)
	}
	return nil
}

// readWhenReplayed runs compaction's script again under the table each
// replay contract gives, judged by recorded answers only, and returns the
// first contract under which the provider is recorded reading the kept
// turns' reasoning, with the note that shows it. suffix tells the
// variant's session from the cell's.
func (c *Conv) readWhenReplayed(ctx context.Context, contracts []engine.ReasoningReplay, table func(engine.ReasoningReplay) *engine.Table, suffix string) (engine.ReasoningReplay, string, bool) {
	for _, r := range contracts {
		if note, ok, err := c.compactionVariant(ctx, Reference{Table: table(r)}, suffix); err == nil && ok {
			return r, note, true
		}
	}
	return "", "", false
}

// compactionVariant runs compaction's script again through impl (a
// variant of the route), on recorded answers only while replaying (no
// miss counted) and through the recording otherwise, asking for no
// advice; it returns the note of an answer that states every kept turn's
// conclusion. suffix tells the variant's session from the cell's.
func (c *Conv) compactionVariant(ctx context.Context, impl Implementation, suffix string) (note string, stated bool, err error) {
	v := &Conv{
		Target: c.Target, Dialect: c.Dialect, Profile: c.Profile, variant: true,
		Impl: impl, Client: c.Client, Session: &engine.Session{ID: c.Session.ID + suffix},
	}
	if c.Replaying() {
		v.Client = &http.Client{Transport: recordedOnly{c.Replay}}
	}
	if err := compactionRun(ctx, v); err != nil {
		return "", false, err
	}
	for _, n := range v.notes {
		if note, ok := statesKept(n); ok {
			return note, true, nil
		}
	}
	return "", false, nil
}

// keptStated opens the compaction note of an answer that states every
// kept turn's conclusion.
const keptStated = "the answer still states each kept turn's conclusion"

// statesKept returns the part of a compaction note that shows the answer
// stating every kept turn's conclusion.
func statesKept(note string) (string, bool) {
	if i := strings.Index(note, keptStated); i >= 0 {
		return note[i:], true
	}
	return "", false
}

// compactionRun is compaction's script, set at init: the script itself
// asks for advice, so it cannot name itself.
var compactionRun func(context.Context, *Conv) error

func init() { compactionRun = compaction.Run }

// recordedOnly serves requests from a cassette's recorded answers
// without counting a miss; an unrecorded request is an error.
type recordedOnly struct{ r *harness.Replay }

// errNotRecorded is a request the cassette holds no answer for.
var errNotRecorded = errors.New("recorded answers: no recorded answer for the request")

func (t recordedOnly) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := harness.RequestBody(req)
	if err != nil {
		return nil, err
	}
	it, ok := t.r.Lookup(req.Method, req.URL.Path, body)
	if !ok {
		return nil, errNotRecorded
	}
	return &http.Response{
		StatusCode: it.Response.Code, Header: http.Header{"Content-Type": []string{"application/json"}},
		Body: io.NopCloser(bytes.NewReader([]byte(it.Response.Body))), Request: req,
	}, nil
}
