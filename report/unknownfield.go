package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// matrixKeys, implementationKeys and cellKeys are the JSON object keys [ReadJSON] accepts,
// taken from the struct tags.
var (
	matrixKeys         = jsonKeys(reflect.TypeFor[Matrix]())
	implementationKeys = jsonKeys(reflect.TypeFor[Implementation]())
	cellKeys           = jsonKeys(reflect.TypeFor[Cell]())
)

// jsonKeys returns the JSON names of a struct type's fields.
func jsonKeys(t reflect.Type) []string {
	keys := make([]string, 0, t.NumField())
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		keys = append(keys, name)
	}
	return keys
}

// findUnknownField locates the first object key that encoding/json would reject as unknown
// (its matching is case-insensitive), returning its JSON path and the byte index of its opening
// quote. It reports false when it cannot find one, for example because the document is
// malformed elsewhere.
func findUnknownField(data []byte) (path string, at int64, found bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", 0, false
	}
	for dec.More() {
		key, at, ok := nextKey(dec, data)
		if !ok {
			return "", 0, false
		}
		if !knownKey(matrixKeys, key) {
			return key, at, true
		}
		if strings.EqualFold(key, "implementation") {
			path, at, found, ok := unknownInObject(dec, data, implementationKeys)
			if !ok || found {
				return "implementation." + path, at, found
			}
			continue
		}
		if !strings.EqualFold(key, "cells") {
			if !skipValue(dec) {
				return "", 0, false
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			return "", 0, false
		}
		for i := 0; dec.More(); i++ {
			tok, err := dec.Token()
			if err != nil || tok == nil { // a null cell has no keys
				if err != nil {
					return "", 0, false
				}
				continue
			}
			if tok != json.Delim('{') {
				return "", 0, false
			}
			for dec.More() {
				key, at, ok := nextKey(dec, data)
				if !ok {
					return "", 0, false
				}
				if !knownKey(cellKeys, key) {
					return fmt.Sprintf("cells[%d].%s", i, key), at, true
				}
				if !skipValue(dec) {
					return "", 0, false
				}
			}
			if _, err := dec.Token(); err != nil { // '}'
				return "", 0, false
			}
		}
		if _, err := dec.Token(); err != nil { // ']'
			return "", 0, false
		}
	}
	return "", 0, false
}

// unknownInObject reads one object value (or null) and returns the first key not in keys;
// ok is false when the value is not an object or is malformed.
func unknownInObject(dec *json.Decoder, data []byte, keys []string) (key string, at int64, found, ok bool) {
	tok, err := dec.Token()
	if err != nil || tok == nil {
		return "", 0, false, err == nil
	}
	if tok != json.Delim('{') {
		return "", 0, false, false
	}
	for dec.More() {
		key, at, ok := nextKey(dec, data)
		if !ok {
			return "", 0, false, false
		}
		if !knownKey(keys, key) {
			return key, at, true, true
		}
		if !skipValue(dec) {
			return "", 0, false, false
		}
	}
	_, err = dec.Token() // '}'
	return "", 0, false, err == nil
}

// nextKey reads an object key and returns it with the byte index of its opening quote.
func nextKey(dec *json.Decoder, data []byte) (string, int64, bool) {
	at := dec.InputOffset()
	for at < int64(len(data)) && (data[at] == ',' || data[at] == ' ' || data[at] == '\t' || data[at] == '\r' || data[at] == '\n') {
		at++
	}
	tok, err := dec.Token()
	key, ok := tok.(string)
	return key, at, err == nil && ok
}

// skipValue consumes one value.
func skipValue(dec *json.Decoder) bool {
	var v json.RawMessage
	return dec.Decode(&v) == nil
}

// knownKey reports whether key matches one of keys the way encoding/json matches field names.
func knownKey(keys []string, key string) bool {
	return slices.ContainsFunc(keys, func(k string) bool { return strings.EqualFold(k, key) })
}
