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

func fail(what, expected, actual string) error {
	return &Failure{What: what, Expected: expected, Actual: actual}
}
