package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/internal/longsession"
	"github.com/tidwall/gjson"
)

// BenchmarkParseSessionLong is the session-parsing budget (DESIGN.md
// "Budgets"): the 2,000-turn, 67 MB session, validated and parsed once.
func BenchmarkParseSessionLong(b *testing.B) {
	doc := longsession.Budget()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := engine.ParseSession(doc)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Messages) != 2+2*longsession.Turns {
			b.Fatalf("%d messages", len(s.Messages))
		}
	}
}

// BenchmarkParseSessionQuotedLong is the parse `replaycheck shape` and
// the connector do: the same session, its raw values sharing the
// document, its reasoning strings' JSON forms kept, and the long ones
// checked and decoded on every core.
func BenchmarkParseSessionQuotedLong(b *testing.B) {
	doc := longsession.Budget()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		q := new(engine.QuotedStrings)
		if _, err := engine.ParseSessionQuoted(doc, q); err != nil {
			b.Fatal(err)
		}
		if q.Len() != 2*longsession.Turns {
			b.Fatalf("%d forms kept", q.Len())
		}
	}
}

// The benchmarks below are the comparison ParseSession was chosen by:
// what validating alone costs with encoding/json and gjson, and a parse
// of the same fields with gjson (Valid, then a walk that unescapes the
// reasoning strings and keeps the raw values).

func BenchmarkCompareEncodingJSONValidLong(b *testing.B) {
	doc := longsession.Budget()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if !json.Valid(doc) {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkCompareGJSONValidLong(b *testing.B) {
	doc := longsession.Budget()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if !gjson.ValidBytes(doc) {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkCompareGJSONParseLong(b *testing.B) {
	doc := longsession.Budget()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if !gjson.ValidBytes(doc) {
			b.Fatal("invalid")
		}
		var msgs []engine.Message
		gjson.GetBytes(doc, "messages").ForEach(func(_, v gjson.Result) bool {
			var m engine.Message
			v.ForEach(func(k, v gjson.Result) bool {
				switch k.Str {
				case "role":
					m.Role = v.String()
				case "content":
					m.Content = json.RawMessage(v.Raw)
				case "reasoning_content":
					m.ReasoningContent = engine.Str(v.String())
				case "reasoning":
					m.Reasoning = engine.Str(v.String())
				case "reasoning_details":
					v.ForEach(func(_, d gjson.Result) bool {
						m.ReasoningDetails = append(m.ReasoningDetails, json.RawMessage(d.Raw))
						return true
					})
				}
				return true
			})
			msgs = append(msgs, m)
			return true
		})
		if len(msgs) != 2+2*longsession.Turns {
			b.Fatalf("%d messages", len(msgs))
		}
	}
}
