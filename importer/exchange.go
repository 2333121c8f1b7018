package importer

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/replaycheck/replaycheck/engine"
)

// A Format is a foreign recording format.
type Format string

// The formats [Read] understands.
const (
	FormatVCRPy         Format = "vcrpy"
	FormatGoVCR         Format = "go-vcr"
	FormatAISDKChunks   Format = "ai-sdk-chunks"
	FormatAISDKJSON     Format = "ai-sdk-json"
	FormatOpenRouterE2E Format = "openrouter-e2e"
)

// Formats lists the formats, in the order the package documentation gives
// them.
func Formats() []Format {
	return []Format{FormatVCRPy, FormatGoVCR, FormatAISDKChunks, FormatAISDKJSON, FormatOpenRouterE2E}
}

// A Recording is what one source holds: its exchanges, in source order.
type Recording struct {
	// Path is the file, or the fixture directory, that was read.
	Path string
	// Format is the format it was read as.
	Format Format
	// Exchanges are the recorded exchanges; Exchanges[i].Index is i.
	Exchanges []Exchange
}

// An Exchange is one recorded request and the provider's answer.
type Exchange struct {
	// Index is the exchange's 0-based position in its source.
	Index int
	// Method and URL are the request's; URL is absolute, or "" for a
	// response-only fixture (Vercel AI SDK), which recorded no request.
	Method, URL string
	// RequestHeaders and RequestBody are as recorded (bodies decoded and
	// decompressed); RequestBody is nil when no request was recorded.
	RequestHeaders http.Header
	RequestBody    []byte
	// Status is the response status code.
	Status int
	// ResponseHeaders and ResponseBody are the answer, decompressed.
	ResponseHeaders http.Header
	ResponseBody    []byte
	// Date is the day the answer says it was sent (its Date header), as
	// YYYY-MM-DD, or "" when the source does not say.
	Date string
	// Mode and Model are known from the response itself for a
	// response-only fixture (the events' shape and model field); for an
	// exchange with a request they come from its path and body
	// ([Exchange.Route]).
	Mode  engine.APIMode
	Model string
	// Stream reports a streamed answer.
	Stream bool
	// Vendor is the provider id whose own marks the answer of a
	// response-only fixture carries (Azure's content filters), "" when
	// none: placement takes it as the provider that answered.
	Vendor string
}

// ResponseOnly reports whether the source recorded the answer only.
func (e Exchange) ResponseOnly() bool { return e.URL == "" }

// Host returns the request URL's normalised hostname ("" for a
// response-only fixture).
func (e Exchange) Host() string { return engine.Hostname(e.URL) }

// Path returns the request URL's path ("" for a response-only fixture).
func (e Exchange) Path() string {
	u, err := url.Parse(e.URL)
	if err != nil {
		return ""
	}
	return u.EscapedPath()
}

// Describe names the exchange for people: "POST api.acme.test/v1/messages"
// (query strings left out, as they may carry credentials), or the api mode
// of a response-only fixture.
func (e Exchange) Describe() string {
	if e.ResponseOnly() {
		return fmt.Sprintf("response only (%s)", e.Mode)
	}
	return e.Method + " " + e.Host() + e.Path()
}

// httpDate reads an HTTP Date header value as YYYY-MM-DD, or "".
func httpDate(v string) string {
	t, err := http.ParseTime(strings.TrimSpace(v))
	if err != nil {
		return ""
	}
	return t.UTC().Format(time.DateOnly)
}

// interactionError is an error about one interaction of a source:
// "<file>: interaction <i>: <err>".
func interactionError(file string, i int, err error) error {
	return fmt.Errorf("%s: interaction %d: %w", file, i, err)
}
