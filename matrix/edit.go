package matrix

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// An Edit is one change of a matrix.yaml document, made on its text so that
// every comment and the layout of everything else stay as they are. It
// either adds a new item to a list, or adds values to a list of an item
// already there. `replaycheck probe` proposes its target and table change
// as edits, and `replaycheck adopt` applies them ([Apply]).
type Edit struct {
	// List is the dotted path of a list of the document: targets,
	// echo_families, carrier_routes, native_fields, anthropic.routes,
	// responses.families, bedrock_converse.models.
	List string `yaml:"list"`
	// Item, when set, is a new item of the list: one line of YAML (a flow
	// mapping), written without the leading "- ".
	Item string `yaml:"item,omitempty"`
	// First puts Item first in the list (where first match wins, a more
	// specific item must come first); otherwise it goes last.
	First bool `yaml:"first,omitempty"`
	// Join names an item of the list by its id (or its name, for echo
	// families); Field names one of its lists, and Values are added to it.
	Join   string   `yaml:"join,omitempty"`
	Field  string   `yaml:"field,omitempty"`
	Values []string `yaml:"values,omitempty"`
	// Why says what the edit does and on what evidence.
	Why string `yaml:"why,omitempty"`
}

// Apply makes the edits on a matrix.yaml document, in order, and returns
// the new text. It does not validate the result; [Parse] does.
func Apply(doc []byte, edits []Edit) ([]byte, error) {
	for i, e := range edits {
		var err error
		if doc, err = e.apply(doc); err != nil {
			return nil, fmt.Errorf("edit %d (%s): %w", i+1, e.List, err)
		}
	}
	return doc, nil
}

func (e Edit) apply(doc []byte) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil {
		return nil, err
	}
	if len(root.Content) == 0 {
		return nil, fmt.Errorf("empty document")
	}
	list, next, err := findList(root.Content[0], strings.Split(e.List, "."))
	if err != nil {
		return nil, err
	}
	lines := splitLines(doc)
	switch {
	case e.Item != "" && e.Join != "":
		return nil, fmt.Errorf("an edit adds an item or joins one, not both")
	case e.Item != "":
		return e.addItem(lines, list, next)
	case e.Join != "":
		return e.join(lines, list)
	}
	return nil, fmt.Errorf("the edit neither adds an item nor joins one")
}

// findList walks a mapping along path to a block sequence. next is the
// line of whatever follows the list in the document (0 at the end): the
// list's last item ends before it.
func findList(n *yaml.Node, path []string) (*yaml.Node, int, error) {
	next := 0
	for depth, key := range path {
		if n.Kind != yaml.MappingNode {
			return nil, 0, fmt.Errorf("%s is not a mapping", strings.Join(path[:depth], "."))
		}
		var val *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value != key {
				continue
			}
			val = n.Content[i+1]
			if i+2 < len(n.Content) {
				next = n.Content[i+2].Line
			}
		}
		if val == nil {
			return nil, 0, fmt.Errorf("no %s in the document: add it by hand", strings.Join(path[:depth+1], "."))
		}
		n = val
	}
	if n.Kind != yaml.SequenceNode || n.Style&yaml.FlowStyle != 0 || len(n.Content) == 0 {
		return nil, 0, fmt.Errorf("%s is not a block list with an item: add the item by hand", strings.Join(path, "."))
	}
	return n, next, nil
}

// addItem inserts "- Item", indented as the list's first item, first or
// after the last item's last line.
func (e Edit) addItem(lines [][]byte, list *yaml.Node, next int) ([]byte, error) {
	first := list.Content[0].Line
	dash, ok := dashPrefix(lines, first)
	if !ok {
		return nil, fmt.Errorf("line %d: cannot find the list's dash", first)
	}
	item := dash + strings.TrimSpace(e.Item)
	if e.First {
		return insertLine(lines, first-1, item), nil
	}
	end := len(lines)
	if next > 0 {
		end = next - 1
	}
	last := list.Content[len(list.Content)-1].Line
	for end > last && isBlankOrComment(lines[end-1]) {
		end--
	}
	return insertLine(lines, end, item), nil
}

// join adds Values to the list Field of the item whose id (or name) is
// Join.
func (e Edit) join(lines [][]byte, list *yaml.Node) ([]byte, error) {
	var field *yaml.Node
	for _, it := range list.Content {
		if it.Kind != yaml.MappingNode {
			continue
		}
		var id string
		var f *yaml.Node
		for i := 0; i+1 < len(it.Content); i += 2 {
			switch k := it.Content[i].Value; {
			case k == "id" || k == "name":
				id = it.Content[i+1].Value
			case k == e.Field:
				f = it.Content[i+1]
			}
		}
		if id == e.Join {
			if f == nil {
				return nil, fmt.Errorf("%s %s has no %s: add it by hand", e.List, e.Join, e.Field)
			}
			field = f
		}
	}
	switch {
	case field == nil:
		return nil, fmt.Errorf("no item %q", e.Join)
	case field.Kind != yaml.SequenceNode:
		return nil, fmt.Errorf("%s %s: %s is not a list", e.List, e.Join, e.Field)
	case field.Style&yaml.FlowStyle != 0:
		return joinFlow(lines, field, e.Values)
	}
	last := field.Content[len(field.Content)-1].Line
	dash, ok := dashPrefix(lines, last)
	if !ok {
		return nil, fmt.Errorf("line %d: cannot find the list's dash", last)
	}
	for i, v := range e.Values {
		lines = insertLineLines(lines, last+i, dash+v)
	}
	return bytes.Join(lines, nil), nil
}

// joinFlow adds values to a flow list written on one line ([a, b]).
func joinFlow(lines [][]byte, field *yaml.Node, values []string) ([]byte, error) {
	line, col := field.Line, field.Column
	if n := len(field.Content); n > 0 {
		line, col = field.Content[n-1].Line, field.Content[n-1].Column
	}
	text := lines[line-1]
	end := bytes.IndexByte(text[col-1:], ']')
	if end < 0 {
		return nil, fmt.Errorf("line %d: the list does not close on its line: add the values by hand", line)
	}
	at := col - 1 + end
	add := strings.Join(values, ", ")
	if len(field.Content) > 0 {
		add = ", " + add
	}
	out := append(append(append([]byte{}, text[:at]...), add...), text[at:]...)
	lines[line-1] = out
	return bytes.Join(lines, nil), nil
}

// dashPrefix returns the text of line n (1-based) up to and including its
// list dash and the space after it.
func dashPrefix(lines [][]byte, n int) (string, bool) {
	if n < 1 || n > len(lines) {
		return "", false
	}
	text := lines[n-1]
	i := 0
	for i < len(text) && text[i] == ' ' {
		i++
	}
	if i+1 >= len(text) || text[i] != '-' || text[i+1] != ' ' {
		return "", false
	}
	return string(text[:i+2]), true
}

func isBlankOrComment(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) == 0 || t[0] == '#'
}

// splitLines splits a document into lines, each keeping its newline.
func splitLines(doc []byte) [][]byte {
	var out [][]byte
	for len(doc) > 0 {
		i := bytes.IndexByte(doc, '\n')
		if i < 0 {
			out = append(out, append([]byte{}, doc...))
			break
		}
		out = append(out, append([]byte{}, doc[:i+1]...))
		doc = doc[i+1:]
	}
	return out
}

// insertLine inserts text as a line after the first n lines and joins.
func insertLine(lines [][]byte, n int, text string) []byte {
	return bytes.Join(insertLineLines(lines, n, text), nil)
}

func insertLineLines(lines [][]byte, n int, text string) [][]byte {
	if n > 0 && !bytes.HasSuffix(lines[n-1], []byte("\n")) {
		lines[n-1] = append(lines[n-1], '\n')
	}
	out := make([][]byte, 0, len(lines)+1)
	out = append(out, lines[:n]...)
	out = append(out, []byte(text+"\n"))
	return append(out, lines[n:]...)
}
