package benchmarks

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file is the "handwritten" implementation of the benchmark: the best strict decoder for SearchArgs
// written by hand with no library, the floor winkgen is measured against. It accepts exactly the inputs
// the generated decoder accepts (FuzzHandwrittenAgreesWithWinkgen in benchmarks/internal/handwrittencheck
// checks this, outside this package's tests, which link the peers, so that fuzzing's instrumented build
// does not compile them) but, unlike it, stops at the first error and reports it tersely: on the success
// path the benchmark measures, that makes no difference, and it keeps the floor as low as it can be.
//
// Strictness: one JSON object and nothing but whitespace after it; RFC 8259 syntax; keys matched exactly
// after unescaping; unknown, duplicate and missing keys rejected; no null for any field (all are
// required); integers written as any integral JSON number (25, 25.0, 2.5e1, -0) within int64; strings with
// valid UTF-8, no control characters, valid escapes and no lone surrogates; mode one of fuzzy|exact; input
// at most hwMaxBytes long. Like the generated decoder it copies decoded strings into shared blocks of 64
// bytes and up (or of the rest of the input, when shorter), so a success allocates one block and the
// file_types slice.

// hwMaxBytes is the input size limit, the default of strictjson.Limits.MaxBytes.
const hwMaxBytes = 1 << 20

// hwError is a handwritten decoding error: what went wrong and at which byte.
type hwError struct {
	pos int
	msg string
}

func (e *hwError) Error() string {
	return "invalid arguments at byte " + strconv.Itoa(e.pos) + ": " + e.msg
}

// hw is the state of one handwritten decode.
type hw struct {
	data     []byte
	strs     strings.Builder // the block decoded strings are copied into
	strsNext int             // the size of the next block
	pos      int
}

func (d *hw) fail(msg string) error { return &hwError{pos: d.pos, msg: msg} }

// ws skips JSON whitespace.
func (d *hw) ws() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// peek returns the byte at pos after whitespace, or 0 at the end of the input.
func (d *hw) peek() byte {
	d.ws()
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

// DecodeHandwritten strictly decodes data into a SearchArgs: the benchmark's handwritten floor. It is
// exported for the agreement check in benchmarks/internal/handwrittencheck; nothing else should call it.
func DecodeHandwritten(data []byte) (SearchArgs, error) {
	var v SearchArgs
	if len(data) > hwMaxBytes {
		return SearchArgs{}, &hwError{msg: "input too large"}
	}
	d := hw{data: data}
	if err := d.args(&v); err != nil {
		return SearchArgs{}, err
	}
	if d.peek() != 0 || d.pos != len(d.data) {
		return SearchArgs{}, d.fail("data after the object")
	}
	return v, nil
}

// objStart consumes the '{' of an object and, when the object is empty, its '}'; more reports that a
// member follows.
func (d *hw) objStart() (more bool, err error) {
	if d.peek() != '{' {
		return false, d.fail("expected object")
	}
	d.pos++
	if d.peek() == '}' {
		d.pos++
		return false, nil
	}
	return true, nil
}

// key reads a member's key and its ':'. An escaped key is unescaped into buf.
func (d *hw) key(buf *[16]byte) ([]byte, error) {
	if d.peek() != '"' {
		return nil, d.fail("expected key")
	}
	start, end, esc, err := d.scanString()
	if err != nil {
		return nil, err
	}
	key := d.data[start:end]
	if esc {
		key = appendUnescapedHW(buf[:0], key)
	}
	if d.peek() != ':' {
		return nil, d.fail("expected ':'")
	}
	d.pos++
	return key, nil
}

// objNext consumes the ',' before the next member (more) or the object's '}'.
func (d *hw) objNext() (more bool, err error) {
	switch d.peek() {
	case ',':
		d.pos++
		return true, nil
	case '}':
		d.pos++
		return false, nil
	}
	return false, d.fail("expected ',' or '}'")
}

// args decodes the top-level object.
func (d *hw) args(v *SearchArgs) error {
	var kbuf [16]byte
	var seen uint8
	more, err := d.objStart()
	for err == nil && more {
		var key []byte
		if key, err = d.key(&kbuf); err != nil {
			return err
		}
		var bit uint8
		switch string(key) {
		case "query":
			bit = 1
		case "limit":
			bit = 2
		case "case_sensitive":
			bit = 4
		case "file_types":
			bit = 8
		case "filters":
			bit = 16
		case "mode":
			bit = 32
		default:
			return d.fail("unknown field " + strconv.Quote(string(key)))
		}
		if seen&bit != 0 {
			return d.fail("duplicate field " + strconv.Quote(string(key)))
		}
		seen |= bit
		switch bit {
		case 1:
			v.Query, err = d.str()
		case 2:
			var n int64
			n, err = d.int()
			v.Limit = int(n)
		case 4:
			v.CaseSensitive, err = d.bool()
		case 8:
			v.FileTypes, err = d.strings()
		case 16:
			err = d.filters(v)
		case 32:
			v.Mode, err = d.mode()
		}
		if err == nil {
			more, err = d.objNext()
		}
	}
	if err != nil {
		return err
	}
	if seen != 63 {
		return d.fail("missing field")
	}
	return nil
}

// filters decodes the filters object.
func (d *hw) filters(v *SearchArgs) error {
	var kbuf [16]byte
	var seen uint8
	more, err := d.objStart()
	for err == nil && more {
		var key []byte
		if key, err = d.key(&kbuf); err != nil {
			return err
		}
		switch string(key) {
		case "path_prefix":
			if seen&1 != 0 {
				return d.fail("duplicate field")
			}
			seen |= 1
			v.Filters.PathPrefix, err = d.str()
		case "max_size":
			if seen&2 != 0 {
				return d.fail("duplicate field")
			}
			seen |= 2
			v.Filters.MaxSize, err = d.int()
		default:
			return d.fail("unknown field " + strconv.Quote(string(key)))
		}
		if err == nil {
			more, err = d.objNext()
		}
	}
	if err != nil {
		return err
	}
	if seen != 3 {
		return d.fail("missing field")
	}
	return nil
}

// strings decodes an array of strings into a slice of exactly its length.
func (d *hw) strings() ([]string, error) {
	if d.peek() != '[' {
		return nil, d.fail("expected array")
	}
	d.pos++
	var buf [8]string
	tmp := buf[:0]
	if d.peek() == ']' {
		d.pos++
		return []string{}, nil
	}
	for {
		s, err := d.str()
		if err != nil {
			return nil, err
		}
		tmp = append(tmp, s)
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			out := make([]string, len(tmp))
			copy(out, tmp)
			return out, nil
		default:
			return nil, d.fail("expected ',' or ']'")
		}
	}
}

// bool decodes true or false.
func (d *hw) bool() (bool, error) {
	d.ws()
	rest := d.data[d.pos:]
	if len(rest) >= 4 && string(rest[:4]) == "true" {
		d.pos += 4
		return true, nil
	}
	if len(rest) >= 5 && string(rest[:5]) == "false" {
		d.pos += 5
		return false, nil
	}
	return false, d.fail("expected boolean")
}

// mode decodes the enum.
func (d *hw) mode() (SearchMode, error) {
	if d.peek() != '"' {
		return "", d.fail("expected string")
	}
	start, end, esc, err := d.scanString()
	if err != nil {
		return "", err
	}
	raw := d.data[start:end]
	if esc {
		var buf [16]byte
		raw = appendUnescapedHW(buf[:0], raw)
	}
	switch string(raw) {
	case "fuzzy":
		return SearchFuzzy, nil
	case "exact":
		return SearchExact, nil
	}
	return "", d.fail("mode must be fuzzy or exact")
}

// str decodes a string value.
func (d *hw) str() (string, error) {
	if d.peek() != '"' {
		return "", d.fail("expected string")
	}
	start, end, esc, err := d.scanString()
	if err != nil {
		return "", err
	}
	if esc {
		var buf [64]byte
		return d.keep(appendUnescapedHW(buf[:0], d.data[start:end])), nil
	}
	return d.keep(d.data[start:end]), nil
}

// keep copies b into the current block, as strictjson's Decoder does.
func (d *hw) keep(b []byte) string {
	n := len(b)
	if n == 0 {
		return ""
	}
	if d.strs.Cap()-d.strs.Len() < n {
		if n >= 256 {
			return string(b)
		}
		size := max(d.strsNext, 64)
		d.strsNext = min(2*size, 1024)
		size = min(size, len(d.data)-d.pos+n)
		d.strs.Reset()
		d.strs.Grow(max(size, n))
	}
	start := d.strs.Len()
	d.strs.Write(b)
	return d.strs.String()[start:]
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// special8 returns a mask of the bytes of x (little-endian) that are a control character, '"', '\\' or
// non-ASCII; its lowest set bit is exact (bits.TrailingZeros64(m)/8 is the first such byte), m == 0 when
// there is none.
func special8(x uint64) uint64 {
	q := x ^ ('"' * lsb)
	b := x ^ ('\\' * lsb)
	return ((x - 0x20*lsb) | (q - lsb) | (b - lsb) | x) & msb
}

// scanString validates the string whose '"' is at d.pos, moves past it, and returns its raw content's
// bounds and whether it has escapes.
func (d *hw) scanString() (start, end int, esc bool, err error) {
	data := d.data
	i := d.pos + 1
	start = i
	for {
		// Eight bytes at a time, jumping straight to the first special byte; the last few bytes of the
		// input one at a time.
		for i+8 <= len(data) {
			if m := special8(binary.LittleEndian.Uint64(data[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto special
			}
			i += 8
		}
		for i < len(data) {
			c := data[i]
			if c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				break
			}
			i++
		}
		if i >= len(data) {
			d.pos = i
			return 0, 0, false, d.fail("unterminated string")
		}
	special:
		switch c := data[i]; {
		case c == '"':
			d.pos = i + 1
			return start, i, esc, nil
		case c == '\\':
			esc = true
			n, ok := escapeLen(data, i)
			if !ok {
				d.pos = i
				return 0, 0, false, d.fail("invalid escape")
			}
			i += n
		case c < 0x20:
			d.pos = i
			return 0, 0, false, d.fail("control character in string")
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				d.pos = i
				return 0, 0, false, d.fail("invalid UTF-8")
			}
			i += size
		}
	}
}

// escapeLen returns the length of the valid escape at data[i] == '\\' (12 for a surrogate pair).
func escapeLen(data []byte, i int) (int, bool) {
	if i+1 >= len(data) {
		return 0, false
	}
	switch data[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, true
	case 'u':
		r, ok := hex4(data, i+2)
		switch {
		case !ok || (r >= 0xDC00 && r <= 0xDFFF):
			return 0, false
		case r < 0xD800 || r > 0xDBFF:
			return 6, true
		}
		if i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
			if r2, ok := hex4(data, i+8); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
				return 12, true
			}
		}
	}
	return 0, false
}

// hex4 reads 4 hex digits at data[i:].
func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// appendUnescapedHW appends the unescaped form of raw, a validated string content.
func appendUnescapedHW(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		switch raw[i+1] {
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
			r, _ := hex4(raw, i+2)
			if r >= 0xD800 && r <= 0xDBFF {
				r2, _ := hex4(raw, i+8)
				r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
				i += 6
			}
			dst = utf8.AppendRune(dst, r)
			i += 6
			continue
		default: // '"', '\\', '/'
			dst = append(dst, raw[i+1])
		}
		i += 2
	}
	return dst
}

// int decodes an integral JSON number within int64: 25, 25.0, 2.5e1 and -0 are integers.
func (d *hw) int() (int64, error) {
	d.ws()
	data := d.data
	i := d.pos
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	// integer part: 0 | [1-9][0-9]*
	is := i
	if i < len(data) && data[i] == '0' {
		i++
	} else {
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	ie := i
	if ie == is {
		if !neg && i < len(data) && data[i] != '-' {
			return 0, d.fail("expected integer")
		}
		return 0, d.fail("invalid number")
	}
	fs, fe := i, i
	var exp int64
	if i < len(data) && data[i] == '.' {
		i++
		fs = i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		fe = i
		if fe == fs {
			return 0, d.fail("invalid number")
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		eneg := false
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			eneg = data[i] == '-'
			i++
		}
		es := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			if exp < 1<<40 {
				exp = exp*10 + int64(data[i]-'0')
			}
			i++
		}
		if i == es {
			return 0, d.fail("invalid number")
		}
		if eneg {
			exp = -exp
		}
	}
	d.pos = i
	var mag uint64
	if fs == fe && exp == 0 && ie-is <= 18 {
		for _, c := range data[is:ie] {
			mag = mag*10 + uint64(c-'0')
		}
	} else {
		// significant digits are data[is:ie] followed by data[fs:fe]; value = digits * 10^(exp-(fe-fs))
		n := (ie - is) + (fe - fs)
		digit := func(k int) byte {
			if k < ie-is {
				return data[is+k]
			}
			return data[fs+k-(ie-is)]
		}
		first, last := 0, n-1
		for first < n && digit(first) == '0' {
			first++
		}
		if first == n {
			return 0, nil // zero, however written
		}
		for digit(last) == '0' {
			last--
		}
		scale := exp - int64(fe-fs) + int64(n-1-last)
		if scale < 0 {
			return 0, d.fail("expected integer, got a fraction")
		}
		if int64(last-first+1)+scale > 19 {
			return 0, d.fail("integer out of range")
		}
		for k := first; k <= last; k++ {
			mag = mag*10 + uint64(digit(k)-'0')
		}
		for ; scale > 0; scale-- {
			mag *= 10
		}
	}
	if neg {
		if mag > 1<<63 {
			return 0, d.fail("integer out of range")
		}
		return -int64(mag), nil
	}
	if mag > 1<<63-1 {
		return 0, d.fail("integer out of range")
	}
	return int64(mag), nil
}
