package gemini

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// SyntheticIDPrefix starts the id the engine gives a functionCall that came
// without one (the Gemini API usually sends none). The id is derived from
// the call's position, name, arguments and signature, so a streamed and a
// whole capture agree; it links the tool result to its call and never
// reaches a Gemini wire.
const SyntheticIDPrefix = "gemini-call-"

// IsSyntheticID reports whether a tool-call id was made by the engine.
func IsSyntheticID(id string) bool { return strings.HasPrefix(id, SyntheticIDPrefix) }

// accumulator builds the stored message from parts (SPEC §5): text and
// thought texts concatenate, each functionCall is a tool call with its own
// signature, and the text-turn signature keeps its latest non-empty value.
// A whole response is fed as one chunk, so whole and streamed capture give
// the same message.
type accumulator struct {
	text, thoughts strings.Builder
	calls          []engine.ToolCall
	signature      string
	finished       bool
}

// feed applies one candidate of a response or stream chunk, walking it in
// one pass.
func (a *accumulator) feed(cand gjson.Result) error {
	var err error
	cand.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "finishReason":
			a.finished = a.finished || v.Str != ""
		case "content":
			v.ForEach(func(k, v gjson.Result) bool {
				if k.Str == "parts" {
					err = a.parts(v)
				}
				return err == nil
			})
		}
		return err == nil
	})
	return err
}

// parts applies the parts of a candidate's content.
func (a *accumulator) parts(ps gjson.Result) error {
	var err error
	ps.ForEach(func(i, p gjson.Result) bool {
		var text, sig string
		var thought bool
		var call gjson.Result
		p.ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case "text":
				text = v.Str
			case "thought":
				thought = v.Bool()
			case "thoughtSignature":
				sig = v.Str
			case "functionCall":
				call = v
			}
			return true
		})
		switch {
		case call.Exists():
			if err = a.call(call, sig); err != nil {
				err = fmt.Errorf("content.parts.%d: %w", i.Int(), err)
				return false
			}
			return true
		case thought:
			a.thoughts.WriteString(text)
		default:
			a.text.WriteString(text)
		}
		if sig != "" {
			a.signature = sig
		}
		return true
	})
	return err
}

func (a *accumulator) call(fc gjson.Result, sig string) error {
	args := []byte("{}")
	if v := fc.Get("args"); v.Exists() {
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(v.Raw)); err != nil {
			return fmt.Errorf("functionCall args: %w", err)
		}
		args = buf.Bytes()
	}
	name := fc.Get("name").Str
	id := fc.Get("id").Str
	if id == "" {
		h := sha256.Sum256([]byte(strconv.Itoa(len(a.calls)) + "\x00" + name + "\x00" + string(args) + "\x00" + sig))
		id = SyntheticIDPrefix + hex.EncodeToString(h[:8])
	}
	tc := engine.ToolCall{ID: id, Type: "function", Function: engine.FunctionCall{Name: name, Arguments: string(args)}}
	if sig != "" {
		tc.ExtraContent = engine.GoogleExtraContent(sig)
	}
	a.calls = append(a.calls, tc)
	return nil
}

// message returns the stored assistant message.
func (a *accumulator) message() engine.Message {
	m := engine.Message{Role: "assistant", ToolCalls: a.calls}
	switch {
	case a.text.Len() > 0:
		text := a.text.String()
		m.Content = json.RawMessage(engine.AppendQuoted(make([]byte, 0, len(text)+16), text))
	case len(a.calls) > 0:
		m.Content = json.RawMessage("null")
	default:
		m.Content = json.RawMessage(`""`)
	}
	if a.thoughts.Len() > 0 {
		m.ReasoningContent = engine.Str(a.thoughts.String())
	}
	m.SetRecord(engine.NativeValues{ThoughtSignature: a.signature})
	return m
}
