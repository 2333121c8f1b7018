package protocol

import (
	"encoding/json"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
)

// Version is the protocol version this package speaks (schema/v1.json).
const Version = 1

// The commands, in the order a run uses them.
const (
	CmdHello    = "hello"
	CmdDecide   = "decide"
	CmdShape    = "shape"
	CmdReshape  = "reshape"
	CmdCapture  = "capture"
	CmdLearn    = "learn"
	CmdEstimate = "estimate"
	CmdCompact  = "compact"
	CmdBranch   = "branch"
	CmdReload   = "reload"
	CmdBye      = "bye"
)

// Commands lists every command, in schema order.
var Commands = []string{CmdHello, CmdDecide, CmdShape, CmdReshape, CmdCapture, CmdLearn, CmdEstimate, CmdCompact, CmdBranch, CmdReload, CmdBye}

// A Request is one line the harness writes to the implementation's
// standard input. Which fields a command carries is listed in
// schema/v1.json; absent fields are left out of the line.
type Request struct {
	// ID is unique within a run; the reply echoes it.
	ID int64 `json:"id"`
	// Cmd names the step.
	Cmd string `json:"cmd"`
	// Protocol is the harness's protocol version (hello).
	Protocol int `json:"protocol,omitempty"`
	// Route is where the request goes (decide and every step that shapes,
	// captures, learns or prices).
	Route *Route `json:"route,omitempty"`
	// Rejected are the carriers the session has recorded as refused for
	// the route (decide).
	Rejected []string `json:"rejected,omitempty"`
	// Decision is a decision the implementation made, possibly restated by
	// the harness (shape, reshape, learn, estimate, compact).
	Decision *Decision `json:"decision,omitempty"`
	// Session is a session in the storage JSON form of [engine.Session].
	Session json.RawMessage `json:"session,omitempty"`
	// Options are the request options of a turn (shape, reshape).
	Options *Options `json:"options,omitempty"`
	// Body is a request body the implementation built: the refused body
	// (reshape, learn).
	Body json.RawMessage `json:"body,omitempty"`
	// Status is the provider's HTTP status (learn).
	Status int `json:"status,omitempty"`
	// Response is the provider's answer when it is UTF-8 text (capture,
	// learn); ResponseBase64 holds it otherwise (Bedrock event streams).
	Response       *string `json:"response,omitempty"`
	ResponseBase64 *string `json:"response_base64,omitempty"`
	// Stream says the response is a stream (capture).
	Stream bool `json:"stream,omitempty"`
	// Threshold is the token budget (compact).
	Threshold *int `json:"threshold,omitempty"`
	// BranchID names the new session (branch).
	BranchID string `json:"branch_id,omitempty"`
}

// A Route is [engine.Route] on the wire.
type Route struct {
	APIMode   string `json:"api_mode"`
	Provider  string `json:"provider"`
	BaseURL   string `json:"base_url"`
	Model     string `json:"model"`
	EchoOptIn bool   `json:"echo_opt_in,omitempty"`
}

// Options are [engine.Request] on the wire.
type Options struct {
	Tools  []Tool `json:"tools"`
	Stream bool   `json:"stream,omitempty"`
	Model  string `json:"model,omitempty"`
	System string `json:"system,omitempty"`
}

// A Tool is [engine.Tool] on the wire.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// A Decision is [engine.Decision] on the wire. Only carriers and pad are
// required: they are what the harness reads and, for the fallback
// scenario's stale row, rewrites. The other fields are the
// implementation's to fill; the harness hands the decision back as it got
// it.
type Decision struct {
	// Carriers are the standard carriers the route reads.
	Carriers []string `json:"carriers"`
	// Pad says reasoning_content must be present (" " at least) on every
	// assistant message.
	Pad bool `json:"pad"`
	// Native is true on api modes whose dialect replays native blocks.
	Native bool `json:"native,omitempty"`
	// PriorThinking says, on native routes, whether earlier turns' thinking
	// reaches the wire.
	PriorThinking bool `json:"prior_thinking,omitempty"`
	// Row names the route-table row that matched.
	Row string `json:"row,omitempty"`
	// EchoFamily names the must-echo family that matched.
	EchoFamily   string   `json:"echo_family,omitempty"`
	Flags        []Flag   `json:"flags,omitempty"`
	FlagIDs      []string `json:"flag_ids,omitempty"`
	NativeFields []string `json:"native_fields,omitempty"`
	// Rejected are the carriers left out because they were refused.
	Rejected []string `json:"rejected,omitempty"`
	Reasons  []string `json:"reasons,omitempty"`
}

// A Flag is a vendor request-body field: a dot path and its JSON value.
type Flag struct {
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value"`
}

// A Reply is one line the implementation writes to its standard output:
// the request's id and exactly one of result, unsupported or error.
type Reply struct {
	ID int64 `json:"id"`
	// Result is the step's answer; its shape depends on the command.
	Result json.RawMessage `json:"result,omitempty"`
	// Unsupported says the implementation does not do this step; the cell
	// becomes n/a with the reason.
	Unsupported *Unsupported `json:"unsupported,omitempty"`
	// Error says the step failed; the cell fails with the message.
	Error *StepFailure `json:"error,omitempty"`
}

// Unsupported is a step the implementation does not support.
type Unsupported struct {
	Reason string `json:"reason"`
	// IssueURL points at the implementation's issue, when there is one.
	IssueURL string `json:"issue_url,omitempty"`
}

// StepFailure is a step the implementation could not answer.
type StepFailure struct {
	Message string `json:"message"`
}

// Hello is the result of hello: the implementation names itself and what
// it supports.
type Hello struct {
	Implementation Implementation `json:"implementation"`
	// Protocol is the version the implementation speaks.
	Protocol int `json:"protocol"`
	// APIModes are the api modes it shapes; cells of other modes are n/a.
	APIModes []string `json:"api_modes"`
	// Scenarios, when given, are the only scenarios it takes part in.
	Scenarios []string `json:"scenarios,omitempty"`
}

// Implementation names an implementation.
type Implementation struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Language string `json:"language,omitempty"`
	Homepage string `json:"homepage,omitempty"`
}

// BodyResult is the result of shape and reshape.
type BodyResult struct {
	Body json.RawMessage `json:"body"`
}

// MessageResult is the result of capture: the stored assistant message in
// the storage JSON form of [engine.Message].
type MessageResult struct {
	Message json.RawMessage `json:"message"`
}

// LearnResult is the result of learn. When Learnt is set, Verdict
// describes it and ModelConfig is the session's whole model config with
// the verdict recorded.
type LearnResult struct {
	Learnt      bool                `json:"learnt"`
	Verdict     string              `json:"verdict,omitempty"`
	ModelConfig *engine.ModelConfig `json:"model_config,omitempty"`
}

// EstimateResult is the result of estimate.
type EstimateResult struct {
	Tokens int `json:"tokens"`
}

// CompactResult is the result of compact: [engine.CompactResult].
type CompactResult struct {
	Session      json.RawMessage `json:"session"`
	Dropped      int             `json:"dropped"`
	Before       int             `json:"before"`
	After        int             `json:"after"`
	CannotShrink bool            `json:"cannot_shrink"`
}

// SessionResult is the result of branch and reload.
type SessionResult struct {
	Session json.RawMessage `json:"session"`
}

// Empty is the result of bye.
type Empty struct{}

// routeOf returns the wire form of a route.
func routeOf(r engine.Route) *Route {
	mode := r.APIMode
	if mode == "" {
		mode = engine.ModeChat
	}
	return &Route{APIMode: string(mode), Provider: r.Provider, BaseURL: r.BaseURL, Model: r.Model, EchoOptIn: r.EchoOptIn}
}

// route reads a wire route.
func (r *Route) route() (engine.Route, error) {
	mode, ok := engine.ParseAPIMode(r.APIMode)
	if !ok {
		return engine.Route{}, fmt.Errorf("api_mode: unknown api mode %q", r.APIMode)
	}
	return engine.Route{APIMode: mode, Provider: r.Provider, BaseURL: r.BaseURL, Model: r.Model, EchoOptIn: r.EchoOptIn}, nil
}

// decisionOf returns the wire form of a decision.
func decisionOf(d engine.Decision) *Decision {
	w := &Decision{
		Carriers: d.Carriers.Names(), Pad: d.Pad, Native: d.Native, PriorThinking: d.PriorThinking,
		Row: d.Row, EchoFamily: d.EchoFamily, FlagIDs: d.FlagIDs, NativeFields: d.NativeFields,
		Rejected: d.Rejected.Names(), Reasons: d.Reasons,
	}
	if w.Carriers == nil {
		w.Carriers = []string{}
	}
	for _, f := range d.Flags {
		w.Flags = append(w.Flags, Flag{Path: f.Path, Value: f.Value})
	}
	return w
}

// decision reads a wire decision for route r; path names it in errors.
func (w *Decision) decision(r engine.Route, path string) (engine.Decision, error) {
	carriers, err := carrierSet(w.Carriers, path+".carriers")
	if err != nil {
		return engine.Decision{}, err
	}
	rejected, err := carrierSet(w.Rejected, path+".rejected")
	if err != nil {
		return engine.Decision{}, err
	}
	d := engine.Decision{
		Route: r, Row: w.Row, EchoFamily: w.EchoFamily, Pad: w.Pad, Carriers: carriers,
		Native: w.Native, PriorThinking: w.PriorThinking, FlagIDs: w.FlagIDs, NativeFields: w.NativeFields,
		Rejected: rejected, Reasons: w.Reasons,
	}
	for i, f := range w.Flags {
		if !json.Valid(f.Value) {
			return engine.Decision{}, fmt.Errorf("%s.flags[%d].value: not a JSON value", path, i)
		}
		d.Flags = append(d.Flags, engine.FlagSetting{Path: f.Path, Value: f.Value})
	}
	return d, nil
}

// carrierSet reads carrier names: the three standard carriers, spelled
// out, each once.
func carrierSet(names []string, path string) (engine.CarrierSet, error) {
	var s engine.CarrierSet
	for i, n := range names {
		c := engine.Carrier(n)
		if c != engine.ReasoningContent && c != engine.Reasoning && c != engine.ReasoningDetails {
			return 0, fmt.Errorf("%s[%d]: %q is not a carrier (want reasoning_content, reasoning or reasoning_details)", path, i, n)
		}
		if s.Has(c) {
			return 0, fmt.Errorf("%s[%d]: %q given twice", path, i, n)
		}
		s = s.With(c)
	}
	return s, nil
}

// optionsOf returns the wire form of request options.
func optionsOf(req engine.Request) *Options {
	o := &Options{Tools: []Tool{}, Stream: req.Stream, Model: req.Model, System: req.System}
	for _, t := range req.Tools {
		o.Tools = append(o.Tools, Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	return o
}

// request reads wire request options; quoted are the forms of the
// session's reasoning strings in the request line, if it was parsed there.
func (o *Options) request(quoted *engine.QuotedStrings) engine.Request {
	req := engine.Request{Stream: o.Stream, Model: o.Model, System: o.System, Quoted: quoted}
	for _, t := range o.Tools {
		req.Tools = append(req.Tools, engine.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	return req
}
