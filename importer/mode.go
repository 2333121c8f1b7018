package importer

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// An endpoint pattern recognises one api mode's request paths; the first
// submatch is where the dialect's own path starts (the rest is the base
// URL's path), the named group "model" the model id when the path carries
// it.
type endpoint struct {
	mode engine.APIMode
	re   *regexp.Regexp
}

// endpoints are tried in order.
var endpoints = []endpoint{
	{engine.ModeChat, regexp.MustCompile(`^(.*?)(/chat/completions)$`)},
	{engine.ModeResponses, regexp.MustCompile(`^(.*?)(/responses)$`)},
	{engine.ModeBedrockConverse, regexp.MustCompile(`^(.*?)(/model/(?P<model>[^/]+)/converse(-stream)?)$`)},
	{engine.ModeAnthropic, regexp.MustCompile(`^(.*?)(/model/(?P<model>[^/]+)/invoke(-with-response-stream)?)$`)},
	{engine.ModeAnthropic, regexp.MustCompile(`^(.*?)(/(?P<model>[^/:]+):(raw|streamRaw)Predict)$`)},
	{engine.ModeAnthropic, regexp.MustCompile(`^(.*?)(/v1/messages|/messages)$`)},
	{engine.ModeGemini, regexp.MustCompile(`^(.*?)(/models/(?P<model>[^/:]+):(generateContent|streamGenerateContent))$`)},
}

// A Route is what an exchange's request says about where it went: the api
// mode its path speaks, the base URL (scheme, host and the path before the
// dialect's own path), the model (from the body, else the path) and
// whether it streamed.
type Route struct {
	Mode    engine.APIMode
	BaseURL string
	Model   string
	Stream  bool
}

// RouteOf reads the route of an exchange; ok is false when the path speaks
// no api mode replaycheck knows. For a response-only fixture the mode and
// model come from the response and the base URL is empty.
func RouteOf(e Exchange) (Route, bool) {
	if e.ResponseOnly() {
		return Route{Mode: e.Mode, Model: e.Model, Stream: e.Stream}, e.Mode != ""
	}
	u, err := url.Parse(e.URL)
	if err != nil || u.Host == "" {
		return Route{}, false
	}
	path := u.EscapedPath()
	for _, ep := range endpoints {
		m := ep.re.FindStringSubmatch(path)
		if m == nil {
			continue
		}
		r := Route{Mode: ep.mode, BaseURL: u.Scheme + "://" + u.Host + m[1]}
		if i := ep.re.SubexpIndex("model"); i > 0 {
			if mod, err := url.PathUnescape(m[i]); err == nil {
				r.Model = mod
			}
		}
		body := gjson.ParseBytes(e.RequestBody)
		if mod := body.Get("model"); mod.Type == gjson.String && mod.Str != "" {
			r.Model = mod.Str
		}
		r.Stream = body.Get("stream").Type == gjson.True || strings.Contains(path, ":stream") || strings.HasSuffix(path, "-stream") ||
			u.Query().Get("alt") == "sse" || isEventStream(e.ResponseHeaders, path) ||
			strings.HasPrefix(strings.ToLower(e.ResponseHeaders.Get("Content-Type")), "text/event-stream")
		return r, true
	}
	return Route{}, false
}

// modeOfEvent recognises the api mode of one response document or stream
// event by its shape, and the model it names; ok is false for an event
// that says nothing (a ping, usage metadata without a model).
func modeOfEvent(ev gjson.Result) (mode engine.APIMode, model string, ok bool) {
	typ := ev.Get("type").Str
	switch {
	case ev.Get("choices").Exists():
		return engine.ModeChat, ev.Get("model").Str, true
	case ev.Get("candidates").Exists():
		return engine.ModeGemini, ev.Get("modelVersion").Str, true
	case ev.Get("output.message").Exists() || ev.Get("messageStart").Exists() ||
		ev.Get("contentBlockDelta").Exists() || ev.Get("contentBlockStart").Exists():
		return engine.ModeBedrockConverse, "", true
	case strings.HasPrefix(typ, "response."):
		return engine.ModeResponses, ev.Get("response.model").Str, true
	case ev.Get("object").Str == "response":
		return engine.ModeResponses, ev.Get("model").Str, true
	case typ == "message_start":
		return engine.ModeAnthropic, ev.Get("message.model").Str, true
	case typ == "message" && ev.Get("content").IsArray():
		return engine.ModeAnthropic, ev.Get("model").Str, true
	case strings.HasPrefix(typ, "content_block_"):
		return engine.ModeAnthropic, "", true
	}
	return "", "", false
}
