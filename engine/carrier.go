package engine

import (
	"fmt"
	"strings"
)

// A Carrier is one of the three standard reasoning keys of an OpenAI-style
// assistant message (SPEC §1).
type Carrier string

// The standard carriers, in their canonical order.
const (
	ReasoningContent Carrier = "reasoning_content"
	Reasoning        Carrier = "reasoning"
	ReasoningDetails Carrier = "reasoning_details"
)

// AllCarriers lists the standard carriers in canonical order.
var AllCarriers = []Carrier{ReasoningContent, Reasoning, ReasoningDetails}

// ParseCarrier reads a carrier name; it accepts the short forms RC, R and RD.
func ParseCarrier(s string) (Carrier, error) {
	switch strings.TrimSpace(s) {
	case "reasoning_content", "RC", "rc":
		return ReasoningContent, nil
	case "reasoning", "R", "r":
		return Reasoning, nil
	case "reasoning_details", "RD", "rd":
		return ReasoningDetails, nil
	}
	return "", fmt.Errorf("unknown carrier %q (want reasoning_content, reasoning or reasoning_details)", s)
}

func (c Carrier) bit() CarrierSet {
	switch c {
	case ReasoningContent:
		return 1
	case Reasoning:
		return 2
	case ReasoningDetails:
		return 4
	}
	return 0
}

// A CarrierSet is a set of standard carriers. Its zero value is the empty
// set; iteration is always in canonical order, so anything built from a set
// is deterministic.
type CarrierSet uint8

// NewCarrierSet returns the set holding cs.
func NewCarrierSet(cs ...Carrier) CarrierSet {
	var s CarrierSet
	for _, c := range cs {
		s |= c.bit()
	}
	return s
}

// ParseCarrierSet reads a comma-separated list of carrier names.
func ParseCarrierSet(list string) (CarrierSet, error) {
	var s CarrierSet
	for _, f := range strings.Split(list, ",") {
		if strings.TrimSpace(f) == "" {
			continue
		}
		c, err := ParseCarrier(f)
		if err != nil {
			return 0, err
		}
		s |= c.bit()
	}
	return s, nil
}

// Has reports whether c is in the set.
func (s CarrierSet) Has(c Carrier) bool { return s&c.bit() != 0 }

// With returns the set plus c.
func (s CarrierSet) With(c Carrier) CarrierSet { return s | c.bit() }

// Minus returns the set without the members of o.
func (s CarrierSet) Minus(o CarrierSet) CarrierSet { return s &^ o }

// Union returns the members of either set.
func (s CarrierSet) Union(o CarrierSet) CarrierSet { return s | o }

// Intersect returns the members of both sets.
func (s CarrierSet) Intersect(o CarrierSet) CarrierSet { return s & o }

// Empty reports whether the set has no member.
func (s CarrierSet) Empty() bool { return s&7 == 0 }

// List returns the members in canonical order (never nil).
func (s CarrierSet) List() []Carrier {
	out := make([]Carrier, 0, 3)
	for _, c := range AllCarriers {
		if s.Has(c) {
			out = append(out, c)
		}
	}
	return out
}

// Names returns the members' names in canonical order (never nil).
func (s CarrierSet) Names() []string {
	out := make([]string, 0, 3)
	for _, c := range s.List() {
		out = append(out, string(c))
	}
	return out
}

// String renders the set as "reasoning_content,reasoning", or "none".
func (s CarrierSet) String() string {
	if s.Empty() {
		return "none"
	}
	return strings.Join(s.Names(), ",")
}

// Subsets returns every subset of the set, smallest first, in a fixed order.
func (s CarrierSet) Subsets() []CarrierSet {
	var out []CarrierSet
	for m := CarrierSet(0); m <= 7; m++ {
		if m&^s == 0 {
			out = append(out, m)
		}
	}
	return out
}
