package probe

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/replaycheck/replaycheck/suites/harness"
)

// A NotJudgedError is an answer that is not the provider judging the
// request body: a missing or refused key (401, 403, 407), a path or model
// the endpoint does not serve (404), a timeout (408), a rate limit (429)
// or a server failure (5xx). Nothing can be inferred from it, so the probe
// stops at the first one.
type NotJudgedError struct {
	// Status is the HTTP status of the answer.
	Status int
	// Method and Path are the request's.
	Method, Path string
	// Body is the provider's answer, secrets scrubbed, cut at maxQuoted
	// bytes.
	Body string
}

// maxQuoted caps how much of an answer a NotJudgedError quotes.
const maxQuoted = 2000

func (e *NotJudgedError) Error() string {
	return fmt.Sprintf("the endpoint answered %s %s to %s %s, which is not the provider judging the request body, so the probe stopped there and drew no conclusion: %s; the provider said: %s",
		fmt.Sprint(e.Status), http.StatusText(e.Status), e.Method, e.Path, e.hint(), e.quoted())
}

func (e *NotJudgedError) quoted() string {
	if strings.TrimSpace(e.Body) == "" {
		return "(an empty body)"
	}
	return e.Body
}

// hint says what to check for each kind of answer.
func (e *NotJudgedError) hint() string {
	switch {
	case e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden:
		return "check the key (--key-env) and that it may use the model (--model); --no-key only for an endpoint that takes none"
	case e.Status == http.StatusProxyAuthRequired:
		return "a proxy between here and the endpoint wants credentials"
	case e.Status == http.StatusNotFound:
		return "check --base-url, --api-mode and --model: the endpoint serves no model call at this path"
	case e.Status == http.StatusTooManyRequests:
		return "the endpoint is rate limiting (or the account is out of quota); try again later"
	default:
		return "the endpoint failed or timed out; try again later"
	}
}

// judgesNoBody reports whether an answer's status is not the provider
// judging the body, as a recording judges it (harness.NotJudged): a probe
// knows no path the endpoint documents as not served, so every 404 stops
// it.
func judgesNoBody(status int) bool { return harness.NotJudged(status, "", nil) != "" }

// stopAtNotJudged wraps the network transport: an answer that is not the
// provider judging the body becomes a *NotJudgedError, so the recording
// stops at it and the probe says why. secrets are scrubbed from the
// quoted body.
func stopAtNotJudged(next http.RoundTripper, secrets []string) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(req)
		if err != nil || !judgesNoBody(resp.StatusCode) {
			return resp, err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxQuoted+1))
		body := string(bytes.TrimSpace(b))
		if len(body) > maxQuoted {
			body = body[:maxQuoted] + "…"
		}
		for _, s := range secrets {
			if s != "" {
				body = strings.ReplaceAll(body, s, "[scrubbed]")
			}
		}
		return nil, &NotJudgedError{Status: resp.StatusCode, Method: req.Method, Path: req.URL.Path, Body: body}
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
