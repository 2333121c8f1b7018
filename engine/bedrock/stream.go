package bedrock

import (
	"fmt"
	"io"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// CaptureStream reads a ConverseStream response (AWS event-stream frames)
// and returns the stored assistant message; it equals [Dialect.Capture] of
// the same response whole. Blocks accumulate by contentBlockIndex:
// toolUse id and name from contentBlockStart, then text, flat reasoning
// ({"text"}, {"signature"}, {"redactedContent"}) and tool input from
// contentBlockDelta. A stream that ends before messageStop is an error, so
// a block whose signature never arrived is never stored; errors name the
// byte offset of the frame in play.
func (Dialect) CaptureStream(r io.Reader) (engine.Message, error) {
	fr := NewFrameReader(r)
	var blocks []*block
	byIndex := map[int64]*block{}
	frames, stopped := 0, false
	for !stopped {
		f, err := fr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return engine.Message{}, fmt.Errorf("bedrock: stream: %w", err)
		}
		frames++
		if f.EventType == "contentBlockDelta" {
			if idx, reasoning, text, ok := fastDelta(f.Payload); ok {
				b := byIndex[idx]
				if b == nil {
					b = &block{index: idx}
					byIndex[idx] = b
					blocks = append(blocks, b)
				}
				kind := kindText
				if reasoning {
					kind = kindReasoning
				}
				if err := b.setKind(kind); err != nil {
					return engine.Message{}, fmt.Errorf("bedrock: stream: frame at offset %d: %w", f.Offset, err)
				}
				text.WriteTo(&b.text)
				continue
			}
		}
		if !gjson.ValidBytes(f.Payload) {
			return engine.Message{}, fmt.Errorf("bedrock: stream: frame at offset %d (%s): payload is not valid JSON", f.Offset, f.EventType)
		}
		var idx, start, delta gjson.Result
		gjson.ParseBytes(f.Payload).ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case "contentBlockIndex":
				idx = v
			case "start":
				start = v
			case "delta":
				delta = v
			}
			return true
		})
		at := func() (*block, error) {
			if !idx.Exists() {
				return nil, fmt.Errorf("%s without contentBlockIndex", f.EventType)
			}
			b := byIndex[idx.Int()]
			if b == nil {
				b = &block{index: idx.Int()}
				byIndex[idx.Int()] = b
				blocks = append(blocks, b)
			}
			return b, nil
		}
		switch f.EventType {
		case "contentBlockStart":
			b, err := at()
			if err == nil {
				err = b.start(start)
			}
			if err != nil {
				return engine.Message{}, fmt.Errorf("bedrock: stream: frame at offset %d: %w", f.Offset, err)
			}
		case "contentBlockDelta":
			b, err := at()
			if err == nil {
				err = b.delta(delta)
			}
			if err != nil {
				return engine.Message{}, fmt.Errorf("bedrock: stream: frame at offset %d: %w", f.Offset, err)
			}
		case "messageStop":
			stopped = true
		}
	}
	if frames == 0 {
		return engine.Message{}, fmt.Errorf("bedrock: stream: no frames before the end at offset %d", fr.Offset())
	}
	if !stopped {
		return engine.Message{}, fmt.Errorf("bedrock: stream: ended at offset %d before messageStop (truncated)", fr.Offset())
	}
	m, err := turn(blocks)
	if err != nil {
		return engine.Message{}, fmt.Errorf("bedrock: stream ending at offset %d: %w", fr.Offset(), err)
	}
	return m, nil
}
