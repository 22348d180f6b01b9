package annotations

import (
	"go/token"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is a positioned problem in a directive or tag.
type Error struct {
	Pos token.Position
	Msg string
}

// Error formats the error as "file:line:col: msg" (or "line:col: msg" without a file name, or just the
// message when the position is unknown).
func (e *Error) Error() string {
	if e.Pos.Filename == "" && !e.Pos.IsValid() {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// advance returns pos moved n bytes along the same line.
func advance(pos token.Position, n int) token.Position {
	pos.Offset += n
	pos.Column += n
	return pos
}

// positioner returns a function mapping a byte offset in text to its position, text starting at pos and
// possibly spanning lines. Each lookup is O(log lines).
func positioner(pos token.Position, text string) func(int) token.Position {
	var newlines []int
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			newlines = append(newlines, i)
		}
	}
	return func(n int) token.Position {
		k := sort.SearchInts(newlines, n) // newlines before offset n
		if k == 0 {
			return advance(pos, n)
		}
		p := pos
		p.Offset += n
		p.Line += k
		p.Column = n - newlines[k-1]
		return p
	}
}

// isBlank reports whether c separates directive arguments.
func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// argKind classifies how a directive argument was written.
type argKind int

const (
	argNoEq    argKind = iota // a key with no '=' after it
	argNoValue                // key= followed by a blank or the end
	argBad                    // a value whose syntax error the lexer already reported
	argBare                   // key=word
	argQuoted                 // key="string"
	argJSON                   // key={...} or key=[...]
)

// arg is one key=value argument of a directive, with byte offsets into the directive text.
type arg struct {
	key    string
	keyOff int
	kind   argKind
	val    string // the value exactly as written (quotes and brackets included)
	valOff int
}

// lexArgs splits text[i:] into key=value arguments separated by spaces or tabs. It reports structural
// problems (missing key, unterminated string or JSON value, text glued to a value) through errf and returns
// every argument that has a key, marking broken ones so the caller checks keys without cascading errors.
func lexArgs(text string, i int, errf func(off int, msg string)) []arg {
	var args []arg
	for {
		for i < len(text) && isBlank(text[i]) {
			i++
		}
		if i >= len(text) {
			return args
		}
		a := arg{keyOff: i}
		for i < len(text) && !isBlank(text[i]) && text[i] != '=' {
			i++
		}
		a.key = text[a.keyOff:i]
		if i >= len(text) || text[i] != '=' {
			args = append(args, a) // argNoEq
			continue
		}
		i++ // '='
		a.valOff = i
		if i >= len(text) || isBlank(text[i]) {
			a.kind = argNoValue
		} else {
			switch c := text[i]; c {
			case '"':
				end, ok := scanQuoted(text, i)
				if !ok {
					errf(i, "unterminated string in the value of "+keyName(a.key)+": missing closing '\"'")
					a.kind = argBad
					i = end
					break
				}
				a.kind, i = argQuoted, end
			case '{', '[':
				end, why := scanJSON(text, i)
				if why != "" {
					errf(i, "unterminated JSON value of "+keyName(a.key)+": "+why)
					a.kind = argBad
					i = end
					break
				}
				a.kind, i = argJSON, end
			default:
				for i < len(text) && !isBlank(text[i]) {
					i++
				}
				a.kind = argBare
			}
			a.val = text[a.valOff:i]
			if a.kind != argBad && i < len(text) && !isBlank(text[i]) {
				errf(i, "unexpected "+strconv.QuoteRuneToASCII(firstRune(text[i:]))+" right after the value of "+
					keyName(a.key)+"; separate key=value pairs with spaces")
				a.kind = argBad
				for i < len(text) && !isBlank(text[i]) {
					i++
				}
			}
		}
		if a.key == "" {
			errf(a.keyOff, "missing key before '='; write key=value")
			continue
		}
		args = append(args, a)
	}
}

// keyName renders a key for a message.
func keyName(key string) string {
	if key == "" {
		return "the argument"
	}
	return strconv.QuoteToASCII(key)
}

// firstRune returns the first rune of s (utf8.RuneError for an invalid byte).
func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// scanQuoted returns the offset just past the double-quoted string starting at text[i] (a backslash escapes
// the next byte), or len(text) and false when the string is not terminated.
func scanQuoted(text string, i int) (int, bool) {
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return len(text), false
}

// scanJSON returns the offset just past the JSON object or array starting at text[i], balancing brackets
// and skipping JSON strings. A mismatched closing bracket ends the value there, for the JSON validator to
// report. When the value is not terminated it returns len(text) and a reason.
func scanJSON(text string, i int) (int, string) {
	var open []byte // the closers still expected, innermost last
	inString := false
	for j := i; j < len(text); j++ {
		c := text[j]
		if inString {
			switch c {
			case '\\':
				j++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{':
			open = append(open, '}')
		case '[':
			open = append(open, ']')
		case '}', ']':
			if c != open[len(open)-1] || len(open) == 1 {
				return j + 1, ""
			}
			open = open[:len(open)-1]
		}
	}
	if inString {
		return len(text), "a string inside it is missing its closing '\"'"
	}
	return len(text), "missing closing '" + string(open[len(open)-1]) + "'"
}

// unquoteGo decodes the body of a Go string literal (without its quotes) and returns, for every byte of
// the result plus one for its end, the offset in s of the source text it came from. On a bad escape or a
// newline it returns the offset of the offending text.
func unquoteGo(s string, quote byte) (string, []int, int, bool) {
	b := make([]byte, 0, len(s))
	m := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); {
		if s[i] == '\n' {
			return "", nil, i, false
		}
		v, multibyte, tail, err := strconv.UnquoteChar(s[i:], quote)
		if err != nil {
			return "", nil, i, false
		}
		n := len(s) - i - len(tail)
		start := len(b)
		switch {
		case s[i] != '\\':
			b = append(b, s[i:i+n]...) // verbatim, even invalid UTF-8
		case multibyte:
			b = utf8.AppendRune(b, v)
		default:
			b = append(b, byte(v))
		}
		for range len(b) - start {
			m = append(m, i)
		}
		i += n
	}
	m = append(m, len(s))
	return string(b), m, 0, true
}

// editDistance is the Levenshtein distance between a and b, compared case-insensitively for ASCII.
func editDistance(a, b string) int {
	a, b = strings.ToLower(a), strings.ToLower(b)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// suggest returns the known word nearest to s when it is close enough to be a likely typo, else "".
// Inputs longer than 64 bytes get no suggestion (and no quadratic work).
func suggest(s string, known []string) string {
	if len(s) > 64 {
		return ""
	}
	best, bestD := "", 3 // at most 2 edits
	for _, k := range known {
		if d := editDistance(s, k); d < bestD && d < max(len(s), 2) {
			best, bestD = k, d
		}
	}
	return best
}

// didYouMean renders a suggestion clause (` (did you mean "min"?)`) or "".
func didYouMean(s string, known []string) string {
	if k := suggest(s, known); k != "" {
		return " (did you mean " + strconv.Quote(k) + "?)"
	}
	return ""
}
