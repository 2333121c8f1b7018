package sim

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/tidwall/gjson"
)

// maxBody caps a request body; sessions with tens of megabytes of reasoning
// still fit.
const maxBody = 256 << 20

// request is one parsed model call.
type request struct {
	// path is the escaped URL path.
	path string
	body []byte
	root gjson.Result
	// model is the model id from the body or, failing that, the URL.
	model string
	// stream is true when the caller asked for a streamed answer.
	stream bool
	// id is the deterministic request id, "sim_" + 12 hex of sha256(body).
	// Profile bodies keep the vendor's prefix around it ("req_{request_id}"
	// renders req_sim_…).
	id string
	// digest is sha256(body) in hex.
	digest string
}

// clientError is a 4xx the simulator itself answers (not a profile rule).
type clientError struct {
	status int
	msg    string
}

func (e *clientError) Error() string { return e.msg }

// readRequest reads and checks the body of a model call.
func readRequest(w http.ResponseWriter, r *http.Request, mode string) (*request, error) {
	body, err := readBody(w, r)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, &clientError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body: larger than %d bytes", maxBody)}
		}
		return nil, &clientError{http.StatusBadRequest, fmt.Sprintf("request body: %v", err)}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, &clientError{http.StatusBadRequest, "request body: empty; expected a JSON object"}
	}
	if !gjson.ValidBytes(body) {
		return nil, &clientError{http.StatusBadRequest, "request body: " + syntaxError(body)}
	}
	root := gjson.ParseBytes(body)
	if !root.IsObject() {
		return nil, &clientError{http.StatusBadRequest, fmt.Sprintf("request body: expected a JSON object, got %s", kind(root))}
	}
	sum := sha256.Sum256(body)
	digest := hex.EncodeToString(sum[:])
	q := &request{
		path:   r.URL.EscapedPath(),
		body:   body,
		root:   root,
		id:     "sim_" + digest[:12],
		digest: digest,
	}
	switch mode {
	case modeResponses:
		q.model = root.Get("model").String()
		q.stream = root.Get("stream").Type == gjson.True
	case modeChat, modeAnthropic:
		q.model = root.Get("model").String()
		if q.model == "" {
			q.model = modelFromPath(q.path, "models")
		}
		// Bedrock InvokeModel streams through its own path, not a body flag.
		q.stream = root.Get("stream").Type == gjson.True || strings.HasSuffix(r.URL.Path, "/invoke-with-response-stream")
	case modeConverse:
		q.model = modelFromPath(q.path, "model")
		q.stream = strings.HasSuffix(r.URL.Path, "/converse-stream")
	case modeGemini:
		q.model = modelFromPath(q.path, "models")
		q.stream = strings.Contains(r.URL.Path, ":streamGenerateContent")
	}
	list := "messages"
	switch mode {
	case modeGemini:
		list = "contents"
	case modeResponses:
		list = "input"
	}
	if v := root.Get(list); !v.IsArray() {
		return nil, &clientError{http.StatusBadRequest, fmt.Sprintf("request body: %s: expected an array, got %s", list, kind(v))}
	}
	return q, nil
}

// readBody reads the whole body, sized from Content-Length when known.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	var b bytes.Buffer
	if r.Body == nil {
		return nil, nil
	}
	if n := r.ContentLength; n > 0 && n <= maxBody {
		b.Grow(int(n) + bytes.MinRead)
	}
	_, err := b.ReadFrom(http.MaxBytesReader(w, r.Body, maxBody))
	return b.Bytes(), err
}

// syntaxError locates the first JSON syntax error by byte offset.
func syntaxError(body []byte) string {
	var v any
	err := json.Unmarshal(body, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("byte offset %d: not valid JSON: %v", se.Offset, se)
	}
	if err != nil {
		return fmt.Sprintf("not valid JSON: %v", err)
	}
	return "not valid JSON"
}

// kind names the JSON type of v for error messages.
func kind(v gjson.Result) string {
	switch {
	case !v.Exists():
		return "nothing"
	case v.IsObject():
		return "an object"
	case v.IsArray():
		return "an array"
	case v.Type == gjson.String:
		return "a string"
	case v.Type == gjson.Number:
		return "a number"
	case v.Type == gjson.Null:
		return "null"
	default:
		return "a boolean"
	}
}

// modelFromPath finds the path segment after seg ("model" for Bedrock
// /model/{id}/converse, "models" for Gemini /models/{id}:generateContent)
// and unescapes it; a trailing ":method" is cut.
func modelFromPath(path, seg string) string {
	parts := strings.Split(path, "/")
	for i := 0; i+1 < len(parts); i++ {
		if parts[i] != seg {
			continue
		}
		id := parts[i+1]
		if seg == "models" {
			if j := strings.LastIndexByte(id, ':'); j >= 0 {
				id = id[:j]
			}
		}
		if u, err := url.PathUnescape(id); err == nil {
			return u
		}
		return id
	}
	return ""
}
