package main

import (
	"encoding/json"
	"fmt"
)

// version is this connector's version; the fantasy version it pins is in
// go.mod and named in hello.
const version = "0.1.0"

// fantasyVersion is the charm.land/fantasy version go.mod pins.
const fantasyVersion = "v0.40.0"

// handlers answer each protocol command.
var handlers = map[string]func(*request) (any, error){
	"hello":    hello,
	"decide":   decide,
	"shape":    shape,
	"reshape":  shape,
	"capture":  capture,
	"learn":    learn,
	"estimate": noCompaction,
	"compact":  noCompaction,
	"branch":   branch,
	"reload":   reload,
	"bye":      func(*request) (any, error) { return struct{}{}, nil },
}

func hello(req *request) (any, error) {
	if req.Protocol != protocolVersion {
		return nil, fmt.Errorf("this connector speaks protocol %d, not %d", protocolVersion, req.Protocol)
	}
	return map[string]any{
		"implementation": map[string]any{
			"name":     "charm.land/fantasy",
			"version":  fantasyVersion + " (connector " + version + ")",
			"language": "go",
			"homepage": "https://github.com/charmbracelet/fantasy",
		},
		"protocol":  protocolVersion,
		"api_modes": []string{"chat"},
		// fallback: fantasy learns no refused field (learn answers
		// learnt: false); compaction: fantasy has no compaction.
		"scenarios": []string{"carriers", "missing-echo", "strict-schema", "signed-roundtrip", "resume", "branch", "flags"},
	}, nil
}

// decide reports what fantasy's provider for the route sends; fantasy has
// no route table, so rejected carriers change nothing.
func decide(req *request) (any, error) {
	if req.Route == nil {
		return nil, fmt.Errorf("decide: no route")
	}
	return map[string]any{
		"carriers":      carriersSent(req.Route),
		"pad":           false,
		"row":           "fantasy " + providerKind(req.Route),
		"flags":         []any{},
		"native_fields": []string{},
		"reasons":       []string{"fantasy's " + providerKind(req.Route) + " provider (the provider a Crush user configures for this host)"},
	}, nil
}

// learn: fantasy turns a 4xx into an error for the caller and never learns
// a refused field.
func learn(*request) (any, error) {
	return map[string]any{"learnt": false}, nil
}

func noCompaction(*request) (any, error) {
	return nil, errUnsupported{"fantasy has no compaction or token estimate (Crush summarises in its own code)"}
}

func branch(req *request) (any, error) {
	// Raw values: a branch keeps every stored byte as it was.
	var s map[string]json.RawMessage
	if err := json.Unmarshal(req.Session, &s); err != nil {
		return nil, fmt.Errorf("branch: session: %w", err)
	}
	id, err := json.Marshal(req.BranchID)
	if err != nil {
		return nil, err
	}
	s["id"] = id
	return map[string]any{"session": s}, nil
}

// reload round-trips the session through its JSON form: the connector's
// store is the protocol's storage form.
func reload(req *request) (any, error) {
	var s json.RawMessage
	if err := json.Unmarshal(req.Session, &s); err != nil {
		return nil, fmt.Errorf("reload: session: %w", err)
	}
	return map[string]any{"session": s}, nil
}
