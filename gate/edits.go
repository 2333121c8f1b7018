package gate

import "strings"

// An Edit is a run of head lines that differ from the base table: lines
// added or changed, From to To (1-based, inclusive). A deletion with no
// head line of its own is the head line after it (the last line when the
// deletion ends the file), with Deleted set.
type Edit struct {
	From    int  `json:"from"`
	To      int  `json:"to"`
	Deleted bool `json:"deleted,omitempty"`
}

// maxDiffCells bounds the line-matching table: a middle part of two files
// larger than this (after their common head and tail are cut) is reported
// as one edit.
const maxDiffCells = 8 << 20

// LineEdits returns the edits that turn base into head, in head order: the
// lines of a longest common subsequence are unchanged, every other head
// line is edited, and a run of base lines with no head line in its place
// is a deletion.
func LineEdits(base, head []byte) []Edit {
	b, h := lines(base), lines(head)
	pre := 0
	for pre < len(b) && pre < len(h) && b[pre] == h[pre] {
		pre++
	}
	suf := 0
	for suf < len(b)-pre && suf < len(h)-pre && b[len(b)-1-suf] == h[len(h)-1-suf] {
		suf++
	}
	bm, hm := b[pre:len(b)-suf], h[pre:len(h)-suf]
	if len(bm) == 0 && len(hm) == 0 {
		return nil
	}
	var e edits
	e.last = len(h)
	if len(bm)*len(hm) > maxDiffCells || len(bm) == 0 || len(hm) == 0 {
		if len(hm) == 0 {
			e.deleted(pre)
		} else {
			e.changed(pre, pre+len(hm)-1)
		}
		return e.out
	}
	// lcs[i][j] is the longest common subsequence of bm[i:] and hm[j:].
	w := len(hm) + 1
	lcs := make([]int32, (len(bm)+1)*w)
	for i := len(bm) - 1; i >= 0; i-- {
		for j := len(hm) - 1; j >= 0; j-- {
			switch {
			case bm[i] == hm[j]:
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
				lcs[i*w+j] = lcs[(i+1)*w+j]
			default:
				lcs[i*w+j] = lcs[i*w+j+1]
			}
		}
	}
	i, j := 0, 0
	for i < len(bm) || j < len(hm) {
		switch {
		case i < len(bm) && j < len(hm) && bm[i] == hm[j]:
			i, j = i+1, j+1
		case j < len(hm) && (i == len(bm) || lcs[i*w+j+1] >= lcs[(i+1)*w+j]):
			e.changed(pre+j, pre+j)
			j++
		default:
			e.deleted(pre + j)
			i++
		}
	}
	return e.out
}

// edits collects edits, merging each with the one before it when they
// touch.
type edits struct {
	out  []Edit
	last int // the head's line count
}

// changed records head lines from..to (0-based).
func (e *edits) changed(from, to int) { e.add(Edit{From: from + 1, To: to + 1}) }

// deleted records base lines removed before head line at (0-based).
func (e *edits) deleted(at int) {
	line := min(at+1, e.last)
	e.add(Edit{From: max(line, 1), To: max(line, 1), Deleted: true})
}

func (e *edits) add(n Edit) {
	k := len(e.out) - 1
	if k >= 0 && n.Deleted && n.From <= e.out[k].To+1 {
		return // lines deleted right after an edit are that edit's
	}
	if k >= 0 && n.From <= e.out[k].To+1 {
		e.out[k].To = max(e.out[k].To, n.To)
		e.out[k].Deleted = e.out[k].Deleted && n.Deleted
		return
	}
	e.out = append(e.out, n)
}

// lines splits a file into lines without their line ends.
func lines(b []byte) []string {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
