package scenario

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/sjson"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/providers"
)

// A private value is one of another route's private native fields, or an
// opaque item, planted in a stored turn with a value of its own so that
// the wire shows whether it leaked (SPEC §3.3: each is unpacked only for
// its own route; the private record never reaches any wire).
type private struct {
	// group is the native field group whose routes read it ("" for the
	// record itself, which no route reads).
	group string
	// what names it in a failure.
	what  string
	value string
}

// The planted values: base64 of what they stand for, as real ones are.
var privates = []private{
	{"gemini", "the Gemini text-turn signature (extra_content)", "bGVhazogR2VtaW5pIHRleHQtdHVybiBzaWduYXR1cmU="},
	{"gemini", "the Gemini per-call signature (tool_calls[].extra_content)", "bGVhazogR2VtaW5pIHBlci1jYWxsIHNpZ25hdHVyZQ=="},
	{"copilot", "Copilot's reasoning_opaque", "bGVhazogQ29waWxvdCByZWFzb25pbmdfb3BhcXVl"},
	{"copilot", "Copilot's reasoning_text", "Leak: Copilot's readable reasoning_text."},
	{"copilot", "Copilot's per-call function.thought_signature", "bGVhazogQ29waWxvdCBwZXItY2FsbCBzaWduYXR1cmU="},
	{"", "the private record (" + engine.RecordType + ")", engine.RecordType},
}

// plantPrivates returns a copy of the provider's own tool-call turn m
// holding, besides its own reasoning, every planted value of the groups
// the route does not read (its own group's values would be its own to
// replay), live and in its private record, and the values it planted.
func plantPrivates(m engine.Message, reads func(group string) bool) (engine.Message, []private, error) {
	m = m.Clone()
	var planted []private
	plant := func(i int) string {
		planted = append(planted, privates[i])
		return privates[i].value
	}
	record := []byte(`{"type":"` + engine.RecordType + `"}`)
	keep := m.ReasoningDetails[:0:0]
	for _, it := range m.ReasoningDetails {
		if engine.ItemType(it) == engine.RecordType {
			record = it
		} else {
			keep = append(keep, it)
		}
	}
	var err error
	set := func(path string, v any) {
		if err == nil {
			record, err = sjson.SetBytes(record, path, v)
		}
	}
	if !reads("gemini") {
		m.ExtraContent = engine.GoogleExtraContent(plant(0))
		m.ToolCalls[0].ExtraContent = engine.GoogleExtraContent(plant(1))
		set("extra_content.google.thought_signature", privates[0].value)
	}
	if !reads("copilot") {
		m.ReasoningOpaque, m.ReasoningText = engine.Str(plant(2)), engine.Str(plant(3))
		m.ToolCalls[0].Function.ThoughtSignature = plant(4)
		set("reasoning_opaque", privates[2].value)
		set("reasoning_text", privates[3].value)
	}
	plant(5)
	m.ReasoningDetails = append(keep, record)
	return m, planted, err
}

// leakStep replays the conversation so far, its tool-call turn now
// holding another route's private native fields and its private record
// besides the provider's own reasoning, with a new question (so the
// planted turn is an earlier turn, which a provider that validates only
// the current turn's signatures does not judge): to the target, a strict
// route, a foreign chat route or a foreign native route as it is, the
// request must be accepted as sent, and none of the planted values may
// reach the wire. Which groups the route reads is the harness's route
// table's decision when there is one (a table under test), else the
// implementation's.
func leakStep(ctx context.Context, c *Conv) error {
	var d engine.Decision
	if c.Table != nil {
		d = c.Table.Decide(c.Target.Route, 0)
	} else {
		var err error
		if d, err = c.Decision(ctx); err != nil {
			return err
		}
	}
	reads := func(group string) bool {
		return d.ReadsNative(group) || (group == "gemini" && c.Target.Route.APIMode == engine.ModeGemini)
	}
	s := c.Session.Clone()
	s.ID += "-private"
	i := slices.IndexFunc(s.Messages, func(m engine.Message) bool { return m.Role == "assistant" && len(m.ToolCalls) > 0 })
	if i < 0 {
		return fail("the conversation", "the provider's tool-call turn to plant private fields in", "none")
	}
	turn, planted, err := plantPrivates(s.Messages[i], reads)
	if err != nil {
		return err
	}
	s.Messages[i] = turn
	s.Messages = append(s.Messages, userMessage(questions[1]))
	what := fmt.Sprintf("a history holding %s's private fields, replayed to %s", otherRoutes(planted), routeKind(c, d))
	res, err := c.TurnOn(ctx, s, false)
	if len(res.Exchanges) > 0 {
		body := string(res.Exchanges[0].Body)
		var leaked []string
		for _, p := range planted {
			if strings.Contains(body, p.value) {
				leaked = append(leaked, p.what)
			}
		}
		if len(leaked) > 0 {
			got := "the request carries " + strings.Join(leaked, ", ")
			if res.Exchanges[0].Status/100 != 2 {
				got += fmt.Sprintf("; refused %d: %s", res.Exchanges[0].Status, res.Exchanges[0].Response)
			}
			return fail(what, "none of them on the wire: each is unpacked only for its own route (SPEC §3.3)", got)
		}
	}
	if err := accepted(what, res, err); err != nil {
		return err
	}
	c.Note("%s: none reached the wire", what)
	return nil
}

// otherRoutes names the routes whose private fields were planted.
func otherRoutes(planted []private) string {
	var gemini, copilot bool
	for _, p := range planted {
		gemini = gemini || p.group == "gemini"
		copilot = copilot || p.group == "copilot"
	}
	switch {
	case gemini && copilot:
		return "Gemini and Copilot"
	case gemini:
		return "Gemini"
	case copilot:
		return "Copilot"
	}
	return "another route"
}

// routeKind says what the target is to the planted fields.
func routeKind(c *Conv, d engine.Decision) string {
	switch {
	case d.Native:
		return "a foreign native route (" + string(c.Target.Route.APIMode) + ")"
	case c.Profile != nil && refusesFieldFor(c.Target, c.Profile, providers.ConditionAssistantFieldPresent, standardCarriers...):
		return "a strict route"
	}
	return "a foreign chat route"
}
