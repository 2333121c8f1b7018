package responses

import (
	"errors"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// Capture turns a whole response body into the stored assistant message:
// every output item in order as the native turn, plus the standard view
// (SPEC §5). A response whose error is set, or whose status is "failed",
// is an error; an incomplete response keeps the items it has.
func (dl Dialect) Capture(body []byte) (engine.Message, error) {
	if !gjson.ValidBytes(body) {
		return engine.Message{}, engine.NotJSON("responses: response body", body)
	}
	root := gjson.ParseBytes(body)
	if !root.IsObject() {
		return engine.Message{}, fmt.Errorf("responses: response body is not a JSON object")
	}
	var errv, status, output gjson.Result
	root.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "error":
			errv = v
		case "status":
			status = v
		case "output":
			output = v
		}
		return true
	})
	items, err := responseItems(errv, status, output, "")
	if err != nil {
		return engine.Message{}, fmt.Errorf("responses: %w", err)
	}
	m, err := dl.turn(items)
	if err != nil {
		return engine.Message{}, fmt.Errorf("responses: %w", err)
	}
	return m, nil
}

// responseItems checks a response object by its error, status and output
// members and returns its output items, compacted; prefix is the JSON path
// of the response in its document ("response." inside a stream event), for
// error messages.
func responseItems(errv, status, output gjson.Result, prefix string) ([]string, error) {
	if errv.Exists() && errv.Type != gjson.Null {
		return nil, fmt.Errorf("%serror: the response is an error: %s", prefix, errv.Raw)
	}
	if status.Str == "failed" {
		return nil, fmt.Errorf("%sstatus: the response failed", prefix)
	}
	if !output.IsArray() {
		return nil, fmt.Errorf("%soutput: want an array of output items, got %s", prefix, kind(output))
	}
	var items []string
	var err error
	output.ForEach(func(k, v gjson.Result) bool {
		var it string
		if it, err = outputItem(v); err != nil {
			err = fmt.Errorf("%soutput.%d: %w", prefix, k.Int(), err)
			return false
		}
		items = append(items, it)
		return true
	})
	return items, err
}

// outputItem checks one output item and returns it compacted: whitespace
// removed, keys, their order and every string byte for byte as issued, so
// a streamed and a whole capture of one response store the same bytes.
func outputItem(v gjson.Result) (string, error) {
	if err := checkItem(v); err != nil {
		return "", err
	}
	return compact(v.Raw)
}

// checkItem checks that v is an output item: an object with a type.
func checkItem(v gjson.Result) error {
	if !v.IsObject() {
		return fmt.Errorf("want an output item object, got %s", kind(v))
	}
	if t := v.Get("type"); t.Type != gjson.String || t.Str == "" {
		return errors.New("type: want the item's type")
	}
	return nil
}

// kind names the JSON type of v for error messages.
func kind(v gjson.Result) string {
	switch {
	case !v.Exists():
		return "nothing"
	case v.IsObject():
		return "an object"
	case v.IsArray():
		return "an array"
	case v.Type == gjson.String:
		return "a string"
	case v.Type == gjson.Number:
		return "a number"
	case v.Type == gjson.Null:
		return "null"
	}
	return "a boolean"
}
