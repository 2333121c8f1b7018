package engine_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/chat"
	"github.com/replaycheck/replaycheck/matrix"
)

// Example walks one round trip: decide, shape, send (a fake provider that
// answers with reasoning), capture, and shape the next turn.
func Example() {
	f, err := matrix.Load("../matrix.yaml")
	if err != nil {
		panic(err)
	}
	route := engine.Route{APIMode: engine.ModeChat, Provider: "deepseek", BaseURL: "https://api.deepseek.com/v1", Model: "deepseek-v4-flash"}
	session := &engine.Session{Messages: []engine.Message{{Role: "user", Content: json.RawMessage(`"Why is the test flaky?"`)}}}
	provider := func(_ context.Context, path string, body []byte) (int, []byte, error) {
		return 200, []byte(`{"choices":[{"message":{"role":"assistant","content":"The TTL is 0.","reasoning_content":"Check the cache TTL."}}]}`), nil
	}
	e := &engine.Engine{Table: &f.Table}
	res, err := e.Turn(context.Background(), session, route, chat.Dialect{}, engine.Request{}, provider)
	if err != nil {
		panic(err)
	}
	fmt.Println("sent:", res.Exchanges[0].Carried)
	fmt.Println("captured:", *res.Message.ReasoningContent)

	session.Messages = append(session.Messages, engine.Message{Role: "user", Content: json.RawMessage(`"And now?"`)})
	next, _ := chat.Dialect{}.Shape(session, f.Table.Decide(route, 0), engine.Request{})
	fmt.Println(string(next))
	// Output:
	// sent: []
	// captured: Check the cache TTL.
	// {"model":"deepseek-v4-flash","messages":[{"role":"user","content":"Why is the test flaky?"},{"role":"assistant","content":"The TTL is 0.","reasoning_content":"Check the cache TTL."},{"role":"user","content":"And now?"}]}
}
