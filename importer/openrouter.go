package importer

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// The files of an OpenRouter ai-sdk-provider e2e fixture directory
// (OpenRouterTeam/ai-sdk-provider e2e/__fixtures__/<id>/).
const (
	openRouterRequest  = "request.json"
	openRouterResponse = "response.jsonl"
	openRouterMeta     = "response.meta.json"
)

// OpenRouterFiles are the three files one fixture directory holds.
var OpenRouterFiles = []string{openRouterRequest, openRouterResponse, openRouterMeta}

// readOpenRouterE2E reads a fixture directory: request.json
// ({url, method, headers, body: {json: …} or {text: …}}), response.jsonl
// (one {"json": event}, {"text": piece}, {"delay_ms": n} or
// {"comment": text} per line; delays are dropped, since replay never
// sleeps, comments are SSE comment text kept as sent, and text pieces are
// the parts of an event's data that arrived in separate chunks, joined
// until they form one JSON value or [DONE]) and response.meta.json
// ({status, headers, is_sse, is_binary, cached_at}). An SSE answer becomes
// its data: lines and comments in order; any other answer is its one JSON
// value.
func readOpenRouterE2E(dir string) (*Recording, error) {
	var e Exchange
	reqPath := filepath.Join(dir, openRouterRequest)
	req, err := readJSONFile(reqPath)
	if err != nil {
		return nil, interactionError(reqPath, 0, err)
	}
	e.Method, e.URL = req.Get("method").Str, req.Get("url").Str
	if e.Method == "" || e.URL == "" {
		return nil, interactionError(reqPath, 0, errors.New("request needs method and url"))
	}
	e.RequestHeaders = jsonHeaders(req.Get("headers"))
	switch body := req.Get("body"); {
	case body.Get("json").Exists():
		e.RequestBody, _ = compactJSON([]byte(body.Get("json").Raw))
	case body.Get("text").Type == gjson.String:
		e.RequestBody = []byte(body.Get("text").Str)
	case body.Type == gjson.String:
		e.RequestBody = []byte(body.Str)
	case body.Exists() && body.Type != gjson.Null:
		return nil, interactionError(reqPath, 0, errors.New("body: want {json: …}, {text: …} or a string"))
	}

	metaPath := filepath.Join(dir, openRouterMeta)
	meta, err := readJSONFile(metaPath)
	if err != nil {
		return nil, interactionError(metaPath, 0, err)
	}
	e.Status = int(meta.Get("status").Int())
	if e.Status < 100 || e.Status > 599 {
		return nil, interactionError(metaPath, 0, fmt.Errorf("status %s is not an HTTP status", meta.Get("status").Raw))
	}
	if meta.Get("is_binary").Bool() {
		return nil, interactionError(metaPath, 0, errors.New("is_binary: binary response bodies are not supported"))
	}
	e.ResponseHeaders = jsonHeaders(meta.Get("headers"))
	e.Date = httpDate(e.ResponseHeaders.Get("Date"))
	if e.Date == "" {
		if t, err := time.Parse(time.RFC3339Nano, meta.Get("cached_at").Str); err == nil {
			e.Date = t.UTC().Format(time.DateOnly)
		}
	}

	respPath := filepath.Join(dir, openRouterResponse)
	if e.ResponseBody, err = openRouterBody(respPath, meta.Get("is_sse").Bool()); err != nil {
		return nil, interactionError(respPath, 0, err)
	}
	return &Recording{Path: dir, Format: FormatOpenRouterE2E, Exchanges: []Exchange{e}}, nil
}

// openRouterBody rebuilds the response body from response.jsonl.
func openRouterBody(path string, sse bool) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return openRouterLines(data, sse)
}

// openRouterLines rebuilds a response body from the lines of a
// response.jsonl.
func openRouterLines(data []byte, sse bool) ([]byte, error) {
	var b bytes.Buffer
	values := 0
	var pending strings.Builder // text pieces of one data value
	flush := func() {
		if pending.Len() > 0 {
			b.WriteString("data: " + pending.String() + "\n\n")
			pending.Reset()
		}
	}
	err := jsonLines(data, func(line int, v gjson.Result) error {
		if piece := v.Get("text"); piece.Type == gjson.String {
			if !sse {
				return fmt.Errorf("line %d: a text piece in a response that is not SSE", line)
			}
			pending.WriteString(piece.Str)
			if joined := pending.String(); joined == "[DONE]" || gjson.Valid(joined) {
				values++
				flush()
			}
			return nil
		}
		if !v.Get("delay_ms").Exists() {
			flush()
		}
		switch {
		case v.Get("json").Exists():
			values++
			if !sse && values > 1 {
				return fmt.Errorf("line %d: a second JSON value in a response that is not SSE", line)
			}
			raw, _ := compactJSON([]byte(v.Get("json").Raw))
			if sse {
				b.WriteString("data: ")
				b.Write(raw)
				b.WriteString("\n\n")
			} else {
				b.Write(raw)
			}
		case v.Get("comment").Type == gjson.String:
			if sse {
				b.WriteString(v.Get("comment").Str)
			}
		case v.Get("delay_ms").Exists():
		default:
			return fmt.Errorf("line %d: want a {\"json\"}, {\"text\"}, {\"delay_ms\"} or {\"comment\"} line", line)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	flush()
	if values == 0 {
		return nil, errors.New("no {\"json\"} line: the response is empty")
	}
	return b.Bytes(), nil
}

// readJSONFile reads a JSON object file.
func readJSONFile(path string) (gjson.Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return gjson.Result{}, err
	}
	if _, err := compactJSON(data); err != nil {
		return gjson.Result{}, err
	}
	v := gjson.ParseBytes(data)
	if !v.IsObject() {
		return gjson.Result{}, errors.New("want a JSON object")
	}
	return v, nil
}

// jsonHeaders reads a {name: value} object as headers; values that are
// lists give several values.
func jsonHeaders(v gjson.Result) http.Header {
	h := http.Header{}
	v.ForEach(func(k, val gjson.Result) bool {
		if val.IsArray() {
			val.ForEach(func(_, x gjson.Result) bool {
				h.Add(k.Str, x.String())
				return true
			})
		} else {
			h.Add(k.Str, strings.TrimSpace(val.String()))
		}
		return true
	})
	return h
}
