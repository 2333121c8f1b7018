package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
)

// BadgeDir is the directory, inside a report directory, of the badges.
const BadgeDir = "badges"

// A Badge is a shields.io endpoint badge
// (https://shields.io/badges/endpoint-badge): serve the file and point
// https://img.shields.io/endpoint?url=… at it.
type Badge struct {
	SchemaVersion int    `json:"schemaVersion"`
	Label         string `json:"label"`
	Message       string `json:"message"`
	Color         string `json:"color"`
}

// A BadgeFile is one badge and its path in a report directory.
type BadgeFile struct {
	Path  string // badges/matrix.json, badges/<target>.json
	Badge Badge
}

// Badges returns the badge of the whole matrix ("N/M passing", labelled
// "replaycheck") and one per target (labelled with its id), in that order
// and then matrix order. M counts the judged cells (every cell but n/a); N
// those that pass or are advisory. The colour is red when a cell fails or
// could not be judged, yellow when one is unverified or a known failure,
// bright green otherwise.
func Badges(m *Matrix) []BadgeFile {
	byTarget := map[string][]Cell{}
	for _, c := range m.Cells {
		byTarget[c.Target] = append(byTarget[c.Target], c)
	}
	out := []BadgeFile{{Path: path.Join(BadgeDir, "matrix.json"), Badge: badge("replaycheck", m.Cells)}}
	for _, t := range m.Targets {
		out = append(out, BadgeFile{Path: path.Join(BadgeDir, t+".json"), Badge: badge(t, byTarget[t])})
	}
	return out
}

func badge(label string, cells []Cell) Badge {
	judged, passing := 0, 0
	color := "brightgreen"
	for _, c := range cells {
		switch c.Status {
		case StatusNA:
			continue
		case StatusPass, StatusAdvisory:
			passing++
		case StatusFail, StatusError:
			color = "red"
		case StatusUnverified, StatusKnownFail:
			if color != "red" {
				color = "yellow"
			}
		}
		judged++
	}
	if judged == 0 {
		color = "lightgrey"
	}
	return Badge{SchemaVersion: 1, Label: label, Message: fmt.Sprintf("%d/%d passing", passing, judged), Color: color}
}

// encode renders a badge as its endpoint JSON, one line.
func (b Badge) encode() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(b) // a struct of strings and an int always encodes
	return buf.Bytes()
}
