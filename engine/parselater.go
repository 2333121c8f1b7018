package engine

import (
	"runtime"
	"sync"

	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
)

// minLater is the shortest string body that is checked and decoded after
// the document is read, on every core, rather than where it stands.
const minLater = 4 << 10

// laterStr is a reasoning string whose form has been found but neither
// checked nor decoded: decodeLater does both, and writes it to dst.
type laterStr struct {
	form []byte // quotes included
	dst  *string
}

// later consumes a string at least minLater long, if one comes next, and
// puts off checking and decoding it: it finds only the string's end,
// with a search for a quote, and returns where the string will be.
func (s *scanner) later() (*string, bool) {
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false
	}
	n := jsonscan.ClosingQuote(s.b[s.i+1:])
	if n < minLater {
		return nil, false
	}
	form := s.b[s.i : s.i+n+2 : s.i+n+2]
	s.i += n + 2
	dst := new(string)
	s.laters = append(s.laters, laterStr{form: form, dst: dst})
	s.laterBytes += len(form)
	return dst, true
}

// decodeLater decodes the strings put off while the document was read,
// split by size among the cores, and keeps their canonical forms in
// s.quoted. It gives up with errSlow as str does.
func (s *scanner) decodeLater() error {
	workers := min(runtime.GOMAXPROCS(0), 4, len(s.laters))
	if workers == 0 {
		return nil
	}
	kept := make([][]laterStr, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	from, share := 0, s.laterBytes/workers+1
	for w := range workers {
		to, n := from, 0
		for to < len(s.laters) && (n < share || w == workers-1) {
			n += len(s.laters[to].form)
			to++
		}
		part := s.laters[from:to]
		from = to
		work := func() { kept[w], errs[w] = decodeEach(part) }
		if w == workers-1 {
			work()
			continue
		}
		wg.Go(work)
	}
	wg.Wait()
	for w := range workers {
		if errs[w] != nil {
			return errs[w]
		}
		for _, l := range kept[w] {
			s.quoted.keep(*l.dst, l.form)
		}
	}
	s.laters, s.laterBytes = nil, 0
	return nil
}

// decodeEach checks and decodes each string and returns those whose
// forms are canonical.
func decodeEach(part []laterStr) ([]laterStr, error) {
	var canonicals []laterStr
	for _, l := range part {
		body := l.form[1 : len(l.form)-1]
		n, escaped := jsonscan.StringEnd(l.form[1:])
		if n != len(body) {
			return nil, errSlow
		}
		v, canonical, err := decodeStr(body, escaped)
		if err != nil {
			return nil, err
		}
		*l.dst = v
		if canonical {
			canonicals = append(canonicals, l)
		}
	}
	return canonicals, nil
}
