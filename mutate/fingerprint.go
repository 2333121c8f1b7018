package mutate

import (
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
)

// decision is everything a route table decides for one route that reaches
// the wire, as named parts ("carriers=reasoning_content"): whether the
// route is in the must-echo tier and the pad; on a chat route the
// native fields, the vendor flags' settings and the carriers; the policy
// of the route's native dialect (the replay contract, prior thinking,
// learnt refusals, the platform, adaptive thinking; the hostnames that share the Responses
// issuing family that serve the API, see [issuers]). Two tables that give a route the same
// parts send it the same bytes; the ids of the rows, route classes and
// Responses families that matched are labels and are left out, so moving
// a route to another row with the same carriers changes nothing.
type decision []string

// decide returns the decision table makes for r; s tells which hostnames
// serve the API, for the Responses issuers ([issuers]).
func decide(t *engine.Table, r engine.Route, s served) decision {
	d := t.Decide(r, 0)
	out := decision{
		"must-echo=" + strconv.FormatBool(d.EchoFamily != ""),
		"pad=" + strconv.FormatBool(d.Pad),
	}
	switch r.APIMode {
	case engine.ModeChat, "":
		// The vendor flags and the private native fields are chat shaping's
		// (engine/chat): no native dialect reads them, so on a native route
		// they decide nothing that reaches the wire.
		var set []string
		for _, s := range d.Flags {
			set = append(set, s.Path+":"+string(s.Value))
		}
		out = append(out, "native-fields="+strings.Join(d.NativeFields, ","), "flags="+strings.Join(set, ","), "carriers="+d.Carriers.String())
	case engine.ModeAnthropic:
		a := t.Dialects.Anthropic.Decide(r.BaseURL, r.Model)
		out = append(out, "replay="+string(a.Replay), "prior-thinking="+strconv.FormatBool(a.PriorThinking),
			"learn-rejections="+strconv.FormatBool(a.LearnRejections), "platform="+a.Platform, "adaptive="+strconv.FormatBool(a.Adaptive))
	case engine.ModeBedrockConverse:
		m := t.Dialects.Converse.For(r.Model)
		adaptive := m.RequestThinking && t.Dialects.Anthropic.AdaptiveThinking.Only(r.Model)
		out = append(out, "replay="+string(m.Replay), "request-thinking="+strconv.FormatBool(m.RequestThinking), "adaptive="+strconv.FormatBool(adaptive))
	case engine.ModeResponses:
		out = append(out, "responses-issuers="+issuers(t.Dialects.Responses, s, r.Host()))
	}
	return out
}

// key is the decision as one string, for comparison and caching.
func (d decision) key() string { return strings.Join(d, "\x00") }

// diff describes what changed from d to e: "echo kimi -> ”".
func (d decision) diff(e decision) string {
	var parts []string
	for i := range d {
		if i < len(e) && d[i] != e[i] {
			k, from, _ := strings.Cut(d[i], "=")
			_, to, _ := strings.Cut(e[i], "=")
			parts = append(parts, k+" "+quoteEmpty(from)+" -> "+quoteEmpty(to))
		}
	}
	return strings.Join(parts, ", ")
}

func quoteEmpty(s string) string {
	if s == "" {
		return "''"
	}
	return s
}
