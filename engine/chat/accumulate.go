package chat

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// accumulator builds a stored assistant message from deltas (SPEC §5):
// text carriers concatenate, signatures and opaque blobs keep the latest
// non-empty value, reasoning_details items merge by index, and tool calls
// accumulate by index (a reused index with a new id opens a new call). A
// whole response is fed as one delta, so whole and streamed capture of the
// same response give the same message.
type accumulator struct {
	// Text carriers are copied out of the event as they come, so the
	// stream's buffers are not held until the end.
	content     strings.Builder
	parts       []*part // the content, once it came as arrays of parts
	rc, r       strings.Builder
	details     []*detail
	signature   string
	opaque      string
	rtext       strings.Builder
	calls       []*callAcc
	callByIndex map[int64]*callAcc
	// finished is set by a chunk whose choice 0 carries a finish_reason.
	finished bool
}

// feedText adds a piece of one of the text fields.
func (a *accumulator) feedText(field, piece string) {
	if b := a.text(field); b != nil {
		b.WriteString(piece)
	}
}

// text returns the buffer of a text field, or nil for another field.
func (a *accumulator) text(field string) *strings.Builder {
	switch field {
	case "content":
		return a.contentSink()
	case "reasoning_content":
		return &a.rc
	case "reasoning":
		return &a.r
	case "reasoning_text":
		return &a.rtext
	}
	return nil
}

type detail struct {
	index    int64
	hasIndex bool
	typ      string
	keys     []string
	values   map[string]json.RawMessage
	text     map[string]*strings.Builder
}

type callAcc struct {
	call  engine.ToolCall
	args  strings.Builder
	extra json.RawMessage
}

// concatenated reasoning_details string fields; every other string field
// (signature, data, id, format) keeps its latest non-empty value.
var detailTextFields = map[string]bool{"text": true, "summary": true}

func (a *accumulator) feed(delta gjson.Result) {
	delta.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "content":
			if v.Type == gjson.String {
				a.feedText(k.Str, v.Str)
			} else if v.IsArray() {
				a.feedParts(v)
			}
		case "reasoning_content", "reasoning", "reasoning_text":
			if v.Type == gjson.String {
				a.feedText(k.Str, v.Str)
			}
		case "reasoning_details":
			v.ForEach(func(_, item gjson.Result) bool {
				a.feedDetail(item)
				return true
			})
		case "extra_content":
			if s := engine.ThoughtSignatureOf(json.RawMessage(v.Raw)); s != "" {
				a.signature = s
			}
		case "reasoning_opaque":
			if v.Type == gjson.String && v.Str != "" {
				a.opaque = v.Str
			}
		case "tool_calls":
			v.ForEach(func(pos, tc gjson.Result) bool {
				a.feedCall(pos.Int(), tc)
				return true
			})
		}
		return true
	})
}

func (a *accumulator) feedDetail(item gjson.Result) {
	if !item.IsObject() {
		return
	}
	idx := item.Get("index")
	typ := item.Get("type").String()
	var d *detail
	if idx.Exists() {
		for _, e := range a.details {
			if e.hasIndex && e.index == idx.Int() && (e.typ == typ || typ == "" || e.typ == "") {
				d = e
				break
			}
		}
	}
	if d == nil {
		d = &detail{index: idx.Int(), hasIndex: idx.Exists(), values: map[string]json.RawMessage{}, text: map[string]*strings.Builder{}}
		a.details = append(a.details, d)
	}
	if d.typ == "" {
		d.typ = typ
	}
	item.ForEach(func(k, v gjson.Result) bool {
		key := k.Str
		if _, seen := d.values[key]; !seen {
			if _, seenText := d.text[key]; !seenText {
				d.keys = append(d.keys, key)
			}
		}
		switch {
		case v.Type == gjson.String && detailTextFields[key]:
			b := d.text[key]
			if b == nil {
				b = &strings.Builder{}
				d.text[key] = b
			}
			b.WriteString(v.Str)
		case v.Type == gjson.String && v.Str == "":
			if _, ok := d.values[key]; !ok {
				d.values[key] = json.RawMessage(v.Raw)
			}
		default:
			d.values[key] = json.RawMessage(v.Raw)
		}
		return true
	})
}

func (a *accumulator) feedCall(pos int64, tc gjson.Result) {
	idx := pos
	if i := tc.Get("index"); i.Exists() {
		idx = i.Int()
	}
	id := tc.Get("id").String()
	c := a.callByIndex[idx]
	if c == nil || (id != "" && c.call.ID != "" && id != c.call.ID) {
		c = &callAcc{}
		if a.callByIndex == nil {
			a.callByIndex = map[int64]*callAcc{}
		}
		a.callByIndex[idx] = c
		a.calls = append(a.calls, c)
	}
	if id != "" {
		c.call.ID = id
	}
	if t := tc.Get("type").String(); t != "" {
		c.call.Type = t
	}
	f := tc.Get("function")
	if n := f.Get("name").String(); n != "" {
		c.call.Function.Name = n
	}
	if v := f.Get("arguments"); v.Type == gjson.String {
		c.args.WriteString(v.Str)
	}
	if s := f.Get("thought_signature").String(); s != "" {
		c.call.Function.ThoughtSignature = s
	}
	if e := tc.Get("extra_content"); e.Exists() && e.Type != gjson.Null {
		c.extra = json.RawMessage(e.Raw)
	}
}

// message returns the accumulated assistant message.
func (a *accumulator) message() engine.Message {
	m := engine.Message{Role: "assistant"}
	for _, c := range a.calls {
		tc := c.call
		if tc.Type == "" {
			tc.Type = "function"
		}
		tc.Function.Arguments = c.args.String()
		tc.ExtraContent = c.extra
		m.ToolCalls = append(m.ToolCalls, tc)
	}
	content := a.content.String()
	switch {
	case len(a.parts) > 0:
		m.Content = a.partsContent()
	case content != "":
		m.Content = json.RawMessage(engine.AppendQuoted(make([]byte, 0, len(content)+16), content))
	case len(m.ToolCalls) > 0:
		m.Content = json.RawMessage("null")
	default:
		m.Content = json.RawMessage(`""`)
	}
	if rc := a.rc.String(); rc != "" {
		m.ReasoningContent = engine.Str(rc)
	}
	rtext := a.rtext.String()
	switch r := a.r.String(); {
	case r != "":
		m.Reasoning = engine.Str(r)
	case rtext != "":
		m.Reasoning = engine.Str(rtext)
	}
	for _, d := range a.details {
		m.ReasoningDetails = append(m.ReasoningDetails, d.encode())
	}
	m.SetRecord(engine.NativeValues{ThoughtSignature: a.signature, ReasoningOpaque: a.opaque, ReasoningText: rtext})
	return m
}

// encode writes a merged item with its keys sorted, so that the same item
// merged from deltas or read whole has the same bytes.
func (d *detail) encode() json.RawMessage {
	keys := slices.Clone(d.keys)
	slices.Sort(keys)
	out := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = engine.AppendQuoted(out, k)
		out = append(out, ':')
		if b, ok := d.text[k]; ok {
			out = engine.AppendQuoted(out, b.String())
		} else {
			out = append(out, d.values[k]...)
		}
	}
	return append(out, '}')
}
