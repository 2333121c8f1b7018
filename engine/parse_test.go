package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/internal/longsession"
)

// slowMessage is a Message whose decoding is encoding/json's alone: the
// reading ParseSession had before its fast parser.
type slowMessage struct{ m Message }

func (s *slowMessage) UnmarshalJSON(b []byte) error { return s.m.unmarshalSlow(b) }

// referenceParse is ParseSession as it was before the fast parser:
// encoding/json all the way.
func referenceParse(b []byte) (*Session, error) {
	b = []byte(strings.TrimSpace(string(b)))
	if len(b) == 0 {
		return nil, fmt.Errorf("session: empty document")
	}
	var s Session
	var raws []json.RawMessage
	if b[0] == '[' {
		if err := json.Unmarshal(b, &raws); err != nil {
			return nil, fmt.Errorf("session: %w", jsonErr(b, err))
		}
	} else {
		var doc struct {
			ID       string            `json:"id"`
			Messages []json.RawMessage `json:"messages"`
			Config   ModelConfig       `json:"model_config"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("session: %w", jsonErr(b, err))
		}
		if doc.Messages == nil {
			return nil, fmt.Errorf("session: no \"messages\" array")
		}
		raws, s.ID, s.Config = doc.Messages, doc.ID, doc.Config
	}
	s.Messages = make([]Message, len(raws))
	for i, r := range raws {
		var sm slowMessage
		if err := json.Unmarshal(r, &sm); err != nil {
			return nil, fmt.Errorf("session: messages.%d: %w", i, err)
		}
		if s.Messages[i] = sm.m; sm.m.Role == "" {
			return nil, fmt.Errorf("session: messages.%d: missing role", i)
		}
	}
	for _, r := range s.Config.RejectedCarriers {
		for _, c := range r.Carriers {
			if _, err := ParseCarrier(string(c)); err != nil {
				return nil, fmt.Errorf("session: model_config.rejected_carriers: %w", err)
			}
		}
	}
	return &s, nil
}

// parseCases are documents the fast parser takes, and documents it must
// give up on so that encoding/json reads (or refuses) them as before.
var parseCases = []string{
	`{"messages":[]}`,
	`[]`,
	` [ {"role":"user","content":"hi"} ] `,
	`{"id":"s","messages":[{"role":"user","content":"a\nb \"q\" \\ \/ \t\r\b\f"}],"model_config":{"sealed_blobs":["x"]}}`,
	`{"id":"s\t","messages":[{"role":"assistant","reasoning":"a\nb \"q\" \\ \/ \t\r\b\f","reasoning_content":"\n\n","name":"\"n\""}]}`,
	`{"id":"s","other":{"deep":[1,2.5e3,-0,true,false,null]},"messages":[{"role":"assistant","content":null,"reasoning_content":"","reasoning":null,"reasoning_details":[],"extra_content":null,"_bookkeeping":[1],"x":{"y":"z"}}]}`,
	`{"messages":[{"role":"assistant","reasoning_details":[{"type":"reasoning.text","text":"t","signature":"s"}, {"a" : 1 }],"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"},"extra_content":{"google":{}}}]}]}`,
	`{"messages":[{"role":"assistant","native":{"dialect":"anthropic","blocks":[{"type":"thinking"}],"issuer":{"provider":"p","host":"h","model":"m"}},"timestamp":"t","name":"n","tool_call_id":"c","reasoning_opaque":"o","reasoning_text":"r"}]}`,
	`{"messages":[{"role":"user","content":"caf\u00e9 \ud83d\ude00 \ud800"}]}`,
	"{\"messages\":[{\"role\":\"user\",\"content\":\"ok\",\"reasoning\":\"bad \xff utf-8\"}]}",
	`{"messages":[{"Role":"user"}]}`,
	`{"messages":[{"role":"user","ROLE":"x"}]}`,
	`{"Messages":[{"role":"user"}]}`,
	`{"messages":[{"role":"user","role":"assistant"}]}`,
	`{"messages":[{"role":"user","x":1,"x":2}]}`,
	`{"messages":[{"role":"user"}],"messages":[]}`,
	`{"messages":[{"rol\u0065":"user"}]}`,
	`{"messages":[{"role":5}]}`,
	`{"messages":[{"role":"user","reasoning":5}]}`,
	`{"messages":[{"role":"user","reasoning_details":["x"]}]}`,
	`{"messages":[{"role":"user","reasoning_details":{}}]}`,
	`{"messages":[{"role":"user","tool_calls":[{"id":5}]}]}`,
	`{"messages":[{"role":"user","native":"x"}]}`,
	`{"messages":[{"content":"no role"}]}`,
	`{"messages":[{"role":"user"},{"content":"no role"},{"role":5}]}`,
	`{"messages":[null]}`,
	`{"messages":[[]]}`,
	`{"messages":null}`,
	`{"id":"s"}`,
	`{"id":5,"messages":[]}`,
	`{"id":null,"messages":[]}`,
	`{"messages":[],"model_config":{"rejected_carriers":[{"provider":"p","host":"h","model":"m","carriers":["nope"]}]}}`,
	`{"messages":[],"model_config":{"rejected_carriers":[{"provider":"p","host":"h","model":"m","carriers":["reasoning"]}]}}`,
	`{"messages":[],"model_config":[]}`,
	`{"messages":[{"role":"user"}]} x`,
	`{"messages":[{"role":"user"}]`,
	`{"messages":[{"role":"user",}]}`,
	`{"messages":[{"role":"user" "content":1}]}`,
	"{\"messages\":[{\"role\":\"us\ter\"}]}",
	`{"messages":[{"role":"user","content":[{"type":"text","text":"x"}]}]}`,
	`{"messages":[{"role":"user","content":01}]}`,
	`{"messages":[{"role":"user","content":1.}]}`,
	`{"messages":[{"role":"user","content":tru}]}`,
	`"just a string"`,
	`5`,
	`null`,
	`{"messages":[{"role":"user","content":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}]}`,
	// Reasoning strings long enough to be checked after the document is
	// read (minLater), when quoted forms are kept.
	longReasoning(`a\nb\"c `),
	longReasoning("a\tb"),
	longReasoning(`a\xb`),
	longReasoning(`a\u00e9b`),
	longReasoning("a\xffb"),
	longReasoning(`a\\`),
	longReasoning(`a\\\`),
	`{"messages":[{"role":"assistant","reasoning":"` + strings.Repeat("x", 5000),
}

// longReasoning is a session whose assistant turn's reasoning holds piece
// over and over, past minLater.
func longReasoning(piece string) string {
	return `{"messages":[{"role":"assistant","reasoning_content":"` + strings.Repeat(piece, minLater/len(piece)+1) + `","reasoning":"short"}]}`
}

// TestParseSessionMatchesEncodingJSON: on every case, ParseSession returns
// what encoding/json's reading returns, the same session or the same error
// text. A fast parser that took a document it should give up on, or read
// a value differently, turns this red.
func TestParseSessionMatchesEncodingJSON(t *testing.T) {
	cases := append(parseCases, string(longsession.Generate(3, 2000)), string(longsession.Generate(3, 2*minLater)))
	for _, in := range cases {
		checkSameParse(t, []byte(in))
	}
}

func checkSameParse(t *testing.T, in []byte) {
	t.Helper()
	want, wantErr := referenceParse(in)
	got, gotErr := ParseSession(in)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("%.200q:\nerror %v\nwant  %v", in, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%.200q:\nsession %#v\nwant    %#v", in, got, want)
	}
	got, gotErr = ParseSessionQuoted(in, new(QuotedStrings))
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("%.200q, keeping quoted forms:\nerror %v\nwant  %v", in, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%.200q, keeping quoted forms:\nsession %#v\nwant    %#v", in, got, want)
	}
}

// TestParseSessionTakesPlainInput: the fast parser reads plain documents
// itself (the speed budget depends on it) rather than giving up on them.
func TestParseSessionTakesPlainInput(t *testing.T) {
	for _, in := range []string{parseCases[3], parseCases[4], parseCases[5], parseCases[6], parseCases[7], string(longsession.Generate(3, 2000))} {
		if _, err := parseSessionFast([]byte(in), nil); err != nil {
			t.Errorf("%.80q: the fast parser gave up", in)
		}
	}
}

// TestParseSessionCopies: raw values do not share the input's bytes.
func TestParseSessionCopies(t *testing.T) {
	in := []byte(`{"messages":[{"role":"user","content":"hi","reasoning_details":[{"a":1}]}]}`)
	s, err := ParseSession(in)
	if err != nil {
		t.Fatal(err)
	}
	for i := range in {
		in[i] = ' '
	}
	if string(s.Messages[0].Content) != `"hi"` || string(s.Messages[0].ReasoningDetails[0]) != `{"a":1}` {
		t.Fatalf("raw values changed with the input: %s %s", s.Messages[0].Content, s.Messages[0].ReasoningDetails[0])
	}
}

// FuzzParseSession: on any input, ParseSession agrees with encoding/json's
// reading, and never panics.
func FuzzParseSession(f *testing.F) {
	for _, c := range parseCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkSameParse(t, in) })
}

// TestParseMessageMatchesEncodingJSON: ParseMessage reads a message as
// json.Unmarshal did, errors included.
func TestParseMessageMatchesEncodingJSON(t *testing.T) {
	for _, in := range []string{`{"role":"user","content":"x\n"}`, `{"role":5}`, `null`, `{"role":"user"} x`, `{"Role":"user"}`, `{`, `{"role":"a","reasoning_details":[1]}`} {
		var want slowMessage
		wantErr := json.Unmarshal([]byte(in), &want)
		got, gotErr := ParseMessage([]byte(in))
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%q: error %v, want %v", in, gotErr, wantErr)
		}
		if wantErr == nil && !reflect.DeepEqual(got, want.m) {
			t.Errorf("%q: %#v, want %#v", in, got, want.m)
		}
	}
}

// BenchmarkCompareEncodingJSONParseLong is the reading ParseSession had
// before its fast parser, on the budget session.
func BenchmarkCompareEncodingJSONParseLong(b *testing.B) {
	doc := longsession.Budget()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := referenceParse(doc); err != nil {
			b.Fatal(err)
		}
	}
}
