package mutate

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// A Mutant is one single edit of a route table.
type Mutant struct {
	// ID numbers the mutant in generation order, from 1.
	ID int
	// Operator is the kind of edit ("drop-entry").
	Operator string
	// Edit says what the edit does: "drop groq.com from carrier_routes[strict].hosts".
	Edit string
	// Line is the line of the edited entry in the original matrix.yaml.
	Line int
	// Section is the top-level section the edit is in ("anthropic").
	Section string
	// Source is the edited document.
	Source []byte
}

// Generate returns the single-edit mutants of a matrix.yaml document, in
// operator order and, within an operator, in file order. name is used in
// error positions.
func Generate(name string, src []byte) ([]Mutant, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: not a route table (want a mapping of sections)", name)
	}
	top := doc.Content[0]
	// A mutant is a route table: the targets, known failures, advisories,
	// unreachable and survivor declarations are the base's, so an edit that
	// leaves a declaration stale, or an alias on another platform, is
	// judged rather than refused.
	var kept []*yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		switch top.Content[i].Value {
		case "targets", "known_failures", "advisories", "unreachable", "survivors":
		default:
			kept = append(kept, top.Content[i], top.Content[i+1])
		}
	}
	top.Content = kept
	var out []Mutant
	for _, op := range operators {
		for _, e := range op.edits(top) {
			undo := e.apply()
			var b bytes.Buffer
			enc := yaml.NewEncoder(&b)
			enc.SetIndent(2)
			err := enc.Encode(&doc)
			undo()
			if err != nil {
				return nil, fmt.Errorf("%s: mutant %q: %w", name, e.what, err)
			}
			out = append(out, Mutant{ID: len(out) + 1, Operator: op.name, Edit: e.what, Line: e.line, Section: e.section, Source: b.Bytes()})
		}
	}
	return out, nil
}
