package harness

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrNotJudged is what an [AnswerError] wraps: an answer that is not the
// provider judging the request, so no cassette may hold it.
var ErrNotJudged = errors.New("the answer is not the provider judging the request")

// bodyRefusals are the 4xx statuses by which a provider judges a request's
// body: a cassette keeps them, like any 2xx.
var bodyRefusals = map[int]bool{
	http.StatusBadRequest:            true, // 400
	http.StatusConflict:              true, // 409
	http.StatusLengthRequired:        true, // 411
	http.StatusRequestEntityTooLarge: true, // 413
	http.StatusUnsupportedMediaType:  true, // 415
	http.StatusUnprocessableEntity:   true, // 422
}

// endpointAnswers say why an answer speaks of the endpoint, the key or the
// moment rather than of the request.
var endpointAnswers = map[int]string{
	http.StatusUnauthorized:                "the endpoint refused the key",
	http.StatusPaymentRequired:             "the account cannot pay for the request",
	http.StatusForbidden:                   "the key may not use this endpoint or model",
	http.StatusNotFound:                    "nothing is served at this URL: check the base URL and the model",
	http.StatusProxyAuthRequired:           "a proxy asks for credentials",
	http.StatusRequestTimeout:              "the request timed out",
	http.StatusTooManyRequests:             "rate limited or out of quota",
	http.StatusUnavailableForLegalReasons:  "the endpoint is not available here",
	http.StatusRequestHeaderFieldsTooLarge: "the request's headers are too large",
}

// NotJudged says why an answer of status code to a request at path is not
// the provider judging that request, or returns "" when it is: a 2xx, or a
// 4xx about the body (400, 409, 411, 413, 415, 422). Everything else — 401,
// 403, 404, 407, 408, 429, any other 4xx, 1xx, 3xx and 5xx — speaks of the
// key, the URL, the account or the moment, and a cassette of it would make
// every replay of the cell fail for a reason the route table has nothing
// to do with. One 404 is kept: at a path ending with one of notServed (the
// target profile's path_not_served rules), the documented answer to a
// request of another platform's shape, sent on purpose.
func NotJudged(code int, path string, notServed []string) string {
	switch {
	case code >= 200 && code < 300, bodyRefusals[code]:
		return ""
	case code == http.StatusNotFound:
		for _, p := range notServed {
			if p != "" && strings.HasSuffix(path, p) {
				return ""
			}
		}
	case code >= 500 && code < 600:
		return "the provider failed"
	}
	if why, ok := endpointAnswers[code]; ok {
		return why
	}
	return "an answer about the endpoint, the key or the account, not the request"
}

// Unjudged returns a finding for every interaction of f whose answer is
// not the provider judging the request ([NotJudged]), in order.
func Unjudged(f *File, notServed []string) []Finding {
	var out []Finding
	for i, it := range f.Interactions {
		path := it.Request.URL
		if u, err := url.Parse(it.Request.URL); err == nil {
			path = u.Path
		}
		if why := NotJudged(it.Response.Code, path, notServed); why != "" {
			out = append(out, Finding{Where: "interaction " + strconv.Itoa(i), What: StatusLine(it.Response.Code) + " (" + why + ")"})
		}
	}
	return out
}

// StatusLine is a status code with its text: "401 Unauthorized".
func StatusLine(code int) string {
	if text := http.StatusText(code); text != "" {
		return strconv.Itoa(code) + " " + text
	}
	return strconv.Itoa(code)
}

// An AnswerError is an answer a recording refused to keep ([NotJudged]):
// the request fails with it, and so does the recording.
type AnswerError struct {
	// Code is the answer's status code.
	Code int
	// Method and URL are the request as it was really sent (after any
	// --base-url redirect), credentials removed.
	Method, URL string
	// Why is [NotJudged]'s reason.
	Why string
	// Body is the provider's words, on one line, trimmed to a readable
	// length, the recording's secrets scrubbed.
	Body string
}

func (e *AnswerError) Error() string {
	return fmt.Sprintf("%s from %s %s (%s): %s", StatusLine(e.Code), e.Method, e.URL, e.Why, e.Body)
}

// Unwrap returns [ErrNotJudged].
func (e *AnswerError) Unwrap() error { return ErrNotJudged }

// maxQuoted is how many bytes of a provider's answer a message quotes.
const maxQuoted = 300

// quote makes a provider's answer fit a message: the secrets scrubbed,
// every run of whitespace one space, at most maxQuoted bytes (cut on a
// rune boundary, then "…").
func quote(body []byte, secrets []string) string {
	s := string(body)
	for _, k := range secrets {
		if k != "" {
			s = strings.ReplaceAll(s, k, "[scrubbed]")
		}
	}
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "(empty body)"
	}
	if len(s) <= maxQuoted {
		return s
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
