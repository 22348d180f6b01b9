package schema

import (
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Anchored is the full-match form of a pattern, as schemas state it and decoders compile it: "^(?:p)$",
// or p itself when p is already anchored at both ends as a whole (it parses as ^, something, $), so
// that what the developer wrote is what the model reads ("^[a-z]+$" stays "^[a-z]+$"; "^a|b$", which
// is (^a)|(b$), is wrapped).
func Anchored(p string) string {
	if re, err := syntax.Parse(p, syntax.Perl); err == nil && re.Op == syntax.OpConcat && len(re.Sub) >= 2 &&
		re.Sub[0].Op == syntax.OpBeginText && re.Sub[len(re.Sub)-1].Op == syntax.OpEndText {
		return p
	}
	return "^(?:" + p + ")$"
}

// CheckPattern reports why a pattern cannot be used, or nil. A pattern must be a complete regular
// expression on its own (so that no part of it escapes the anchors Anchored adds: "a)|(b" would turn
// full match into search), and it must mean the same in RE2, which the generated decoder runs, and in
// ECMA-262 with the u flag, which JSON Schema consumers (providers, MCP clients, validators) run. The
// portable subset is: literal characters; escapes of syntax characters (\. \* \+ \? \( \) \[ \] \{ \}
// \| \^ \$ \\ \/ and \- in a class); \d \D \w \W; \t \n \r \f \v; \xHH; character classes of those
// with ranges; groups (...) and (?:...);
// alternation; the quantifiers * + ? {n} {n,} {n,m} and their lazy forms; ^ and $. Everything else
// differs between the two or does not compile in one of them, and is refused with the reason and a
// portable way to write it.
func CheckPattern(p string) error {
	if _, err := regexp.Compile(p); err != nil {
		return &PatternError{Pattern: p, Reason: "is not a valid RE2 expression on its own: " + reErr(err)}
	}
	if !utf8.ValidString(p) {
		return &PatternError{Pattern: p, Reason: "is not valid UTF-8"}
	}
	c := patChecker{p: p}
	c.run()
	return c.err
}

// PatternError is a pattern CheckPattern refuses.
type PatternError struct {
	Pattern string // the pattern as written
	Reason  string // why it is refused, and how to write it instead
}

// Error returns "pattern "p" <reason>".
func (e *PatternError) Error() string { return "pattern " + strconv.Quote(e.Pattern) + " " + e.Reason }

// reErr is the text of a regexp compile error without the "error parsing regexp: " prefix.
func reErr(err error) string {
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}

type patChecker struct {
	p   string
	i   int
	err error
}

// fail records the first problem: what is found at offset at, why it is not portable and how to write it.
func (c *patChecker) fail(at int, what, why string) {
	if c.err == nil {
		c.err = &PatternError{Pattern: c.p, Reason: "has " + what + " at offset " + strconv.Itoa(at) +
			", which RE2 (the decoder) and ECMA-262 (JSON Schema consumers) do not read alike: " + why}
	}
}

func (c *patChecker) run() {
	p := c.p
	for c.i < len(p) && c.err == nil {
		at := c.i
		switch ch := p[c.i]; ch {
		case '\\':
			c.escape(false)
		case '[':
			c.class()
		case '(':
			c.i++
			if strings.HasPrefix(p[c.i:], "?:") {
				c.i += 2
			} else if c.i < len(p) && p[c.i] == '?' {
				c.fail(at, "a group with flags or a name "+groupHead(p[at:]), "use (...) or (?:...), and write case variants as classes such as [Aa]")
			}
		case '{':
			n := quantifierLen(p[c.i:])
			if n == 0 {
				c.fail(at, `a literal "{"`, `escape it as \{`)
				return
			}
			c.i += n
		case '}':
			c.fail(at, `a literal "}"`, `escape it as \}`)
		case '.':
			c.fail(at, `"."`, `RE2 matches \r, U+2028 and U+2029 with it, ECMA-262 does not; write the characters you mean as a class, such as [^\n] or [ -~]`)
		default:
			if ch >= utf8.RuneSelf {
				_, n := utf8.DecodeRuneInString(p[c.i:])
				c.i += n
			} else {
				c.i++
			}
		}
	}
}

// groupHead is the start of a group for messages: "(?i)", "(?P<name>", ...
func groupHead(s string) string {
	end := strings.IndexAny(s, ")>:")
	if end < 0 || end > 12 {
		end = min(len(s)-1, 12)
	}
	return s[:end+1]
}

// quantifierLen is the length of a {n}, {n,} or {n,m} quantifier at the start of s, or 0.
func quantifierLen(s string) int {
	i := 1
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if digits() == 0 {
		return 0
	}
	if i < len(s) && s[i] == ',' {
		i++
		digits()
	}
	if i < len(s) && s[i] == '}' {
		return i + 1
	}
	return 0
}

// escape checks the escape at c.i (a backslash) and moves past it.
func (c *patChecker) escape(inClass bool) {
	p, at := c.p, c.i
	if at+1 >= len(p) {
		c.fail(at, "a trailing backslash", "remove it or escape it as \\\\")
		return
	}
	e := p[at+1]
	c.i = at + 2
	switch {
	case strings.IndexByte(`.*+?()[]{}|^$\/`, e) >= 0:
	case e == '-' && inClass:
	case strings.IndexByte("dDwWtnrfv", e) >= 0:
	case e == 'x':
		if at+4 <= len(p) && isHex(p[at+2]) && isHex(p[at+3]) {
			c.i = at + 4
			return
		}
		c.fail(at, `\x without exactly two hex digits`, `RE2's \x{...} is not ECMA-262; write the character itself`)
	case e == 's' || e == 'S':
		c.fail(at, `\`+string(e), `RE2's is ASCII space, \t \n \f \r; ECMA-262's adds \v and Unicode spaces; write the class you mean, such as [ \t\n\r\f]`)
	case e == 'b' || e == 'B':
		c.fail(at, `\`+string(e), `a word boundary in RE2, a backspace inside an ECMA-262 class; express the boundary with the characters around it`)
	case e == 'p' || e == 'P':
		c.fail(at, `the Unicode class escape \`+string(e), `the two name classes differently (ECMA-262 needs \p{...} and the u flag); list the characters or ranges`)
	case e >= '0' && e <= '9':
		c.fail(at, `\`+string(e), `an octal escape in RE2, a back-reference or NUL in ECMA-262; write the character itself`)
	default:
		c.fail(at, `the escape \`+string(e), `it is not an escape in both; write the character itself (escape only syntax characters)`)
	}
}

// class checks the character class at c.i and moves past it.
func (c *patChecker) class() {
	p, at := c.p, c.i
	c.i++
	if c.i < len(p) && p[c.i] == '^' {
		c.i++
	}
	first := true
	for c.i < len(p) && c.err == nil {
		ch := p[c.i]
		switch {
		case ch == ']' && !first:
			c.i++
			return
		case ch == ']':
			c.fail(c.i, `"]" first in a class`, `a literal in RE2, the end of an empty class in ECMA-262; escape it as \]`)
			return
		case ch == '[':
			if strings.HasPrefix(p[c.i:], "[:") {
				c.fail(c.i, "a POSIX class", "ECMA-262 has none; list the ranges, such as [A-Za-z] for [:alpha:]")
				return
			}
			c.fail(c.i, `an unescaped "[" inside a class`, `escape it as \[`)
			return
		case ch == '\\':
			c.escape(true)
		case ch >= utf8.RuneSelf:
			_, n := utf8.DecodeRuneInString(p[c.i:])
			c.i += n
		default:
			c.i++
		}
		first = false
	}
	if c.err == nil {
		c.fail(at, "an unterminated class", "close it with ]")
	}
}

func isHex(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F' }
