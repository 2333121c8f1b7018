package protocol

import (
	"reflect"
	"strings"
	"testing"
)

// fastSeeds are lines on each edge the one-pass decoder must read as the
// slow reading does, or leave to it.
var fastSeeds = []string{
	`{"id":1,"cmd":"decide","route":{"api_mode":"chat","provider":"p","base_url":"https://h/v1","model":"m"},"rejected":["reasoning"]}`,
	` {"id":2,"cmd":"shape","route":{"api_mode":"chat","provider":"p","base_url":"u","model":"m"},"decision":{"carriers":[],"pad":false,"flags":[{"path":"a.b","value":{"x":[1,2]}}]},"options":{"tools":[{"name":"t","parameters":{"type":"object"}}]},"session":{"messages":[{"role":"user","content":"hi"}]}}` + "\n",
	`{"id":3,"cmd":"capture","route":{"api_mode":"chat","provider":"p","base_url":"u","model":"m"},"response":"data: {\"a\":\"\\u00e9\\n\"}\n\n","stream":true}`,
	`{"id":4,"cmd":"hello","protocol":1,"protocol":1}`,
	`{"id":5,"cmd":"hello","Protocol":1}`,
	`{"id":6,"cmd":"hello","protocoll":1}`,
	`{"cmd":"bye"}`,
	`{"id":null,"cmd":"bye"}`,
	`{"id":7,"cmd":null}`,
	`{"id":8.0,"cmd":"bye"}`,
	`{"id":1e2,"cmd":"bye"}`,
	`{"id":-0,"cmd":"bye"}`,
	`{"id":99999999999999999999,"cmd":"bye"}`,
	`{"id":9,"cmd":"bye","threshold":null,"route":null,"session":null}`,
	`{"id":10,"cmd":"b\u0079e"}`,
	`{"id":11,"c\u006dd":"bye"}`,
	"{\"id\":12,\"cmd\":\"by\xffe\"}",
	`{"id":13,"cmd":"bye","rejected":[null,"x"]}`,
	`{"id":14,"cmd":"bye","rejected":"x"}`,
	`{"id":15,"cmd":"bye","route":[]}`,
	`{"id":16,"cmd":"bye","decision":{"carriers":null,"pad":true}}`,
	`{"id":17,"cmd":"bye","decision":{"carriers":[],"pad":1}}`,
	`{"id":18,"cmd":"bye","options":{"tools":[null]}}`,
	`{"id":19,"cmd":"bye","body":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	`{"id":20,"cmd":"bye","body":{"a":1,}}`,
	`{"id":21,"cmd":"bye"} {}`,
	`{"id":22,"cmd":"bye",}`,
	`{"id":23 "cmd":"bye"}`,
	`{"id":24,"cmd":"bye","status":"200"}`,
	`{"id":25,"cmd":"bye","stream":"true"}`,
	`{"id":26,"cmd":"bye","session":{"messages":[{"role":"user","content":"x"}],"model_config":{"rejected_carriers":[{"carriers":["nope"]}]}}}`,
	`{"id":27,"cmd":"bye","session":{"messages":[{"content":"x"}]}}`,
	`{"id":28,"cmd":"bye","session":{"messages":[{"role":"user","content":"\u00e9"}]}}`,
	`{"id":29,"cmd":"bye","session":[{"role":"user"}]}`,
	`{"id":30,"cmd":"bye","session":{"messages":[{"role":"user","content":"x"}]`,
	`{"id":31,"result":{"body":{}},"error":{"message":"m"}}`,
	`{"id":32,"unsupported":{"reason":"r","issue_url":null}}`,
	`{"id":33,"error":{}}`,
	`{}`, `[]`, `null`, `"x"`, ``, `{`, `{"id":1,"cmd":"bye"`,
}

// FuzzDecodeFast checks the one-pass decoder against the slow reading on
// every message type: whatever it accepts, the slow reading accepts with
// the same value; the session it parses in place is the one dispatch
// would read.
func FuzzDecodeFast(f *testing.F) {
	for _, seed := range fastSeeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		for _, typ := range []reflect.Type{
			reflect.TypeFor[Request](), reflect.TypeFor[Reply](), reflect.TypeFor[Hello](), reflect.TypeFor[Decision](),
			reflect.TypeFor[BodyResult](), reflect.TypeFor[LearnResult](), reflect.TypeFor[CompactResult](), reflect.TypeFor[Empty](),
		} {
			checkFast(t, line, typ)
		}
		var req Request
		sess, err := decodeRequest(line, &req)
		if err != nil || sess == nil {
			return
		}
		want, err := decodeSession(req.Session, "request.session")
		if err != nil {
			t.Fatalf("%q: the session parsed in place is refused by decodeSession: %v", line, err)
		}
		if !reflect.DeepEqual(sess.session, want) {
			t.Fatalf("%q: the session parsed in place is\n%+v\nwant\n%+v", line, sess.session, want)
		}
	})
}

// checkFast decodes line into a typ both ways and compares.
func checkFast(t *testing.T, line []byte, typ reflect.Type) {
	t.Helper()
	fast := reflect.New(typ)
	if !decodeFast(line, fast.Elem(), nil) {
		return
	}
	slow := reflect.New(typ)
	if err := decodeSlow(line, slow.Elem(), "request"); err != nil {
		t.Fatalf("%q as %s: the one-pass decoder accepts what the slow reading refuses: %v", line, typ, err)
	}
	if !reflect.DeepEqual(fast.Interface(), slow.Interface()) {
		t.Fatalf("%q as %s: the one-pass decoder reads\n%+v\nthe slow reading\n%+v", line, typ, fast.Elem(), slow.Elem())
	}
}

// TestDecodeFastReads: every seed request the slow reading accepts is
// read in one pass too, but for a value nested deeper than the validator
// follows (a decoder that gave up on everything would pass
// FuzzDecodeFast).
func TestDecodeFastReads(t *testing.T) {
	accepted := 0
	for _, line := range fastSeeds {
		var slow, fast Request
		if decodeSlow([]byte(line), reflect.ValueOf(&slow).Elem(), "request") != nil {
			continue
		}
		accepted++
		if !decodeFast([]byte(line), reflect.ValueOf(&fast).Elem(), nil) && !strings.Contains(line, "[[[[") {
			t.Errorf("%s: left to the slow reading", line)
		}
	}
	if accepted < 10 {
		t.Errorf("%d seeds accepted: the seeds no longer cover requests", accepted)
	}
	var req Request
	sess, err := decodeRequest([]byte(fastSeeds[1]), &req)
	if err != nil || sess == nil || len(sess.session.Messages) != 1 {
		t.Errorf("the session of %s is not parsed in place: %v, %v", fastSeeds[1], sess, err)
	}
}
