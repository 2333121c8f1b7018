package gate

import (
	"fmt"
	"os"
	"strings"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// needCassettes says what a gate needs to judge anything.
const needCassettes = "the gate judges a route table by the cassettes recorded for its targets " +
	"(DIR/<target>/<scenario>.yaml): commit them beside the table, or record them with " +
	"replaycheck record --target ID (live, with a key) or --simulate (from the target's provider profile)"

// CheckCassettes refuses a cassette directory a gate on head could judge
// nothing with: one that does not exist, or that holds no cassette for a
// target of head to which some scenario applies. Such a gate would find
// every cell unverified in both tables, and so no change at all.
func CheckCassettes(head *matrix.File, profiles map[string]*providers.Profile, dir string) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		what := "no such directory"
		if err == nil {
			what = "not a directory"
		}
		return fmt.Errorf("cassettes %s: %s: %s", dir, what, needCassettes)
	}
	var bare []string
	for _, t := range head.Targets {
		p, ok := profiles[t.Profile]
		if !ok {
			continue // the target's cells name the missing profile
		}
		applies, found := false, false
		for _, sc := range scenario.All() {
			if ok, _ := sc.Applies(t, p); !ok {
				continue
			}
			applies = true
			if _, err := os.Stat(harness.Path(dir, t.ID, sc.Name)); err == nil {
				found = true
				break
			}
		}
		if applies && !found {
			bare = append(bare, t.ID)
		}
	}
	switch len(bare) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("cassettes %s: no cassette for target %s, which %s judges: %s", dir, bare[0], head.Path, needCassettes)
	}
	return fmt.Errorf("cassettes %s: no cassette for %d targets %s judges (%s): %s", dir, len(bare), head.Path, list(bare, 8), needCassettes)
}

// list joins the first max names, saying how many more there are.
func list(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:max], ", "), len(names)-max)
}
