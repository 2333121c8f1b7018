package sse

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// FuzzReader checks that the reader never panics, that offsets strictly
// increase and point at the start of a line, that any split of the input
// into reads gives the same events and error, that reading some events
// raw gives them too, and that the events agree with a slow line-by-line
// reference parser.
func FuzzReader(f *testing.F) {
	seeds := []string{
		"",
		"data: {\"a\":1}\n\ndata: [DONE]\n\n",
		"event: content_block_delta\r\ndata: {}\r\n\r\n",
		"\xef\xbb\xbfdata: x\rdata: y\r\r: c\n\nid: 1\ndata\n\nretry: 10\n",
		"data: a\x00b\r",
		"data: unterminated",
	}
	for _, s := range seeds {
		f.Add([]byte(s), []byte{1, 2, 0, 7}, uint16(0))
		f.Add([]byte(s), []byte{3}, uint16(6))
	}
	f.Fuzz(func(t *testing.T, in, split []byte, maxLine uint16) {
		read := func(r io.Reader) ([]Event, string) {
			rd := NewReader(r)
			rd.SetMaxLine(int(maxLine))
			var events []Event
			for {
				ev, err := rd.Next()
				if err == io.EOF {
					return events, ""
				}
				if err != nil {
					return events, err.Error()
				}
				events = append(events, ev)
			}
		}
		events, errText := read(bytes.NewReader(in))

		// The same events, some of them read raw (chosen by split's bits).
		rd := NewReader(bytes.NewReader(in))
		rd.SetMaxLine(int(maxLine))
		var mixed []Event
		mixedErr := ""
		for i := 0; ; i++ {
			var ev Event
			var err error
			if len(split) > 0 && split[i%len(split)]&1 == 1 {
				var raw RawEvent
				raw, err = rd.NextRaw()
				ev = Event{Name: raw.Name, Data: string(raw.Data), ID: raw.ID, Offset: raw.Offset}
			} else {
				ev, err = rd.Next()
			}
			if err != nil {
				if err != io.EOF {
					mixedErr = err.Error()
				}
				break
			}
			mixed = append(mixed, ev)
		}
		if d := cmp.Diff(events, mixed); d != "" || mixedErr != errText {
			t.Fatalf("reading some events raw differs (-Next +mixed):\n%s\nerrors %q / %q", d, errText, mixedErr)
		}
		if errText != "" && !strings.HasPrefix(errText, "sse: line at offset ") {
			t.Fatalf("unexpected error on an in-memory stream: %s", errText)
		}
		prev := int64(-1)
		for _, ev := range events {
			if ev.Offset <= prev || ev.Offset >= int64(len(in)) {
				t.Fatalf("offset %d after %d in a %d-byte stream", ev.Offset, prev, len(in))
			}
			if ev.Offset > 0 && in[ev.Offset-1] != '\n' && in[ev.Offset-1] != '\r' && !(ev.Offset == 3 && bytes.HasPrefix(in, bom)) {
				t.Fatalf("offset %d is not the start of a line", ev.Offset)
			}
			prev = ev.Offset
		}

		sizes := make([]int, 0, len(split)+1)
		for _, b := range split {
			// 0 is an empty read; never two in a row, so the reader's
			// no-progress guard is not what is being tested.
			if n := int(b % 20); n > 0 || len(sizes) == 0 || sizes[len(sizes)-1] > 0 {
				sizes = append(sizes, n)
			}
		}
		sizes = append(sizes, 1)
		for name, r := range map[string]io.Reader{
			"one byte":   iotest.OneByteReader(bytes.NewReader(in)),
			"chunked":    &chunkReader{data: in, sizes: sizes},
			"half-reads": iotest.HalfReader(bytes.NewReader(in)),
		} {
			got, gotErr := read(r)
			if d := cmp.Diff(events, got); d != "" || gotErr != errText {
				t.Fatalf("%s: differs from reading whole (-whole +%s):\n%s\nerrors %q / %q", name, name, d, errText, gotErr)
			}
		}

		if errText == "" {
			if d := cmp.Diff(reference(in), events); d != "" {
				t.Fatalf("differs from the reference parser (-reference +reader):\n%s", d)
			}
		}
	})
}

// reference is a slow, direct transcription of the parsing rules, used as
// an oracle.
func reference(in []byte) []Event {
	s := string(in)
	off := 0
	if strings.HasPrefix(s, "\xef\xbb\xbf") {
		off = 3
	}
	var events []Event
	var data strings.Builder
	hasData, name, id, start := false, "", "", -1
	dispatch := func() {
		if hasData {
			events = append(events, Event{Name: name, Data: data.String(), ID: id, Offset: int64(start)})
		}
		data.Reset()
		hasData, name, start = false, "", -1
	}
	for off < len(s) {
		end := off
		for end < len(s) && s[end] != '\n' && s[end] != '\r' {
			end++
		}
		line := s[off:end]
		lineStart := off
		off = end
		if off < len(s) {
			if s[off] == '\r' && off+1 < len(s) && s[off+1] == '\n' {
				off++
			}
			off++
		}
		if line == "" {
			dispatch()
			continue
		}
		if start < 0 {
			start = lineStart
		}
		if line[0] == ':' {
			continue
		}
		field, value, found := strings.Cut(line, ":")
		if found {
			value = strings.TrimPrefix(value, " ")
		}
		switch field {
		case "data":
			if hasData {
				data.WriteByte('\n')
			}
			data.WriteString(value)
			hasData = true
		case "event":
			name = value
		case "id":
			if !strings.Contains(value, "\x00") {
				id = value
			}
		}
	}
	dispatch()
	return events
}
