package importer

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// Vercel AI SDK fixtures (vercel/ai packages/<provider>/src/__fixtures__)
// hold a provider's answer only: *.chunks.txt one stream event per line,
// SSE (or event-stream) framing stripped, and *.json a whole non-streamed
// response. The request was never recorded, so the exchange is
// response-only: its api mode and model are read from the events, and
// only capture can be checked on it.

// readAISDKChunks reads a *.chunks.txt fixture and frames its events the
// way the provider sends them: data: lines for chat and Gemini, named
// event: lines for Anthropic and Responses, AWS event-stream frames for
// Bedrock Converse (each line one {"<eventType>": payload} object).
func readAISDKChunks(file string, data []byte) (*Recording, error) {
	fail := func(err error) (*Recording, error) { return nil, interactionError(file, 0, err) }
	var events []gjson.Result
	var mode engine.APIMode
	model := ""
	err := jsonLines(data, func(line int, ev gjson.Result) error {
		if !ev.IsObject() {
			return fmt.Errorf("line %d: a stream event is a JSON object, got %s", line, ev.Type)
		}
		if m, mod, ok := modeOfEvent(ev); ok {
			if mode == "" {
				mode = m
			} else if m != mode {
				return fmt.Errorf("line %d: a %s event in a %s stream", line, m, mode)
			}
			if model == "" {
				model = mod
			}
		}
		events = append(events, ev)
		return nil
	})
	if err != nil {
		return fail(err)
	}
	if len(events) == 0 {
		return fail(errors.New("no stream events"))
	}
	if mode == "" {
		return fail(errors.New("no event shows the api mode (want chat choices, Anthropic, Bedrock Converse, Gemini or Responses events)"))
	}
	body, ct, err := frameEvents(mode, events)
	if err != nil {
		return fail(err)
	}
	h := http.Header{}
	h.Set("Content-Type", ct)
	return &Recording{Path: file, Format: FormatAISDKChunks, Exchanges: []Exchange{{
		Status: http.StatusOK, ResponseHeaders: h, ResponseBody: body, Mode: mode, Model: model, Stream: true,
	}}}, nil
}

// frameEvents writes the events with the provider's stream framing and
// returns the body and its content type.
func frameEvents(mode engine.APIMode, events []gjson.Result) ([]byte, string, error) {
	var b bytes.Buffer
	switch mode {
	case engine.ModeBedrockConverse:
		enc := eventstream.NewEncoder()
		for i, ev := range events {
			n := 0
			var err error
			ev.ForEach(func(k, v gjson.Result) bool {
				n++
				var hs eventstream.Headers
				hs.Set(":event-type", eventstream.StringValue(k.Str))
				hs.Set(":content-type", eventstream.StringValue("application/json"))
				hs.Set(":message-type", eventstream.StringValue("event"))
				err = enc.Encode(&b, eventstream.Message{Headers: hs, Payload: []byte(v.Raw)})
				return err == nil
			})
			if err != nil {
				return nil, "", fmt.Errorf("event %d: %w", i, err)
			}
			if n != 1 {
				return nil, "", fmt.Errorf("event %d: a Converse stream event is one {\"<eventType>\": payload} member, got %d", i, n)
			}
		}
		return b.Bytes(), "application/vnd.amazon.eventstream", nil
	case engine.ModeAnthropic, engine.ModeResponses:
		for _, ev := range events {
			b.WriteString("event: " + ev.Get("type").Str + "\ndata: " + ev.Raw + "\n\n")
		}
	case engine.ModeGemini:
		for _, ev := range events {
			b.WriteString("data: " + ev.Raw + "\r\n\r\n")
		}
	default:
		for _, ev := range events {
			b.WriteString("data: " + ev.Raw + "\n\n")
		}
		b.WriteString("data: [DONE]\n\n")
	}
	return b.Bytes(), "text/event-stream", nil
}

// readAISDKJSON reads a whole-response *.json fixture.
func readAISDKJSON(file string, data []byte) (*Recording, error) {
	body, err := compactJSON(data)
	if err != nil {
		return nil, interactionError(file, 0, err)
	}
	mode, model, ok := modeOfEvent(gjson.ParseBytes(body))
	if !ok {
		return nil, interactionError(file, 0, errors.New("the response's shape shows no api mode (want a chat completion, an Anthropic message, a Converse output, Gemini candidates or a Responses object)"))
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	return &Recording{Path: file, Format: FormatAISDKJSON, Exchanges: []Exchange{{
		Status: http.StatusOK, ResponseHeaders: h, ResponseBody: data, Mode: mode, Model: model,
	}}}, nil
}
