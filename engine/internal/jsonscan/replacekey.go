package jsonscan

import "github.com/tidwall/gjson"

// ReplaceKey rebuilds a JSON object with one key's value replaced by
// value (raw JSON), keeping every other key, its raw value and the key
// order. A key the object lacks is not added.
func ReplaceKey(body []byte, key string, value []byte) []byte {
	out := make([]byte, 0, len(body))
	out = append(out, '{')
	first := true
	gjson.ParseBytes(body).ForEach(func(k, v gjson.Result) bool {
		if !first {
			out = append(out, ',')
		}
		first = false
		out = append(out, k.Raw...)
		out = append(out, ':')
		if k.Str == key {
			out = append(out, value...)
		} else {
			out = append(out, v.Raw...)
		}
		return true
	})
	return append(out, '}')
}
