package prompt

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// template is a parsed section template: literal text and ${name}
// placeholders, in order.
type template struct {
	parts []tmplPart
}

// tmplPart is a literal (name empty) or a placeholder (name set).
type tmplPart struct {
	lit  string
	name string
}

// placeholderUse is the first use of a placeholder name in a template.
type placeholderUse struct {
	name string
	line int
}

// parseTemplate parses src: "${name}" is a placeholder, "$${" a literal
// "${", any other "$" a literal "$". It returns the placeholders' first uses
// in order of appearance and every syntax error (with src's line numbers).
func parseTemplate(src string) (template, []placeholderUse, []error) {
	var (
		t    template
		uses []placeholderUse
		errs []error
		seen = map[string]bool{}
		lit  strings.Builder
	)
	flush := func() {
		if lit.Len() > 0 {
			t.parts = append(t.parts, tmplPart{lit: lit.String()})
			lit.Reset()
		}
	}
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			lit.WriteByte(c)
			i++
		case c == '$' && strings.HasPrefix(src[i:], "$${"):
			lit.WriteString("${")
			i += 3
		case c == '$' && strings.HasPrefix(src[i:], "${"):
			end := strings.IndexAny(src[i+2:], "}\n")
			if end < 0 || src[i+2+end] == '\n' {
				frag := src[i:]
				if nl := strings.IndexByte(frag, '\n'); nl >= 0 {
					frag = frag[:nl]
				}
				errs = append(errs, fmt.Errorf("unterminated placeholder %s on line %d: no closing \"}\"",
					strconv.Quote(frag), line))
				lit.WriteString("${")
				i += 2
				continue
			}
			name := src[i+2 : i+2+end]
			if !validIdent(name) {
				errs = append(errs, fmt.Errorf("placeholder %s on line %d: the name must match ^[A-Za-z_][A-Za-z0-9_]*$",
					strconv.Quote("${"+name+"}"), line))
			} else {
				flush()
				t.parts = append(t.parts, tmplPart{name: name})
				if !seen[name] {
					seen[name] = true
					uses = append(uses, placeholderUse{name: name, line: line})
				}
			}
			i += 2 + end + 1
		default:
			lit.WriteByte(c)
			i++
		}
	}
	flush()
	return t, uses, errs
}

// render appends t to b, substituting values (a placeholder without a value
// renders empty; callers check params beforehand).
func (t *template) render(b *strings.Builder, value func(name string) string) {
	for _, p := range t.parts {
		if p.name == "" {
			b.WriteString(p.lit)
		} else {
			b.WriteString(value(p.name))
		}
	}
}

// empty reports whether t renders nothing whatever the values.
func (t *template) empty() bool { return len(t.parts) == 0 }

// validIdent reports whether s matches ^[A-Za-z_][A-Za-z0-9_]*$.
func validIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// dedent removes the leading whitespace common to src's non-blank lines,
// empties whitespace-only lines and drops leading and trailing blank lines
// (Python's textwrap.dedent(src).strip("\n") for indented Go raw strings).
func dedent(src string) string {
	lines := strings.Split(src, "\n")
	prefix, first := "", true
	for i, l := range lines {
		if strings.TrimLeft(l, " \t\r") == "" {
			lines[i] = ""
			continue
		}
		ws := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = ws, false
			continue
		}
		n := 0
		for n < len(prefix) && n < len(ws) && prefix[n] == ws[n] {
			n++
		}
		prefix = prefix[:n]
	}
	start, end := 0, len(lines)
	for start < end && lines[start] == "" {
		start++
	}
	for end > start && lines[end-1] == "" {
		end--
	}
	lines = lines[start:end]
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, prefix)
	}
	return strings.Join(lines, "\n")
}

// joinErrs is errors.Join that returns a nil error for an empty list.
func joinErrs(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return errors.Join(errs...)
}
