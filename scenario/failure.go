package scenario

import "fmt"

// A Failure is a scenario assertion that did not hold.
type Failure struct {
	What     string
	Expected string
	Actual   string
}

func (f *Failure) Error() string {
	return fmt.Sprintf("%s: expected %s, got %s", f.What, f.Expected, f.Actual)
}

// An InputError is bad input met while running a cell: a cassette that
// cannot be read, or a recorded answer the dialect cannot capture. Its
// error names the file and the YAML line or interaction index; the cell
// becomes an error cell, never a judgement.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// A StepFailure is an implementation's own answer that one of its steps
// failed (a connector's error reply): a judgement of the implementation,
// so the cell fails, unlike a crash or a malformed reply, which leaves it
// not judged.
type StepFailure interface {
	error
	// FailedStep names the step, e.g. "shape".
	FailedStep() string
}

func fail(what, expected, actual string) error {
	return &Failure{What: what, Expected: expected, Actual: actual}
}

// A NotApplicableError is a scenario's finding, at run time, that it has
// nothing to check for this implementation on this target; the cell is
// then n/a with the reason.
type NotApplicableError struct{ Reason string }

func (e *NotApplicableError) Error() string { return e.Reason }
