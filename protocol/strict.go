package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// decodeStrict decodes one JSON document into v, a pointer to a struct
// whose json tags are the schema. It refuses what encoding/json lets
// through: object keys that are no field (compared exactly, not by case),
// a key given twice, a required field (one whose tag has no omitempty)
// that is missing or null, and anything after the document. Errors start
// with the JSON path in play (path is the document's own name, "" for the
// root). Raw values may share data's bytes: data is not to be reused.
func decodeStrict(data []byte, v any, path string) error {
	return decodeStrictWith(data, v, path, nil)
}

// decodeStrictWith is decodeStrict with raw, when not nil, reading the raw
// values of top-level members as decodeFast has it. The one-pass decoder
// reads what it can; anything else, every error included, is read again
// from the start the slow way (a syntax pass, then one value at a time).
func decodeStrictWith(data []byte, v any, path string, raw func(key string, i int) (int, bool)) error {
	rv := reflect.ValueOf(v).Elem()
	if decodeFast(data, rv, raw) {
		return nil
	}
	rv.SetZero()
	return decodeSlow(data, rv, path)
}

// decodeSlow is the reading that words every error: a syntax pass over
// the whole document, then a decoding of one value at a time.
func decodeSlow(data []byte, rv reflect.Value, path string) error {
	if err := checkSyntax(data); err != nil {
		return err
	}
	return decodeValue(bytes.TrimSpace(data), rv, path)
}

// checkSyntax reports a syntax error with its byte offset, and trailing
// data after the first value.
func checkSyntax(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			// Offset counts the bytes read, the offending one included.
			return fmt.Errorf("offset %d: %w", max(se.Offset-1, 0), err)
		case errors.Is(err, io.EOF):
			return errors.New("empty line (want a JSON object)")
		case errors.Is(err, io.ErrUnexpectedEOF):
			return fmt.Errorf("offset %d: unexpected end of JSON", len(data))
		}
		return err
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return fmt.Errorf("offset %d: unexpected data after the JSON object", int(dec.InputOffset())+bytes.Index(data[dec.InputOffset():], rest[:1]))
	}
	return nil
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func pathOrRoot(path string) string {
	if path == "" {
		return "the reply"
	}
	return path
}

func isNull(raw []byte) bool { return string(raw) == "null" }

// decodeValue decodes raw, a valid JSON value, into rv.
func decodeValue(raw []byte, rv reflect.Value, path string) error {
	t := rv.Type()
	if t == rawMessageType {
		rv.SetBytes(append(json.RawMessage(nil), raw...))
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if isNull(raw) {
			rv.SetZero()
			return nil
		}
		p := reflect.New(t.Elem())
		if err := decodeValue(raw, p.Elem(), path); err != nil {
			return err
		}
		rv.Set(p)
		return nil
	case reflect.Struct:
		return decodeStruct(raw, rv, path)
	case reflect.Slice:
		if isNull(raw) {
			rv.SetZero()
			return nil
		}
		var items []json.RawMessage
		if raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
			return fmt.Errorf("%s: want an array, got %s", pathOrRoot(path), kindOf(raw))
		}
		s := reflect.MakeSlice(t, len(items), len(items))
		for i, it := range items {
			if err := decodeValue(it, s.Index(i), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		rv.Set(s)
		return nil
	}
	if isNull(raw) {
		rv.SetZero()
		return nil
	}
	if err := json.Unmarshal(raw, rv.Addr().Interface()); err != nil {
		return fmt.Errorf("%s: want %s, got %s", pathOrRoot(path), want(t), kindOf(raw))
	}
	return nil
}

// A field is one JSON member of a struct type.
type field struct {
	name     string
	index    []int
	required bool
}

// fieldsOf returns a struct type's JSON members, embedded structs
// flattened.
func fieldsOf(t reflect.Type) []field {
	var out []field
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for _, inner := range fieldsOf(f.Type) {
				inner.index = append([]int{f.Index[0]}, inner.index...)
				out = append(out, inner)
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, field{name: name, index: f.Index, required: !strings.Contains(opts, "omitempty")})
	}
	return out
}

// decodeStruct decodes an object member by member.
func decodeStruct(raw []byte, rv reflect.Value, path string) error {
	members, err := objectMembers(raw)
	if err != nil {
		return fmt.Errorf("%s: %w", pathOrRoot(path), err)
	}
	fields := fieldsOf(rv.Type())
	byName := make(map[string]field, len(fields))
	for _, f := range fields {
		byName[f.name] = f
	}
	seen := make(map[string][]byte, len(members))
	for _, m := range members {
		if _, ok := byName[m.key]; !ok {
			return fmt.Errorf("%s: unknown field", join(path, m.key))
		}
		if _, dup := seen[m.key]; dup {
			return fmt.Errorf("%s: given twice", join(path, m.key))
		}
		seen[m.key] = m.value
	}
	for _, f := range fields {
		v, ok := seen[f.name]
		if !ok || isNull(v) {
			if f.required {
				return fmt.Errorf("%s: missing", join(path, f.name))
			}
			continue
		}
		if err := decodeValue(v, rv.FieldByIndex(f.index), join(path, f.name)); err != nil {
			return err
		}
	}
	return nil
}

// A member is one key and value of a JSON object, in document order.
type member struct {
	key   string
	value []byte
}

// objectMembers reads the members of a JSON object.
func objectMembers(raw []byte) ([]member, error) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("want an object, got %s", kindOf(raw))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{key, v})
	}
	return out, nil
}

// kindOf names the JSON type of a value.
func kindOf(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// want names the JSON type a Go type decodes from.
func want(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	}
	return t.String()
}
