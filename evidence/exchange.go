package evidence

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/importer"
	"github.com/replaycheck/replaycheck/suites/harness"
	"github.com/tidwall/gjson"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// An exchange is one interaction of an imported cassette, with what the
// checks need to know about it.
type exchange struct {
	c *Cassette
	// index is the interaction's index in the cassette; source its
	// position in the source the cassette was imported from.
	index, source int
	it            *cassette.Interaction
	// route is what the request says: api mode, base URL, model, stream.
	route importer.Route
	// date is the day the recording says it was made (YYYY-MM-DD), "" when
	// it does not say: the simulator answers with the rules of that day.
	date string
	// streamErr is the provider's error inside a 2xx stream
	// ([streamError]), nil when it answered.
	streamErr []byte
}

// exchanges lists a cassette's interactions.
func exchanges(c *Cassette) []*exchange {
	var out []*exchange
	for i, it := range c.File.Interactions {
		x := &exchange{c: c, index: i, source: c.File.Provenance.Source.Interactions[i], it: it, date: c.File.Provenance.Date}
		e := importer.Exchange{Method: it.Request.Method, URL: it.Request.URL, RequestBody: []byte(it.Request.Body),
			Status: it.Response.Code, ResponseHeaders: http.Header(it.Response.Headers)}
		x.route, _ = importer.RouteOf(e)
		if mode := c.File.Provenance.Source.ResponseOnly; mode != "" && it.Request.URL == "" {
			// no request was recorded: the answer's framing says whether it streamed
			ct := strings.ToLower(http.Header(it.Response.Headers).Get("Content-Type"))
			x.route = importer.Route{Mode: engine.APIMode(mode),
				Stream: strings.HasPrefix(ct, "text/event-stream") || strings.HasPrefix(ct, "application/vnd.amazon.eventstream")}
		}
		if x.route.Model == "" {
			x.route.Model = c.Target.Route.Model
		}
		if x.route.Stream && it.Response.Code >= 200 && it.Response.Code < 300 {
			x.streamErr = streamError([]byte(it.Response.Body))
		}
		out = append(out, x)
	}
	return out
}

// ok reports a 2xx answer that is an answer: not an error the provider
// sent inside the stream ([exchange.streamErr]).
func (x *exchange) ok() bool {
	return x.it.Response.Code >= 200 && x.it.Response.Code < 300 && x.streamErr == nil
}

// status describes the recorded answer's status: "400", or "an error
// inside the 200 stream (tool_use_failed)".
func (x *exchange) status() string {
	if x.streamErr == nil {
		return fmt.Sprint(x.it.Response.Code)
	}
	code := gjson.GetBytes(x.streamErr, "error.code").String()
	if code == "" {
		code = gjson.GetBytes(x.streamErr, "error.type").String()
	}
	if code == "" {
		return fmt.Sprintf("an error inside the %d stream", x.it.Response.Code)
	}
	return fmt.Sprintf("an error inside the %d stream (%s)", x.it.Response.Code, code)
}

// responseOnly reports an exchange imported from a fixture that recorded
// no request.
func (x *exchange) responseOnly() bool { return strings.TrimSpace(x.it.Request.Body) == "" }

// engineRoute is the target's route with the recorded model.
func (x *exchange) engineRoute() engine.Route {
	r := x.c.Target.Route
	r.Model = x.route.Model
	return r
}

// describe is "METHOD host/path", or "response only (<mode>)".
func (x *exchange) describe() string {
	e := importer.Exchange{Method: x.it.Request.Method, URL: x.it.Request.URL, Mode: x.route.Mode}
	return e.Describe()
}

// id is "<target>/recorded/<name>.yaml#<i>".
func (x *exchange) id() string {
	return strings.TrimPrefix(x.c.Name, "cassettes/") + fmt.Sprintf("#%d", x.index)
}

// citation cites the exchange's source: repository, path, commit, licence
// and its position there.
func (x *exchange) citation() string {
	return cite(x.c.File.Provenance.Source) + fmt.Sprintf(", interaction %d", x.source)
}

func cite(s *harness.Source) string {
	out := s.Repository + " " + s.Path
	if s.Commit != "" {
		out += "@" + s.Commit[:min(len(s.Commit), 12)]
	}
	switch {
	case s.Licence != "" && s.Commit == "":
		out += " (" + s.Licence + "; commit unknown)"
	case s.Licence != "":
		out += " (" + s.Licence + ")"
	case s.Commit == "":
		out += " (commit and licence unknown)"
	default:
		out += " (licence unknown)"
	}
	return out
}
