package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// protocolVersion is the engine protocol version this connector speaks.
const protocolVersion = 1

// request is one engine-protocol request line; only the fields this
// connector reads are declared.
type request struct {
	ID             int64           `json:"id"`
	Cmd            string          `json:"cmd"`
	Protocol       int             `json:"protocol"`
	Route          *route          `json:"route"`
	Rejected       []string        `json:"rejected"`
	Decision       json.RawMessage `json:"decision"`
	Session        json.RawMessage `json:"session"`
	Options        *options        `json:"options"`
	Response       *string         `json:"response"`
	ResponseBase64 *string         `json:"response_base64"`
	Stream         bool            `json:"stream"`
	BranchID       string          `json:"branch_id"`
}

// route is where a request goes (SPEC §1).
type route struct {
	APIMode  string `json:"api_mode"`
	Provider string `json:"provider"`
	BaseURL  string `json:"base_url"`
	Model    string `json:"model"`
}

// options are the call options of a shape request.
type options struct {
	Tools  []tool `json:"tools"`
	Stream bool   `json:"stream"`
	Model  string `json:"model"`
	System string `json:"system"`
}

// tool is a function tool offered to the model.
type tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// reply is one engine-protocol reply line: exactly one of Result,
// Unsupported and Error is set.
type reply struct {
	ID          int64        `json:"id"`
	Result      any          `json:"result,omitempty"`
	Unsupported *unsupported `json:"unsupported,omitempty"`
	Error       *failure     `json:"error,omitempty"`
}

type unsupported struct {
	Reason   string `json:"reason"`
	IssueURL string `json:"issue_url,omitempty"`
}

type failure struct {
	Message string `json:"message"`
}

// errUnsupported marks a step this connector does not do; the cell is n/a.
type errUnsupported struct{ reason string }

func (e errUnsupported) Error() string { return e.reason }

// answer is the reply to one request line, and whether it was bye.
func answer(line []byte) (reply, bool) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return reply{Error: &failure{Message: fmt.Sprintf("request is not JSON: %v", err)}}, false
	}
	handler, ok := handlers[req.Cmd]
	if !ok {
		return reply{ID: req.ID, Error: &failure{Message: fmt.Sprintf("unknown command %q", req.Cmd)}}, false
	}
	result, err := handler(&req)
	var unsup errUnsupported
	switch {
	case errors.As(err, &unsup):
		return reply{ID: req.ID, Unsupported: &unsupported{Reason: unsup.reason}}, false
	case err != nil:
		fmt.Fprintf(os.Stderr, "fantasy-connector: %s: %v\n", req.Cmd, err)
		return reply{ID: req.ID, Error: &failure{Message: strings.TrimSpace(err.Error())}}, false
	}
	return reply{ID: req.ID, Result: result}, req.Cmd == "bye"
}
