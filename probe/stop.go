package probe

import (
	"fmt"
	"net/http"

	"github.com/replaycheck/replaycheck/suites/harness"
)

// A NotJudgedError is a probe stopped at an answer that is not the
// provider judging the request body: a missing or refused key (401, 403,
// 407), a path or model the endpoint does not serve (404), a timeout
// (408), a rate limit (429) or a server failure (5xx). The recording
// refuses it (harness.AnswerError, the classification record uses;
// a probe knows no path the endpoint documents as not served, so every
// 404 stops it). Nothing can be inferred from it, so the probe stops at
// the first one and says what to check.
type NotJudgedError struct {
	Answer *harness.AnswerError
}

func (e *NotJudgedError) Error() string {
	a := e.Answer
	return fmt.Sprintf("the endpoint answered %s to %s %s, which is not the provider judging the request body, so the probe stopped there and drew no conclusion: %s; the provider said: %s",
		harness.StatusLine(a.Code), a.Method, a.URL, e.hint(), a.Body)
}

// Unwrap returns the recording's refusal.
func (e *NotJudgedError) Unwrap() error { return e.Answer }

// hint says what to check for each kind of answer.
func (e *NotJudgedError) hint() string {
	switch code := e.Answer.Code; {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return "check the key (--key-env) and that it may use the model (--model); --no-key only for an endpoint that takes none"
	case code == http.StatusProxyAuthRequired:
		return "a proxy between here and the endpoint wants credentials"
	case code == http.StatusNotFound:
		return "check --base-url, --api-mode and --model: the endpoint serves no model call at this path"
	case code == http.StatusTooManyRequests:
		return "the endpoint is rate limiting (or the account is out of quota); try again later"
	default:
		return "the endpoint failed or timed out; try again later"
	}
}
