package providers

import (
	"errors"
	"strings"
	"testing"
)

// baseProfile is a valid profile; the negative cases each break one line.
// Line numbers below refer to this text.
const baseProfile = `name: neg
version: 1
title: Negative test profile
api_mode: chat
hosts: [api.example.com]
confidence: confirmed
sources: [https://example.com/docs]
emits:
  fields: [reasoning_content]
  stream: sse
  source: https://example.com/docs
reads: [reasoning_content]
rules:
  - id: must-echo
    when:
      kind: tool_turn_field_missing
      field: reasoning_content
      blank_is_missing: true
    status: 400
    body: '{"error":{"message":"missing at {index}","type":"invalid_request_error"}}'
    source: example/repo#1
    confidence: confirmed
flags:
  - path: thinking.keep
    value: all
    effect: keeps-prior-reasoning
    source: https://example.com/flags
signing:
  scheme: encrypted-details
  fields: [reasoning_details]
  source: https://example.com/signing
`

const negFile = "providers/neg.yaml"

// edit returns baseProfile with old replaced by new, failing when old is
// not in the text exactly once.
func edit(t *testing.T, old, new string) string {
	t.Helper()
	if strings.Count(baseProfile, old) != 1 {
		t.Fatalf("edit: %q is not in baseProfile exactly once", old)
	}
	return strings.Replace(baseProfile, old, new, 1)
}

const secondRule = `  - id: must-echo
    when:
      kind: assistant_field_present
      field: reasoning
    status: 422
    body: '{}'
    source: example/repo#2
    confidence: confirmed
flags:
`

func TestParseRejects(t *testing.T) {
	tests := []struct {
		reason   string
		old, new string
		want     string // substring of the error, from the file name on
	}{
		{"YAML syntax errors keep their line", "title: Negative test profile\n", "title: [unclosed\n",
			negFile + ":3: did not find expected ',' or ']'"},
		{"a parser error points at the mapping it broke (yaml reports the enclosing construct)",
			"      kind: tool_turn_field_missing\n", "      kind: tool_turn_field_missing\n     bad: indent\n",
			negFile + ":14: did not find expected key"},
		{"two documents in one file", "  source: https://example.com/signing\n", "  source: https://example.com/signing\n---\nname: neg\n",
			negFile + ":32: more than one YAML document"},
		{"a profile is a mapping", baseProfile, "- just\n- a list\n",
			negFile + ":1: a profile is a YAML mapping"},
		{"unknown top-level key", "title: Negative test profile\n", "title: Negative test profile\ncolour: blue\n",
			negFile + `:4: unknown key "colour" in profile`},
		{"unknown rule key names the rule", "    status: 400\n", "    status: 400\n    priority: 1\n",
			negFile + `:20: rule "must-echo": unknown key "priority" in rule`},
		{"unknown condition key", "      blank_is_missing: true\n", "      blank_is_missing: true\n      feild: x\n",
			negFile + `:19: rule "must-echo": unknown key "feild" in when`},
		{"unknown emits key", "  stream: sse\n", "  stream: sse\n  format: x\n",
			negFile + `:11: emits: unknown key "format" in emits`},
		{"unknown flag key names the flag", "    value: all\n", "    value: all\n    default: false\n",
			negFile + `:26: flag "thinking.keep": unknown key "default" in flag`},
		{"a key given twice", "version: 1\n", "version: 1\nversion: 2\n",
			negFile + `:3: key "version" given twice (first at line 2)`},
		{"a value of the wrong type", "version: 1\n", "version: one\n",
			negFile + ":2: cannot unmarshal"},
		{"name must match the file stem", "name: neg\n", "name: other\n",
			negFile + `:1: name "other" does not match the file stem "neg"`},
		{"name is required", "name: neg\n", "",
			negFile + ":1: name is required"},
		{"version below 1", "version: 1\n", "version: 0\n",
			negFile + ":2: version must be at least 1, got 0"},
		{"unknown api mode", "api_mode: chat\n", "api_mode: completions\n",
			negFile + `:4: unknown api_mode "completions" (want chat, anthropic, bedrock-converse, gemini or responses)`},
		{"a Responses item condition takes no field", "      kind: tool_turn_field_missing\n", "      kind: item_without_reasoning\n",
			negFile + `:17: rule "must-echo": condition item_without_reasoning takes no field`},
		{"hosts are bare host names", "hosts: [api.example.com]\n", "hosts: [https://api.example.com/v1]\n",
			negFile + `:5: host "https://api.example.com/v1" is not a bare lower-case host name`},
		{"a host pattern has a star", "hosts: [api.example.com]\n", "hosts: [api.example.com]\nhost_patterns: [eu-api.example.com]\n",
			negFile + `:6: host pattern "eu-api.example.com" is not a lower-case hostname with "*" for part of one label ("*-aiplatform.googleapis.com")`},
		{"a host pattern is a hostname", "hosts: [api.example.com]\n", "hosts: [api.example.com]\nhost_patterns: [\"https://*-api.example.com\"]\n",
			negFile + `:6: host pattern "https://*-api.example.com" is not a lower-case hostname`},
		{"unknown profile confidence", "confidence: confirmed\nsources", "confidence: sure\nsources",
			negFile + `:6: unknown confidence "sure" (want confirmed, partial or unconfirmed)`},
		{"unconfirmed profile needs a note", "confidence: confirmed\nsources", "confidence: unconfirmed\nsources",
			negFile + ":6: confidence unconfirmed needs a confidence_note"},
		{"sources are required", "sources: [https://example.com/docs]\n", "sources: []\n",
			negFile + ":7: sources: at least one source is required"},
		{"unknown emitted field", "  fields: [reasoning_content]\n", "  fields: [reasoning_text, thoughts]\n",
			negFile + `:9: emits: unknown field name "thoughts"`},
		{"unknown stream framing", "  stream: sse\n", "  stream: websocket\n",
			negFile + `:10: emits: unknown stream framing "websocket" (want sse, aws-eventstream or none)`},
		{"details_format without reasoning_details", "  stream: sse\n", "  stream: sse\n  details_format: anthropic-claude-v1\n",
			negFile + ":11: emits: details_format needs reasoning_details among the fields"},
		{"when_thinking is for Bedrock Converse profiles", "  stream: sse\n", "  stream: sse\n  when_thinking: true\n",
			negFile + ":11: emits: when_thinking is for bedrock-converse profiles (this one is chat)"},
		{"redacted is for Bedrock Converse profiles", "  stream: sse\n", "  stream: sse\n  redacted: true\n",
			negFile + ":11: emits: redacted is for bedrock-converse profiles that emit reasoningContent (this one is chat, emitting [reasoning_content])"},
		{"emits needs a source", "  source: https://example.com/docs\nreads", "reads",
			negFile + ":8: emits: source is required"},
		{"unknown read field", "reads: [reasoning_content]\n", "reads: [reasoning_contents]\n",
			negFile + `:12: reads: unknown field name "reasoning_contents"`},
		{"duplicate read field", "reads: [reasoning_content]\n", "reads: [reasoning_content, reasoning_content]\n",
			negFile + `:12: reads: duplicate field "reasoning_content"`},
		{"rule without id", "  - id: must-echo\n    when:\n", "  - when:\n",
			negFile + ":14: rules[0]: id is required"},
		{"rule id must be kebab-case", "  - id: must-echo\n", "  - id: Must_Echo\n",
			negFile + `:14: rule "Must_Echo": id is not kebab-case`},
		{"duplicate rule id", "flags:\n", secondRule,
			negFile + `:23: rule "must-echo": duplicate rule id (first used by rules[0])`},
		{"unknown condition kind", "      kind: tool_turn_field_missing\n", "      kind: field_absent\n",
			negFile + `:16: rule "must-echo": unknown condition kind "field_absent"`},
		{"condition kind is required", "      kind: tool_turn_field_missing\n", "",
			negFile + `:15: rule "must-echo": condition kind is required`},
		{"condition missing its field", "      field: reasoning_content\n", "",
			negFile + `:15: rule "must-echo": condition tool_turn_field_missing needs a field`},
		{"message conditions name a carrier", "      field: reasoning_content\n", "      field: reasoning_contnet\n",
			negFile + `:17: rule "must-echo": condition tool_turn_field_missing: unknown carrier "reasoning_contnet"`},
		{"signature conditions name a signed field", "      kind: tool_turn_field_missing\n      field: reasoning_content\n      blank_is_missing: true\n",
			"      kind: signature_invalid\n      field: thinking\n",
			negFile + `:17: rule "must-echo": condition signature_invalid: unknown signed field "thinking"`},
		{"blank_is_missing only for tool turns", "      kind: tool_turn_field_missing\n", "      kind: assistant_field_present\n      models: [legacy]\n",
			negFile + `:16: rule "must-echo": blank_is_missing and whitespace_is_missing apply only to tool_turn_field_missing`},
		{"whitespace_is_missing needs blank_is_missing", "      blank_is_missing: true\n", "      whitespace_is_missing: true\n",
			negFile + `:18: rule "must-echo": whitespace_is_missing needs blank_is_missing`},
		{"a refusal contradicting reads", "      kind: tool_turn_field_missing\n      field: reasoning_content\n      blank_is_missing: true\n",
			"      kind: assistant_field_present\n      field: reasoning_content\n",
			negFile + `:17: rule "must-echo": refuses "reasoning_content" for every model, but reads lists it`},
		{"model substrings are lower-case", "      blank_is_missing: true\n", "      blank_is_missing: true\n      models: [GPT-4]\n",
			negFile + `:19: rule "must-echo": model substring "GPT-4" must be non-empty and lower-case`},
		{"a rule's from is a day", "    confidence: confirmed\nflags:", "    confidence: confirmed\n    from: 2026-13-01\nflags:",
			negFile + `:23: rule "must-echo": from "2026-13-01" is not a day (want YYYY-MM-DD)`},
		{"a rule's days are in order", "    confidence: confirmed\nflags:", "    confidence: confirmed\n    from: \"2026-04-01\"\n    until: \"2026-04-01\"\nflags:",
			negFile + `:24: rule "must-echo": until 2026-04-01 is not after from 2026-04-01: the rule would hold on no day`},
		{"values only restrict a top-level field", "      blank_is_missing: true\n", "      blank_is_missing: true\n      values: [xhigh]\n",
			negFile + `:19: rule "must-echo": values apply only to top_level_field_present`},
		{"except_values only restrict a top-level field", "      blank_is_missing: true\n", "      blank_is_missing: true\n      except_values: [enabled]\n",
			negFile + `:19: rule "must-echo": except_values apply only to top_level_field_present`},
		{"values and except_values exclude each other", "      kind: tool_turn_field_missing\n      field: reasoning_content\n      blank_is_missing: true\n",
			"      kind: top_level_field_present\n      field: thinking.type\n      values: [a]\n      except_values: [b]\n",
			negFile + `:19: rule "must-echo": values and except_values cannot both be set`},
		{"an except value is not empty", "      kind: tool_turn_field_missing\n      field: reasoning_content\n      blank_is_missing: true\n",
			"      kind: top_level_field_present\n      field: thinking.type\n      except_values: [enabled, \"\"]\n",
			negFile + `:18: rule "must-echo": except_values[1] is empty`},
		{"a generation failure is recognised by its code", "signing:\n", "generation_failures:\n  - id: tool-use-failed\n    status: 400\n    code: tool_use_failed\n    body: '{\"error\":{\"code\":\"other\"}}'\n    source: example/repo#3\n    confidence: confirmed\nsigning:\n",
			negFile + `:32: generation failure "tool-use-failed": body's error.code is "other", not the code "tool_use_failed"`},
		{"status below 400", "    status: 400\n", "    status: 200\n",
			negFile + `:19: rule "must-echo": status 200 is outside 400-499`},
		{"status above 499", "    status: 400\n", "    status: 503\n",
			negFile + `:19: rule "must-echo": status 503 is outside 400-499`},
		{"rule without status", "    status: 400\n", "",
			negFile + `:14: rule "must-echo": status 0 is outside 400-499`},
		{"rule without body", "    body: '{\"error\":{\"message\":\"missing at {index}\",\"type\":\"invalid_request_error\"}}'\n", "",
			negFile + `:14: rule "must-echo": body is required`},
		{"JSON body that is not JSON", `"type":"invalid_request_error"}}'`, `"type":"invalid_request_error"}'`,
			negFile + `:20: rule "must-echo": body is not valid JSON after placeholder substitution: byte offset`},
		{"explicit JSON content type is checked too", "    body: '{\"error\":{\"message\":\"missing at {index}\",\"type\":\"invalid_request_error\"}}'\n",
			"    content_type: application/problem+json; charset=utf-8\n    body: 'oops'\n",
			negFile + `:21: rule "must-echo": body is not valid JSON`},
		{"unknown rule stream framing", "    status: 400\n", "    status: 400\n    stream_framing: ws\n",
			negFile + `:20: rule "must-echo": unknown stream framing "ws" (want sse or nothing)`},
		{"rule without source", "    source: example/repo#1\n", "",
			negFile + `:14: rule "must-echo": source is required`},
		{"rule without confidence", "    confidence: confirmed\nflags", "flags",
			negFile + `:14: rule "must-echo": confidence is required`},
		{"unknown rule confidence", "    confidence: confirmed\nflags", "    confidence: likely\nflags",
			negFile + `:22: rule "must-echo": unknown confidence "likely"`},
		{"partial rule needs a note", "    confidence: confirmed\nflags", "    confidence: partial\nflags",
			negFile + `:22: rule "must-echo": confidence partial needs a note`},
		{"flag without path", "  - path: thinking.keep\n    value: all\n", "  - value: all\n",
			negFile + ":24: flags[0]: path is required"},
		{"flag without effect", "    effect: keeps-prior-reasoning\n", "",
			negFile + `:24: flag "thinking.keep": effect is required`},
		{"flag with an unknown effect", "    effect: keeps-prior-reasoning\n", "    effect: keeps-everything\n",
			negFile + `:26: flag "thinking.keep": unknown effect "keeps-everything"`},
		{"flag without source", "    source: https://example.com/flags\n", "",
			negFile + `:24: flag "thinking.keep": source is required`},
		{"flag without value", "    value: all\n", "",
			negFile + `:24: flag "thinking.keep": value is required`},
		{"unknown signing scheme", "  scheme: encrypted-details\n", "  scheme: rot13\n",
			negFile + `:29: signing: unknown scheme "rot13"`},
		{"unknown signed field", "  fields: [reasoning_details]\n", "  fields: [reasoning_details, signature]\n",
			negFile + `:30: signing: unknown field name "signature"`},
		{"an unknown ignorable difference", "  source: https://example.com/signing\n", "  source: https://example.com/signing\n" + ignoreBlock("key_case", "confirmed"),
			negFile + `:33: ignore "key_case": unknown difference (want tool_result_name, tool_call_content or tool_call_type)`},
		{"an ignorable difference cites its source", "  source: https://example.com/signing\n", "  source: https://example.com/signing\n" + strings.Replace(ignoreBlock("tool_result_name", "confirmed"), "    source: https://example.com/tool-messages\n", "", 1),
			negFile + `:33: ignore "tool_result_name": source is required`},
		{"an assumed ignorable difference needs a note", "  source: https://example.com/signing\n", "  source: https://example.com/signing\n" + ignoreBlock("tool_result_name", "unconfirmed"),
			negFile + `:35: ignore "tool_result_name": confidence unconfirmed needs a note`},
		{"a difference is declared once", "  source: https://example.com/signing\n", "  source: https://example.com/signing\n" + ignoreBlock("tool_call_type", "confirmed") + ignoreBlock("tool_call_type", "confirmed")[len("ignore:\n"):],
			negFile + `:36: ignore "tool_call_type": declared twice (first in ignore[0])`},
		{"message differences are chat differences", "api_mode: chat\n", "api_mode: gemini\n",
			"placeholder: replaced below"},
	}
	for _, tc := range tests {
		t.Run(tc.reason, func(t *testing.T) {
			text := edit(t, tc.old, tc.new)
			if tc.reason == "message differences are chat differences" {
				text = strings.NewReplacer("emits:\n  fields: [reasoning_content]", "emits:\n  fields: [thoughtSignature]",
					"reads: [reasoning_content]", "reads: [thoughtSignature]",
					"rules:\n", "rules: []\nx:\n").Replace(text)
				text = text[:strings.Index(text, "x:\n")] + ignoreBlock("tool_result_name", "confirmed")
				tc.want = negFile + `:15: ignore "tool_result_name": only chat profiles declare message differences, this one speaks gemini`
			}
			p, err := Parse(negFile, []byte(text))
			if err == nil {
				t.Fatalf("Parse accepted the profile; want an error containing %q", tc.want)
			}
			if p != nil {
				t.Errorf("Parse returned a profile along with its error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse error:\n%v\nwant it to contain:\n%s", err, tc.want)
			}
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.File != negFile || ve.Line == 0 {
				t.Errorf("error %v is not a *ValidationError with file and line", err)
			}
		})
	}
}

// ignoreBlock is an ignore list of one declaration.
func ignoreBlock(difference, confidence string) string {
	return "ignore:\n  - difference: " + difference + "\n    source: https://example.com/tool-messages\n    confidence: " + confidence + "\n"
}

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		reason   string
		old, new string
	}{
		{"the base profile is valid", "name: neg\n", "name: neg\n"},
		{"a placeholder may stand for a JSON number", "    body: '{\"error\":{\"message\":\"missing at {index}\",\"type\":\"invalid_request_error\"}}'\n",
			"    body: '{\"loc\":[\"body\",\"messages\",{index},\"assistant\",\"{field}\"]}'\n"},
		{"a non-JSON content type is not parsed", "    body: '{\"error\":{\"message\":\"missing at {index}\",\"type\":\"invalid_request_error\"}}'\n",
			"    content_type: text/plain\n    body: 'Param Incorrect'\n"},
		{"a refusal of a read field is fine when models restrict it", "      kind: tool_turn_field_missing\n      field: reasoning_content\n      blank_is_missing: true\n",
			"      kind: assistant_field_present\n      field: reasoning_content\n      except_models: [gpt-oss]\n"},
		{"partial confidence with a note", "    confidence: confirmed\nflags", "    confidence: partial\n    note: envelope assumed\nflags"},
		{"no rules, flags or signing at all", "rules:\n", "rules: []\nother_rules:\n"},
		{"declared ignorable differences", "  source: https://example.com/signing\n", "  source: https://example.com/signing\n" + ignoreBlock("tool_result_name", "confirmed") +
			"  - difference: tool_call_content\n    source: https://example.com/tool-calls\n    confidence: partial\n    note: null and absent assumed like the documented empty string\n"},
	}
	for _, tc := range tests {
		t.Run(tc.reason, func(t *testing.T) {
			text := edit(t, tc.old, tc.new)
			if tc.reason == "no rules, flags or signing at all" {
				text = text[:strings.Index(text, "other_rules:")]
			}
			if _, err := Parse(negFile, []byte(text)); err != nil {
				t.Errorf("Parse: %v", err)
			}
		})
	}
}

func TestParseReportsEveryProblemInLineOrder(t *testing.T) {
	text := strings.Replace(edit(t, "version: 1\n", "version: 0\n"), "    status: 400\n", "    status: 600\n", 1)
	_, err := Parse(negFile, []byte(text))
	if err == nil {
		t.Fatal("Parse accepted two errors")
	}
	msg := err.Error()
	first := strings.Index(msg, negFile+":2: version")
	second := strings.Index(msg, negFile+`:19: rule "must-echo": status 600`)
	if first < 0 || second < 0 || first > second {
		t.Errorf("want both problems, line 2 before line 19; got:\n%s", msg)
	}
}

func TestValidateInMemory(t *testing.T) {
	p, err := Parse(negFile, []byte(baseProfile))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("Validate of a loaded profile: %v", err)
	}
	p.Rules[0].When.Kind = "nope"
	p.Version = 0
	err = p.Validate()
	if err == nil {
		t.Fatal("Validate accepted an unknown kind")
	}
	for _, want := range []string{`profile neg: rule "must-echo": unknown condition kind "nope"`, "profile neg: version must be at least 1, got 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Validate error:\n%v\nwant it to contain %q", err, want)
		}
	}
}
