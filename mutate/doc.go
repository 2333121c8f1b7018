// Package mutate measures how much of the route table the gate sees. It
// makes the single-edit mutants of a matrix.yaml (drop an entry, a carrier
// or a rule; flip a boolean; change an enum; move a threshold; change a
// flag value; drop, merge, split or reorder first-match-wins rules), judges
// each through the gate's evaluation against the committed cassettes, and
// sorts them into killed (a regression is named), noticed (cells change,
// none regresses), survived (no cell changes, but some route's decision
// does), unverified (a cell the edit changes has no recorded answer) and
// equivalent (no route the table can be reached by decides differently;
// a probe route whose host, by a provider profile's `serves` declaration,
// serves no such model is no route anyone takes, see [Unserved]). A
// survivor the table declares (survivors: in matrix.yaml) is listed with
// the recording nobody has published that would kill it, and a
// declaration whose mutant does not survive is stale ([StaleSurvivor]).
// Route decisions are compared first, which is cheap; only the cells of
// routes whose decision changed are replayed.
//
// It also reports the table's coverage: which match entries some target or
// alias reaches, and which are declared unreachable.
package mutate
