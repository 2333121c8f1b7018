package importer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/replaycheck/replaycheck/engine/bedrock"
	"github.com/tidwall/gjson"
)

// gzipMagic starts every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// maxDecompressed caps a decompressed body or cassette (a gzip bomb gets
// an error, not the machine's memory).
const maxDecompressed = 512 << 20

// gunzip decompresses a gzip stream.
func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxDecompressed+1))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if len(out) > maxDecompressed {
		return nil, fmt.Errorf("gzip: decompresses to more than %d bytes", maxDecompressed)
	}
	return out, nil
}

// decodeBody undoes the body's Content-Encoding: a body that is a gzip
// stream (declared gzip, or starting with the gzip magic bytes) is
// decompressed; other declared encodings that the body still carries are
// refused rather than stored as noise. A body recorded already decoded
// under a stale Content-Encoding header is kept as it is.
func decodeBody(h http.Header, b []byte) ([]byte, error) {
	enc := strings.ToLower(strings.TrimSpace(h.Get("Content-Encoding")))
	switch {
	case bytes.HasPrefix(b, gzipMagic):
		return gunzip(b)
	case enc == "" || enc == "identity" || enc == "gzip" || enc == "x-gzip":
		return b, nil
	case isText(b):
		return b, nil
	}
	return nil, fmt.Errorf("content-encoding %s is not supported (only gzip)", enc)
}

// isText reports whether b looks like a decoded body: empty, or starting
// with printable text.
func isText(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) == 0 || b[0] == '{' || b[0] == '[' || b[0] == '"' || (b[0] >= 0x20 && b[0] < 0x7f)
}

// checkFrames decodes an AWS event-stream body to its end with the SDK
// decoder (lengths and CRCs), so a truncated or corrupted frame is an error
// at import naming its byte offset. Exception frames are well-formed
// frames: they are the provider's answer, and stay.
func checkFrames(b []byte) error {
	r := bytes.NewReader(b)
	dec := eventstream.NewDecoder()
	var buf []byte
	for r.Len() > 0 {
		off := len(b) - r.Len()
		if r.Len() < 16 {
			return fmt.Errorf("event-stream: frame at offset %d: truncated (%d bytes left, a frame has at least 16)", off, r.Len())
		}
		if total := binary.BigEndian.Uint32(b[off:]); total > bedrock.MaxFramePayload+bedrock.MaxFrameHeaders+16 {
			return fmt.Errorf("event-stream: frame at offset %d: length %d exceeds the largest frame", off, total)
		}
		msg, err := dec.Decode(r, buf)
		if err != nil {
			return fmt.Errorf("event-stream: frame at offset %d: %w", off, err)
		}
		buf = msg.Payload[:0]
	}
	return nil
}

// isEventStream reports whether a response is AWS event-stream framed.
func isEventStream(h http.Header, path string) bool {
	return strings.HasPrefix(strings.ToLower(h.Get("Content-Type")), "application/vnd.amazon.eventstream") ||
		strings.HasSuffix(path, "/converse-stream") || strings.HasSuffix(path, "/invoke-with-response-stream")
}

// jsonLines calls fn with each non-blank line of a JSON-lines file,
// parsed, and its 1-based line number; a line that is not JSON is an
// error naming it.
func jsonLines(data []byte, fn func(line int, v gjson.Result) error) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if _, err := compactJSON(text); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		if err := fn(line, gjson.ParseBytes(append([]byte(nil), text...))); err != nil {
			return err
		}
	}
	return sc.Err()
}
