package engine

// DialectPolicies holds the route data of the native dialects (SPEC §4),
// loaded from matrix.yaml with the rest of the table.
type DialectPolicies struct{}
