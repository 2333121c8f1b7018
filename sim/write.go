package sim

import (
	"bytes"
	"net/http"
)

// writeJSON answers 200 with a JSON body.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(encode(v))
}

// writeSSE answers 200 with one `data: ` line per payload.
func writeSSE(w http.ResponseWriter, payloads [][]byte) { writeSSEWith(w, payloads, "\n\n") }

// writeSSEWith is writeSSE with a chosen event separator.
func writeSSEWith(w http.ResponseWriter, payloads [][]byte, sep string) {
	var b bytes.Buffer
	for _, p := range payloads {
		b.WriteString("data: ")
		b.Write(p)
		b.WriteString(sep)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.Bytes())
}
