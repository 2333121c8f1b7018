package sim

import (
	"crypto/hmac"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
)

// Responses condition fields: the parts of a reasoning input item.
const (
	respEncrypted = "reasoning.encrypted_content"
	respSignature = "reasoning.signature"
)

func responsesSupports(c providers.Condition) error {
	switch c.Kind {
	case providers.ConditionReasoningWithoutFollower, providers.ConditionItemWithoutReasoning, providers.ConditionToolOutputMissing:
		return nil
	case providers.ConditionSignatureInvalid, providers.ConditionSignatureMissing:
		if c.Field == respEncrypted || c.Field == respSignature {
			return nil
		}
	case providers.ConditionSealedBlobForeign:
		if c.Field == respEncrypted {
			return nil
		}
	}
	return unsupported(modeResponses, c)
}

// Item ids the simulator issues: a turn's reasoning item and the item it
// led to share a pair id, "rs_<pair>" and "fc_<pair>" or "msg_<pair>",
// where pair is 12 hex of the request digest and 12 hex of their HMAC, so
// the simulator recognises its own pairs (and nobody else's) when they
// come back.
func (g signer) pairID(digest string) string {
	nonce := digest[:12]
	return nonce + hex.EncodeToString(g.mac("item-pair", nonce))[:12]
}

// ownPair returns the pair id of an item id the simulator issued with
// prefix ("rs_", "fc_", "msg_"), or "".
func (g signer) ownPair(id, prefix string) string {
	pair, ok := strings.CutPrefix(id, prefix)
	if !ok || len(pair) != 24 {
		return ""
	}
	want := hex.EncodeToString(g.mac("item-pair", pair[:12]))[:12]
	if !hmac.Equal([]byte(pair[12:]), []byte(want)) {
		return ""
	}
	return pair
}

// followerPrefixes are the prefixes of the items a reasoning item leads to.
var followerPrefixes = []string{"fc_", "msg_"}

// responsesCheck evaluates a condition over a Responses request's input.
func responsesCheck(s *Simulator, q *request, c providers.Condition) (hit, bool) {
	items := q.root.Get("input").Array()
	at := func(i int, path string) hit {
		it := items[i]
		id := it.Get("id").Str
		if id == "" {
			id = it.Get("call_id").Str
		}
		typ := it.Get("type").Str
		if typ == "" {
			typ = "message"
		}
		return hit{index: i, field: c.Field, path: path, item: id, itemType: typ}
	}
	for i, it := range items {
		typ := it.Get("type").Str
		switch c.Kind {
		case providers.ConditionReasoningWithoutFollower:
			pair := s.g.ownPair(it.Get("id").Str, "rs_")
			if typ != "reasoning" || pair == "" {
				continue
			}
			if i+1 >= len(items) || !pairedFollower(s.g, items[i+1], pair) {
				return at(i, fmt.Sprintf("input.%d", i)), true
			}
		case providers.ConditionItemWithoutReasoning:
			for _, pre := range followerPrefixes {
				pair := s.g.ownPair(it.Get("id").Str, pre)
				if pair == "" {
					continue
				}
				if i == 0 || items[i-1].Get("type").Str != "reasoning" || items[i-1].Get("id").Str != "rs_"+pair {
					h := at(i, fmt.Sprintf("input.%d", i))
					h.ref = "rs_" + pair
					return h, true
				}
			}
		case providers.ConditionToolOutputMissing:
			if typ == "function_call" && !answeredAfter(items, i) {
				h := at(i, fmt.Sprintf("input.%d", i))
				h.item = it.Get("call_id").Str
				return h, true
			}
		default:
			if typ != "reasoning" {
				continue
			}
			if h, ok := checkReasoningItem(s, q, c, it); ok {
				hh := at(i, fmt.Sprintf("input.%d.%s", i, strings.TrimPrefix(c.Field, "reasoning.")))
				hh.field = h
				return hh, true
			}
		}
	}
	return hit{}, false
}

// checkReasoningItem evaluates a signature condition on one reasoning
// item; it returns the field in play.
func checkReasoningItem(s *Simulator, q *request, c providers.Condition, it gjson.Result) (string, bool) {
	enc, sig := it.Get("encrypted_content"), it.Get("signature")
	switch {
	case c.Field == respEncrypted && c.Kind == providers.ConditionSignatureMissing:
		return c.Field, enc.Type != gjson.String || enc.Str == ""
	case c.Field == respEncrypted && c.Kind == providers.ConditionSignatureInvalid:
		if enc.Type == gjson.String && enc.Str != "" {
			t, parsed := s.g.decrypt(enc.Str)
			return c.Field, !parsed || !t.genuine
		}
	case c.Field == respEncrypted && c.Kind == providers.ConditionSealedBlobForeign:
		if t, _ := s.g.decrypt(enc.Str); t.genuine && t.model != q.model {
			return c.Field, true
		}
	case c.Field == respSignature && c.Kind == providers.ConditionSignatureMissing:
		return c.Field, readableText(it) != "" && sig.Str == ""
	case c.Field == respSignature && c.Kind == providers.ConditionSignatureInvalid:
		return c.Field, sig.Type == gjson.String && sig.Str != "" && !s.g.verify(readableText(it), sig.Str)
	}
	return "", false
}

// pairedFollower reports whether item is the one the simulator issued
// after the reasoning item of pair.
func pairedFollower(g signer, item gjson.Result, pair string) bool {
	for _, pre := range followerPrefixes {
		if g.ownPair(item.Get("id").Str, pre) == pair {
			return true
		}
	}
	return false
}

// answeredAfter reports whether the function_call at i is answered by its
// function_call_output before the next item that is neither a call, a
// reasoning item nor an output.
func answeredAfter(items []gjson.Result, i int) bool {
	id := items[i].Get("call_id").Str
	for _, it := range items[i+1:] {
		switch it.Get("type").Str {
		case "function_call_output":
			if it.Get("call_id").Str == id {
				return true
			}
		case "function_call", "reasoning":
		default:
			return false
		}
	}
	return false
}

// readableText joins the reasoning_text content of a reasoning item.
func readableText(it gjson.Result) string {
	var b strings.Builder
	it.Get("content").ForEach(func(_, part gjson.Result) bool {
		if part.Get("type").Str == "reasoning_text" {
			b.WriteString(part.Get("text").Str)
		}
		return true
	})
	return b.String()
}

// isUserItem reports whether an input item is a user message.
func isUserItem(it gjson.Result) bool {
	t := it.Get("type").Str
	return it.Get("role").Str == "user" && (t == "" || t == "message")
}

// responsesRead extracts the conversation of a Responses request. The
// reasoning a model sees again is a reasoning item's encrypted content
// when it decrypts (the summary is only a summary of it), else the item's
// readable content.
func responsesRead(s *Simulator, q *request) conversation {
	items := q.root.Get("input").Array()
	c := conversation{lastUser: -1}
	for i, it := range items {
		if isUserItem(it) {
			c.lastUser = i
		}
	}
	if c.lastUser >= 0 {
		content := items[c.lastUser].Get("content")
		if content.Type == gjson.String {
			c.userText = content.Str
		} else {
			var texts []string
			content.ForEach(func(_, part gjson.Result) bool {
				if t := part.Get("text"); t.Type == gjson.String {
					texts = append(texts, t.Str)
				}
				return true
			})
			c.userText = strings.Join(texts, "\n")
		}
		c.endsWithUser = c.lastUser == len(items)-1
	}
	for _, tool := range q.root.Get("tools").Array() {
		if tool.Get("type").Str == "function" {
			c.hasTools = true
			c.toolName = tool.Get("name").String()
			break
		}
	}
	for i, it := range items {
		if it.Get("type").Str != "reasoning" {
			continue
		}
		text := ""
		if t, _ := s.g.decrypt(it.Get("encrypted_content").Str); t.genuine {
			text = t.text
		} else {
			text = readableText(it)
		}
		if text != "" {
			c.replayed = append(c.replayed, replayed{i, "reasoning", text})
		}
	}
	return c
}
