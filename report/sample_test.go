package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// sampleMatrix returns a fixed 4 × 4 matrix naming its implementation, with every status, both
// provenances, an unverified cell and an error cell without provenance, n/a cells with and
// without detail, and text that needs
// escaping in every format (<, &, quotes, backticks, CRLF, multi-line bodies). The provider
// error bodies are written for this test, not copied from any provider.
func sampleMatrix() *Matrix {
	return &Matrix{
		Implementation: &Implementation{Name: "acme-agent", Version: "0.3.1 <beta> & co", Language: "python",
			Homepage: "https://example.com/acme?x=1&y=2"},
		Targets:   []string{"deepseek", "mistral", "anthropic", "bedrock-converse-claude"},
		Scenarios: []string{"carriers", "missing-echo", "strict-schema", "signed-roundtrip"},
		Cells: []Cell{
			{Target: "deepseek", Scenario: "carriers", Status: StatusPass, Provenance: ProvenanceRecorded,
				Detail:   "Every wire variant the row sends (reasoning_content on each assistant turn) was accepted.",
				Recorded: "cassettes/deepseek/carriers.yaml"},
			{Target: "deepseek", Scenario: "missing-echo", Status: StatusFail, Provenance: ProvenanceRecorded,
				Detail:   "The engine sent the tool turn at messages[2] without the reasoning_content pad,\nand the provider refused it.",
				Expected: `HTTP 200: messages[2] carries reasoning_content ("" when nothing was captured)`,
				Actual:   "HTTP 400: messages[2] has no reasoning_content",
				ProviderError: "{\r\n  \"error\": {\r\n    \"message\": \"assistant message 2 has tool_calls but no reasoning_content; send it back\",\r\n" +
					"    \"type\": \"invalid_request_error\"\r\n  }\r\n}\r\n",
				Cassette: "cassettes/deepseek/missing-echo.yaml", Recorded: "cassettes/deepseek/missing-echo.yaml"},
			{Target: "deepseek", Scenario: "strict-schema", Status: StatusNA,
				Detail: "DeepSeek accepts reasoning keys; strict-schema applies to strict routes only."},
			{Target: "deepseek", Scenario: "signed-roundtrip", Status: StatusNA},

			{Target: "mistral", Scenario: "carriers", Status: StatusAdvisory, Provenance: ProvenanceSimulated,
				Detail:   "The row sends no reasoning key, but the profile accepts `reasoning` on assistant turns: the table could send more.",
				Expected: "row sends `reasoning` (accepted by the profile)",
				Actual:   "row sends no reasoning key",
				Cassette: "cassettes/mistral/carriers.yaml"},
			{Target: "mistral", Scenario: "missing-echo", Status: StatusPass, Provenance: ProvenanceSimulated,
				Detail: "The bare tool turn was padded and accepted."},
			{Target: "mistral", Scenario: "strict-schema", Status: StatusPass, Provenance: ProvenanceSimulated,
				Detail: "No reasoning key was sent & the provider accepted the request."},
			{Target: "mistral", Scenario: "signed-roundtrip", Status: StatusNA},

			{Target: "anthropic", Scenario: "carriers", Status: StatusPass, Provenance: ProvenanceRecorded,
				Detail:   "Thinking blocks were echoed with their signatures and accepted.",
				Recorded: "cassettes/anthropic/recorded/thinking-roundtrip.yaml"},
			{Target: "anthropic", Scenario: "missing-echo", Status: StatusNA},
			{Target: "anthropic", Scenario: "strict-schema", Status: StatusNA},
			{Target: "anthropic", Scenario: "signed-roundtrip", Status: StatusKnownFail, Provenance: ProvenanceRecorded,
				Detail:   "Declared in matrix.yaml: redacted_thinking blocks from streamed responses are not captured yet.",
				Expected: "HTTP 200 with the redacted_thinking block echoed byte for byte",
				Actual:   "HTTP 400: the echoed turn lacks the redacted_thinking block",
				ProviderError: `{"type":"error","error":{"type":"invalid_request_error",` +
					`"message":"<script>alert(\"x\")</script> & co: content[0] must be a thinking block"}}`,
				Cassette: "cassettes/anthropic/signed-roundtrip.yaml",
				Recorded: "cassettes/anthropic/signed-roundtrip.yaml, cassettes/anthropic/recorded/thinking-roundtrip.yaml"},

			{Target: "bedrock-converse-claude", Scenario: "carriers", Status: StatusPass, Provenance: ProvenanceSimulated,
				Detail: "reasoningContent blocks were echoed and accepted."},
			{Target: "bedrock-converse-claude", Scenario: "missing-echo", Status: StatusUnverified,
				Detail:   "No recorded interaction matches the request the engine built. Record it with: make record SPEC=bedrock-converse-claude/missing-echo",
				Expected: "an interaction recorded for this exact request body",
				Actual:   "no match; nearest is interaction 3, which differs at\n$.messages[1].content[0].reasoningContent.reasoningText.signature"},
			{Target: "bedrock-converse-claude", Scenario: "strict-schema", Status: StatusError,
				Detail:   "cassettes/bedrock-converse-claude/strict-schema.yaml: yaml: line 41: could not find expected ':'",
				Cassette: "cassettes/bedrock-converse-claude/strict-schema.yaml"},
			{Target: "bedrock-converse-claude", Scenario: "signed-roundtrip", Status: StatusFail, Provenance: ProvenanceSimulated,
				Detail:        "A tampered signature was replayed instead of being refused by the engine.",
				Expected:      "the engine refuses to send a carrier whose signature changed",
				Actual:        "HTTP 400 from the provider after the engine sent the tampered signature",
				ProviderError: "{\n  \"message\": \"The signature of reasoning block 0 in message 1 does not verify.\"\n}",
				Cassette:      "cassettes/bedrock-converse-claude/signed-roundtrip.yaml"},
		},
		Evidence: sampleEvidence(),
	}
}

// sampleEvidence is an evidence section written for this test: an imported
// two-turn cassette for anthropic whose second turn the engine reproduces
// with a finding, a refused exchange for mistral the simulator does not
// predict, and a deepseek cassette that could not be read. No text here
// was recorded from a provider.
func sampleEvidence() *Evidence {
	return &Evidence{
		Targets: []EvidenceTarget{
			{Target: "deepseek"}, {Target: "mistral", Cassettes: 1, Exchanges: 1},
			{Target: "anthropic", Cassettes: 1, Exchanges: 2}, {Target: "bedrock-converse-claude"},
		},
		Exchanges: []EvidenceExchange{
			{Cassette: "cassettes/anthropic/recorded/thinking-roundtrip.yaml", Interaction: 0, Target: "anthropic",
				Request: "POST api.anthropic.com/v1/messages", Status: 200, Source: "example/agent tests/cassettes/thinking.yaml@0123abc (MIT), interaction 0",
				Capture:      Check{Verdict: VerdictPass, Detail: "2 carriers held verbatim: content.0.thinking, content.0.signature", Scenarios: []string{"signed-roundtrip"}},
				Reproduction: Check{Verdict: VerdictNA, Detail: "the request replays no assistant turn"},
				Simulator:    Check{Verdict: VerdictAgree, Detail: "200 as recorded"}},
			{Cassette: "cassettes/anthropic/recorded/thinking-roundtrip.yaml", Interaction: 1, Target: "anthropic",
				Request: "POST api.anthropic.com/v1/messages", Status: 200, Source: "example/agent tests/cassettes/thinking.yaml@0123abc (MIT), interaction 1",
				Capture: Check{Verdict: VerdictPass, Detail: "no carrier in the response"},
				Reproduction: Check{Verdict: VerdictAdvisory, Detail: "the engine sends less than the provider accepted",
					Scenarios: []string{"carriers", "signed-roundtrip"},
					Findings: []Finding{{Path: "messages.1.content.2", Engine: "(absent)", Recorded: `{"type":"text","text":"<kept> & sent"}`,
						Verdict: VerdictAdvisory, Why: "the engine sends less than the provider accepted"}}},
				Simulator: Check{Verdict: VerdictUnverifiable, Rule: "thinking-signature-invalid",
					Detail: "the simulator refused with rule thinking-signature-invalid (400): it verifies only the signatures it issued"}},
			{Cassette: "cassettes/mistral/recorded/refusal.yaml", Interaction: 0, Target: "mistral",
				Request: "POST api.mistral.ai/v1/chat/completions", Status: 422, Source: "example/agent tests/cassettes/refusal.yaml (licence unknown), interaction 3",
				Capture:      Check{Verdict: VerdictNA, Detail: "the provider refused the request (422): no answer to capture"},
				Reproduction: Check{Verdict: VerdictNotChecked, Detail: "no dialect for api mode responses"},
				Simulator: Check{Verdict: VerdictDisagree, Rule: "reasoning-content-present",
					Detail: "recorded 422 \"extra | forbidden\"; the simulator answered 200: no rule refuses it"}},
		},
		Profiles: []ProfileFidelity{
			{Profile: "anthropic", Exchanges: 2, Agree: 1, Unverifiable: 1},
			{Profile: "mistral", Exchanges: 1, Disagree: 1},
		},
		DialectOnly: []DialectCapture{{Cassette: "cassettes/_dialect-bedrock-converse/recorded/converse-reasoning.yaml", Dialect: "bedrock-converse",
			Source:  "example/agent fixtures/converse-reasoning.json (MIT), interaction 0",
			Capture: Check{Verdict: VerdictPass, Detail: "1 carrier held verbatim: output.message.content.0.reasoningContent.reasoningText.signature"}}},
		Unreadable: []UnreadableCassette{{Cassette: "cassettes/deepseek/recorded/cut.yaml",
			Detail: "cassettes/deepseek/recorded/cut.yaml:4: interaction 0: request needs method and url (the file ends mid-line: truncated?) <& \"quoted\">"}},
	}
}

// checkGolden compares got with testdata/name, or rewrites the file under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v (run go test ./report -update to create it)", path, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: output differs from golden (-want +got); run go test ./report -update if intended:\n%s",
			path, cmp.Diff(string(want), string(got)))
	}
}
