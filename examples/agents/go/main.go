// Command go-agent is a small coding agent over the OpenAI chat completions
// API with net/http alone: a real tool loop (read_file, list_dir) that
// keeps every reasoning carrier a provider returns and decides, route by
// route, which to send back. It exists to be checked by
// `replaycheck agent`, and so it can also behave like the agents that got
// reasoning replay wrong (--mode):
//
//	correct          the route table below: a strict route gets no reasoning key, a
//	                 DeepSeek/Kimi/MiMo tool turn gets reasoning_content (" " when the
//	                 answer had none), everything else what the provider sent, opaque
//	                 values byte for byte; a refused reasoning key is dropped and the
//	                 request retried once
//	no-echo          never sends reasoning back
//	no-pad           echoes what it received, never pads a bare tool turn
//	empty-pad        pads a bare tool turn with "" (the first fix that DeepSeek V4 refuses)
//	drop-signatures  echoes the text, drops signatures and encrypted values
//	every-carrier    sends reasoning_content, reasoning and reasoning_details to every route
//	retry-loop       retries a refused request as it is, five times
//	store-no-reasoning  saves its session (--session) without the reasoning carriers,
//	                 so a resumed session sends none back
//	compact-strips-reasoning  compacts (--compact) by stripping the reasoning of the
//	                 turns it keeps
//
// Each mode other than correct is the correct agent with that one deviation.
//
// Usage:
//
//	go-agent [--base-url URL] [--model M] [--provider ID] [--mode MODE] [--stream]
//	         [--session FILE [--resume | --compact]] [PROMPT]
//
// --session saves the conversation to FILE after the run; with --resume the
// run continues the conversation FILE holds; with --compact it first
// compacts it: every turn before the last is dropped whole, a summary in
// its place, and the last turn is kept as it is.
//
// The base URL and model default to OPENAI_BASE_URL and OPENAI_MODEL, the
// key to OPENAI_API_KEY, the mode to AGENT_MODE.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// maxTurns bounds the tool loop.
const maxTurns = 8

func main() {
	baseURL := flag.String("base-url", os.Getenv("OPENAI_BASE_URL"), "the chat completions base URL")
	model := flag.String("model", os.Getenv("OPENAI_MODEL"), "the model id")
	provider := flag.String("provider", "", "the provider id, when the agent is told it")
	mode := flag.String("mode", envOr("AGENT_MODE", "correct"), "correct, no-echo, no-pad, empty-pad, drop-signatures, every-carrier, retry-loop, store-no-reasoning or compact-strips-reasoning")
	stream := flag.Bool("stream", os.Getenv("AGENT_STREAM") == "1", "ask for streamed answers")
	session := flag.String("session", "", "save the conversation to `FILE` after the run")
	resume := flag.Bool("resume", false, "continue the conversation --session holds")
	compact := flag.Bool("compact", false, "compact the conversation --session holds, then continue it")
	flag.Parse()
	prompt := "What is the cache TTL? Read the notes first."
	if flag.NArg() > 0 {
		prompt = strings.Join(flag.Args(), " ")
	}
	a := &agent{base: strings.TrimSuffix(*baseURL, "/"), model: *model, mode: *mode, stream: *stream,
		route: decide(*provider, *baseURL, *model), refused: map[string]bool{}, client: &http.Client{Timeout: 60 * time.Second}}
	if *resume || *compact {
		if err := a.load(*session); err != nil {
			fmt.Fprintln(os.Stderr, "go-agent:", err)
			os.Exit(1)
		}
	}
	if *compact {
		a.compact()
	}
	answer, err := a.run(prompt)
	if err == nil && *session != "" {
		err = a.save(*session)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "go-agent:", err)
		os.Exit(1)
	}
	fmt.Println(answer)
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// route is what the agent's route table decides for one endpoint.
type route struct {
	strict   bool           // the schema refuses every standard reasoning key (Gemini keeps its signatures in tool_calls)
	mustEcho bool           // a tool-call turn must carry reasoning_content
	flags    map[string]any // vendor keep-thinking flags
}

// decide is the agent's route table: by provider id when it is told one,
// else by the base URL's host, else by the model id.
func decide(provider, baseURL, model string) route {
	host := ""
	if u, err := url.Parse(baseURL); err == nil {
		host = strings.ToLower(u.Hostname())
	}
	is := func(ids []string, hosts []string) bool {
		for _, id := range ids {
			if strings.EqualFold(provider, id) {
				return true
			}
		}
		for _, h := range hosts {
			if host == h || strings.HasSuffix(host, "."+h) {
				return true
			}
		}
		return false
	}
	m := strings.ToLower(model)
	r := route{flags: map[string]any{}}
	r.strict = is([]string{"mistral", "groq", "cerebras", "sambanova", "hunyuan", "gemini", "google"},
		[]string{"mistral.ai", "groq.com", "cerebras.ai", "sambanova.ai", "hunyuan.cloud.tencent.com", "generativelanguage.googleapis.com"})
	r.mustEcho = is([]string{"deepseek", "kimi-coding", "kimi-coding-cn", "xiaomi", "moonshot"},
		[]string{"api.deepseek.com", "api.kimi.com", "moonshot.ai", "moonshot.cn", "xiaomimimo.com"}) ||
		strings.Contains(m, "deepseek") || strings.Contains(m, "mimo")
	switch {
	case is([]string{"zai", "glm", "zhipu"}, []string{"z.ai", "bigmodel.cn"}):
		r.flags["thinking"] = map[string]any{"type": "enabled", "clear_thinking": false}
	case is([]string{"dashscope", "alibaba", "qwen"}, []string{"aliyuncs.com"}):
		r.flags["preserve_thinking"] = true
	case is([]string{"kimi-coding", "kimi-coding-cn", "moonshot"}, []string{"api.kimi.com", "moonshot.ai", "moonshot.cn"}):
		r.flags["thinking"] = map[string]any{"keep": "all"}
	case is([]string{"fireworks"}, []string{"fireworks.ai"}):
		r.flags["reasoning_history"] = "preserved"
	}
	return r
}

type agent struct {
	base, model, mode string
	stream            bool
	route             route
	// refused are the reasoning keys a provider refused: never sent again.
	refused map[string]bool
	client  *http.Client
	// history keeps every message whole, every carrier as received.
	history []map[string]any
}

// carriers are the assistant keys that carry reasoning.
var carriers = []string{"reasoning_content", "reasoning", "reasoning_details", "reasoning_text", "reasoning_opaque"}

var tools = []any{
	map[string]any{"type": "function", "function": map[string]any{"name": "read_file", "description": "Read a text file.",
		"parameters": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}, "required": []string{"path"}}}},
	map[string]any{"type": "function", "function": map[string]any{"name": "list_dir", "description": "List a directory.",
		"parameters": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}, "required": []string{"path"}}}},
}

func (a *agent) run(prompt string) (string, error) {
	a.history = append(a.history, map[string]any{"role": "user", "content": prompt})
	for range maxTurns {
		msg, err := a.complete()
		if err != nil {
			return "", err
		}
		a.history = append(a.history, msg)
		calls, _ := msg["tool_calls"].([]any)
		if len(calls) == 0 {
			s, _ := msg["content"].(string)
			return s, nil
		}
		for _, c := range calls {
			call, _ := c.(map[string]any)
			fn, _ := call["function"].(map[string]any)
			name, _ := fn["name"].(string)
			args, _ := fn["arguments"].(string)
			a.history = append(a.history, map[string]any{"role": "tool", "tool_call_id": call["id"], "content": runTool(name, args)})
		}
	}
	return "", fmt.Errorf("no answer after %d turns", maxTurns)
}

// save writes the history to path (store-no-reasoning: without its
// reasoning carriers, the seed's "before").
func (a *agent) save(path string) error {
	history := a.history
	if a.mode == "store-no-reasoning" {
		history = nil
		for _, m := range a.history {
			kept := map[string]any{}
			for k, v := range m {
				if !contains(carriers, k) {
					kept[k] = v
				}
			}
			history = append(history, kept)
		}
	}
	b, err := json.Marshal(history)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// compact drops every turn before the last one whole, with a summary in
// their place, and keeps the last turn as it is (compact-strips-reasoning:
// without its reasoning carriers, the seed's "before").
func (a *agent) compact() {
	last := 0
	for i, m := range a.history {
		if m["role"] == "user" {
			last = i
		}
	}
	kept := a.history[last:]
	if last > 0 {
		kept = append([]map[string]any{{"role": "user", "content": fmt.Sprintf("Summary of %d earlier messages.", last)}}, kept...)
	}
	if a.mode == "compact-strips-reasoning" {
		for i, m := range kept {
			stripped := map[string]any{}
			for k, v := range m {
				if !contains(carriers, k) {
					stripped[k] = v
				}
			}
			kept[i] = stripped
		}
	}
	a.history = kept
}

// load reads the history save wrote.
func (a *agent) load(path string) error {
	if path == "" {
		return fmt.Errorf("--resume needs --session FILE")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, &a.history)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// runTool runs one tool call; its error is the tool's result.
func runTool(name, args string) string {
	var in struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal([]byte(args), &in); err != nil {
		return "error: arguments: " + err.Error()
	}
	switch name {
	case "read_file":
		b, err := os.ReadFile(in.Path)
		if err != nil {
			return "error: " + err.Error()
		}
		return string(b)
	case "list_dir":
		entries, err := os.ReadDir(in.Path)
		if err != nil {
			return "error: " + err.Error()
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return strings.Join(names, "\n")
	}
	return "error: no tool " + name
}

// complete sends the history and returns the assistant message. A refusal
// that names a reasoning key the request carried is learnt and the request
// retried once without it (retry-loop: retried as it is, five times).
func (a *agent) complete() (map[string]any, error) {
	retries := 0
	for {
		body := a.request()
		status, resp, err := a.post(body)
		if err != nil {
			return nil, err
		}
		if status/100 == 2 {
			if a.stream {
				return accumulate(resp)
			}
			var r struct {
				Choices []struct {
					Message map[string]any `json:"message"`
				} `json:"choices"`
			}
			if err := json.Unmarshal(resp, &r); err != nil || len(r.Choices) == 0 {
				return nil, fmt.Errorf("answer: not a chat completion: %.200s", resp)
			}
			return r.Choices[0].Message, nil
		}
		if a.mode == "retry-loop" && retries < 5 {
			retries++
			continue
		}
		if key := a.refusedKey(body, resp); key != "" && retries == 0 && a.mode != "retry-loop" {
			a.refused[key] = true
			retries++
			continue
		}
		return nil, fmt.Errorf("HTTP %d: %s", status, bytes.TrimSpace(resp))
	}
}

// refusedKey is the reasoning key a refusal names, among those the
// request carried.
func (a *agent) refusedKey(body, resp []byte) string {
	for _, k := range carriers {
		if bytes.Contains(resp, []byte(k)) && bytes.Contains(body, []byte(`"`+k+`"`)) && !a.refused[k] {
			return k
		}
	}
	return ""
}

func (a *agent) post(body []byte) (int, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, a.base+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+os.Getenv("OPENAI_API_KEY"))
	resp, err := a.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// request shapes the history for the wire.
func (a *agent) request() []byte {
	msgs := make([]any, 0, len(a.history))
	for _, m := range a.history {
		if m["role"] == "assistant" {
			m = a.shape(m)
		}
		msgs = append(msgs, m)
	}
	body := map[string]any{"model": a.model, "messages": msgs, "tools": tools}
	if a.stream {
		body["stream"] = true
	}
	for k, v := range a.route.flags {
		body[k] = v
	}
	b, _ := json.Marshal(body)
	return b
}

// shape is the wire copy of a stored assistant message under the mode:
// the correct shaping, with the one deviation the mode names.
func (a *agent) shape(stored map[string]any) map[string]any {
	m := map[string]any{"role": "assistant", "content": stored["content"]}
	if calls, ok := stored["tool_calls"]; ok {
		m["tool_calls"] = calls
	}
	if a.mode == "no-echo" {
		return m
	}
	_, toolTurn := stored["tool_calls"]
	if !a.route.strict || a.mode == "every-carrier" {
		for _, k := range carriers {
			if v, ok := stored[k]; ok && !a.refused[k] {
				m[k] = v
			}
		}
	}
	if a.mode == "every-carrier" {
		text, _ := stored["reasoning_content"].(string)
		if text == "" {
			text, _ = stored["reasoning"].(string)
		}
		if text != "" {
			m["reasoning_content"], m["reasoning"] = text, text
			if _, ok := m["reasoning_details"]; !ok {
				m["reasoning_details"] = []any{map[string]any{"type": "reasoning.text", "text": text, "index": 0}}
			}
		}
	}
	if a.mode == "drop-signatures" {
		delete(m, "reasoning_opaque")
		m["tool_calls"] = unsigned(stored["tool_calls"])
		if d, ok := m["reasoning_details"].([]any); ok {
			m["reasoning_details"] = unsigned(d)
		}
	}
	if rc, _ := m["reasoning_content"].(string); toolTurn && a.route.mustEcho && rc == "" && !a.refused["reasoning_content"] {
		switch a.mode {
		case "no-pad":
		case "empty-pad":
			m["reasoning_content"] = ""
		default:
			m["reasoning_content"] = " "
		}
	}
	return m
}

// unsigned copies a list of objects without their signatures and
// encrypted values.
func unsigned(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, 0, len(list))
	for _, e := range list {
		o, ok := e.(map[string]any)
		if !ok {
			out = append(out, e)
			continue
		}
		c := map[string]any{}
		for k, v := range o {
			switch k {
			case "signature", "extra_content", "data":
				continue
			case "function":
				if fn, ok := v.(map[string]any); ok {
					f := map[string]any{}
					for fk, fv := range fn {
						if fk != "thought_signature" {
							f[fk] = fv
						}
					}
					v = f
				}
			}
			c[k] = v
		}
		out = append(out, c)
	}
	return out
}
