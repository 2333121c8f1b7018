// Package textbuf accumulates a long text from many small pieces, as a
// stream delivers reasoning and answer text, without copying what it
// already holds: pieces go into chunks that double in size up to a cap, so
// growing never moves earlier bytes, and [Buffer.String] joins the chunks
// once, into a string of exactly the text's length.
//
// A strings.Builder grows by reallocating: a 6 MB text fed in 100-byte
// pieces costs every earlier byte a copy per growth step and leaves the
// abandoned buffers to the collector. On the capture of long streams that
// growth is most of the work that is not parsing.
package textbuf

import "strings"

const (
	firstChunk = 256
	maxChunk   = 1 << 20
)

// A Buffer is a text built from appended pieces. The zero value is empty
// and ready to use.
type Buffer struct {
	chunks [][]byte
	n      int
}

// Write appends p; it never fails.
func (b *Buffer) Write(p []byte) (int, error) {
	b.n += len(p)
	for len(p) > 0 {
		c := b.tail(len(p))
		k := min(len(p), cap(*c)-len(*c))
		*c = append(*c, p[:k]...)
		p = p[k:]
	}
	return b.n, nil
}

// WriteString appends s; it never fails.
func (b *Buffer) WriteString(s string) (int, error) {
	b.n += len(s)
	for len(s) > 0 {
		c := b.tail(len(s))
		k := min(len(s), cap(*c)-len(*c))
		*c = append(*c, s[:k]...)
		s = s[k:]
	}
	return b.n, nil
}

// tail returns the last chunk, adding one when it is full: twice the size
// of the last, up to maxChunk, and at least the size of the piece to come
// when that is smaller than the cap.
func (b *Buffer) tail(want int) *[]byte {
	if k := len(b.chunks); k > 0 && len(b.chunks[k-1]) < cap(b.chunks[k-1]) {
		return &b.chunks[k-1]
	}
	size := firstChunk
	if k := len(b.chunks); k > 0 {
		size = min(2*cap(b.chunks[k-1]), maxChunk)
	}
	size = max(size, min(want, maxChunk))
	b.chunks = append(b.chunks, make([]byte, 0, size))
	return &b.chunks[len(b.chunks)-1]
}

// Len returns the length of the text in bytes.
func (b *Buffer) Len() int { return b.n }

// String returns the text, joined in one allocation of its exact length.
func (b *Buffer) String() string {
	switch len(b.chunks) {
	case 0:
		return ""
	case 1:
		return string(b.chunks[0])
	}
	var s strings.Builder
	s.Grow(b.n)
	for _, c := range b.chunks {
		s.Write(c)
	}
	return s.String()
}
