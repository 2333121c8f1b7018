// Package matrix loads matrix.yaml: the route table of SPEC §2–§4 as data
// (must-echo families, carrier rows, the local-endpoint rule, defaults,
// vendor flags, private native fields, the Anthropic, Bedrock Converse and
// Responses dialect policies), the targets the harness checks it against,
// and the declared known failures. Loading validates everything, and every
// error names the file and line.
package matrix
