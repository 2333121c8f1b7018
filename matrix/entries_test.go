package matrix_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
)

func TestEntriesAndAliasesCarryTheirLines(t *testing.T) {
	doc := `version: 1
default_carriers: []
carrier_routes:
  - id: strict
    carriers: []
    providers: [groq]
    hosts:
      - groq.com
targets:
  - {id: groq, provider: groq, base_url: "https://api.groq.com/openai/v1", model: m, profile: groq,
     aliases: [{provider: custom, base_url: "https://api.groq.com/openai/v1", model: m, note: a custom provider id}]}
unreachable:
  - {entry: "carrier_routes[strict].providers", value: groq, reason: r}
`
	f, err := matrix.Parse("m.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range f.Entries {
		got = append(got, e.String()+"@"+itoa(e.Line))
	}
	if want := "carrier_routes[strict].providers: groq@6 carrier_routes[strict].hosts: groq.com@8"; strings.Join(got, " ") != want {
		t.Errorf("entries %v, want %s", got, want)
	}
	tg, _ := f.Target("groq")
	if len(tg.Aliases) != 1 || tg.Aliases[0].Line != 11 || tg.Aliases[0].Route.Provider != "custom" || tg.AliasName(0) != "groq~1" {
		t.Errorf("aliases %+v, want one custom alias at line 11 named groq~1", tg.Aliases)
	}
	if u, ok := f.Declared(f.Entries[0]); !ok || u.Line != 13 {
		t.Errorf("declared %+v %v, want the declaration at line 13", u, ok)
	}
	if _, ok := f.Declared(f.Entries[1]); ok {
		t.Error("groq.com is declared unreachable, but nothing declares it")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
