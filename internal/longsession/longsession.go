// Package longsession generates the long agent session the speed budgets
// are measured on (DESIGN.md "Budgets"): a user message, then per tool
// turn an assistant message with about 10 KB of reasoning in each of
// reasoning_content, reasoning and one signed reasoning_details item, a
// tool call, and the tool's result. Two thousand turns make about 67 MB.
// The bytes are deterministic and never committed: tests build them.
package longsession

import (
	"fmt"
	"strconv"
	"strings"
)

// Turns is the number of tool turns of the budget session.
const Turns = 2000

// ReasoningBytes is about how much reasoning text each carrier holds per
// turn in the budget session.
const ReasoningBytes = 10 << 10

// Generate returns a session document ({"id":…,"messages":[…]}, one
// message per line) of turns tool turns with about reasoning bytes of
// reasoning text per carrier and turn. The text has paragraph breaks,
// quotes and non-ASCII letters, as real reasoning does, so that string
// bodies hold escapes.
func Generate(turns, reasoning int) []byte {
	var b strings.Builder
	b.Grow(turns * (3*reasoning + 2048))
	b.WriteString("{\"id\":\"long-session\",\"messages\":[\n")
	b.WriteString(`{"role":"system","content":"You are a coding agent. Use the tools."},` + "\n")
	b.WriteString(`{"role":"user","content":"Refactor the parser and run the tests after each step."}`)
	for t := range turns {
		text := quoted(reasoningText(t, reasoning))
		id := "call_" + strconv.Itoa(t)
		fmt.Fprintf(&b, ",\n"+`{"role":"assistant","content":"","tool_calls":[{"id":%q,"type":"function","function":{"name":"run","arguments":"{\"cmd\":\"go test ./... -run Test%d\"}"}}],"reasoning_content":%s,"reasoning":%s,"reasoning_details":[{"type":"reasoning.text","text":%s,"signature":%q,"format":"anthropic-claude-v1","index":0}]}`,
			id, t, text, text, text, signature(t))
		fmt.Fprintf(&b, ",\n"+`{"role":"tool","tool_call_id":%q,"content":"ok  \tgithub.com/example/parser\t0.%03ds\n--- PASS: Test%d (0.00s)"}`, id, t%1000, t)
	}
	b.WriteString("\n]}\n")
	return []byte(b.String())
}

// Budget returns the budget session: [Turns] turns of [ReasoningBytes].
func Budget() []byte { return Generate(Turns, ReasoningBytes) }

// words are what the reasoning text is made of.
var words = strings.Fields(`the parser reads each token once and the scanner keeps its position
so an error names the line and column; I should check whether "escaped" quotes survive
the round trip — naïve code would decode them twice. Let me look at the test for
ParseSession, then the store, then the connector's framing. café résumé 検証 ✓`)

// reasoningText returns about n bytes of prose for turn t: words in a
// turn-dependent order, a paragraph break every few sentences.
func reasoningText(t, n int) string {
	var b strings.Builder
	b.Grow(n + 64)
	seed := uint32(t)*2654435761 + 1
	for i := 0; b.Len() < n; i++ {
		seed = seed*1664525 + 1013904223
		w := words[int(seed>>8)%len(words)]
		switch {
		case i == 0:
		case i%97 == 0:
			b.WriteString("\n\n")
		case i%13 == 0:
			b.WriteString(". ")
		default:
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// signature returns a deterministic base64-looking signature for turn t.
func signature(t int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var b strings.Builder
	seed := uint32(t)*2246822519 + 7
	for range 344 {
		seed = seed*1664525 + 1013904223
		b.WriteByte(alphabet[seed>>26])
	}
	return "Ep" + b.String() + "=="
}

// quoted returns s as a JSON string (newlines, quotes and backslashes
// escaped; other characters as they are).
func quoted(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
