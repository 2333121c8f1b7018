package report

import (
	"fmt"
	"html/template"
	"io"
	"strings"
)

// implementationsHTML is the implementations report page: self-contained,
// no script, no external resource.
var implementationsHTML = template.Must(template.New("implementations").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>replaycheck: implementations</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #1f2328; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.n { text-align: center; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.ok { background: #dafbe1; }
td.bad { background: #ffebe9; }
td.mixed { background: #fff8c5; }
code { font-size: 12px; }
.class { font-weight: 600; white-space: nowrap; }
.library-defect { color: #a40e26; }
.connector-limit { color: #7d4e00; }
.simulated-guess { color: #57606a; }
li { margin: 0.3em 0; }
</style>
</head>
<body>
<h1>Implementations</h1>
<p>Every implementation's matrix over the same committed cassettes: the reference engine, the connectors over real agent stacks (<code>connectors/</code>) and the engine-protocol examples. Cells are judged mostly by the provider profiles; a fail's class is its expectations reason's: <span class="class library-defect">library defect</span>, <span class="class connector-limit">connector limit</span> or <span class="class simulated-guess">simulated guess</span> (a profile rule of confidence partial or unconfirmed).</p>
<table>
<tr><th>implementation</th><th>folder</th><th>run</th><th>summary</th></tr>
{{range .Rows}}<tr><td>{{.Name}}</td><td>{{if .Path}}<code>{{.Path}}</code>{{else}}—{{end}}</td><td><code>{{.Run}}</code></td><td>{{.Summary}}</td></tr>
{{end}}</table>
<h2>Per scenario</h2>
<p>Each cell: passing / failing (fail, known-fail, advisory) cells of the scenario; — when every cell is n/a.</p>
<table>
<tr><th>implementation</th>{{range .Scenarios}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td>{{.Name}}</td>{{range .Counts}}<td class="n {{.Class}}">{{.Text}}</td>{{end}}</tr>
{{end}}</table>
{{range .Rows}}<h2>{{.Name}}</h2>
{{if .Fails}}<ul>
{{range .Fails}}<li><code>{{.ID}}</code> {{.Status}} — <span class="class {{.ClassID}}">{{.Class}}</span>: {{range .Reason}}{{if .Link}}<a href="{{.Link}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}{{if .Cause}} <small>(cause: <code>{{.Cause}}</code>)</small>{{end}}</li>
{{end}}</ul>
{{else}}<p>No failing cell.</p>
{{end}}{{end}}</body>
</html>
`))

type htmlImplRow struct {
	Name, Path, Run, Summary string
	Counts                   []htmlImplCount
	Fails                    []htmlImplFail
}

type htmlImplCount struct{ Text, Class string }

type htmlImplFail struct {
	ID, Status, Class, ClassID, Cause string
	Reason                            []htmlSpan
}

// htmlSpan is a piece of a reason: text, or a link.
type htmlSpan struct{ Text, Link string }

// WriteImplementationsHTML renders the implementations report as one
// self-contained HTML page with the Markdown report's content.
func WriteImplementationsHTML(w io.Writer, rows []ImplementationRow) error {
	if len(rows) == 0 {
		return fmt.Errorf("implementations report: no implementation")
	}
	data := struct {
		Scenarios []string
		Rows      []htmlImplRow
	}{Scenarios: rows[0].Matrix.Scenarios}
	for _, r := range rows {
		hr := htmlImplRow{Name: r.name(), Path: r.Path, Run: r.Run, Summary: countsText(r.Matrix.Counts())}
		for _, s := range data.Scenarios {
			pass, fail, _ := r.scenarioCounts(s)
			c := htmlImplCount{Text: fmt.Sprintf("%d / %d", pass, fail)}
			switch {
			case pass+fail == 0:
				c.Text = "—"
			case fail == 0:
				c.Class = "ok"
			case pass == 0:
				c.Class = "bad"
			default:
				c.Class = "mixed"
			}
			hr.Counts = append(hr.Counts, c)
		}
		for _, c := range r.Matrix.Cells {
			if !failing(c.Status) {
				continue
			}
			why := r.reason(c)
			class := FailClass(why)
			f := htmlImplFail{ID: c.ID(), Status: string(c.Status), Class: class, Cause: paragraph(clip(firstNonEmpty(c.ProviderError, c.Expected), 160))}
			if class == "" {
				f.Class = string(c.Status)
			}
			f.ClassID = strings.ReplaceAll(f.Class, " ", "-")
			f.Reason = spans(strings.TrimSpace(strings.TrimPrefix(why, class+":")))
			hr.Fails = append(hr.Fails, f)
		}
		data.Rows = append(data.Rows, hr)
	}
	return implementationsHTML.Execute(w, data)
}

// spans splits text into plain pieces and links.
func spans(s string) []htmlSpan {
	var out []htmlSpan
	last := 0
	for _, loc := range linkPattern.FindAllStringIndex(s, -1) {
		if loc[0] > last {
			out = append(out, htmlSpan{Text: s[last:loc[0]]})
		}
		out = append(out, htmlSpan{Text: s[loc[0]:loc[1]], Link: s[loc[0]:loc[1]]})
		last = loc[1]
	}
	if last < len(s) {
		out = append(out, htmlSpan{Text: s[last:]})
	}
	return out
}
