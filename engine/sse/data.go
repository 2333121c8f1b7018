package sse

import "strings"

// Event data is copied once, from the line buffer into a slab shared by
// many events, and each Data string is a slice of the slab: one allocation
// per slab instead of one per event, and no zeroing (strings.Builder
// allocates uninitialised memory). This is safe because a strings.Builder
// never changes bytes it has written, and a full slab is replaced, not
// grown, with the pending event's bytes carried over.

// A slab starts at minSlab bytes and doubles up to maxSlab; an event
// larger than that gets a slab of its own.
const (
	minSlab = 4 << 10
	maxSlab = 256 << 10
)

// data is the data buffer of the block being read: slab.String()[mark:],
// or scratch when the caller reads transient data ([Reader.NextRaw]).
type data struct {
	hasData   bool
	slab      *strings.Builder
	mark      int
	transient bool
	scratch   []byte
}

// addData adds one data line, after a "\n" if it is not the first.
func (d *data) addData(value []byte) {
	if d.transient {
		if d.hasData {
			d.scratch = append(d.scratch, '\n')
		}
		d.scratch = append(d.scratch, value...)
		d.hasData = true
		return
	}
	n := len(value)
	if d.hasData {
		n++
	}
	if d.slab == nil || d.slab.Cap()-d.slab.Len() < n {
		d.newSlab(n)
	}
	if d.hasData {
		d.slab.WriteByte('\n')
	}
	d.slab.Write(value)
	d.hasData = true
}

// newSlab replaces the slab by one with room for n more bytes of the
// current event, carrying over the event's bytes so far.
func (d *data) newSlab(n int) {
	pending, size := "", minSlab
	if d.slab != nil {
		pending = d.slab.String()[d.mark:]
		size = min(2*d.slab.Cap(), maxSlab)
	}
	next := new(strings.Builder)
	next.Grow(max(len(pending)+n, size))
	next.WriteString(pending)
	d.slab, d.mark = next, 0
}

// takeData returns the data of the current block and starts a new one.
func (d *data) takeData() string {
	all := d.slab.String()
	s := all[d.mark:]
	d.mark, d.hasData = len(all), false
	return s
}

// takeBytes returns the transient data of the current block, valid until
// the buffer is next written, and starts a new block.
func (d *data) takeBytes() []byte {
	b := d.scratch
	d.scratch, d.hasData = d.scratch[:0], false
	return b
}

// dropData forgets the data of the current block; in a slab its bytes
// stay unused.
func (d *data) dropData() {
	switch {
	case !d.hasData:
	case d.transient:
		d.scratch, d.hasData = d.scratch[:0], false
	default:
		d.mark, d.hasData = d.slab.Len(), false
	}
}
