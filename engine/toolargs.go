package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// ToolArgsObject returns a tool call's arguments string as the compacted
// JSON object native dialects put on the wire; blank arguments are {}. It
// fails when the arguments are not a JSON object.
func ToolArgsObject(args string) ([]byte, error) {
	if strings.TrimSpace(args) == "" {
		return []byte("{}"), nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(args)); err != nil || buf.Bytes()[0] != '{' {
		return nil, errors.New("arguments are not a JSON object")
	}
	return buf.Bytes(), nil
}
