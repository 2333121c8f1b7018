package matrix

import "go.yaml.in/yaml/v3"

// loadDialects reads the native dialects' policies (anthropic,
// bedrock_converse) into the table.
func loadDialects(w walker, top map[string]*yaml.Node, f *File) error {
	return nil
}
