// Package probe checks a provider that is not in the route table yet: it
// records the wire-variant battery against the live endpoint (or the
// simulator), infers the provider's acceptance profile from the recorded
// answers — which carriers it accepts and reads, whether it refuses a bare
// tool turn without reasoning_content, whether its schema refuses unknown
// keys, whether it signs its reasoning — and proposes a matrix.yaml target,
// a route row and a draft provider profile, with the column of the matrix
// that proposal would produce.
package probe
