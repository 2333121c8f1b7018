package main

import (
	"flag"
	"regexp"
	"strings"
)

// suggest returns the candidate nearest to word by edit distance, when it
// is near enough to be a typo of it (at most a third of its letters off,
// and at least one), or "".
func suggest(word string, candidates []string) string {
	best, bestDist := "", max(1, len(word)/3)+1
	for _, c := range candidates {
		if d := editDistance(word, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, counting a swap of
// two neighbouring letters as one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// undefinedFlag finds the flag name in the flag package's error for an
// unknown flag ("flag provided but not defined: -taget").
var undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -+(.+)$`)

// flagHint returns "did you mean --target?" for a flag error naming a flag
// near one of fs's, or "".
func flagHint(fs *flag.FlagSet, err error) string {
	m := undefinedFlag.FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	name, _, _ := strings.Cut(m[1], "=")
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if s := suggest(name, names); s != "" {
		return "did you mean --" + s + "?"
	}
	return ""
}
