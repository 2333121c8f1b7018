package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

func TestEvents(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		want   []Event
	}{
		{"empty stream", "", nil},
		{"only blank lines", "\n\n\r\n", nil},
		{
			"OpenAI chunks and [DONE]",
			"data: {\"a\":1}\n\ndata: [DONE]\n\n",
			[]Event{{Data: `{"a":1}`, Offset: 0}, {Data: "[DONE]", Offset: 15}},
		},
		{
			"Anthropic named events",
			"event: message_start\ndata: {\"type\":\"message_start\"}\n\nevent: ping\ndata: {\"type\": \"ping\"}\n\n",
			[]Event{
				{Name: "message_start", Data: `{"type":"message_start"}`, Offset: 0},
				{Name: "ping", Data: `{"type": "ping"}`, Offset: 53},
			},
		},
		{
			"CRLF line endings",
			"event: e\r\ndata: x\r\n\r\ndata: y\r\n\r\n",
			[]Event{{Name: "e", Data: "x", Offset: 0}, {Data: "y", Offset: 21}},
		},
		{
			"CR-only line endings",
			"data: x\r\rdata: y\rdata: z\r\r",
			[]Event{{Data: "x", Offset: 0}, {Data: "y\nz", Offset: 9}},
		},
		{
			"mixed line endings",
			"data: a\rdata: b\ndata: c\r\n\n",
			[]Event{{Data: "a\nb\nc", Offset: 0}},
		},
		{
			"multi-line data is joined with newlines",
			"data: one\ndata: two\ndata:\ndata: four\n\n",
			[]Event{{Data: "one\ntwo\n\nfour", Offset: 0}},
		},
		{
			"only one leading space is stripped",
			"data:  two spaces\ndata:none\n\n",
			[]Event{{Data: " two spaces\nnone", Offset: 0}},
		},
		{
			"comments are ignored and a comment-only block is no event",
			": ping\n\n: keep-alive\ndata: x\n: inside\n\n",
			[]Event{{Data: "x", Offset: 8}},
		},
		{
			"a block without data is no event and its name does not leak",
			"event: lonely\n\ndata: x\n\n",
			[]Event{{Data: "x", Offset: 15}},
		},
		{
			"missing final blank line still dispatches",
			"data: a\n\ndata: last",
			[]Event{{Data: "a", Offset: 0}, {Data: "last", Offset: 9}},
		},
		{
			"missing final blank line after a line ending",
			"event: e\ndata: last\n",
			[]Event{{Name: "e", Data: "last", Offset: 0}},
		},
		{
			"data with no colon is an empty data line and dispatches",
			"data\n\ndata\ndata\n\n",
			[]Event{{Data: "", Offset: 0}, {Data: "\n", Offset: 6}},
		},
		{
			"a leading byte order mark is skipped, offsets count it",
			"\xef\xbb\xbfdata: x\n\n",
			[]Event{{Data: "x", Offset: 3}},
		},
		{
			"a byte order mark later in the stream is data",
			"data: \xef\xbb\xbfx\n\n",
			[]Event{{Data: "\xef\xbb\xbfx", Offset: 0}},
		},
		{
			"a partial byte order mark is not stripped",
			"\xef\xbbdata: x\n\n",
			nil,
		},
		{
			"NUL bytes pass through data",
			"data: a\x00b\n\n",
			[]Event{{Data: "a\x00b", Offset: 0}},
		},
		{
			"an id with NUL is ignored",
			"id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n",
			[]Event{{ID: "1", Data: "a", Offset: 0}, {ID: "1", Data: "b", Offset: 15}},
		},
		{
			"the last event ID carries over to later events",
			"id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n",
			[]Event{{ID: "7", Data: "a", Offset: 0}, {ID: "7", Data: "b", Offset: 15}, {Data: "c", Offset: 24}},
		},
		{
			"unknown and case-different fields are ignored",
			"Data: no\nfoo: bar\nevent : x\ndata: yes\n\n",
			[]Event{{Data: "yes", Offset: 0}},
		},
		{
			"the last event field wins",
			"event: a\nevent: b\ndata: x\n\n",
			[]Event{{Name: "b", Data: "x", Offset: 0}},
		},
		{
			"a colon in the value is kept",
			"data: {\"k\":\"v: w\"}\n\n",
			[]Event{{Data: `{"k":"v: w"}`, Offset: 0}},
		},
		{
			"Gemini chunks with blank-line runs between them",
			"data: {\"candidates\":[]}\r\n\r\n\r\n\r\ndata: {\"usageMetadata\":{}}\r\n\r\n",
			[]Event{{Data: `{"candidates":[]}`, Offset: 0}, {Data: `{"usageMetadata":{}}`, Offset: 31}},
		},
	}
	for _, tt := range tests {
		for _, rd := range readers(tt.in) {
			got, err := Events(rd.r)
			if err != nil {
				t.Errorf("%s (%s): error %v", tt.reason, rd.name, err)
				continue
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("%s (%s): events mismatch (-want +got):\n%s", tt.reason, rd.name, d)
			}
		}
	}
}

type namedReader struct {
	name string
	r    io.Reader
}

// readers returns the same input split in different ways.
func readers(in string) []namedReader {
	return []namedReader{
		{"whole", strings.NewReader(in)},
		{"one byte at a time", iotest.OneByteReader(strings.NewReader(in))},
		{"chunks of 3", &chunkReader{data: []byte(in), sizes: []int{3}}},
		{"data then EOF together", iotest.DataErrReader(strings.NewReader(in))},
	}
}

func TestRetry(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		ms     int
		ok     bool
	}{
		{"no retry field", "data: x\n\n", 0, false},
		{"digits set it", "retry: 3000\ndata: x\n\n", 3000, true},
		{"non-digits are ignored", "retry: 3000\nretry: 1s\ndata: x\n\n", 3000, true},
		{"an empty value is ignored", "retry:\ndata: x\n\n", 0, false},
		{"too many digits are ignored", "retry: 99999999999999999999\ndata: x\n\n", 0, false},
	}
	for _, tt := range tests {
		r := NewReader(strings.NewReader(tt.in))
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
		if ms, ok := r.Retry(); ms != tt.ms || ok != tt.ok {
			t.Errorf("%s: Retry() = %d, %v; want %d, %v", tt.reason, ms, ok, tt.ms, tt.ok)
		}
	}
}

func TestMaxLine(t *testing.T) {
	tests := []struct {
		reason  string
		in      string
		max     int
		want    []Event
		wantErr string
	}{
		{"a line of exactly the limit is fine", "data: 1234\n\n", 10, []Event{{Data: "1234"}}, ""},
		{"a CR-ended line of exactly the limit is fine", "data: 1234\r\r", 10, []Event{{Data: "1234"}}, ""},
		{"a final line of exactly the limit is fine", "data: 1234", 10, []Event{{Data: "1234"}}, ""},
		{"one byte over fails and names the line offset", "data: a\n\ndata: 12345\n\n", 10, []Event{{Data: "a"}}, "sse: line at offset 9 exceeds 10 bytes"},
		{"an unterminated long final line fails", "data: a\n\n: 1234567890", 10, []Event{{Data: "a"}}, "sse: line at offset 9 exceeds 10 bytes"},
		{"a long line beyond the initial buffer is fine under the limit", "data: " + strings.Repeat("x", 3*bufSize) + "\n\n", 0, []Event{{Data: strings.Repeat("x", 3*bufSize)}}, ""},
		{"a long line beyond the initial buffer fails over the limit", "data: x\n\ndata: " + strings.Repeat("x", 3*bufSize) + "\n\n", 2 * bufSize, []Event{{Data: "x"}}, "sse: line at offset 9 exceeds 131072 bytes"},
	}
	for _, tt := range tests {
		for _, rd := range readers(tt.in) {
			r := NewReader(rd.r)
			r.SetMaxLine(tt.max)
			var got []Event
			var err error
			for {
				var ev Event
				if ev, err = r.Next(); err != nil {
					break
				}
				ev.Offset = 0
				got = append(got, ev)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("%s (%s): events mismatch (-want +got):\n%s", tt.reason, rd.name, d)
			}
			if tt.wantErr == "" && err != io.EOF {
				t.Errorf("%s (%s): error %v, want io.EOF", tt.reason, rd.name, err)
			}
			if tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr) {
				t.Errorf("%s (%s): error %v, want %s", tt.reason, rd.name, err, tt.wantErr)
			}
			if _, again := r.Next(); again != err {
				t.Errorf("%s (%s): error is not sticky: %v then %v", tt.reason, rd.name, err, again)
			}
		}
	}
}

var errBoom = errors.New("boom")

func TestReadErrors(t *testing.T) {
	tests := []struct {
		reason  string
		r       io.Reader
		want    []Event
		wantErr string
	}{
		{
			"an error after some events is wrapped with the offset reached",
			io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(errBoom)),
			[]Event{{Data: "a"}},
			"sse: read at offset 16: boom",
		},
		{
			"an error on the first read",
			iotest.ErrReader(errBoom),
			nil,
			"sse: read at offset 0: boom",
		},
		{
			"an unexpected EOF from the reader is an error, not the end",
			io.MultiReader(strings.NewReader("data: a\n\n"), iotest.ErrReader(io.ErrUnexpectedEOF)),
			[]Event{{Data: "a"}},
			"sse: read at offset 9: unexpected EOF",
		},
		{
			"a reader that never makes progress",
			emptyReader{},
			nil,
			"sse: read at offset 0: multiple Read calls return no data or error",
		},
		{
			"a reader returning a bad count",
			badCountReader{},
			nil,
			"sse: read at offset 0: reader returned an invalid count -1",
		},
	}
	for _, tt := range tests {
		got, err := Events(tt.r)
		for j := range got {
			got[j].Offset = 0
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s: events mismatch (-want +got):\n%s", tt.reason, d)
		}
		if err == nil || err.Error() != tt.wantErr {
			t.Errorf("%s: error %v, want %s", tt.reason, err, tt.wantErr)
		}
	}
	_, err := Events(io.MultiReader(strings.NewReader("x"), iotest.ErrReader(errBoom)))
	if !errors.Is(err, errBoom) {
		t.Errorf("read error %v does not wrap the reader's error", err)
	}
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

type badCountReader struct{}

func (badCountReader) Read([]byte) (int, error) { return -1, nil }

// chunkReader returns data in chunks whose sizes cycle through sizes
// (sizes of 0 give empty reads).
type chunkReader struct {
	data  []byte
	sizes []int
	n     int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	size := c.sizes[c.n%len(c.sizes)]
	c.n++
	size = min(size, len(p), len(c.data))
	copy(p, c.data[:size])
	c.data = c.data[size:]
	return size, nil
}

// TestNextRawReusesItsBuffer checks that raw events carry the same data as
// events, that their buffer is reused, and that reading a stream raw
// allocates nothing per event once the buffer has grown.
func TestNextRawReusesItsBuffer(t *testing.T) {
	in := "event: a\ndata: first\ndata: line\n\n: ping\n\ndata: second\n\n"
	rd := NewReader(strings.NewReader(in))
	first, err := rd.NextRaw()
	if err != nil || first.Name != "a" || string(first.Data) != "first\nline" || first.Offset != 0 {
		t.Fatalf("first raw event = %+v %q, %v", first, first.Data, err)
	}
	kept := first.Data
	second, err := rd.NextRaw()
	if err != nil || string(second.Data) != "second" || second.Offset != 41 {
		t.Fatalf("second raw event = %+v %q, %v", second, second.Data, err)
	}
	if &kept[0] != &second.Data[0] {
		t.Error("the second raw event has a buffer of its own; the reader should reuse one")
	}
	if _, err := rd.NextRaw(); err != io.EOF {
		t.Fatalf("after the last event: %v, want io.EOF", err)
	}
	if rd.Offset() != int64(len(in)) {
		t.Errorf("at the end Offset() = %d, want the stream's length %d", rd.Offset(), len(in))
	}

	stream := strings.Repeat("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n", 1000)
	allocs := testing.AllocsPerRun(5, func() {
		rd := NewReader(strings.NewReader(stream))
		for {
			if _, err := rd.NextRaw(); err != nil {
				break
			}
		}
	})
	if allocs > 10 {
		t.Errorf("reading 1000 events raw made %.0f allocations; want a handful for the reader itself", allocs)
	}
}
