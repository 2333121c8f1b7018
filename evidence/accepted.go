package evidence

import (
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// An acceptIndex is what a target's recordings show its provider
// accepting on assistant turns: every path (array positions generalised)
// with the kinds of value it held, and every opaque carrier value, each
// with the first exchange that shows it. A finding of "more" is no
// failure when the index shows the same path and kind accepted.
type acceptIndex struct {
	paths  map[string]string
	opaque map[string]string
}

// generalise drops array positions from a path: content.0.text and
// content.(engine 2).text are both content.#.text.
func generalise(path []string) string {
	out := make([]string, len(path))
	for i, s := range path {
		if _, err := strconv.Atoi(s); err == nil || strings.HasPrefix(s, "(engine ") {
			s = "#"
		}
		out[i] = s
	}
	return strings.Join(out, ".")
}

// shows reports which exchange shows path accepted with a value of kind.
func (a *acceptIndex) shows(path []string, kind string) (string, bool) {
	if a == nil {
		return "", false
	}
	where, ok := a.paths[generalise(path)+"|"+kind]
	return where, ok
}

// buildIndex indexes the assistant turns of every accepted recorded
// request of the target's exchanges.
func buildIndex(mode engine.APIMode, xs []*exchange) *acceptIndex {
	a := &acceptIndex{paths: map[string]string{}, opaque: map[string]string{}}
	w, ok := wireOf(mode)
	if !ok {
		return a
	}
	for _, x := range xs {
		if !x.ok() || x.responseOnly() {
			continue
		}
		for _, t := range w.turns([]byte(x.it.Request.Body)) {
			if t.assistant {
				a.index(nil, t.v, x.id())
			}
		}
	}
	return a
}

func (a *acceptIndex) index(path []string, v gjson.Result, where string) {
	key := generalise(path) + "|" + kindOf(v)
	if _, seen := a.paths[key]; !seen {
		a.paths[key] = where
	}
	switch {
	case v.IsObject():
		for _, k := range keys(v) {
			m := member(v, k)
			if isOpaque(k, v) && m.Type == gjson.String {
				if _, seen := a.opaque[m.Str]; !seen {
					a.opaque[m.Str] = where
				}
			}
			a.index(with(path, escapeKey(k)), m, where)
		}
	case v.IsArray():
		for i, e := range v.Array() {
			a.index(with(path, strconv.Itoa(i)), e, where)
		}
	}
}
