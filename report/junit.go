package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// junitSuites is the JUnit XML root element.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

// junitSuite is one scenario.
type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Cases      []junitCase      `xml:"testcase"`
}

// junitProperties are a suite's properties: the implementation checked.
type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

// junitProperty is one name = value property.
type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// implementationProperties returns the properties naming the implementation, or nil.
func implementationProperties(i *Implementation) *junitProperties {
	if i == nil {
		return nil
	}
	p := &junitProperties{}
	for _, kv := range [][2]string{{"name", i.Name}, {"version", i.Version}, {"language", i.Language}, {"homepage", i.Homepage}} {
		if kv[1] != "" {
			p.Property = append(p.Property, junitProperty{Name: "implementation." + kv[0], Value: kv[1]})
		}
	}
	return p
}

// junitCase is one target × scenario cell.
type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

// junitFailure marks a failed (fail) or unproven (unverified) cell, and, as <error>, a cell that
// could not be judged (error).
type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

// junitSkipped marks a cell whose scenario does not apply.
type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// junitText is element text written as CDATA so line ends survive.
type junitText struct {
	Text string `xml:",cdata"`
}

// WriteJUnit writes m as JUnit XML for CI: one <testsuite> per scenario (named after it), one
// <testcase> per target (classname = scenario, name = "<target>/<scenario>"). A fail cell gets
// <failure type="fail" message="<detail>"> whose text lists status, expected, actual, provider
// error and cassette; an unverified cell gets the same with type="unverified"; an error cell gets
// <error type="error"> with the same text; an n/a cell gets <skipped message="n/a: <detail>"/>;
// pass, known-fail and advisory cells pass, with a <system-out> note giving status, provenance
// and detail. The tests, failures, errors and skipped attributes count the cells below them; no
// timestamps or durations are written.
// When m names its implementation, every suite carries it as implementation.name,
// implementation.version (and language, homepage) properties.
func WriteJUnit(w io.Writer, m *Matrix) error {
	rows, err := m.grid()
	if err != nil {
		return err
	}
	root := junitSuites{Name: "replaycheck", Suites: make([]junitSuite, 0, len(m.Scenarios))}
	for j, scenario := range m.Scenarios {
		suite := junitSuite{Name: scenario, Properties: implementationProperties(m.Implementation), Cases: make([]junitCase, 0, len(rows))}
		for _, row := range rows {
			tc := junitTestCase(row[j])
			suite.Tests++
			switch {
			case tc.Failure != nil:
				suite.Failures++
			case tc.Error != nil:
				suite.Errors++
			case tc.Skipped != nil:
				suite.Skipped++
			}
			suite.Cases = append(suite.Cases, tc)
		}
		root.Tests += suite.Tests
		root.Failures += suite.Failures
		root.Errors += suite.Errors
		root.Skipped += suite.Skipped
		root.Suites = append(root.Suites, suite)
	}
	out, err := xml.MarshalIndent(root, "", "  ")
	if err != nil {
		return fmt.Errorf("encode matrix junit: %w", err)
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.Write(out)
	b.WriteString("\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write matrix junit: %w", err)
	}
	return nil
}

// junitTestCase converts one cell.
func junitTestCase(c Cell) junitCase {
	tc := junitCase{Classname: c.Scenario, Name: c.ID()}
	detail := xmlText(paragraph(c.Detail))
	if detail == "" {
		detail = c.Status.Meaning()
	}
	switch c.Status {
	case StatusFail, StatusUnverified:
		tc.Failure = &junitFailure{Message: detail, Type: string(c.Status), Text: junitReport(c)}
	case StatusError:
		tc.Error = &junitFailure{Message: detail, Type: string(c.Status), Text: junitReport(c)}
	case StatusNA:
		tc.Skipped = &junitSkipped{Message: "n/a: " + detail}
	default:
		tc.SystemOut = &junitText{Text: junitReport(c)}
	}
	return tc
}

// junitReport returns the cell's fields as "name: value" lines, multi-line values on the lines
// after their name, ending in a newline.
func junitReport(c Cell) string {
	status := string(c.Status)
	if c.Provenance != "" {
		status += " (" + c.Provenance + ")"
	}
	var b strings.Builder
	b.WriteString("\n")
	for _, field := range [][2]string{
		{"status", status},
		{"detail", paragraph(c.Detail)},
		{"verdict", c.VerdictText()},
		{"expected", c.Expected},
		{"actual", c.Actual},
		{"provider error", c.ProviderError},
		{"cassette", c.Cassette},
	} {
		value := lines(field[1])
		switch {
		case strings.TrimSpace(value) == "":
		case strings.Contains(value, "\n"):
			b.WriteString(field[0] + ":\n" + value + "\n")
		default:
			b.WriteString(field[0] + ": " + value + "\n")
		}
	}
	return xmlText(b.String())
}
