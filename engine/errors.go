package engine

import (
	"errors"
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
