// Package gate judges a route-table change: it evaluates a base and a head
// matrix.yaml against the same committed cassettes and reports the cells
// that changed, the cells of every target's aliases included. A cell that
// passed and now fails or is unverified, or passed and is now advisory (the
// provider read reasoning the route no longer sends), is a regression; a
// cell that now passes is an improvement. Because cassettes
// record the provider's answer to every wire variant, a change is judged
// from recorded evidence without re-recording.
package gate
