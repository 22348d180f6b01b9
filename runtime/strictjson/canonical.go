package strictjson

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Canonical appends to dst the RFC 8785 (JSON Canonicalization Scheme) form of the JSON text src and
// returns the extended buffer: no whitespace; object members sorted by their names' UTF-16 code units;
// strings with only the escapes RFC 8785 keeps (\" \\ \b \f \n \r \t, other controls as \u00xx, every
// other character as itself, in UTF-8); numbers as ECMAScript's Number-to-string writes the nearest
// IEEE 754 double (1e2, 100.0 and 1E+2 are all 100; 1e21 is 1e+21; -0 is 0). Two texts that differ only
// in spelling (member order, whitespace, escapes, number notation) have the same canonical form, and
// the canonical form of a canonical text is itself.
//
// It is an error, with src's offset: text that is not one JSON value (RFC 8259), invalid UTF-8, a lone
// surrogate (escaped or not), an object naming one member twice (compared after unescaping, so "a" and
// "\u0061" are the same name), a number beyond the double range (1e400), or nesting deeper than
// MaxCanonicalDepth. It uses no reflection and allocates only the sort scratch of objects.
//
// Canonical rounds every number to a double as RFC 8785 requires, so two different numbers a double
// cannot tell apart (12345678901234567891 and 12345678901234567892) get one form: use CanonicalExact for
// anything that identifies a value (keys, digests).
func Canonical(dst, src []byte) ([]byte, error) { return canonical(dst, src, false) }

// CanonicalExact is Canonical except for numbers whose decimal value is not the value of their RFC 8785
// form (more significant digits than a double keeps, 1e400, 1e-400): such a number keeps its exact value,
// written in the same notation (12345678901234567891 stays 12345678901234567891, 1e400 is 1e+400), where
// Canonical would round it. Two texts have the same exact form if and only if they hold the same values
// (numbers compared as decimals), so it is the form winkgen hashes for idempotency keys and approval
// bindings. For every text whose numbers are written with no more digits than their double's shortest
// form (any number a program wrote from a double) it equals Canonical.
func CanonicalExact(dst, src []byte) ([]byte, error) { return canonical(dst, src, true) }

// MaxCanonicalDepth bounds the nesting of arrays and objects Canonical accepts.
const MaxCanonicalDepth = 1000

// CanonicalError is the error of Canonical and CanonicalExact: what is wrong, at which byte of src.
type CanonicalError struct {
	Offset int
	Msg    string
}

// Error returns "invalid JSON at byte N: <what>".
func (e *CanonicalError) Error() string {
	return "invalid JSON at byte " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// ErrDuplicateMember is matched (errors.Is) by the CanonicalError of an object naming a member twice.
var ErrDuplicateMember = errors.New("duplicate member")

type dupError struct {
	CanonicalError
	name string
}

func (e *dupError) Is(target error) bool { return target == ErrDuplicateMember }

// Unwrap lets errors.As find the CanonicalError (its offset) of a duplicate member too.
func (e *dupError) Unwrap() error { return &e.CanonicalError }

type canonState struct {
	src   []byte
	pos   int
	exact bool
	depth int
	keys  []byte // scratch: the unescaped member names of the open objects
	tmp   []byte // scratch: an object's members while they are put in order
}

func canonical(dst, src []byte, exact bool) ([]byte, error) {
	var keys, tmp [256]byte
	c := canonState{src: src, exact: exact, keys: keys[:0], tmp: tmp[:0]}
	c.ws()
	start := len(dst)
	dst, err := c.value(dst)
	if err != nil {
		return dst[:start], err
	}
	c.ws()
	if c.pos != len(src) {
		return dst[:start], c.fail(c.pos, "unexpected data after the value")
	}
	return dst, nil
}

func (c *canonState) fail(at int, msg string) error { return &CanonicalError{Offset: at, Msg: msg} }

func (c *canonState) ws() {
	for c.pos < len(c.src) {
		switch c.src[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

func (c *canonState) value(dst []byte) ([]byte, error) {
	if c.pos >= len(c.src) {
		return dst, c.fail(c.pos, "unexpected end of input")
	}
	switch b := c.src[c.pos]; {
	case b == '{':
		return c.object(dst)
	case b == '[':
		return c.array(dst)
	case b == '"':
		start := len(c.keys)
		var err error
		c.keys, err = c.str(c.keys)
		if err != nil {
			return dst, err
		}
		dst = appendCanonicalString(dst, c.keys[start:])
		c.keys = c.keys[:start]
		return dst, nil
	case b == 't':
		return c.lit(dst, "true")
	case b == 'f':
		return c.lit(dst, "false")
	case b == 'n':
		return c.lit(dst, "null")
	case b == '-' || b >= '0' && b <= '9':
		return c.number(dst)
	}
	return dst, c.fail(c.pos, "unexpected "+describeByte(c.src[c.pos])+"; expected a value")
}

func (c *canonState) lit(dst []byte, lit string) ([]byte, error) {
	if len(c.src)-c.pos < len(lit) || string(c.src[c.pos:c.pos+len(lit)]) != lit {
		return dst, c.fail(c.pos, "invalid literal")
	}
	c.pos += len(lit)
	return append(dst, lit...), nil
}

func (c *canonState) enter() error {
	if c.depth++; c.depth > MaxCanonicalDepth {
		return c.fail(c.pos, "nesting deeper than "+strconv.Itoa(MaxCanonicalDepth)+" levels")
	}
	return nil
}

func (c *canonState) array(dst []byte) ([]byte, error) {
	if err := c.enter(); err != nil {
		return dst, err
	}
	c.pos++
	dst = append(dst, '[')
	c.ws()
	if c.pos < len(c.src) && c.src[c.pos] == ']' {
		c.pos++
		c.depth--
		return append(dst, ']'), nil
	}
	for {
		c.ws()
		var err error
		if dst, err = c.value(dst); err != nil {
			return dst, err
		}
		c.ws()
		if c.pos >= len(c.src) {
			return dst, c.fail(c.pos, "unexpected end of input")
		}
		switch c.src[c.pos] {
		case ',':
			c.pos++
			dst = append(dst, ',')
		case ']':
			c.pos++
			c.depth--
			return append(dst, ']'), nil
		default:
			return dst, c.fail(c.pos, "unexpected "+describeByte(c.src[c.pos])+" after an array element; expected ',' or ']'")
		}
	}
}

// member is one member of an object being canonicalized: its unescaped name (in c.keys) and its
// canonical `"name":value` text (in dst).
type member struct {
	key      [2]int
	val      [2]int
	keyStart int // offset of the name in src, for errors
}

func (c *canonState) object(dst []byte) ([]byte, error) {
	if err := c.enter(); err != nil {
		return dst, err
	}
	c.pos++
	c.ws()
	start := len(dst)
	keysStart := len(c.keys)
	var stack [8]member
	ms := stack[:0]
	if c.pos < len(c.src) && c.src[c.pos] == '}' {
		c.pos++
		c.depth--
		return append(dst, '{', '}'), nil
	}
	for {
		c.ws()
		if c.pos >= len(c.src) {
			return dst[:start], c.fail(c.pos, "unexpected end of input; expected a member name in double quotes")
		}
		if c.src[c.pos] != '"' {
			return dst[:start], c.fail(c.pos, "unexpected "+describeByte(c.src[c.pos])+"; expected a member name in double quotes")
		}
		m := member{keyStart: c.pos}
		m.key[0] = len(c.keys)
		var err error
		if c.keys, err = c.str(c.keys); err != nil {
			return dst[:start], err
		}
		m.key[1] = len(c.keys)
		c.ws()
		if c.pos >= len(c.src) || c.src[c.pos] != ':' {
			return dst[:start], c.fail(c.pos, "expected ':' after the member name")
		}
		c.pos++
		c.ws()
		m.val[0] = len(dst)
		dst = appendCanonicalString(dst, c.keys[m.key[0]:m.key[1]])
		dst = append(dst, ':')
		if dst, err = c.value(dst); err != nil {
			return dst[:start], err
		}
		m.val[1] = len(dst)
		ms = append(ms, m)
		c.ws()
		if c.pos >= len(c.src) {
			return dst[:start], c.fail(c.pos, "unexpected end of input")
		}
		if c.src[c.pos] == ',' {
			c.pos++
			continue
		}
		if c.src[c.pos] != '}' {
			return dst[:start], c.fail(c.pos, "unexpected "+describeByte(c.src[c.pos])+" after an object member; expected ',' or '}'")
		}
		c.pos++
		break
	}
	c.depth--
	keys := c.keys
	slices.SortStableFunc(ms, func(a, b member) int {
		return compareUTF16(keys[a.key[0]:a.key[1]], keys[b.key[0]:b.key[1]])
	})
	for i := 1; i < len(ms); i++ {
		if string(keys[ms[i-1].key[0]:ms[i-1].key[1]]) == string(keys[ms[i].key[0]:ms[i].key[1]]) {
			later := max(ms[i-1].keyStart, ms[i].keyStart)
			name := string(keys[ms[i].key[0]:ms[i].key[1]])
			return dst[:start], &dupError{CanonicalError{Offset: later, Msg: "duplicate member " + quote(name) + " (each member may appear once)"}, name}
		}
	}
	// Rewrite the members in order: copy their texts out once, then back behind '{'.
	c.tmp = append(c.tmp[:0], dst[start:]...)
	body := c.tmp
	dst = append(dst[:start], '{')
	for i, m := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, body[m.val[0]-start:m.val[1]-start]...)
	}
	c.keys = c.keys[:keysStart]
	return append(dst, '}'), nil
}

// compareUTF16 compares two UTF-8 names by their UTF-16 code units (RFC 8785 section 3.2.3).
func compareUTF16(a, b []byte) int {
	for len(a) > 0 && len(b) > 0 {
		ra, na := utf8.DecodeRune(a)
		rb, nb := utf8.DecodeRune(b)
		if ra != rb {
			ua, ub := utf16Units(ra), utf16Units(rb)
			if ua[0] != ub[0] {
				return int(ua[0]) - int(ub[0])
			}
			return int(ua[1]) - int(ub[1])
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

func utf16Units(r rune) [2]uint16 {
	if r < 0x10000 {
		return [2]uint16{uint16(r), 0}
	}
	h, l := utf16.EncodeRune(r)
	return [2]uint16{uint16(h), uint16(l)}
}

// str reads the string at c.pos and appends its unescaped content (valid UTF-8, no lone surrogates).
func (c *canonState) str(dst []byte) ([]byte, error) {
	c.pos++ // '"'
	src := c.src
	for {
		start := c.pos
		for c.pos < len(src) && src[c.pos] >= 0x20 && src[c.pos] != '"' && src[c.pos] != '\\' && src[c.pos] < utf8.RuneSelf {
			c.pos++
		}
		dst = append(dst, src[start:c.pos]...)
		if c.pos >= len(src) {
			return dst, c.fail(c.pos, "unexpected end of input in a string")
		}
		switch b := src[c.pos]; {
		case b == '"':
			c.pos++
			return dst, nil
		case b < 0x20:
			return dst, c.fail(c.pos, "control character in a string (escape it)")
		case b == '\\':
			var err error
			if dst, err = c.escape(dst); err != nil {
				return dst, err
			}
		default:
			r, n := utf8.DecodeRune(src[c.pos:])
			if r == utf8.RuneError && n <= 1 {
				return dst, c.fail(c.pos, "invalid UTF-8")
			}
			dst = append(dst, src[c.pos:c.pos+n]...)
			c.pos += n
		}
	}
}

func (c *canonState) escape(dst []byte) ([]byte, error) {
	at := c.pos
	if c.pos+1 >= len(c.src) {
		return dst, c.fail(at, "unexpected end of input in a string")
	}
	e := c.src[c.pos+1]
	c.pos += 2
	switch e {
	case '"', '\\', '/':
		return append(dst, e), nil
	case 'b':
		return append(dst, '\b'), nil
	case 'f':
		return append(dst, '\f'), nil
	case 'n':
		return append(dst, '\n'), nil
	case 'r':
		return append(dst, '\r'), nil
	case 't':
		return append(dst, '\t'), nil
	case 'u':
	default:
		return dst, c.fail(at, "invalid escape '\\"+string(rune(e))+"' in a string; JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
	}
	r, ok := c.hex4()
	if !ok {
		return dst, c.fail(at, "invalid \\u escape")
	}
	if utf16.IsSurrogate(r) {
		if r >= 0xDC00 || c.pos+1 >= len(c.src) || c.src[c.pos] != '\\' || c.src[c.pos+1] != 'u' {
			return dst, c.fail(at, "lone surrogate in a \\u escape")
		}
		c.pos += 2
		lo, ok := c.hex4()
		if !ok || lo < 0xDC00 || lo > 0xDFFF {
			return dst, c.fail(at, "lone surrogate in a \\u escape")
		}
		r = utf16.DecodeRune(r, lo)
	}
	return utf8.AppendRune(dst, r), nil
}

func (c *canonState) hex4() (rune, bool) {
	if len(c.src)-c.pos < 4 {
		return 0, false
	}
	var r rune
	for _, h := range c.src[c.pos : c.pos+4] {
		switch {
		case h >= '0' && h <= '9':
			r = r<<4 | rune(h-'0')
		case h >= 'a' && h <= 'f':
			r = r<<4 | rune(h-'a'+10)
		case h >= 'A' && h <= 'F':
			r = r<<4 | rune(h-'A'+10)
		default:
			return 0, false
		}
	}
	c.pos += 4
	return r, true
}

// appendCanonicalString writes s (valid UTF-8) as RFC 8785 section 3.2.2.2 says. It is not AppendString:
// that one escapes U+2028 and U+2029 (as encoding/json does), which RFC 8785 writes as they are.
func appendCanonicalString(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i, b := range s {
		if b >= 0x20 && b != '"' && b != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		start = i + 1
		switch b {
		case '"', '\\':
			dst = append(dst, '\\', b)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// number writes the number at c.pos in ECMAScript's notation.
func (c *canonState) number(dst []byte) ([]byte, error) {
	start := c.pos
	src := c.src
	i := c.pos
	if src[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(src) && src[i] == '0' {
		i++
	} else if digits() == 0 {
		return dst, c.fail(i, "invalid number: expected a digit")
	}
	if i < len(src) && src[i] == '.' {
		i++
		if digits() == 0 {
			return dst, c.fail(i, "invalid number: expected a digit after the decimal point")
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if digits() == 0 {
			return dst, c.fail(i, "invalid number: expected a digit in the exponent")
		}
	}
	c.pos = i
	lit := src[start:i]
	if plain := lit[0] != '-'; i-start <= 15 && isDigits(lit[boolInt(!plain):]) {
		// An integer of at most 15 digits: a double holds it, and ECMAScript writes it as JSON does
		// (JSON has no leading zeros), except -0.
		if string(lit) == "-0" {
			return append(dst, '0'), nil
		}
		return append(dst, lit...), nil
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	inRange := err == nil && !math.IsInf(f, 0)
	var buf [32]byte
	var sd []byte // the double's shortest digits
	n := 0        // its decimal point position: value = 0.sd × 10^n
	if inRange && f != 0 {
		e := strconv.AppendFloat(buf[:0], math.Abs(f), 'e', -1, 64)
		mant, exp := splitE(e)
		sd = mant
		n = exp + 1
	}
	if c.exact {
		xd, xn, err := exactDigits(lit)
		if err != nil {
			return dst, c.fail(start, err.Error())
		}
		if len(xd) == 0 { // zero, whatever its sign and spelling
			return append(dst, '0'), nil
		}
		if !inRange || string(xd) != string(sd) || xn != n {
			if lit[0] == '-' {
				dst = append(dst, '-')
			}
			return appendES(dst, xd, xn), nil
		}
	}
	if !inRange {
		return dst, c.fail(start, "number "+truncate(string(lit))+" is beyond the range of an IEEE 754 double")
	}
	if f == 0 {
		return append(dst, '0'), nil
	}
	if f < 0 {
		dst = append(dst, '-')
	}
	return appendES(dst, sd, n), nil
}

// splitE splits strconv's 'e' form "d.ddde±XX" into its digits and exponent.
func splitE(e []byte) ([]byte, int) {
	var digits []byte
	i := 0
	for ; i < len(e) && e[i] != 'e'; i++ {
		if e[i] != '.' {
			digits = append(digits, e[i])
		}
	}
	exp, _ := strconv.Atoi(string(e[i+1:]))
	return digits, exp
}

// exactDigits returns the significant digits of the number literal lit (no leading or trailing zeros;
// none for zero) and n with value = 0.digits × 10^n.
func exactDigits(lit []byte) ([]byte, int, error) {
	i := 0
	if lit[0] == '-' {
		i++
	}
	var digits []byte
	pointAt := -1 // digits before the decimal point
	intDigits := 0
	for ; i < len(lit) && lit[i] != 'e' && lit[i] != 'E'; i++ {
		if lit[i] == '.' {
			pointAt = intDigits
			continue
		}
		if pointAt < 0 {
			intDigits++
		}
		digits = append(digits, lit[i])
	}
	if pointAt < 0 {
		pointAt = intDigits
	}
	var exp int64
	if i < len(lit) {
		i++
		neg := false
		if lit[i] == '+' || lit[i] == '-' {
			neg = lit[i] == '-'
			i++
		}
		for ; i < len(lit); i++ {
			if exp < 1<<40 {
				exp = exp*10 + int64(lit[i]-'0')
			}
		}
		if neg {
			exp = -exp
		}
	}
	lead := 0
	for lead < len(digits) && digits[lead] == '0' {
		lead++
	}
	digits = digits[lead:]
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	if len(digits) == 0 {
		return nil, 0, nil
	}
	n := int64(pointAt-lead) + exp
	if n > 1<<30 || n < -(1<<30) {
		return nil, 0, errors.New("number exponent too large")
	}
	return digits, int(n), nil
}

// appendES writes 0.digits × 10^n (digits without leading or trailing zeros) as ECMAScript's
// Number::toString lays out its digits: k digits, point position n.
func appendES(dst, digits []byte, n int) []byte {
	k := len(digits)
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		for range n - k {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for range -n {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
