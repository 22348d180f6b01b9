package toolset

import "strconv"

// SyntaxError returns the text of the *json.SyntaxError that encoding/json's Unmarshal (and Valid)
// reports for data, or "" when encoding/json accepts data. It is the error path of Reader: the strict
// decoder finds the same errors, but the adapters keep encoding/json's wording. Like encoding/json's
// scanner it reports the first offending byte with what was expected there, treats the end of the input
// as a space (so "tru" is "invalid character ' ' in literal true (expecting 'e')" and "[" is "unexpected
// end of JSON input"), accepts any byte >= 0x20 inside strings, and allows 10000 levels of nesting.
func SyntaxError(data []byte) string {
	s := syntax{data: data}
	if !s.value() {
		return s.msg
	}
	s.ws()
	if s.i < len(data) {
		return "invalid character " + quoteChar(data[s.i]) + " after top-level value"
	}
	return ""
}

type syntax struct {
	data  []byte
	i     int
	depth int
	msg   string
}

func (s *syntax) fail(c byte, context string) bool {
	s.msg = "invalid character " + quoteChar(c) + " " + context
	return false
}

// end reports the end of the input where a space would be accepted.
func (s *syntax) end() bool {
	s.msg = "unexpected end of JSON input"
	return false
}

// want consumes the next byte if ok accepts it; otherwise it fails with context (a space at the end).
func (s *syntax) want(ok func(byte) bool, context string) bool {
	if s.i >= len(s.data) {
		return s.fail(' ', context)
	}
	if c := s.data[s.i]; !ok(c) {
		return s.fail(c, context)
	}
	s.i++
	return true
}

func (s *syntax) ws() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

func (s *syntax) value() bool {
	s.ws()
	if s.i >= len(s.data) {
		return s.end()
	}
	switch c := s.data[s.i]; {
	case c == '{' || c == '[':
		if s.depth++; s.depth > maxDepth {
			return s.fail(c, "exceeded max depth")
		}
		s.i++
		if c == '{' {
			if !s.object() {
				return false
			}
		} else if !s.array() {
			return false
		}
		s.depth--
		return true
	case c == '"':
		return s.str()
	case c == '-' || isDigit(c):
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	default:
		return s.fail(c, "looking for beginning of value")
	}
}

func (s *syntax) object() bool {
	s.ws()
	if s.i < len(s.data) && s.data[s.i] == '}' {
		s.i++
		return true
	}
	for {
		s.ws()
		if s.i >= len(s.data) {
			return s.end()
		}
		if c := s.data[s.i]; c != '"' {
			return s.fail(c, "looking for beginning of object key string")
		}
		if !s.str() {
			return false
		}
		s.ws()
		if s.i >= len(s.data) {
			return s.end()
		}
		if c := s.data[s.i]; c != ':' {
			return s.fail(c, "after object key")
		}
		s.i++
		if !s.value() {
			return false
		}
		s.ws()
		if s.i >= len(s.data) {
			return s.end()
		}
		switch c := s.data[s.i]; c {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return s.fail(c, "after object key:value pair")
		}
	}
}

func (s *syntax) array() bool {
	s.ws()
	if s.i < len(s.data) && s.data[s.i] == ']' {
		s.i++
		return true
	}
	for {
		if !s.value() {
			return false
		}
		s.ws()
		if s.i >= len(s.data) {
			return s.end()
		}
		switch c := s.data[s.i]; c {
		case ',':
			s.i++
		case ']':
			s.i++
			return true
		default:
			return s.fail(c, "after array element")
		}
	}
}

func (s *syntax) str() bool {
	s.i++ // the opening quote
	for {
		if s.i >= len(s.data) {
			return s.end()
		}
		c := s.data[s.i]
		s.i++
		switch {
		case c == '"':
			return true
		case c == '\\':
			if !s.want(isEscape, "in string escape code") {
				return false
			}
			if s.data[s.i-1] == 'u' {
				for k := 0; k < 4; k++ {
					if !s.want(isHex, "in \\u hexadecimal character escape") {
						return false
					}
				}
			}
		case c < 0x20:
			return s.fail(c, "in string literal")
		}
	}
}

func (s *syntax) number() bool {
	if s.data[s.i] == '-' {
		s.i++
		if !s.want(isDigit, "in numeric literal") {
			return false
		}
	} else {
		s.i++
	}
	if s.data[s.i-1] != '0' {
		s.digits()
	}
	if s.i < len(s.data) && s.data[s.i] == '.' {
		s.i++
		if !s.want(isDigit, "after decimal point in numeric literal") {
			return false
		}
		s.digits()
	}
	if s.i < len(s.data) && (s.data[s.i] == 'e' || s.data[s.i] == 'E') {
		s.i++
		if s.i < len(s.data) && (s.data[s.i] == '+' || s.data[s.i] == '-') {
			s.i++
		}
		if !s.want(isDigit, "in exponent of numeric literal") {
			return false
		}
		s.digits()
	}
	return true
}

func (s *syntax) digits() {
	for s.i < len(s.data) && isDigit(s.data[s.i]) {
		s.i++
	}
}

func (s *syntax) literal(word string) bool {
	s.i++ // the first letter, already seen
	for k := 1; k < len(word); k++ {
		if s.i >= len(s.data) || s.data[s.i] != word[k] {
			c := byte(' ')
			if s.i < len(s.data) {
				c = s.data[s.i]
			}
			return s.fail(c, "in literal "+word+" (expecting "+quoteChar(word[k])+")")
		}
		s.i++
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func isEscape(c byte) bool {
	switch c {
	case 'b', 'f', 'n', 'r', 't', '\\', '/', '"', 'u':
		return true
	}
	return false
}

// quoteChar formats c as encoding/json's scanner does: in single quotes, Go-escaped.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	q := strconv.Quote(string(rune(c)))
	return "'" + q[1:len(q)-1] + "'"
}
