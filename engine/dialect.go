package engine

import (
	"encoding/json"
	"io"
)

// A Request holds what a dialect needs beside the history to build a
// request body.
type Request struct {
	// Model overrides the route's model in the body when set.
	Model string
	// System is a system prompt for dialects that carry it outside the
	// messages (Anthropic, Gemini, Converse); chat keeps it in the history.
	System string
	// Tools are the functions the model may call; each dialect renders them
	// in its own shape.
	Tools []Tool
	// Stream asks for a streamed response.
	Stream bool
	// Quoted, when not nil, holds the JSON forms the session's reasoning
	// strings had in the document it was parsed from: a dialect may copy
	// them instead of escaping the strings again (the chat dialect does).
	Quoted *QuotedStrings
}

// A Tool is a function the model may call.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON Schema of the arguments.
	Parameters json.RawMessage
}

// A Dialect shapes, sends and captures one api mode's wire format. Each
// dialect package under engine/ implements it with the same file names
// (shape.go, capture.go, stream.go).
type Dialect interface {
	// Mode is the api mode the dialect serves.
	Mode() APIMode
	// Path returns the request path (appended to the base URL) for a route.
	Path(r Route, stream bool) string
	// Shape builds the request body for the session's history on the
	// decided route. It never mutates the session.
	Shape(s *Session, d Decision, req Request) ([]byte, error)
	// Reshape reconciles an already-built body with a new decision after a
	// recorded refusal or a route switch (SPEC §3.2).
	Reshape(body []byte, s *Session, d Decision, req Request) ([]byte, error)
	// Capture turns a whole response body into a stored assistant message.
	Capture(body []byte) (Message, error)
	// CaptureStream turns a streamed response into a stored assistant
	// message; it equals Capture of the same response whole.
	CaptureStream(r io.Reader) (Message, error)
	// Carried names the reasoning carriers a request body carries, for the
	// request log.
	Carried(body []byte) []string
	// Learn inspects a refusal of the sent body; when it recognises one a
	// retry can avoid, it records the verdict in s.Config and describes it.
	Learn(s *Session, t *Table, d Decision, sent []byte, status int, body []byte) (verdict string, ok bool)
}
