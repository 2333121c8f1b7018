package report

import (
	"fmt"
	"html"
	"strings"
	"testing"
)

// hnode is an element or a text node of a page parsed by parseXHTML.
type hnode struct {
	tag    string // "" for a text node
	attrs  map[string]string
	text   string // unescaped text of a text node
	kids   []*hnode
	offset int // byte offset of the start tag or text
}

// textContent returns the unescaped text of n and its descendants.
func (n *hnode) textContent() string {
	if n.tag == "" {
		return n.text
	}
	var b strings.Builder
	for _, k := range n.kids {
		b.WriteString(k.textContent())
	}
	return b.String()
}

// walk calls f on n and every element below it, depth first, in document order.
func (n *hnode) walk(f func(*hnode)) {
	if n.tag == "" {
		return
	}
	f(n)
	for _, k := range n.kids {
		k.walk(f)
	}
}

// find returns the elements below n (n included) for which match is true.
func (n *hnode) find(match func(*hnode) bool) []*hnode {
	var found []*hnode
	n.walk(func(e *hnode) {
		if match(e) {
			found = append(found, e)
		}
	})
	return found
}

// voidElements must be written self-closed ("<meta ... />") and nothing else may be.
var voidElements = map[string]bool{"meta": true, "br": true, "hr": true, "img": true, "input": true, "link": true, "wbr": true}

// rawTextElements hold text up to their end tag, without markup or entities.
var rawTextElements = map[string]bool{"style": true, "script": true}

// parseXHTML parses src strictly as XHTML-ish markup: an optional <!DOCTYPE html>, then one root
// element; lowercase names; every attribute quoted with "" and given once; every element closed
// in order (void elements self-closed, others never); "&" only as &amp; &lt; &gt; &quot; &apos;
// or a numeric reference; "<" only to start markup. It returns the root element.
func parseXHTML(src string) (*hnode, error) {
	p := &xhtmlParser{src: src}
	return p.parse()
}

// xhtmlParser is the state of parseXHTML.
type xhtmlParser struct {
	src string
	pos int
}

func (p *xhtmlParser) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *xhtmlParser) parse() (*hnode, error) {
	if strings.HasPrefix(p.src, "<!DOCTYPE html>") {
		p.pos = len("<!DOCTYPE html>")
	}
	doc := &hnode{tag: "#document"}
	stack := []*hnode{doc}
	for p.pos < len(p.src) {
		top := stack[len(stack)-1]
		switch {
		case strings.HasPrefix(p.src[p.pos:], "</"):
			start := p.pos
			p.pos += 2
			name := p.name()
			if name == "" || !strings.HasPrefix(p.src[p.pos:], ">") {
				return nil, p.errorf("malformed end tag")
			}
			p.pos++
			if top.tag != name {
				p.pos = start
				return nil, p.errorf("end tag </%s> closes <%s>", name, top.tag)
			}
			stack = stack[:len(stack)-1]
		case strings.HasPrefix(p.src[p.pos:], "<!--"):
			end := strings.Index(p.src[p.pos:], "-->")
			if end < 0 {
				return nil, p.errorf("unterminated comment")
			}
			p.pos += end + 3
		case p.src[p.pos] == '<':
			el, selfClosed, err := p.startTag()
			if err != nil {
				return nil, err
			}
			if top == doc && len(doc.kids) > 0 {
				return nil, p.errorf("second root element <%s>", el.tag)
			}
			top.kids = append(top.kids, el)
			switch {
			case voidElements[el.tag] && !selfClosed:
				return nil, p.errorf("void element <%s> is not self-closed", el.tag)
			case !voidElements[el.tag] && selfClosed:
				return nil, p.errorf("<%s/> is self-closed but is not a void element", el.tag)
			case selfClosed:
			case rawTextElements[el.tag]:
				end := strings.Index(p.src[p.pos:], "</"+el.tag+">")
				if end < 0 {
					return nil, p.errorf("<%s> is never closed", el.tag)
				}
				el.kids = append(el.kids, &hnode{text: p.src[p.pos : p.pos+end], offset: p.pos})
				p.pos += end + len("</"+el.tag+">")
			default:
				stack = append(stack, el)
			}
		default:
			start := p.pos
			end := strings.IndexByte(p.src[p.pos:], '<')
			if end < 0 {
				end = len(p.src) - p.pos
			}
			raw := p.src[p.pos : p.pos+end]
			text, err := p.unescape(raw)
			if err != nil {
				return nil, err
			}
			p.pos += end
			if top == doc {
				if strings.TrimSpace(text) != "" {
					return nil, p.errorf("text outside the root element")
				}
				continue
			}
			top.kids = append(top.kids, &hnode{text: text, offset: start})
		}
	}
	if len(stack) > 1 {
		return nil, p.errorf("<%s> is never closed", stack[len(stack)-1].tag)
	}
	if len(doc.kids) != 1 {
		return nil, p.errorf("no root element")
	}
	return doc.kids[0], nil
}

// name reads an element or attribute name: lowercase, as HTML writes
// them, except inside one (inline SVG's viewBox).
func (p *xhtmlParser) name() string {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c >= 'a' && c <= 'z' || p.pos > start && (c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			p.pos++
			continue
		}
		break
	}
	return p.src[start:p.pos]
}

// startTag reads "<name attr="value" ...>" or "<name ... />".
func (p *xhtmlParser) startTag() (*hnode, bool, error) {
	el := &hnode{attrs: map[string]string{}, offset: p.pos}
	p.pos++ // <
	el.tag = p.name()
	if el.tag == "" {
		return nil, false, p.errorf("stray < or malformed tag name")
	}
	for {
		spaced := p.skipSpace()
		switch {
		case strings.HasPrefix(p.src[p.pos:], "/>"):
			p.pos += 2
			return el, true, nil
		case strings.HasPrefix(p.src[p.pos:], ">"):
			p.pos++
			return el, false, nil
		case !spaced:
			return nil, false, p.errorf("<%s>: attributes must be separated by white space", el.tag)
		}
		attr := p.name()
		if attr == "" {
			return nil, false, p.errorf("<%s>: malformed attribute", el.tag)
		}
		if !strings.HasPrefix(p.src[p.pos:], `="`) {
			return nil, false, p.errorf("<%s>: attribute %s is not written as %s=\"...\"", el.tag, attr, attr)
		}
		p.pos += 2
		end := strings.IndexByte(p.src[p.pos:], '"')
		if end < 0 {
			return nil, false, p.errorf("<%s>: attribute %s is not closed", el.tag, attr)
		}
		raw := p.src[p.pos : p.pos+end]
		if strings.ContainsRune(raw, '<') {
			return nil, false, p.errorf("<%s>: attribute %s contains a raw <", el.tag, attr)
		}
		value, err := p.unescape(raw)
		if err != nil {
			return nil, false, err
		}
		if _, dup := el.attrs[attr]; dup {
			return nil, false, p.errorf("<%s>: duplicate attribute %s", el.tag, attr)
		}
		el.attrs[attr] = value
		p.pos += end + 1
	}
}

// skipSpace skips white space and reports whether there was any.
func (p *xhtmlParser) skipSpace() bool {
	start := p.pos
	for p.pos < len(p.src) && strings.IndexByte(" \t\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
	return p.pos > start
}

// unescape checks every "&" in raw starts an XML entity or numeric reference and decodes them.
func (p *xhtmlParser) unescape(raw string) (string, error) {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '&' {
			continue
		}
		end := strings.IndexByte(raw[i:], ';')
		if end < 0 {
			return "", fmt.Errorf("offset %d: bare &", p.pos+i)
		}
		ref := raw[i+1 : i+end]
		switch {
		case ref == "amp" || ref == "lt" || ref == "gt" || ref == "quot" || ref == "apos":
		case len(ref) > 1 && ref[0] == '#' && strings.Trim(ref[1:], "0123456789") == "":
		case len(ref) > 2 && ref[:2] == "#x" && strings.Trim(ref[2:], "0123456789abcdefABCDEF") == "":
		default:
			return "", fmt.Errorf("offset %d: unknown entity &%s;", p.pos+i, ref)
		}
	}
	return html.UnescapeString(raw), nil
}

func TestParseXHTMLRejects(t *testing.T) {
	tests := []struct {
		src, want, reason string
	}{
		{`<html><body></html>`, "end tag </html> closes <body>", "end tags must close the innermost element"},
		{`<html><p>`, "<p> is never closed", "every element is closed"},
		{`<html><p>a & b</p></html>`, "bare &", "a raw & is not well-formed"},
		{`<html><p>&nbsp;</p></html>`, "unknown entity &nbsp;", "only XML entities are allowed"},
		{`<html><p class=x></p></html>`, `attribute class is not written as class="..."`, "attributes are quoted"},
		{`<html><p id="a" id="b"></p></html>`, "duplicate attribute id", "an attribute is given once"},
		{`<html><meta charset="utf-8"></html>`, "void element <meta> is not self-closed", "void elements are self-closed"},
		{`<html><div/></html>`, "<div/> is self-closed but is not a void element", "only void elements self-close"},
		{`<html><p>1 < 2</p></html>`, "stray <", "a raw < starts markup"},
		{`<html><P></P></html>`, "stray <", "names are lowercase"},
		{`<html></html><html></html>`, "second root element", "one root element"},
		{`<html><p id="a"class="b"></p></html>`, "separated by white space", "attributes are separated"},
		{`<html><style>p {}</html>`, "<style> is never closed", "raw text elements need their end tag"},
	}
	for _, tc := range tests {
		_, err := parseXHTML(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: parseXHTML(%q) = %v, want an error containing %q", tc.reason, tc.src, err, tc.want)
		}
	}
}

func TestParseXHTMLAccepts(t *testing.T) {
	root, err := parseXHTML(`<!DOCTYPE html>` + "\n" +
		`<html><head><meta charset="utf-8"/><style>a > b { x: "<" }</style></head>` +
		`<body><p title="&#34;q&#34; &amp; r">x &lt;y&gt; &#x41;</p><!-- c --></body></html>` + "\n")
	if err != nil {
		t.Fatalf("well-formed page rejected: %v", err)
	}
	ps := root.find(func(n *hnode) bool { return n.tag == "p" })
	if len(ps) != 1 || ps[0].attrs["title"] != `"q" & r` || ps[0].textContent() != "x <y> A" {
		t.Fatalf("entities must decode in attributes and text, got %+v", ps)
	}
	styles := root.find(func(n *hnode) bool { return n.tag == "style" })
	if len(styles) != 1 || styles[0].textContent() != `a > b { x: "<" }` {
		t.Fatalf("style must be kept as raw text, got %+v", styles)
	}
}
