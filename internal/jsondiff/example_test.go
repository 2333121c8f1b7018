package jsondiff_test

import (
	"fmt"

	"github.com/replaycheck/replaycheck/internal/jsondiff"
)

func ExampleDiff() {
	recorded := []byte(`{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"ok","reasoning_content":"thought"}]}`)
	replayed := []byte(`{"messages":[{"content":"hi","role":"user"},{"content":"ok","role":"assistant"}],"model":"m"}`)
	diffs, err := jsondiff.Diff(recorded, replayed)
	if err != nil {
		panic(err)
	}
	fmt.Println(jsondiff.Format(diffs))
	// Output:
	// messages.1.reasoning_content: want "thought" got (absent)
}

func ExampleCanonical() {
	c, err := jsondiff.Canonical([]byte(`{ "b": 1.0, "a": "\u00e9\/" }`))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(c))
	_, err = jsondiff.Canonical([]byte(`{"a":1,}`))
	fmt.Println(err)
	// Output:
	// {"a":"é/","b":1.0}
	// jsondiff: invalid JSON at offset 7: unexpected character '}' looking for an object key
}
