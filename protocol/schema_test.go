package protocol

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
)

// schemaDoc is the part of schema/v1.json the test reads.
type schemaDoc struct {
	Schema string                `json:"$schema"`
	Defs   map[string]schemaNode `json:"$defs"`
}

type schemaNode struct {
	Properties           map[string]json.RawMessage `json:"properties"`
	Required             []string                   `json:"required"`
	AdditionalProperties *bool                      `json:"additionalProperties"`
	Enum                 []string                   `json:"enum"`
	OneOf                []struct {
		Required []string `json:"required"`
	} `json:"oneOf"`
}

func loadSchema(t *testing.T) schemaDoc {
	t.Helper()
	b, err := os.ReadFile("schema/v1.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc schemaDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("schema/v1.json: %v", err)
	}
	return doc
}

// TestSchemaMatchesTypes keeps schema/v1.json and the Go types the same
// schema: every object definition lists exactly the type's JSON fields,
// requires exactly those without omitempty, and refuses other keys.
func TestSchemaMatchesTypes(t *testing.T) {
	doc := loadSchema(t)
	if doc.Schema != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %q, want draft 2020-12", doc.Schema)
	}
	types := []struct {
		def    string
		typ    reflect.Type
		reason string
	}{
		{"route", reflect.TypeFor[Route](), "requests carry routes"},
		{"options", reflect.TypeFor[Options](), "shape carries the request options"},
		{"tool", reflect.TypeFor[Tool](), "options carry tools"},
		{"decision", reflect.TypeFor[Decision](), "decide answers a decision"},
		{"flag", reflect.TypeFor[Flag](), "decisions carry flags"},
		{"reply", reflect.TypeFor[Reply](), "every reply is this envelope"},
		{"unsupported", reflect.TypeFor[Unsupported](), "unsupported steps give n/a"},
		{"error", reflect.TypeFor[StepFailure](), "failed steps fail the cell"},
		{"implementation", reflect.TypeFor[Implementation](), "hello names the implementation"},
		{"hello_result", reflect.TypeFor[Hello](), "hello answers capabilities"},
		{"body_result", reflect.TypeFor[BodyResult](), "shape answers a body"},
		{"message_result", reflect.TypeFor[MessageResult](), "capture answers a message"},
		{"learn_result", reflect.TypeFor[LearnResult](), "learn answers a verdict"},
		{"estimate_result", reflect.TypeFor[EstimateResult](), "estimate answers tokens"},
		{"compact_result", reflect.TypeFor[CompactResult](), "compact answers a session and counts"},
		{"session_result", reflect.TypeFor[SessionResult](), "branch and reload answer a session"},
		{"bye_result", reflect.TypeFor[Empty](), "bye answers nothing"},
		{"model_config", reflect.TypeFor[engine.ModelConfig](), "learn answers the model config"},
		{"rejection", reflect.TypeFor[engine.CarrierRejection](), "the model config records rejections"},
	}
	for _, tc := range types {
		node, ok := doc.Defs[tc.def]
		if !ok {
			t.Errorf("%s: $defs.%s is missing", tc.reason, tc.def)
			continue
		}
		var names, required []string
		for _, f := range fieldsOf(tc.typ) {
			names = append(names, f.name)
			if f.required {
				required = append(required, f.name)
			}
		}
		var props []string
		for k := range node.Properties {
			props = append(props, k)
		}
		slices.Sort(names)
		slices.Sort(props)
		if !slices.Equal(names, props) {
			t.Errorf("%s: $defs.%s properties %v, the Go type has %v", tc.reason, tc.def, props, names)
		}
		slices.Sort(required)
		got := slices.Clone(node.Required)
		slices.Sort(got)
		if !slices.Equal(got, required) {
			t.Errorf("%s: $defs.%s requires %v, the Go type %v", tc.reason, tc.def, got, required)
		}
		if node.AdditionalProperties == nil || *node.AdditionalProperties {
			t.Errorf("%s: $defs.%s must refuse additional properties, as the decoder does", tc.reason, tc.def)
		}
	}
}

// TestSchemaRequests checks each <cmd>_request against the fields the
// server requires of it, and the enums against the Go lists.
func TestSchemaRequests(t *testing.T) {
	doc := loadSchema(t)
	request := map[string]bool{}
	for _, f := range fieldsOf(reflect.TypeFor[Request]()) {
		request[f.name] = true
	}
	for _, cmd := range Commands {
		node, ok := doc.Defs[cmd+"_request"]
		if !ok {
			t.Errorf("$defs.%s_request is missing: every command has its request", cmd)
			continue
		}
		for k := range node.Properties {
			if !request[k] {
				t.Errorf("%s_request: property %q is no Request field", cmd, k)
			}
		}
		want := append([]string{"id", "cmd"}, needs[cmd]...)
		got := slices.Clone(node.Required)
		for _, alt := range node.OneOf { // response or response_base64
			if slices.Contains(alt.Required, "response") {
				got = append(got, "response")
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s_request requires %v; the server requires %v", cmd, got, want)
		}
	}
	if got := doc.Defs["scenario"].Enum; !slices.Equal(got, matrix.Scenarios) {
		t.Errorf("$defs.scenario = %v, want matrix.Scenarios %v", got, matrix.Scenarios)
	}
	modes := []string{string(engine.ModeChat), string(engine.ModeAnthropic), string(engine.ModeBedrockConverse), string(engine.ModeGemini), string(engine.ModeResponses)}
	if got := doc.Defs["api_mode"].Enum; !slices.Equal(got, modes) {
		t.Errorf("$defs.api_mode = %v, want %v", got, modes)
	}
	var carriers []string
	for _, c := range engine.AllCarriers {
		carriers = append(carriers, string(c))
	}
	if got := doc.Defs["carrier"].Enum; !slices.Equal(got, carriers) {
		t.Errorf("$defs.carrier = %v, want %v", got, carriers)
	}
}
