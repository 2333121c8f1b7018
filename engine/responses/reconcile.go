package responses

import "github.com/replaycheck/replaycheck/engine"

// Reshape builds the retry of a refused request (SPEC §3.2). Every verdict
// this dialect learns is recorded in the session's model config before the
// retry, so the retry is the request shaped anew from the session: the
// refused items leave the input, the items after them lose their ids, and
// everything else is byte for byte what was sent. Reshaping twice gives the
// same bytes, since shaping depends only on the session and the route.
func (dl Dialect) Reshape(_ []byte, s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	return dl.Shape(s, d, req)
}
