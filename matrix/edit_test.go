package matrix

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

// TestApply makes each kind of edit on the committed matrix.yaml and
// checks what the edited table decides, and that every other line stays.
func TestApply(t *testing.T) {
	doc, err := os.ReadFile("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	acme := engine.Route{APIMode: engine.ModeChat, Provider: "acme", BaseURL: "https://api.acme.example/v1", Model: "acme-1"}
	tests := []struct {
		edits  []Edit
		check  func(f *File) string
		reason string
	}{
		{[]Edit{{List: "carrier_routes", Join: "gateways", Field: "providers", Values: []string{"acme"}}},
			func(f *File) string {
				return decided(f, acme, "gateways", "reasoning_content,reasoning,reasoning_details")
			},
			"a provider joins a row's flow list of providers"},
		{[]Edit{{List: "carrier_routes", Item: "{id: acme, carriers: [reasoning], hosts: [api.acme.example]}"}},
			func(f *File) string { return decided(f, acme, "acme", "reasoning") },
			"a new row goes last"},
		{[]Edit{{List: "carrier_routes", First: true, Item: "{id: acme, carriers: [], providers: [openrouter]}"}},
			func(f *File) string {
				return decided(f, engine.Route{APIMode: engine.ModeChat, Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1"}, "acme", "none")
			},
			"a new row put first wins over the row that matched"},
		{[]Edit{{List: "echo_families", Item: "{name: acme, providers: [acme]}"}},
			func(f *File) string {
				if d := f.Table.Decide(acme, 0); !d.Pad || d.EchoFamily != "acme" {
					return "not padded by the new family"
				}
				return ""
			},
			"a new must-echo family"},
		{[]Edit{{List: "anthropic.routes", First: true, Item: `{id: acme, replay: signed, prior_thinking: always, learn_rejections: true, hosts: ["127.0.0.1"]}`}},
			func(f *File) string {
				if a := f.Table.Dialects.Anthropic.Decide("http://127.0.0.1:8080", "acme-1"); a.Route != "acme" || !a.LearnRejections {
					return "the route class is " + a.Route
				}
				return ""
			},
			"a new Anthropic route class, first"},
		{[]Edit{{List: "responses.families", Item: "{id: acme, hosts: [api.acme.example]}"}},
			func(f *File) string {
				if fam := f.Table.Dialects.Responses.Family("api.acme.example"); fam != "acme" {
					return "family " + fam
				}
				return ""
			},
			"a new Responses family"},
		{[]Edit{{List: "bedrock_converse.models", First: true, Item: `{id: acme, models: ["acme-1:0"], replay: unsigned}`}},
			func(f *File) string {
				if c := f.Table.Dialects.Converse.For("acme-1:0"); c.ID != "acme" {
					return "row " + c.ID
				}
				return ""
			},
			"a new Converse row, first"},
		{[]Edit{{List: "native_fields", Item: "{field: gemini, providers: [acme]}"}},
			func(f *File) string {
				if d := f.Table.Decide(acme, 0); !d.ReadsNative(engine.NativeGemini) {
					return "the route reads no gemini fields"
				}
				return ""
			},
			"a new native field rule"},
		{[]Edit{{List: "targets", Item: `{id: acme, api_mode: chat, provider: acme, base_url: "https://api.acme.example/v1", model: "acme-1", profile: acme}`}},
			func(f *File) string {
				if f.Targets[len(f.Targets)-1].ID != "acme" {
					return "the target is not last"
				}
				return ""
			},
			"a new target goes last"},
	}
	for _, tt := range tests {
		out, err := Apply(doc, tt.edits)
		if err != nil {
			t.Errorf("%s: %v", tt.reason, err)
			continue
		}
		f, err := Parse("matrix.yaml", out)
		if err != nil {
			t.Errorf("%s: the edited table does not load: %v", tt.reason, err)
			continue
		}
		if why := tt.check(f); why != "" {
			t.Errorf("%s: %s", tt.reason, why)
		}
		if kept := removedLines(doc, out); kept != "" {
			t.Errorf("%s: a line of the file changed or went: %q", tt.reason, kept)
		}
	}
}

// decided checks a chat route's row and carriers.
func decided(f *File, r engine.Route, row, carriers string) string {
	d := f.Table.Decide(r, 0)
	if d.Row != row || d.Carriers.String() != carriers {
		return "row " + d.Row + " carriers " + d.Carriers.String()
	}
	return ""
}

// removedLines returns the first line of before that after lacks, save
// one edited in place (a flow list that grew).
func removedLines(before, after []byte) string {
	have := map[string]int{}
	for _, l := range strings.Split(string(after), "\n") {
		have[l]++
	}
	changed := 0
	for _, l := range strings.Split(string(before), "\n") {
		if have[l] == 0 {
			changed++
			if changed > 1 {
				return l
			}
			continue
		}
		have[l]--
	}
	return ""
}

// TestApplyRefuses names what cannot be edited.
func TestApplyRefuses(t *testing.T) {
	doc := []byte("version: 1\ncarrier_routes:\n  - {id: a, carriers: [], providers: [x]}\nflags: []\n")
	tests := []struct {
		edit   Edit
		want   string
		reason string
	}{
		{Edit{List: "echo_families", Item: "{name: x}"}, "no echo_families", "a list the file lacks"},
		{Edit{List: "flags", Item: "{id: x}"}, "not a block list", "an empty flow list"},
		{Edit{List: "carrier_routes", Join: "b", Field: "providers", Values: []string{"y"}}, `no item "b"`, "an item that is not there"},
		{Edit{List: "carrier_routes", Join: "a", Field: "hosts", Values: []string{"y"}}, "has no hosts", "a list the item lacks"},
	}
	for _, tt := range tests {
		_, err := Apply(doc, []Edit{tt.edit})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error naming %q", tt.reason, err, tt.want)
		}
	}
	if out, err := Apply(doc, []Edit{{List: "carrier_routes", Join: "a", Field: "providers", Values: []string{"y"}}}); err != nil || !bytes.Contains(out, []byte("providers: [x, y]")) {
		t.Errorf("joining a flow list: %v\n%s", err, out)
	}
}
