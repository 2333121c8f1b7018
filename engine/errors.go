package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
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

func asErr[T error](err error, target *T) bool { return errors.As(err, target) }

// NotJSON returns the error for a body that gjson refused: what "is not
// valid JSON", with the byte offset of the first fault. It is only called
// on the error path, so the second, offset-finding parse costs nothing on
// good input.
func NotJSON(what string, b []byte) error {
	var v json.RawMessage
	err := json.Unmarshal(b, &v)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("%s is not valid JSON at offset %d: %v", what, se.Offset, se)
	case err != nil:
		return fmt.Errorf("%s is not valid JSON: %v", what, err)
	}
	return fmt.Errorf("%s is not valid JSON", what)
}
