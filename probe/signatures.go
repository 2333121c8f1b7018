package probe

import (
	"slices"

	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario"
)

// signatureRules reads the signed-roundtrip battery's altered replays: a
// tampered or foreign value refused is a signature the provider verifies,
// a missing one refused a signature it requires.
func (in *inference) signatureRules(conv *scenario.Conv, field, variant string) {
	if conv == nil {
		in.find("signatures", "undetermined: the signed-roundtrip battery holds no answer to "+variant)
		return
	}
	for _, m := range conv.Mutations {
		e := in.evidenceOfExchange("signed-roundtrip", variant+" with the "+m.Name+" value", m.Exchange)
		subject := m.Name + " " + field
		if e.Accepted() {
			in.find(subject, "accepted (the provider does not check it)", e)
			continue
		}
		kind, id := providers.ConditionSignatureInvalid, "signature-invalid"
		if m.Name == "missing" {
			kind, id = providers.ConditionSignatureMissing, "signature-missing"
		}
		f := in.find(subject, "refused", e)
		if slices.ContainsFunc(in.rules, func(r providers.Rule) bool { return r.ID == id }) {
			in.appendNote(id, f)
			continue
		}
		in.rules = append(in.rules, providers.Rule{
			ID: id, Status: e.Status, Body: e.Body,
			When: providers.Condition{Kind: kind, Field: field},
			Note: "recorded verbatim by the probe; evidence: " + f.String(),
		})
	}
}

// appendNote adds a finding to the evidence of rule id.
func (in *inference) appendNote(id string, f Finding) {
	for i := range in.rules {
		if in.rules[i].ID == id {
			in.rules[i].Note += "; " + f.String()
		}
	}
}
