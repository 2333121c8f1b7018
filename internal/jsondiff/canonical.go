package jsondiff

// Canonical re-encodes the JSON document b in canonical form:
//
//   - object members sorted by the bytes of their decoded keys;
//   - no whitespace between tokens;
//   - strings spelled one way: \" \\ \b \f \n \r \t, \u00xx for other
//     control characters, \udxxx for a lone surrogate, literal UTF-8 for
//     everything else (no HTML escaping, "/" unescaped);
//   - numbers, true, false and null exactly as written.
//
// Canonical(Canonical(b)) equals Canonical(b). Invalid input, including
// duplicate object keys and invalid UTF-8, gives a [*SyntaxError] naming the
// byte offset. The work is linear in len(b).
func Canonical(b []byte) ([]byte, error) {
	d, err := parse(b, "")
	if err != nil {
		return nil, err
	}
	return d.appendCanonical(make([]byte, 0, len(b)), 0), nil
}

// Equal reports whether a and b are the same JSON document up to key order,
// whitespace and string escaping, that is whether their canonical forms are
// equal. Numbers are compared by their literal text. Invalid input gives a
// [*SyntaxError] that calls a "want" and b "got".
func Equal(a, b []byte) (bool, error) {
	da, db, err := parsePair(a, b)
	if err != nil {
		return false, err
	}
	w := walker{a: da, b: db, stopAtFirst: true}
	w.walk(0, 0)
	return w.count == 0, nil
}

// parsePair parses the two documents of a comparison; errors name them
// "want" and "got".
func parsePair(want, got []byte) (*doc, *doc, error) {
	da, err := parse(want, "want")
	if err != nil {
		return nil, nil, err
	}
	db, err := parse(got, "got")
	if err != nil {
		return nil, nil, err
	}
	return da, db, nil
}

// appendCanonical appends the canonical encoding of node i.
func (d *doc) appendCanonical(dst []byte, i int32) []byte {
	n := &d.nodes[i]
	switch n.kind {
	case kindString:
		if n.flags&flagEscaped == 0 {
			return append(dst, d.src[n.start:n.end]...)
		}
		dst = append(dst, '"')
		dst = appendCanonicalBody(dst, d.src[n.start+1:n.end-1])
		return append(dst, '"')
	case kindArray:
		dst = append(dst, '[')
		for j, k := range d.children(i) {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = d.appendCanonical(dst, k)
		}
		return append(dst, ']')
	case kindObject:
		dst = append(dst, '{')
		for j, k := range d.children(i) {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = d.appendKey(dst, k)
			dst = append(dst, ':')
			dst = d.appendCanonical(dst, k)
		}
		return append(dst, '}')
	default: // number, true, false, null: the literal text
		return append(dst, d.src[n.start:n.end]...)
	}
}

// appendKey appends the canonical, quoted key of member node k.
func (d *doc) appendKey(dst []byte, k int32) []byte {
	n := &d.nodes[k]
	if n.flags&flagKeyArena == 0 {
		return append(dst, d.src[n.key0-1:n.key1+1]...)
	}
	return appendQuotedWTF8(dst, d.keys[n.key0:n.key1])
}
