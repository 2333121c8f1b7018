package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// stdinName names standard input in error messages.
const stdinName = "<stdin>"

// readInput reads the file at path, or standard input when path is "" or
// "-". It returns the bytes and the name to use in error messages.
func readInput(std *streams, path string) ([]byte, string, error) {
	if path == "" || path == "-" {
		b, err := io.ReadAll(std.in)
		if err != nil {
			return nil, stdinName, fmt.Errorf("%s: %w", stdinName, err)
		}
		return b, stdinName, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, path, err
	}
	return b, path, nil
}

// checkJSON reports a syntax error in b as "name:line:col: …".
func checkJSON(name string, b []byte) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return fmt.Errorf("%s: empty input, want a JSON document", name)
	}
	if json.Valid(b) {
		return nil
	}
	var v any
	err := json.Unmarshal(b, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := position(b, se.Offset)
		return fmt.Errorf("%s:%d:%d: invalid JSON: %w", name, line, col, err)
	}
	return fmt.Errorf("%s: invalid JSON: %w", name, err)
}

// position turns a byte offset into a 1-based line and column (in bytes).
// encoding/json reports the offset just past the offending byte.
func position(b []byte, offset int64) (line, col int) {
	if offset > int64(len(b)) {
		offset = int64(len(b))
	}
	if offset > 0 {
		offset--
	}
	before := b[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}
