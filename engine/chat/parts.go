package chat

import (
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// A part is one content part of a streamed answer whose content comes as
// arrays of parts (Mistral's thinking chunks: each delta carries a
// {"type":"thinking","thinking":[{"type":"text","text":"…"}]} piece, then
// the answer comes as string deltas). Consecutive thinking pieces, and
// consecutive text pieces, make one part: its text concatenates, in the
// layout of the part's first piece, the way a whole response holds it.
type part struct {
	kind string          // "thinking", "text", or "" for a part kept as it came
	raw  json.RawMessage // the first piece, the layout the part is written in
	text strings.Builder
}

// textPart is the layout of a text part made from string deltas.
const textPart = `{"type":"text","text":""}`

// feedParts adds a delta's content array to the parts.
func (a *accumulator) feedParts(arr gjson.Result) {
	if len(a.parts) == 0 && a.content.Len() > 0 {
		// Text came as a string before the first array: it is a text part.
		a.tail("text", textPart).text.WriteString(a.content.String())
		a.content.Reset()
	}
	arr.ForEach(func(_, p gjson.Result) bool {
		switch kind := p.Get("type").Str; kind {
		case "thinking":
			t := a.tail(kind, p.Raw)
			p.Get("thinking").ForEach(func(_, item gjson.Result) bool {
				t.text.WriteString(item.Get("text").Str)
				return true
			})
		case "text":
			a.tail(kind, p.Raw).text.WriteString(p.Get("text").Str)
		default:
			a.parts = append(a.parts, &part{raw: json.RawMessage(p.Raw)})
		}
		return true
	})
}

// tail returns the last part when it is of kind, else a new part of kind
// written in the layout of raw.
func (a *accumulator) tail(kind, raw string) *part {
	if n := len(a.parts); n > 0 && a.parts[n-1].kind == kind {
		return a.parts[n-1]
	}
	p := &part{kind: kind, raw: json.RawMessage(raw)}
	a.parts = append(a.parts, p)
	return p
}

// contentSink is where a string content piece goes: the answer's text,
// or, once the content came as parts, the trailing text part.
func (a *accumulator) contentSink() *strings.Builder {
	if len(a.parts) == 0 {
		return &a.content
	}
	return &a.tail("text", textPart).text
}

// partsContent renders the parts as the content array.
func (a *accumulator) partsContent() json.RawMessage {
	b := []byte{'['}
	for i, p := range a.parts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, p.encode()...)
	}
	return append(b, ']')
}

// encode writes a part: a thinking part with its concatenated text as its
// only thinking item (in the layout of its first), a text part with its
// text; any other part as it came.
func (p *part) encode() []byte {
	switch p.kind {
	case "thinking":
		first := gjson.GetBytes(p.raw, "thinking.0").Raw
		if first == "" {
			first = `{"type":"text","text":""}`
		}
		item, err := sjson.Set(first, "text", p.text.String())
		if err != nil {
			return p.raw
		}
		out, err := sjson.SetRawBytes(append([]byte(nil), p.raw...), "thinking", []byte("["+item+"]"))
		if err != nil {
			return p.raw
		}
		return out
	case "text":
		out, err := sjson.SetBytes(append([]byte(nil), p.raw...), "text", p.text.String())
		if err != nil {
			return p.raw
		}
		return out
	}
	return p.raw
}
