package matrix

import (
	"github.com/replaycheck/replaycheck/engine"
	"go.yaml.in/yaml/v3"
)

// versionedFamily is one entry of a Claude family list: a family name and
// the version given under the list's key, if any.
type versionedFamily struct {
	name string
	from *engine.ModelVersion
}

// families reads a list of {name, KEY} Claude families (section names it
// in errors): lower-case names, each once, and a version under key when
// given.
func (w walker) families(n *yaml.Node, section, key string) ([]versionedFamily, error) {
	items, err := w.sequence(n, section+" families")
	if err != nil {
		return nil, err
	}
	var out []versionedFamily
	seen := map[string]bool{}
	for _, it := range items {
		fm, err := w.mapping(it, section+" family", "name", key)
		if err != nil {
			return nil, err
		}
		var f versionedFamily
		if f.name, err = w.str(fm["name"], section+" family name"); err != nil {
			return nil, err
		}
		if !familyName.MatchString(f.name) {
			return nil, w.errf(it, "%s family: name %q must be lower-case letters", section, f.name)
		}
		if seen[f.name] {
			return nil, w.errf(fm["name"], "%s family: duplicate name %q", section, f.name)
		}
		seen[f.name] = true
		if fm[key] != nil {
			v, err := w.version(fm[key], section+" family "+f.name+" "+key)
			if err != nil {
				return nil, err
			}
			f.from = &v
		}
		out = append(out, f)
	}
	return out, nil
}
