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
// Bedrock Converse (each line one {"<eventType>": payload} object). A
// fixture may hold several complete streams one after another (a test of
// a multi-step call): each becomes its own exchange ([splitStreams]).
func readAISDKChunks(file string, data []byte) (*Recording, error) {
	fail := func(err error) (*Recording, error) { return nil, interactionError(file, 0, err) }
	var events []gjson.Result
	var mode engine.APIMode
	err := jsonLines(data, func(line int, ev gjson.Result) error {
		if !ev.IsObject() {
			return fmt.Errorf("line %d: a stream event is a JSON object, got %s", line, ev.Type)
		}
		if m, _, ok := modeOfEvent(ev); ok {
			if mode == "" {
				mode = m
			} else if m != mode {
				return fmt.Errorf("line %d: a %s event in a %s stream", line, m, mode)
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
	rec := &Recording{Path: file, Format: FormatAISDKChunks}
	for i, stream := range splitStreams(mode, events) {
		model := ""
		for _, ev := range stream {
			if _, mod, ok := modeOfEvent(ev); ok && mod != "" {
				model = mod
				break
			}
		}
		body, ct, err := frameEvents(mode, stream)
		if err != nil {
			return nil, interactionError(file, i, err)
		}
		h := http.Header{}
		h.Set("Content-Type", ct)
		rec.Exchanges = append(rec.Exchanges, Exchange{Index: i, Status: http.StatusOK, ResponseHeaders: h, ResponseBody: body,
			Mode: mode, Model: model, Stream: true, Vendor: vendorOf(stream)})
	}
	return rec, nil
}

// splitStreams cuts a fixture's events into the complete streams it holds.
// A new stream begins at an event that only opens a stream — Responses'
// response.created, Anthropic's message_start — once an earlier event was
// seen, or where a Responses sequence_number goes back (each stream counts
// from 0). Chat, Gemini and Converse chunks carry no such mark and stay
// one stream.
func splitStreams(mode engine.APIMode, events []gjson.Result) [][]gjson.Result {
	var out [][]gjson.Result
	start, last := 0, int64(-1)
	for i, ev := range events {
		opens := false
		switch mode {
		case engine.ModeResponses:
			seq := ev.Get("sequence_number")
			opens = ev.Get("type").Str == "response.created" || (seq.Exists() && seq.Int() <= last)
			if seq.Exists() {
				last = seq.Int()
			}
		case engine.ModeAnthropic:
			opens = ev.Get("type").Str == "message_start"
		}
		if opens && i > start {
			out = append(out, events[start:i])
			start = i
		}
	}
	return append(out, events[start:])
}

// vendorOf names the provider whose own marks an answer carries, "" when
// it carries none: Azure OpenAI writes its content-filter verdicts into
// every answer (content_filters on a Responses object, prompt_filter_results
// and content_filter_results on a chat completion), which OpenAI's own API
// never does (learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter;
// the Azure Responses streams of vercel/ai packages/azure).
func vendorOf(events []gjson.Result) string {
	for _, ev := range events {
		for _, p := range []string{"content_filters", "response.content_filters", "prompt_filter_results"} {
			if ev.Get(p).Exists() {
				return "azure"
			}
		}
		if len(ev.Get("choices.#.content_filter_results").Array()) > 0 {
			return "azure"
		}
	}
	return ""
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
		Vendor: vendorOf([]gjson.Result{gjson.ParseBytes(body)}),
	}}}, nil
}
