package sse

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// stream builds an SSE stream of at least size bytes mixing the shapes the
// engine captures: OpenAI chunks, Anthropic named events with keep-alive
// comments, CRLF Gemini chunks, and a final [DONE].
func stream(size int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "data: {\"id\":\"chatcmpl-%d\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"step %d: consider the weather tool\"}}]}\n\n", i, i)
		case 1:
			fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"token %d\"}}\n\n: ping\n\n", i)
		default:
			fmt.Fprintf(&b, "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"part %d\",\"thought\":true}]}}]}\r\n\r\n", i)
		}
	}
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes()
}

// cpuTime returns the CPU time this process has used, all threads (the
// garbage collector's included).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds a cpu-ns/op metric: on a shared machine it is steadier
// than wall time, and it counts garbage collection done on other threads.
func reportCPU(b *testing.B, from time.Duration) {
	b.ReportMetric(float64(cpuTime(b)-from)/float64(b.N), "cpu-ns/op")
}

func BenchmarkReader10MB(b *testing.B) {
	in := stream(10 << 20)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	defer reportCPU(b, cpuTime(b))
	for b.Loop() {
		r := NewReader(bytes.NewReader(in))
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n == 0 {
			b.Fatal("no events")
		}
	}
}

// BenchmarkBufioBaseline10MB reads the same stream line by line through
// bufio and does nothing with the lines: the floor the reader is measured
// against.
func BenchmarkBufioBaseline10MB(b *testing.B) {
	in := stream(10 << 20)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	defer reportCPU(b, cpuTime(b))
	for b.Loop() {
		sc := bufio.NewScanner(bytes.NewReader(in))
		sc.Buffer(make([]byte, bufSize), DefaultMaxLine)
		n := 0
		for sc.Scan() {
			n += len(sc.Bytes())
		}
		if sc.Err() != nil || n == 0 {
			b.Fatal(sc.Err(), n)
		}
	}
}

// BenchmarkBufioStringsBaseline10MB is the cheapest capture built on
// bufio: split lines with a Scanner and keep each data line as a string.
// It ignores every framing rule, so it only shows what the strings cost.
func BenchmarkBufioStringsBaseline10MB(b *testing.B) {
	in := stream(10 << 20)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	defer reportCPU(b, cpuTime(b))
	prefix := []byte("data: ")
	for b.Loop() {
		sc := bufio.NewScanner(bytes.NewReader(in))
		sc.Buffer(make([]byte, bufSize), DefaultMaxLine)
		var last string
		for sc.Scan() {
			if line := sc.Bytes(); bytes.HasPrefix(line, prefix) {
				last = string(line[len(prefix):])
			}
		}
		if sc.Err() != nil || last != "[DONE]" {
			b.Fatal(sc.Err(), last)
		}
	}
}

// BenchmarkReadSliceBaseline10MB is the cheapest bufio line loop,
// bufio.Reader.ReadSlice, for reference.
func BenchmarkReadSliceBaseline10MB(b *testing.B) {
	in := stream(10 << 20)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	defer reportCPU(b, cpuTime(b))
	for b.Loop() {
		br := bufio.NewReaderSize(bytes.NewReader(in), bufSize)
		n := 0
		for {
			line, err := br.ReadSlice('\n')
			n += len(line)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		if n != len(in) {
			b.Fatal(n)
		}
	}
}

func TestBenchmarkStreamParses(t *testing.T) {
	in := stream(1 << 16)
	events, err := Events(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(reference(in), events); d != "" {
		t.Fatalf("benchmark stream differs from the reference parser:\n%s", d)
	}
	if last := events[len(events)-1]; last.Data != "[DONE]" {
		t.Fatalf("last event %+v, want [DONE]", last)
	}
}
