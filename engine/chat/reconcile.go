package chat

import (
	"encoding/json"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// Reshape reconciles an already-built request body with a new decision
// (SPEC §3.2): each wire message is re-shaped with itself as the source, so
// keys the new route does not read are removed and the pad is re-applied
// where the new route needs it. Text already removed from the wire copy
// cannot come back. Reconciling twice changes nothing the second time.
func (Dialect) Reshape(body []byte, _ *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	msgs, err := WireMessages(body)
	if err != nil {
		return nil, err
	}
	return AppendRequest(make([]byte, 0, len(body)), msgs, d, req)
}

// WireMessages decodes the messages of a chat request body.
func WireMessages(body []byte) ([]engine.Message, error) {
	if !gjson.ValidBytes(body) {
		return nil, engine.NotJSON("chat: request body", body)
	}
	arr := gjson.GetBytes(body, "messages")
	if !arr.IsArray() {
		return nil, fmt.Errorf("chat: request body has no messages array")
	}
	var msgs []engine.Message
	var err error
	arr.ForEach(func(k, v gjson.Result) bool {
		var m engine.Message
		if err = json.Unmarshal([]byte(v.Raw), &m); err != nil {
			err = fmt.Errorf("chat: messages.%d: %w", k.Int(), err)
			return false
		}
		msgs = append(msgs, m)
		return true
	})
	return msgs, err
}
