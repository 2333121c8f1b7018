package report

import "testing"

func TestEscapeMarkdown(t *testing.T) {
	tests := []struct {
		in, want, reason string
	}{
		{"plain words, a colon: and 400.", "plain words, a colon: and 400.", "ordinary punctuation stays readable"},
		{"reasoning_content *must* be [set]", `reasoning\_content \*must\* be \[set\]`, "emphasis and link brackets are literal"},
		{"<script> & `code` | pipe ~x~", "\\<script\\> \\& \\`code\\` \\| pipe \\~x\\~", "HTML, code, table and strike characters are literal"},
		{`back\slash`, `back\\slash`, "a backslash is escaped first"},
		{"# not a heading", `\# not a heading`, "a leading # would start a heading"},
		{"- not a list", `\- not a list`, "a leading - would start a list"},
		{"2. not a list", `2\. not a list`, "a leading number and dot would start a numbered list"},
		{"400 is a status", "400 is a status", "a leading number alone is fine"},
	}
	for _, tc := range tests {
		if got := escapeMarkdown(tc.in); got != tc.want {
			t.Errorf("%s: escapeMarkdown(%q) = %q, want %q", tc.reason, tc.in, got, tc.want)
		}
	}
}

func TestCodeSpan(t *testing.T) {
	tests := []struct {
		in, want, reason string
	}{
		{"plain", "`plain`", "one backtick when there is none inside"},
		{"a `b` c", "``a `b` c``", "the delimiter is longer than any run inside"},
		{"``x", "``` ``x ```", "a leading backtick is padded with a space"},
	}
	for _, tc := range tests {
		if got := codeSpan(tc.in); got != tc.want {
			t.Errorf("%s: codeSpan(%q) = %q, want %q", tc.reason, tc.in, got, tc.want)
		}
	}
}

func TestMarkdownItem(t *testing.T) {
	tests := []struct {
		name, value, want, reason string
	}{
		{"Actual", "", "", "an empty value is left out"},
		{"Actual", "HTTP 400", "- Actual: `HTTP 400`", "one line is a code span"},
		{"Provider error", "{\r\n  \"a\": 1\r\n}\r\n", "- Provider error:\n\n  ```text\n  {\n    \"a\": 1\n  }\n  ```",
			"several lines are an indented fenced block with LF line ends"},
		{"Actual", "a\n```\nb", "- Actual:\n\n  ````text\n  a\n  ```\n  b\n  ````", "the fence is longer than any fence inside"},
	}
	for _, tc := range tests {
		if got := markdownItem(tc.name, tc.value); got != tc.want {
			t.Errorf("%s: markdownItem(%q, %q) =\n%q\nwant\n%q", tc.reason, tc.name, tc.value, got, tc.want)
		}
	}
}

func TestTextHelpers(t *testing.T) {
	tests := []struct {
		fn             func(string) string
		name, in, want string
		reason         string
	}{
		{paragraph, "paragraph", "one\n\ntwo\t three ", "one two three", "a detail is one paragraph"},
		{lines, "lines", "\n\na\r\nb\rc\n\n", "a\nb\nc", "blocks get LF line ends without blank edges"},
		{printable, "printable", "ok\x1b[31m\x07\ttab", `ok\x1b[31m\x07` + "\ttab", "terminal controls are shown escaped"},
		{printable, "printable", "bad\xffbyte", "bad\uFFFDbyte", "invalid UTF-8 is replaced"},
		{xmlText, "xmlText", "a\x00b\x1fc\r\nd\uFFFEe", "a\uFFFDb\uFFFDc\nd\uFFFDe", "XML cannot carry most controls or U+FFFE"},
		{xmlText, "xmlText", "tab\tand é ✓", "tab\tand é ✓", "tabs and unicode pass through"},
	}
	for _, tc := range tests {
		if got := tc.fn(tc.in); got != tc.want {
			t.Errorf("%s: %s(%q) = %q, want %q", tc.reason, tc.name, tc.in, got, tc.want)
		}
	}
}
