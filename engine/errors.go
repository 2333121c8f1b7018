package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrRefused is returned (wrapped in a [RefusalError]) when a provider
// refuses a request and no retry can help.
var ErrRefused = errors.New("provider refused the request")

// A RefusalError is a provider's 4xx answer to a request.
type RefusalError struct {
	Status int
	Body   []byte
}

// Error renders the status and the provider's body.
func (e *RefusalError) Error() string {
	return "provider answered " + strconv.Itoa(e.Status) + ": " + string(e.Body)
}

// Unwrap makes errors.Is(err, ErrRefused) hold.
func (e *RefusalError) Unwrap() error { return ErrRefused }

// A CaptureError is an accepted response that could not be captured into
// a stored message: the response's bytes (a recorded answer, when
// replaying), or the capture, are at fault.
type CaptureError struct {
	Route string
	Err   error
}

func (e *CaptureError) Error() string { return e.Route + ": capture: " + e.Err.Error() }
func (e *CaptureError) Unwrap() error { return e.Err }

func asErr[T error](err error, target *T) bool { return errors.As(err, target) }

// NotJSON returns the error for a body that gjson refused: what "is not
// valid JSON", with the byte offset of the first fault (the offending byte,
// or the length of a body that ends too early). It is only called on the
// error path, so the second, offset-finding parse costs nothing on good
// input.
func NotJSON(what string, b []byte) error {
	var v json.RawMessage
	err := json.Unmarshal(b, &v)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		off := se.Offset // encoding/json counts the bytes read, the bad one included
		if off > 0 && off <= int64(len(b)) && !strings.Contains(se.Error(), "unexpected end") {
			off--
		}
		return fmt.Errorf("%s is not valid JSON at offset %d: %v", what, off, se)
	case err != nil:
		return fmt.Errorf("%s is not valid JSON: %v", what, err)
	}
	return fmt.Errorf("%s is not valid JSON", what)
}
