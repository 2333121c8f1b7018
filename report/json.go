package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON writes m as matrix.json: the object {"implementation", "targets", "scenarios",
// "cells"} (implementation omitted when m names none, and "evidence" when the matrix has a
// recorded-evidence section, "curve" when it has a quality curve, "aliases" when it has alias
// rows) indented by two spaces, cells in target × scenario order, empty
// lists as [] (never null), optional fields omitted when empty, and <, > and & left unescaped
// so provider errors stay readable. [ReadJSON] reads it back.
func WriteJSON(w io.Writer, m *Matrix) error {
	rows, err := m.grid()
	if err != nil {
		return err
	}
	out := Matrix{
		Implementation: m.Implementation,
		Targets:        append([]string{}, m.Targets...),
		Scenarios:      append([]string{}, m.Scenarios...),
		Cells:          make([]Cell, 0, len(m.Cells)),
	}
	for _, row := range rows {
		out.Cells = append(out.Cells, row...)
	}
	if ev := m.Evidence; ev != nil {
		out.Evidence = &Evidence{
			Targets:   append([]EvidenceTarget{}, ev.Targets...),
			Exchanges: append([]EvidenceExchange{}, ev.Exchanges...),
			Profiles:  append([]ProfileFidelity{}, ev.Profiles...),
			// Unreadable stays nil when empty: omitted, as it always was.
			Unreadable: ev.Unreadable,
			// DialectOnly likewise.
			DialectOnly: ev.DialectOnly,
		}
	}
	out.Curve = m.Curve
	out.Aliases = m.Aliases
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("encode matrix json: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write matrix json: %w", err)
	}
	return nil
}
