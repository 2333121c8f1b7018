package engine_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

func TestEachAssistantBlock(t *testing.T) {
	body := []byte(`{"messages":[{"role":"user","content":[{"type":"text","text":"u"}]},` +
		`{"role":"assistant","content":[{"type":"thinking"},{"type":"tool_use"}]},` +
		`{"role":"assistant","content":"plain"},{"role":"assistant","content":[{"type":"text"}]}]}`)
	var got []string
	engine.EachAssistantBlock(body, func(b gjson.Result) { got = append(got, b.Get("type").Str) })
	if strings.Join(got, ",") != "thinking,tool_use,text" {
		t.Errorf("blocks %v: want the assistant blocks in order, no user block, a string content skipped", got)
	}
}
