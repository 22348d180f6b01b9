package strictjson

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

var isWS = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// strPlain marks the bytes that need no attention inside a string: printable ASCII except '"' and '\'.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func (d *Decoder) skipWS() {
	if p := d.pos; p < len(d.data) && d.data[p] > ' ' {
		return // the common case: no whitespace
	}
	d.skipWSSlow()
}

func (d *Decoder) skipWSSlow() {
	p, data := d.pos, d.data
	for p < len(data) && isWS[data[p]] {
		p++
	}
	d.pos = p
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// special8 returns a mask of the bytes of x (little-endian) that need attention inside a string: below
// 0x20, '"', '\\' or non-ASCII. Borrows may flag bytes above the first special one, but the lowest set
// bit is exact: bits.TrailingZeros64(m)/8 is the index of the first special byte, and m == 0 when there is
// none.
func special8(x uint64) uint64 {
	q := x ^ ('"' * lsb)
	b := x ^ ('\\' * lsb)
	return ((x - 0x20*lsb) | (q - lsb) | (b - lsb) | x) & msb
}

// plainEnd returns the index of the '"' that closes the string whose content starts at data[p] (p > 0)
// when no byte before it needs attention (see special8). It returns -1 at a byte that needs attention
// (scanString, which reports what is wrong or handles escapes and non-ASCII, takes over), and ^i (< -1)
// when only the input's last few bytes data[i:], fewer than a word, are left to scan: the caller passes
// i to plainTail. It is the fast path of keys and strings, scanning a word at a time without a call
// (small enough to be inlined).
func plainEnd(data []byte, p int) int {
	// Written so that the compiler checks no bounds but data[p:]'s (p < len(data)-7 is p+8 <= len(data)).
	for ; p < len(data)-7; p += 8 {
		if m := special8(binary.LittleEndian.Uint64(data[p:])); m != 0 {
			if q := p + bits.TrailingZeros64(m)>>3; data[q] == '"' {
				return q
			}
			return -1
		}
	}
	return ^p
}

// plainTail is plainEnd for the last n < 8 bytes data[p:] of the input: when the input holds a whole
// word, its last word shifted so that data[p] is its low byte and the bytes past the end are zero (which
// special8 flags, so a string not closed by the end gives -1); otherwise -1.
func plainTail(data []byte, p int) int {
	n := len(data) - p
	if n <= 0 || len(data) < 8 {
		return -1
	}
	x := binary.LittleEndian.Uint64(data[len(data)-8:]) >> (8 * (8 - n))
	if i := bits.TrailingZeros64(special8(x)) >> 3; i < n && data[p+i] == '"' {
		return p + i
	}
	return -1
}

// literal consumes the literal lit (true, false, null) at d.pos.
func (d *Decoder) literal(lit string) bool {
	data := d.data[d.pos:]
	for i := 0; i < len(lit); i++ {
		if i >= len(data) {
			d.eof()
			return false
		}
		if data[i] != lit[i] {
			d.syntax(d.pos, "invalid literal; expected "+lit)
			return false
		}
	}
	d.pos += len(lit)
	return true
}

// stringErr records a fatal error inside a string (a control character, invalid UTF-8, a bad escape, a
// lone surrogate) like syntax does, but named by the JSON path of the value the string is, as every other
// error is ("title: invalid UTF-8 in string (byte 11)"); inside an object key, by the path of the object
// ("filters: invalid UTF-8 in object key (byte 12)").
func (d *Decoder) stringErr(at int, what string) {
	if d.fatal {
		return
	}
	d.fatal = true
	path := ""
	if d.inKey {
		path = d.path(d.depth - 1)
		if n := len(what) - len(" in string"); n > 0 && what[n:] == " in string" {
			what = what[:n] + " in object key"
		} else {
			what += " in object key"
		}
	} else {
		path = d.path(d.depth)
	}
	if path == "" {
		d.errs.Add("", "invalid JSON at byte "+strconv.Itoa(at)+": "+what)
		return
	}
	d.errs.Add(path, what+" (byte "+strconv.Itoa(at)+")")
}

// scanString validates the string whose opening quote is at d.pos and moves past its closing quote. It
// returns the offsets of the raw content and whether it contains escapes.
func (d *Decoder) scanString() (start, end int, esc, ok bool) {
	data := d.data
	i := d.pos + 1
	start = i
	for {
		// Eight bytes at a time, jumping straight to the first special byte; the last few bytes of the
		// input one at a time.
		for ; i < len(data)-7; i += 8 { // i+8 <= len(data), as plainEnd writes it
			if m := special8(binary.LittleEndian.Uint64(data[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto special
			}
		}
		for i < len(data) && strPlain[data[i]] {
			i++
		}
		if i >= len(data) {
			d.eof()
			return
		}
	special:
		switch c := data[i]; {
		case c == '"':
			d.pos = i + 1
			return start, i, esc, true
		case c == '\\':
			esc = true
			n, good := d.scanEscape(i)
			if !good {
				return
			}
			i += n
		case c < 0x20:
			d.stringErr(i, "control character in string")
			return
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				if !utf8.FullRune(data[i:]) && validPrefix(data[i:]) {
					d.eof()
				} else {
					d.stringErr(i, "invalid UTF-8 in string")
				}
				return
			}
			i += size
		}
	}
}

// validPrefix reports whether b (shorter than a full rune) could start a valid UTF-8 sequence.
func validPrefix(b []byte) bool {
	var buf [utf8.UTFMax]byte
	n := copy(buf[:], b)
	for _, tail := range [...]byte{0x80, 0x90, 0xA0, 0xB0, 0xBF} {
		for j := n; j < utf8.UTFMax; j++ {
			buf[j] = tail
		}
		if r, _ := utf8.DecodeRune(buf[:]); r != utf8.RuneError {
			return true
		}
	}
	return false
}

// scanEscape validates the escape at data[i] == '\' and returns its length (12 for a surrogate pair).
func (d *Decoder) scanEscape(i int) (int, bool) {
	data := d.data
	if i+1 >= len(data) {
		d.eof()
		return 0, false
	}
	switch c := data[i+1]; c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, true
	case 'u':
		r, ok := d.hex4(i)
		if !ok {
			return 0, false
		}
		if r >= 0xDC00 && r <= 0xDFFF {
			d.loneSurrogate(i, r)
			return 0, false
		}
		if r < 0xD800 || r > 0xDBFF {
			return 6, true
		}
		if i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
			if r2, ok := d.hex4(i + 6); !ok {
				return 0, false
			} else if r2 >= 0xDC00 && r2 <= 0xDFFF {
				return 12, true
			}
		} else if i+6 >= len(data) || (i+7 >= len(data) && data[i+6] == '\\') {
			d.eof()
			return 0, false
		}
		d.loneSurrogate(i, r)
		return 0, false
	default:
		if c >= 0x20 && c < 0x7f {
			d.stringErr(i, `invalid escape \`+string(rune(c)))
		} else {
			d.stringErr(i, `invalid escape: '\' followed by `+describeByte(c))
		}
		return 0, false
	}
}

// hex4 reads the 4 hex digits of the \u escape at data[i].
func (d *Decoder) hex4(i int) (rune, bool) {
	data := d.data
	var r rune
	for j := i + 2; j < i+6; j++ {
		if j >= len(data) {
			d.eof()
			return 0, false
		}
		c := data[j]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			d.stringErr(i, `invalid \u escape; expected 4 hex digits`)
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

func (d *Decoder) loneSurrogate(i int, r rune) {
	const hex = "0123456789abcdef"
	d.stringErr(i, `lone surrogate \u`+string([]byte{hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15]})+" in string")
}

// appendUnescaped appends the unescaped form of raw (the validated content of a string).
func appendUnescaped(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		j := i
		for j < len(raw) && raw[j] != '\\' {
			j++
		}
		dst = append(dst, raw[i:j]...)
		if j+1 >= len(raw) {
			break
		}
		i = j + 2
		switch raw[j+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := unhex4(raw, j+2)
			i = j + 6
			if r >= 0xD800 && r <= 0xDBFF {
				r2 := unhex4(raw, j+8)
				r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
				i = j + 12
			}
			if i > len(raw) {
				return dst
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, raw[j+1])
		}
	}
	return dst
}

func unhex4(b []byte, i int) rune {
	var r rune
	for j := i; j < i+4 && j < len(b); j++ {
		c := b[j]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		}
	}
	return r
}

// scanNumber validates the number at d.pos (RFC 8259 grammar) and moves past it.
func (d *Decoder) scanNumber() bool {
	data := d.data
	i := d.pos
	if data[i] == '-' {
		i++
	}
	if i >= len(data) {
		d.eof()
		return false
	}
	switch c := data[i]; {
	case c == '0':
		i++
		if i < len(data) && data[i] >= '0' && data[i] <= '9' {
			d.syntax(i-1, "leading zeros in number")
			return false
		}
	case c >= '1' && c <= '9':
		i++
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		d.syntax(i, "invalid number: expected a digit after '-'")
		return false
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) {
			d.eof()
			return false
		}
		if data[i] < '0' || data[i] > '9' {
			d.syntax(i, "invalid number: expected a digit after '.'")
			return false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) {
			d.eof()
			return false
		}
		if data[i] < '0' || data[i] > '9' {
			d.syntax(i, "invalid number: expected a digit in the exponent")
			return false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	d.pos = i
	return true
}

// Skip consumes one complete value of any kind, validating it strictly (syntax, UTF-8, escapes, depth).
func (d *Decoder) Skip() {
	if d.fatal {
		return
	}
	// open containers: bit set = object
	var small [4]uint64
	stack := small[:]
	n := 0
	data := d.data
	for {
		// a value is expected at d.pos (after whitespace)
		d.skipWS()
		if d.pos >= len(data) {
			d.eof()
			return
		}
		switch c := data[d.pos]; c {
		case '{', '[':
			if d.depth+n >= d.maxDepth {
				d.tooDeep(d.pos)
				return
			}
			if n/64 >= len(stack) {
				stack = append(stack, 0)
			}
			if c == '{' {
				stack[n/64] |= 1 << (n % 64)
			} else {
				stack[n/64] &^= 1 << (n % 64)
			}
			n++
			d.pos++
			d.skipWS()
			if d.pos >= len(data) {
				d.eof()
				return
			}
			if c == '{' {
				switch data[d.pos] {
				case '}':
					d.pos++
					n--
				case '"':
					if !d.skipKey() {
						return
					}
					continue
				default:
					d.syntax(d.pos, "expected a string key or '}'")
					return
				}
			} else {
				if data[d.pos] != ']' {
					continue
				}
				d.pos++
				n--
			}
		case '"':
			if _, _, _, ok := d.scanString(); !ok {
				return
			}
		case 't':
			if !d.literal("true") {
				return
			}
		case 'f':
			if !d.literal("false") {
				return
			}
		case 'n':
			if !d.literal("null") {
				return
			}
		default:
			if c == '-' || (c >= '0' && c <= '9') {
				if !d.scanNumber() {
					return
				}
				break
			}
			d.unexpected(d.pos)
			return
		}
		// after a value: close containers or move to the next member / element
	after:
		if n == 0 {
			return
		}
		d.skipWS()
		if d.pos >= len(data) {
			d.eof()
			return
		}
		isObj := stack[(n-1)/64]&(1<<((n-1)%64)) != 0
		c := data[d.pos]
		switch {
		case c == ',':
			d.pos++
			d.skipWS()
			if d.pos >= len(data) {
				d.eof()
				return
			}
			if isObj {
				switch data[d.pos] {
				case '"':
					if !d.skipKey() {
						return
					}
				case '}':
					d.syntax(d.pos, "trailing comma before '}'")
					return
				default:
					d.syntax(d.pos, "expected a string key after ','")
					return
				}
			} else if data[d.pos] == ']' {
				d.syntax(d.pos, "trailing comma before ']'")
				return
			}
		case isObj && c == '}', !isObj && c == ']':
			d.pos++
			n--
			goto after
		case isObj:
			d.syntax(d.pos, "expected ',' or '}' after object member")
			return
		default:
			d.syntax(d.pos, "expected ',' or ']' after array element")
			return
		}
	}
}

// skipKey consumes `"key":` at d.pos.
func (d *Decoder) skipKey() bool {
	if _, _, _, ok := d.scanString(); !ok {
		return false
	}
	d.skipWS()
	if d.pos >= len(d.data) {
		d.eof()
		return false
	}
	if d.data[d.pos] != ':' {
		d.syntax(d.pos, "expected ':' after object key")
		return false
	}
	d.pos++
	return true
}
