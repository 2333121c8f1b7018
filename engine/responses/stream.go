package responses

import (
	"bytes"
	"fmt"
	"io"
	"slices"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/layout"
	"github.com/replaycheck/replaycheck/engine/sse"
	"github.com/tidwall/gjson"
)

// CaptureStream reads a streamed response (SSE: "event: response.…" lines,
// or data lines alone, optionally ending in "data: [DONE]") and returns
// the stored assistant message; it equals [Dialect.Capture] of the same
// response whole.
//
// The stream's last word wins: the output of response.completed (or
// response.incomplete) when it has items, else the items of the
// response.output_item.done events in output_index order. Relays differ in
// where a reasoning item's opaque fields arrive (OpenAI's finished item
// carries encrypted_content; OpenRouter's final response carries a
// signature its finished item lacks), and the final response is the
// response as a whole capture would see it. Delta events
// (response.reasoning_summary_text.delta, response.output_text.delta,
// response.function_call_arguments.delta, …) repeat text their finished
// item carries whole, so they are checked, not kept: each must be valid
// JSON and belong to an item opened by response.output_item.added and not
// yet done. A stream that ends before response.completed, that holds
// response.failed or an error event, or that leaves an item unfinished
// without a final output, is an error; errors name the byte offset of the
// event in play.
func (dl Dialect) CaptureStream(r io.Reader) (engine.Message, error) {
	return dl.captureStream(r, layout.NewCache[int64](eventReads...))
}

// eventReads are the top-level keys of an event the capture reads.
var eventReads = []string{"type", "output_index", "item", "response", "delta", "error", "code", "message"}

// captureStream is CaptureStream with the delta layouts it may learn and
// match; with none, every event takes the general path.
func (dl Dialect) captureStream(r io.Reader, known *layout.Cache[int64]) (engine.Message, error) {
	s := streamState{known: known, open: map[int64]bool{}, done: map[int64]string{}}
	rd := sse.NewReader(r)
	for !s.completed {
		ev, err := rd.NextRaw()
		if err == io.EOF {
			break
		}
		if err != nil {
			return engine.Message{}, fmt.Errorf("responses: stream: %w", err)
		}
		raw := bytes.TrimSpace(ev.Data)
		if string(raw) == "[DONE]" {
			break
		}
		if err := s.event(raw, ev.Offset); err != nil {
			return engine.Message{}, fmt.Errorf("responses: stream: %w", err)
		}
	}
	items, err := s.items(rd.Offset())
	if err != nil {
		return engine.Message{}, fmt.Errorf("responses: stream: %w", err)
	}
	m, err := dl.turn(items)
	if err != nil {
		return engine.Message{}, fmt.Errorf("responses: stream ending at offset %d: %w", rd.Offset(), err)
	}
	return m, nil
}

// streamState follows the events of one streamed response.
type streamState struct {
	known *layout.Cache[int64] // nil: every event takes the general path
	// open holds the output indexes added and not yet done; done the
	// events of the finished items by output index (their items are read
	// only when the final response has no output to supersede them).
	open      map[int64]bool
	done      map[int64]string
	output    []string // the final response's output items
	events    int
	completed bool
}

// event applies one event's JSON data; off is its byte offset. raw is only
// read during the call.
func (s *streamState) event(raw []byte, off int64) error {
	s.events++
	if s.known != nil {
		if idx, _, ok := s.known.Match(raw); ok {
			// A delta with a learnt layout: its item was open when the
			// layout was learnt, and must still be.
			if !s.open[idx] {
				return fmt.Errorf("event at offset %d: delta for output item %d, which is not open", off, idx)
			}
			return nil
		}
	}
	data := string(raw)
	if !gjson.Valid(data) {
		return fmt.Errorf("event at offset %d: data is not valid JSON", off)
	}
	// The events that carry whole items are read by path, so that their
	// large values are scanned as few times as possible; the others in
	// one pass over their members.
	switch typ := gjson.Get(data, "type").Str; typ {
	case "response.output_item.done":
		return s.itemDone(data, off)
	case "response.completed", "response.incomplete":
		return s.final(data, typ, off)
	}
	var typ string
	var index, item, resp, delta gjson.Result
	reads := 0
	gjson.Parse(data).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "type":
			typ = v.Str
		case "output_index":
			index = v
		case "item":
			item = v
		case "response":
			resp = v
		case "delta":
			delta = v
		case "error", "code", "message":
		default:
			return true
		}
		reads++
		return true
	})
	switch typ {
	case "error":
		return fmt.Errorf("event at offset %d is an error: %s", off, data)
	case "response.failed":
		return fmt.Errorf("event at offset %d: the response failed: %s", off, resp.Get("error").Raw)
	case "response.output_item.added":
		idx, err := outputIndex(index, off)
		if err != nil {
			return err
		}
		if _, done := s.done[idx]; s.open[idx] || done {
			return fmt.Errorf("event at offset %d: output item %d added twice", off, idx)
		}
		if err := checkItem(item); err != nil {
			return fmt.Errorf("event at offset %d: item: %w", off, err)
		}
		s.open[idx] = true
	default:
		if !delta.Exists() || !index.Exists() {
			return nil // lifecycle and *.done events: nothing to keep
		}
		idx, err := outputIndex(index, off)
		if err != nil {
			return err
		}
		if !s.open[idx] {
			return fmt.Errorf("event at offset %d: %s for output item %d, which is not open", off, typ, idx)
		}
		if s.known != nil && reads == 3 && delta.Type == gjson.String {
			// type, output_index and delta once each, nothing else read
			s.known.Learn(data, delta, delta.Index+len(delta.Raw), idx)
		}
	}
	return nil
}

// itemDone applies a response.output_item.done event. The finished item
// is kept in its event and read only if the final response has no output.
func (s *streamState) itemDone(data string, off int64) error {
	idx, err := outputIndex(gjson.Get(data, "output_index"), off)
	if err != nil {
		return err
	}
	if !s.open[idx] {
		return fmt.Errorf("event at offset %d: output item %d done without being added (or done twice)", off, idx)
	}
	if t := gjson.Get(data, "item.type"); t.Type != gjson.String || t.Str == "" {
		return fmt.Errorf("event at offset %d: item: want an output item object with its type", off)
	}
	delete(s.open, idx)
	s.done[idx] = data
	return nil
}

// final applies response.completed (or response.incomplete): the response
// as a whole capture would see it.
func (s *streamState) final(data, typ string, off int64) error {
	output := gjson.Get(data, "response.output")
	if !output.Exists() && !gjson.Get(data, "response").IsObject() {
		return fmt.Errorf("event at offset %d: %s without a response object", off, typ)
	}
	items, err := responseItems(gjson.Get(data, "response.error"), gjson.Get(data, "response.status"), output, "response.")
	if err != nil {
		return fmt.Errorf("event at offset %d: %w", off, err)
	}
	s.output = items
	s.completed = true
	return nil
}

// outputIndex reads an event's output_index: a non-negative integer.
func outputIndex(v gjson.Result, off int64) (int64, error) {
	if v.Type != gjson.Number || v.Num < 0 || v.Num != float64(int64(v.Num)) {
		return 0, fmt.Errorf("event at offset %d: output_index: want a non-negative integer, got %s", off, kind(v))
	}
	return int64(v.Num), nil
}

// items returns the items of the stream; end is where it ended, for the
// error of a truncated stream.
func (s *streamState) items(end int64) ([]string, error) {
	switch {
	case s.events == 0:
		return nil, fmt.Errorf("no events before the end at offset %d", end)
	case !s.completed:
		return nil, fmt.Errorf("ended at offset %d before response.completed (truncated)", end)
	case len(s.output) > 0:
		return s.output, nil
	}
	if len(s.open) > 0 {
		var idx []int64
		for i := range s.open {
			idx = append(idx, i)
		}
		slices.Sort(idx)
		return nil, fmt.Errorf("output item %d never finished, and the final response before the end at offset %d has no output", idx[0], end)
	}
	idx := make([]int64, 0, len(s.done))
	for i := range s.done {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	items := make([]string, len(idx))
	for k, i := range idx {
		it, err := compact(gjson.Get(s.done[i], "item").Raw)
		if err != nil {
			return nil, fmt.Errorf("output item %d: %w", i, err)
		}
		items[k] = it
	}
	return items, nil
}
