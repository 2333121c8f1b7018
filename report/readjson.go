package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ReadJSON decodes a matrix written by [WriteJSON] and validates it with [Matrix.Validate].
// Unknown fields, trailing data and missing top-level arrays are errors. Decoding errors start
// with the byte offset (and line and column) in play; validation errors start with the JSON
// path. The returned cells are sorted by the matrix's own target order, then scenario order.
func ReadJSON(r io.Reader) (*Matrix, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read matrix: %w", err)
	}
	var doc struct {
		Implementation *Implementation `json:"implementation"`
		Targets        *[]string       `json:"targets"`
		Scenarios      *[]string       `json:"scenarios"`
		Cells          *[]Cell         `json:"cells"`
		Evidence       *Evidence       `json:"evidence"`
		Curve          *QualityCurve   `json:"curve"`
		Aliases        []AliasRow      `json:"aliases"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, decodeError(data, dec.InputOffset(), err)
	}
	if end := dec.InputOffset(); len(bytes.TrimSpace(data[end:])) > 0 {
		extra := end + int64(len(data[end:])-len(bytes.TrimLeft(data[end:], " \t\r\n")))
		return nil, &positionError{msg: position(data, extra+1) + ": unexpected data after the matrix object"}
	}
	switch {
	case doc.Targets == nil:
		return nil, errors.New("targets: missing or null (want an array of target ids)")
	case doc.Scenarios == nil:
		return nil, errors.New("scenarios: missing or null (want an array of scenario names)")
	case doc.Cells == nil:
		return nil, errors.New("cells: missing or null (want an array of cells)")
	}
	m := &Matrix{Implementation: doc.Implementation, Targets: *doc.Targets, Scenarios: *doc.Scenarios, Cells: *doc.Cells, Evidence: doc.Evidence, Curve: doc.Curve, Aliases: doc.Aliases}
	if ev := m.Evidence; ev != nil && (ev.Targets == nil || ev.Exchanges == nil || ev.Profiles == nil) {
		return nil, errors.New("evidence: targets, exchanges and profiles are arrays (empty, never missing or null)")
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	m.Sort(m.Targets, m.Scenarios)
	return m, nil
}

// positionError is a decoding error whose message starts with a byte position and which
// unwraps to the encoding/json error behind it.
type positionError struct {
	msg string
	err error
}

// Error returns the message, position first.
func (e *positionError) Error() string { return e.msg }

// Unwrap returns the underlying encoding/json error, if any.
func (e *positionError) Unwrap() error { return e.err }

// decodeError rewrites an encoding/json error to start with its byte offset, line and column.
// inputOffset is the decoder's offset, used when the error carries none.
func decodeError(data []byte, inputOffset int64, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return &positionError{msg: position(data, int64(len(data))+1) + ": empty input (want a matrix object)", err: err}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &positionError{msg: position(data, int64(len(data))+1) + ": unexpected end of input", err: err}
	case errors.As(err, &syntax):
		return &positionError{msg: position(data, syntax.Offset) + ": " + syntax.Error(), err: err}
	case errors.As(err, &typ):
		field, into := typ.Field, typ.Type.String()
		if field == "" {
			field, into = "matrix", "an object"
		}
		msg := fmt.Sprintf("%s: %s: cannot decode JSON %s into %s", position(data, typ.Offset), field, typ.Value, into)
		return &positionError{msg: msg, err: err}
	}
	if strings.HasPrefix(err.Error(), "json: unknown field ") {
		if path, at, ok := findUnknownField(data); ok {
			return &positionError{msg: position(data, at+1) + ": " + path + ": unknown field", err: err}
		}
	}
	// Other decoder errors carry no offset of their own.
	msg := strings.TrimPrefix(err.Error(), "json: ")
	return &positionError{msg: position(data, inputOffset) + ": " + msg, err: err}
}

// position formats the byte at which a decoder stopped, given the number of bytes it consumed
// (the last one being the offending byte), as "offset N (line L, column C)": N counts from 0,
// line and column from 1.
func position(data []byte, consumed int64) string {
	at := min(max(consumed-1, 0), int64(len(data)))
	line := 1 + bytes.Count(data[:at], []byte("\n"))
	column := int(at) - bytes.LastIndexByte(data[:at], '\n')
	return fmt.Sprintf("offset %d (line %d, column %d)", at, line, column)
}
