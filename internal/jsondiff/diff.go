package jsondiff

import "bytes"

// Absent is the Want or Got text of a [Difference] whose path exists in
// only one of the two documents.
const Absent = "(absent)"

// Difference is one place where two JSON documents disagree.
type Difference struct {
	// Path locates the value in gjson dot syntax from the document root,
	// for example "messages.1.reasoning_content". Array elements are
	// numbered from 0; keys have gjson's special characters (".", "*",
	// "?" and the rest) escaped with a backslash, as gjson.Escape does.
	// The empty path is the whole document.
	Path string
	// Want is the canonical JSON text of the value in the wanted document,
	// or Absent. Text longer than 120 bytes is cut and ends in "…(+N bytes)".
	Want string
	// Got is the same for the document that was received.
	Got string
}

// Diff compares two JSON documents structurally and returns every
// difference. Objects are compared key by key, arrays index by index: an
// element present on one side only is one Difference at its index. A value
// whose type differs, or that exists on one side only, is reported once at
// its own path, not once per leaf below it.
//
// The result is ordered by path, segment by segment: keys in byte order of
// the decoded key, array indices in numeric order. It is nil when the
// documents are [Equal]. Invalid input gives a [*SyntaxError] that names
// the document ("want" or "got") and the byte offset.
func Diff(want, got []byte) ([]Difference, error) {
	da, db, err := parsePair(want, got)
	if err != nil {
		return nil, err
	}
	w := walker{a: da, b: db, collect: true}
	w.walk(0, 0)
	return w.diffs, nil
}

// Distance scores how far got is from want, for picking the nearest
// recorded interaction when none matches exactly. It is the number of leaf
// values that would have to change to turn one document into the other:
// each [Difference] counts the larger of the number of leaves (scalars and
// empty containers) on its two sides, so a missing message with ten fields
// weighs ten and a changed string weighs one. Distance is 0 exactly when
// the documents are [Equal], and it builds no paths or value texts.
func Distance(want, got []byte) (int, error) {
	da, db, err := parsePair(want, got)
	if err != nil {
		return 0, err
	}
	w := walker{a: da, b: db}
	w.walk(0, 0)
	return w.distance, nil
}

// segment is one step of a path: an object key (decoded) or an array index.
type segment struct {
	key   []byte
	index int
	isKey bool
}

// walker compares two parsed documents node by node.
type walker struct {
	a, b        *doc
	collect     bool // build Differences
	stopAtFirst bool // stop at the first difference (Equal)

	count    int
	distance int
	diffs    []Difference
	path     []segment
	sa, sb   []byte // scratch for string comparison and value text
}

// walk compares node ai of a with node bi of b; both exist.
func (w *walker) walk(ai, bi int32) {
	if w.stopAtFirst && w.count > 0 {
		return
	}
	na, nb := &w.a.nodes[ai], &w.b.nodes[bi]
	if na.kind != nb.kind {
		w.report(ai, bi)
		return
	}
	switch na.kind {
	case kindNumber:
		if !bytes.Equal(w.a.src[na.start:na.end], w.b.src[nb.start:nb.end]) {
			w.report(ai, bi)
		}
	case kindString:
		if !w.sameString(na, nb) {
			w.report(ai, bi)
		}
	case kindArray:
		ka, kb := w.a.children(ai), w.b.children(bi)
		for j := 0; j < max(len(ka), len(kb)); j++ {
			w.path = append(w.path, segment{index: j})
			switch {
			case j >= len(ka):
				w.report(-1, kb[j])
			case j >= len(kb):
				w.report(ka[j], -1)
			default:
				w.walk(ka[j], kb[j])
			}
			w.path = w.path[:len(w.path)-1]
		}
	case kindObject:
		ka, kb := w.a.children(ai), w.b.children(bi)
		for len(ka) > 0 || len(kb) > 0 {
			var c int
			switch {
			case len(ka) == 0:
				c = 1
			case len(kb) == 0:
				c = -1
			default:
				c = bytes.Compare(w.a.key(ka[0]), w.b.key(kb[0]))
			}
			switch {
			case c < 0:
				w.path = append(w.path, segment{key: w.a.key(ka[0]), isKey: true})
				w.report(ka[0], -1)
				ka = ka[1:]
			case c > 0:
				w.path = append(w.path, segment{key: w.b.key(kb[0]), isKey: true})
				w.report(-1, kb[0])
				kb = kb[1:]
			default:
				w.path = append(w.path, segment{key: w.a.key(ka[0]), isKey: true})
				w.walk(ka[0], kb[0])
				ka, kb = ka[1:], kb[1:]
			}
			w.path = w.path[:len(w.path)-1]
		}
	}
	// true, false and null are equal when their kinds are.
}

// sameString compares two string nodes by their canonical spelling.
func (w *walker) sameString(na, nb *node) bool {
	ra := w.a.src[na.start+1 : na.end-1]
	rb := w.b.src[nb.start+1 : nb.end-1]
	if na.flags&flagEscaped == 0 && nb.flags&flagEscaped == 0 {
		return bytes.Equal(ra, rb)
	}
	w.sa = appendCanonicalBody(w.sa[:0], ra)
	w.sb = appendCanonicalBody(w.sb[:0], rb)
	return bytes.Equal(w.sa, w.sb)
}

// report records a difference at the current path; -1 means absent.
func (w *walker) report(ai, bi int32) {
	w.count++
	w.distance += max(leaves(w.a, ai), leaves(w.b, bi))
	if !w.collect {
		return
	}
	w.diffs = append(w.diffs, Difference{
		Path: string(appendPath(nil, w.path)),
		Want: w.valueText(w.a, ai),
		Got:  w.valueText(w.b, bi),
	})
}

// valueText returns the shortened canonical text of node i, or Absent.
func (w *walker) valueText(d *doc, i int32) string {
	if i < 0 {
		return Absent
	}
	w.sa = d.appendCanonical(w.sa[:0], i)
	return shorten(w.sa)
}

// leaves counts the scalars and empty containers in the subtree at i; an
// absent node (-1) has none.
func leaves(d *doc, i int32) int {
	if i < 0 {
		return 0
	}
	n := &d.nodes[i]
	if (n.kind != kindArray && n.kind != kindObject) || n.nkid == 0 {
		return 1
	}
	total := 0
	for _, k := range d.children(i) {
		total += leaves(d, k)
	}
	return total
}
