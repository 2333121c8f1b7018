package evidence

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/bedrock"
	"github.com/replaycheck/replaycheck/engine/sse"
	"github.com/tidwall/gjson"
)

// A carrier is one reasoning value an answer holds: where it sits (a path
// into the answer, or into its stream), the value, and whether it is
// opaque (signed or encrypted bytes, echoed byte for byte or not at all).
type carrier struct {
	path   string
	value  string
	opaque bool
}

// opaqueKeys are the keys whose string values are opaque carriers, in
// every dialect: Anthropic and reasoning_details signatures, Converse
// redactedContent, Gemini thoughtSignature and its OpenAI-compatible
// thought_signature, Copilot reasoning_opaque, Responses
// encrypted_content. A data value is opaque inside redacted_thinking
// blocks and reasoning.encrypted items.
var opaqueKeys = []string{"signature", "thoughtSignature", "thought_signature", "redactedContent", "reasoning_opaque", "encrypted_content"}

// isOpaque reports whether the value at key of object parent is opaque.
func isOpaque(key string, parent gjson.Result) bool {
	if slices.Contains(opaqueKeys, key) {
		return true
	}
	t := parent.Get("type").Str
	return key == "data" && (t == "redacted_thinking" || t == "reasoning.encrypted")
}

// answerCarriers reads the carriers of an answer, whole or streamed,
// independently of the dialects' capture code: the oracle capture is
// checked against. Text carriers of a stream are concatenated per block
// (per index, per call), opaque ones keep their latest non-empty value
// (SPEC §5).
func answerCarriers(mode engine.APIMode, body []byte, stream bool) ([]carrier, error) {
	switch {
	case mode == engine.ModeBedrockConverse && stream:
		return converseStreamCarriers(body)
	case mode == engine.ModeGemini && stream && bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")):
		// streamGenerateContent without alt=sse: one JSON array of chunks.
		doc := gjson.ParseBytes(body)
		if !gjson.ValidBytes(body) || !doc.IsArray() {
			return nil, fmt.Errorf("the answer is not a JSON array of chunks")
		}
		return streamCarriers(mode, doc.Array()), nil
	case stream:
		events, err := sse.Events(bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		var docs []gjson.Result
		for _, ev := range events {
			if d := strings.TrimSpace(ev.Data); d != "" && d != "[DONE]" && gjson.Valid(d) {
				docs = append(docs, gjson.Parse(d))
			}
		}
		if mode == engine.ModeResponses {
			return responsesStreamCarriers(docs), nil
		}
		return streamCarriers(mode, docs), nil
	}
	if !gjson.ValidBytes(body) {
		return nil, fmt.Errorf("the answer is not JSON")
	}
	return wholeCarriers(mode, gjson.ParseBytes(body)), nil
}

// wholeCarriers reads a whole answer.
func wholeCarriers(mode engine.APIMode, doc gjson.Result) []carrier {
	var out []carrier
	add := func(path string, v gjson.Result, opaque bool) {
		if v.Type == gjson.String && v.Str != "" {
			out = append(out, carrier{path, v.Str, opaque})
		}
	}
	switch mode {
	case engine.ModeChat:
		msg := doc.Get("choices.0.message")
		chatMessageCarriers("choices.0.message", msg, add)
	case engine.ModeAnthropic:
		doc.Get("content").ForEach(func(i, b gjson.Result) bool {
			p := "content." + i.String()
			switch b.Get("type").Str {
			case "thinking":
				add(p+".thinking", b.Get("thinking"), false)
				add(p+".signature", b.Get("signature"), true)
			case "redacted_thinking":
				add(p+".data", b.Get("data"), true)
			}
			return true
		})
	case engine.ModeBedrockConverse:
		doc.Get("output.message.content").ForEach(func(i, b gjson.Result) bool {
			p := "output.message.content." + i.String() + ".reasoningContent"
			rc := b.Get("reasoningContent")
			add(p+".reasoningText.text", rc.Get("reasoningText.text"), false)
			add(p+".reasoningText.signature", rc.Get("reasoningText.signature"), true)
			add(p+".redactedContent", rc.Get("redactedContent"), true)
			return true
		})
	case engine.ModeGemini:
		return streamCarriers(mode, []gjson.Result{doc})
	case engine.ModeResponses:
		doc.Get("output").ForEach(func(i, item gjson.Result) bool {
			responsesItemCarriers("output."+i.String(), item, add)
			return true
		})
	}
	return out
}

// responsesItemCarriers reads one Responses output item: a reasoning
// item's encrypted_content and signature (opaque), its summary texts and
// reasoning texts (readable).
func responsesItemCarriers(path string, item gjson.Result, add func(string, gjson.Result, bool)) {
	if item.Get("type").Str != "reasoning" {
		return
	}
	add(path+".encrypted_content", item.Get("encrypted_content"), true)
	add(path+".signature", item.Get("signature"), true)
	for _, list := range []string{"summary", "content"} {
		item.Get(list).ForEach(func(j, part gjson.Result) bool {
			add(path+"."+list+"."+j.String()+".text", part.Get("text"), false)
			return true
		})
	}
}

// responsesStreamCarriers reads a Responses event stream: the output of
// the final response.completed event when there is one (it is the whole
// answer), else each response.output_item.done item by output index, else
// the summary and reasoning text deltas concatenated per item and part.
func responsesStreamCarriers(docs []gjson.Result) []carrier {
	var out []carrier
	add := func(path string, v gjson.Result, opaque bool) {
		if v.Type == gjson.String && v.Str != "" {
			out = append(out, carrier{"stream: " + path, v.Str, opaque})
		}
	}
	for i := len(docs) - 1; i >= 0; i-- {
		if docs[i].Get("type").Str == "response.completed" {
			docs[i].Get("response.output").ForEach(func(j, item gjson.Result) bool {
				responsesItemCarriers("response.completed output."+j.String(), item, add)
				return true
			})
			return out
		}
	}
	done := map[int64]gjson.Result{}
	var order []int64
	a := newAcc()
	for _, d := range docs {
		switch d.Get("type").Str {
		case "response.output_item.done":
			idx := d.Get("output_index").Int()
			if _, seen := done[idx]; !seen {
				order = append(order, idx)
			}
			done[idx] = d.Get("item")
		case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
			part := "summary_index"
			if d.Get("type").Str == "response.reasoning_text.delta" {
				part = "content_index"
			}
			key := d.Get("output_index").String() + "." + part + "." + d.Get(part).String()
			a.addText(key, "stream: output "+d.Get("output_index").String()+" "+strings.TrimSuffix(part, "_index")+" "+d.Get(part).String()+" text", d.Get("delta").Str)
		}
	}
	if len(order) == 0 {
		return a.carriers()
	}
	slices.Sort(order)
	for _, idx := range order {
		responsesItemCarriers("output_item.done output "+strconv.FormatInt(idx, 10), done[idx], add)
	}
	return out
}

// chatMessageCarriers reads one chat message (or delta) object.
func chatMessageCarriers(path string, msg gjson.Result, add func(string, gjson.Result, bool)) {
	for _, k := range []string{"reasoning_content", "reasoning", "reasoning_text"} {
		add(path+"."+k, msg.Get(k), false)
	}
	add(path+".reasoning_opaque", msg.Get("reasoning_opaque"), true)
	add(path+".extra_content.google.thought_signature", msg.Get("extra_content.google.thought_signature"), true)
	msg.Get("reasoning_details").ForEach(func(i, item gjson.Result) bool {
		p := path + ".reasoning_details." + i.String()
		for _, k := range []string{"text", "summary"} {
			add(p+"."+k, item.Get(k), false)
		}
		add(p+".signature", item.Get("signature"), true)
		if item.Get("type").Str == "reasoning.encrypted" {
			add(p+".data", item.Get("data"), true)
		}
		return true
	})
	msg.Get("tool_calls").ForEach(func(i, tc gjson.Result) bool {
		p := path + ".tool_calls." + i.String()
		add(p+".extra_content.google.thought_signature", tc.Get("extra_content.google.thought_signature"), true)
		add(p+".function.thought_signature", tc.Get("function.thought_signature"), true)
		return true
	})
	msg.Get("content").ForEach(func(i, part gjson.Result) bool {
		if part.Get("type").Str == "thinking" {
			part.Get("thinking").ForEach(func(j, t gjson.Result) bool {
				add(path+".content."+i.String()+".thinking."+j.String()+".text", t.Get("text"), false)
				return true
			})
		}
		return true
	})
}

// acc accumulates the carriers of a stream: text by concatenation, opaque
// values by latest non-empty, each under a key, in first-seen order.
type acc struct {
	order []string
	path  map[string]string
	text  map[string]*strings.Builder
	blob  map[string]string
}

func newAcc() *acc {
	return &acc{path: map[string]string{}, text: map[string]*strings.Builder{}, blob: map[string]string{}}
}

func (a *acc) see(key, path string) {
	if _, ok := a.path[key]; !ok {
		a.order = append(a.order, key)
		a.path[key] = path
	}
}

func (a *acc) addText(key, path, s string) {
	a.see(key, path)
	if a.text[key] == nil {
		a.text[key] = &strings.Builder{}
	}
	a.text[key].WriteString(s)
}

func (a *acc) setBlob(key, path, s string) {
	if s == "" {
		return
	}
	a.see(key, path)
	a.blob[key] = s
}

func (a *acc) carriers() []carrier {
	var out []carrier
	for _, k := range a.order {
		if b := a.text[k]; b != nil && b.Len() > 0 {
			out = append(out, carrier{a.path[k], b.String(), false})
		}
		if s := a.blob[k]; s != "" {
			out = append(out, carrier{a.path[k], s, true})
		}
	}
	return out
}

// streamCarriers reads the decoded events of an SSE stream.
func streamCarriers(mode engine.APIMode, docs []gjson.Result) []carrier {
	a := newAcc()
	calls := 0 // Gemini function-call parts, each its own call
	for _, d := range docs {
		switch mode {
		case engine.ModeChat:
			delta := d.Get("choices.0.delta")
			for _, k := range []string{"reasoning_content", "reasoning", "reasoning_text"} {
				if v := delta.Get(k); v.Type == gjson.String {
					a.addText(k, "stream: "+k, v.Str)
				}
			}
			a.setBlob("reasoning_opaque", "stream: reasoning_opaque", delta.Get("reasoning_opaque").Str)
			a.setBlob("extra", "stream: extra_content.google.thought_signature", delta.Get("extra_content.google.thought_signature").Str)
			delta.Get("reasoning_details").ForEach(func(i, item gjson.Result) bool {
				key := "rd." + i.String()
				if idx := item.Get("index"); idx.Exists() {
					key = "rd." + idx.String()
				}
				p := "stream: reasoning_details index " + strings.TrimPrefix(key, "rd.")
				for _, k := range []string{"text", "summary"} {
					if v := item.Get(k); v.Type == gjson.String {
						a.addText(key+"."+k, p+" "+k, v.Str)
					}
				}
				a.setBlob(key+".signature", p+" signature", item.Get("signature").Str)
				if item.Get("type").Str == "reasoning.encrypted" {
					a.setBlob(key+".data", p+" data", item.Get("data").Str)
				}
				return true
			})
			delta.Get("tool_calls").ForEach(func(_, tc gjson.Result) bool {
				i := tc.Get("index").String()
				a.setBlob("call."+i+".extra", "stream: tool call "+i+" extra_content.google.thought_signature", tc.Get("extra_content.google.thought_signature").Str)
				a.setBlob("call."+i+".fn", "stream: tool call "+i+" function.thought_signature", tc.Get("function.thought_signature").Str)
				return true
			})
			delta.Get("content").ForEach(func(_, part gjson.Result) bool {
				if part.Get("type").Str == "thinking" {
					part.Get("thinking").ForEach(func(_, t gjson.Result) bool {
						a.addText("mistral-thinking", "stream: content thinking chunks", t.Get("text").Str)
						return true
					})
				}
				return true
			})
		case engine.ModeAnthropic:
			i := d.Get("index").String()
			p := "stream: content block " + i
			switch d.Get("type").Str {
			case "content_block_start":
				b := d.Get("content_block")
				switch b.Get("type").Str {
				case "thinking":
					a.addText(i+".thinking", p+" thinking", b.Get("thinking").Str)
					a.setBlob(i+".signature", p+" signature", b.Get("signature").Str)
				case "redacted_thinking":
					a.setBlob(i+".data", p+" data", b.Get("data").Str)
				}
			case "content_block_delta":
				delta := d.Get("delta")
				switch delta.Get("type").Str {
				case "thinking_delta":
					a.addText(i+".thinking", p+" thinking", delta.Get("thinking").Str)
				case "signature_delta":
					a.setBlob(i+".signature", p+" signature", delta.Get("signature").Str)
				}
			}
		case engine.ModeGemini:
			d.Get("candidates.0.content.parts").ForEach(func(_, part gjson.Result) bool {
				sig := part.Get("thoughtSignature").Str
				switch {
				case part.Get("functionCall").Exists():
					key := "call." + strconv.Itoa(calls)
					a.setBlob(key, "parts: functionCall "+strconv.Itoa(calls)+" ("+part.Get("functionCall.name").Str+") thoughtSignature", sig)
					calls++
				case part.Get("thought").Bool():
					a.addText("thoughts", "parts: thought text", part.Get("text").Str)
					a.setBlob("text-signature", "parts: text thoughtSignature (latest)", sig)
				default:
					a.setBlob("text-signature", "parts: text thoughtSignature (latest)", sig)
				}
				return true
			})
		}
	}
	return a.carriers()
}

// converseStreamCarriers decodes a ConverseStream body with the Bedrock
// dialect's frame reader (the decoding, not the accumulation, is shared).
func converseStreamCarriers(body []byte) ([]carrier, error) {
	fr := bedrock.NewFrameReader(bytes.NewReader(body))
	a := newAcc()
	for {
		f, err := fr.Next()
		if err == io.EOF {
			return a.carriers(), nil
		}
		if err != nil {
			return nil, err
		}
		if f.EventType != "contentBlockDelta" {
			continue
		}
		d := gjson.ParseBytes(f.Payload)
		i := d.Get("contentBlockIndex").String()
		p := "stream: content block " + i
		rc := d.Get("delta.reasoningContent")
		if t := rc.Get("text"); t.Type == gjson.String {
			a.addText(i+".text", p+" reasoningContent.text", t.Str)
		}
		a.setBlob(i+".signature", p+" reasoningContent.signature", rc.Get("signature").Str)
		a.setBlob(i+".redacted", p+" reasoningContent.redactedContent", rc.Get("redactedContent").Str)
	}
}
