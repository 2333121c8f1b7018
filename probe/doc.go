// Package probe checks a provider that is not in the route table yet. It
// records its api mode's battery of wire variants against the endpoint
// (live, or the simulator) and infers from the variants that isolate each
// conclusion what the provider does: on a chat route which carriers it
// accepts, refuses and reads, whether a bare tool turn needs the pad and
// whether "" counts as missing; on a native route which replay contract
// it takes, which signatures it checks, whether it needs a thinking
// request. Each conclusion names the recorded variants that show it.
//
// It then proposes the target, the route-table change in the dialect's own
// section (a carrier row or must-echo family, anthropic.routes,
// native_fields, responses.families, bedrock_converse) as edits of
// matrix.yaml's text, and a draft provider profile; records every other
// scenario the draft says the target is judged on, under the adopted
// table; and runs the target's whole column. An answer that is not the
// provider judging the body (401, 403, 404, 407, 408, 429, 5xx) stops it.
// [Adopt] applies the proposal to a checkout.
package probe
