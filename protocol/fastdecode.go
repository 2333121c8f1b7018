package protocol

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"sync"
	"unicode/utf8"

	"github.com/replaycheck/replaycheck/engine"
)

// The decoder below is decodeStrict's one pass: it walks the document
// once, validating as it goes, sets each field from the bytes where they
// are, and keeps a json.RawMessage as a slice of the document (no copy).
// It takes only documents decodeStrict accepts, and reads them as it
// does: a scalar that is not a plain string is read by json.Unmarshal of
// its own bytes, as decodeValue reads it. On anything else — a syntax
// error, an unknown or repeated key, a missing field, a wrong type, a
// value nested deeper than the validator follows — it gives up, and
// decodeStrict reads the document the slow way, which finds and words
// the error exactly as before.

// A fastDecoder is a position in a document being decoded.
type fastDecoder struct {
	b     []byte
	i     int
	depth int
	// raw, when set, reads the raw value of top-level member key, which
	// starts at b[i]: it returns the value's end and true, or false to
	// leave the value to the validator. An end below zero gives up.
	raw func(key string, i int) (int, bool)
}

// decodeFast decodes data, a whole document, into rv in one pass, or
// reports false with rv partly set.
func decodeFast(data []byte, rv reflect.Value, raw func(key string, i int) (int, bool)) bool {
	d := fastDecoder{b: data, raw: raw}
	d.space()
	if !d.value(rv) {
		return false
	}
	d.space()
	return d.i == len(d.b)
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// space skips whitespace.
func (d *fastDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// next reports whether c comes next after whitespace, and consumes it.
func (d *fastDecoder) next(c byte) bool {
	d.space()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// null consumes a null literal if one comes next (d is at a value).
func (d *fastDecoder) null() bool {
	if bytes.HasPrefix(d.b[d.i:], []byte("null")) {
		d.i += 4
		return true
	}
	return false
}

// token consumes one valid value and returns its bytes.
func (d *fastDecoder) token() ([]byte, bool) {
	end := engine.JSONValueEnd(d.b, d.i)
	if end < 0 {
		return nil, false
	}
	v := d.b[d.i:end:end]
	d.i = end
	return v, true
}

// str consumes a string, decoded as encoding/json decodes it.
func (d *fastDecoder) str() (string, bool) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return "", false
	}
	tok, ok := d.token()
	if !ok {
		return "", false
	}
	body := tok[1 : len(tok)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body), true
	}
	var s string
	return s, json.Unmarshal(tok, &s) == nil
}

// value decodes the value at d into rv (d is after whitespace).
func (d *fastDecoder) value(rv reflect.Value) bool {
	if d.i >= len(d.b) {
		return false
	}
	t := rv.Type()
	if t == rawMessageType {
		tok, ok := d.token()
		rv.SetBytes(tok)
		return ok
	}
	switch t.Kind() {
	case reflect.Pointer:
		if d.null() {
			rv.SetZero()
			return true
		}
		p := reflect.New(t.Elem())
		if !d.value(p.Elem()) {
			return false
		}
		rv.Set(p)
		return true
	case reflect.Struct:
		return d.object(rv)
	case reflect.Slice:
		if d.null() {
			rv.SetZero()
			return true
		}
		return d.array(rv)
	case reflect.String:
		if !reflect.PointerTo(t).Implements(unmarshalerType) && !reflect.PointerTo(t).Implements(textUnmarshalerType) && d.b[d.i] == '"' {
			s, ok := d.str()
			rv.SetString(s)
			return ok
		}
	}
	if d.null() {
		rv.SetZero()
		return true
	}
	tok, ok := d.token()
	return ok && json.Unmarshal(tok, rv.Addr().Interface()) == nil
}

// array decodes an array into a slice.
func (d *fastDecoder) array(rv reflect.Value) bool {
	if !d.next('[') {
		return false
	}
	s := reflect.MakeSlice(rv.Type(), 0, 0)
	if !d.next(']') {
		for {
			s = reflect.Append(s, reflect.Zero(rv.Type().Elem()))
			if d.space(); !d.value(s.Index(s.Len() - 1)) {
				return false
			}
			if d.next(']') {
				break
			}
			if !d.next(',') {
				return false
			}
		}
	}
	rv.Set(s)
	return true
}

// A schema is a struct type's members by name.
type schema struct {
	fields []field
	byName map[string]int
}

var schemas sync.Map // reflect.Type → *schema

// schemaOf returns a struct type's schema.
func schemaOf(t reflect.Type) *schema {
	if s, ok := schemas.Load(t); ok {
		return s.(*schema)
	}
	s := &schema{fields: fieldsOf(t), byName: map[string]int{}}
	for i, f := range s.fields {
		s.byName[f.name] = i
	}
	schemas.Store(t, s)
	return s
}

// object decodes an object into a struct, member by member.
func (d *fastDecoder) object(rv reflect.Value) bool {
	sc := schemaOf(rv.Type())
	if len(sc.fields) > 64 || !d.next('{') {
		return false
	}
	d.depth++
	defer func() { d.depth-- }()
	var seen uint64
	if !d.next('}') {
		for {
			if d.space(); d.i >= len(d.b) || d.b[d.i] != '"' {
				return false
			}
			key, ok := d.str()
			if !ok || !d.next(':') {
				return false
			}
			n, known := sc.byName[key]
			if !known || seen&(1<<n) != 0 {
				return false
			}
			seen |= 1 << n
			if !d.member(rv, sc.fields[n]) {
				return false
			}
			if d.next('}') {
				break
			}
			if !d.next(',') {
				return false
			}
		}
	}
	for n, f := range sc.fields {
		if f.required && seen&(1<<n) == 0 {
			return false
		}
	}
	return true
}

// member decodes the value of one member (d is before it).
func (d *fastDecoder) member(rv reflect.Value, f field) bool {
	if d.space(); d.i >= len(d.b) {
		return false
	}
	if d.null() {
		// A null member is absent, as decodeStruct has it.
		return !f.required
	}
	fv := rv.FieldByIndex(f.index)
	if d.raw != nil && d.depth == 1 && fv.Type() == rawMessageType {
		if end, ok := d.raw(f.name, d.i); ok {
			if end < 0 {
				return false
			}
			fv.SetBytes(d.b[d.i:end:end])
			d.i = end
			return true
		}
	}
	return d.value(fv)
}
