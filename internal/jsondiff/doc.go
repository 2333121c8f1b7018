// Package jsondiff canonicalises JSON documents, compares them and explains
// how two of them differ.
//
// The cassette matcher uses it to decide whether a replayed request body is
// the recorded one: two bodies match when their canonical forms are equal.
// Canonical form sorts object keys by the bytes of the decoded key, drops
// insignificant whitespace, writes every string with one escaping rule and
// keeps every number as the literal text it was sent with. Numbers are never
// converted to float64, so 1 and 1.0 are different values and a 64-bit
// integer survives unchanged. Strings, including opaque signatures and
// encrypted blobs, are compared exactly after unescaping.
//
// When nothing matches, [Diff] names every differing JSON path (in the dot
// syntax of github.com/tidwall/gjson) and [Distance] scores how far a
// recorded body is from the replayed one, so the matcher can point at the
// nearest recorded interaction. [Format] renders a diff for people:
//
//	messages.1.reasoning_content: want "checked the weather" got (absent)
//
// Input is strict RFC 8259 JSON in UTF-8. Duplicate object keys, invalid
// UTF-8 and nesting deeper than 10000 levels are rejected with a
// [*SyntaxError] that names the byte offset; no input makes the package
// panic. Parsing and encoding are linear in the size of the input.
package jsondiff
