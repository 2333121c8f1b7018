package sim

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkLargeSession answers a 3,000-message chat request carrying about
// 10 MB of replayed reasoning, checked by two rules.
func BenchmarkLargeSession(b *testing.B) {
	reasoning := strings.Repeat("x", 10000)
	msgs := make([]string, 0, 3000)
	for i := 0; i < 1000; i++ {
		msgs = append(msgs, user("q"), asst(`,"reasoning_content":"`+reasoning+` [memo:0000000`+string(rune('0'+i%10))+`]"`+toolCalls), toolResult())
	}
	body := chatBody("deepseek-v4", msgs...)
	c := cond("tool_turn_field_missing", "reasoning_content")
	c.BlankIsMissing = true
	s := newSim(b, profile("big", modeChat, []string{"reasoning_content"}, withRule(c), withRule(cond("assistant_field_present", "reasoning"), rename("b"))), testSeed)
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(body)))
		if rec.Code != 200 {
			b.Fatalf("status %d", rec.Code)
		}
	}
}
