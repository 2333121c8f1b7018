package agent

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// A Tool is one tool a request declares: its name and its JSON schema.
type Tool struct {
	Name   string
	Schema []byte
}

// Declared lists the tools a request body declares, in the api mode's
// shape (chat tools[].function, anthropic tools[], bedrock-converse
// toolConfig.tools[].toolSpec, gemini tools[].functionDeclarations[],
// responses tools[] of type function).
func Declared(mode string, body []byte) []Tool {
	root := gjson.ParseBytes(body)
	var out []Tool
	add := func(name string, schema gjson.Result) {
		if name != "" {
			out = append(out, Tool{Name: name, Schema: []byte(schema.Raw)})
		}
	}
	switch mode {
	case "chat":
		for _, t := range root.Get("tools").Array() {
			add(t.Get("function.name").String(), t.Get("function.parameters"))
		}
		for _, f := range root.Get("functions").Array() {
			add(f.Get("name").String(), f.Get("parameters"))
		}
	case "anthropic":
		for _, t := range root.Get("tools").Array() {
			add(t.Get("name").String(), t.Get("input_schema"))
		}
	case "bedrock-converse":
		for _, t := range root.Get("toolConfig.tools").Array() {
			add(t.Get("toolSpec.name").String(), t.Get("toolSpec.inputSchema.json"))
		}
	case "gemini":
		for _, t := range root.Get("tools").Array() {
			for _, f := range t.Get("functionDeclarations").Array() {
				schema := f.Get("parameters")
				if !schema.Exists() {
					schema = f.Get("parametersJsonSchema")
				}
				add(f.Get("name").String(), schema)
			}
		}
	case "responses":
		for _, t := range root.Get("tools").Array() {
			if t.Get("type").String() == "function" {
				add(t.Get("name").String(), t.Get("parameters"))
			}
		}
	}
	return out
}

// readOnlyHints are the words of tool names that read rather than write
// or run, in order of preference: the simulator calls such a tool unless
// told which.
var readOnlyHints = []string{"read", "view", "list", "ls", "glob"}

// Pick chooses the tool to call: want when given (an error names the
// declared tools when the request does not declare it), else the first
// whose name reads rather than writes, else the first declared.
func Pick(tools []Tool, want string) (Tool, error) {
	if len(tools) == 0 {
		return Tool{}, fmt.Errorf("the request declares no tools")
	}
	if want != "" {
		var names []string
		for _, t := range tools {
			if t.Name == want {
				return t, nil
			}
			names = append(names, t.Name)
		}
		return Tool{}, fmt.Errorf("--tool %q: the request declares no such tool (it declares %s)", want, strings.Join(names, ", "))
	}
	for _, hint := range readOnlyHints {
		for _, t := range tools {
			if strings.Contains(strings.ToLower(t.Name), hint) {
				return t, nil
			}
		}
	}
	return tools[0], nil
}
