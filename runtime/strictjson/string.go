package strictjson

import (
	"encoding/binary"
	"math/bits"
	"time"
	"unicode/utf8"
)

// String reads a string value, unescaped. The first call converts the whole input to a string once;
// strings without escapes are then substrings of it (no further allocation); strings with escapes
// allocate their own result. Any other value records "expected string, got ..." and is skipped.
func (d *Decoder) String() (string, bool) {
	if d.fatal {
		return "", false
	}
	if p := d.pos; p >= len(d.data) || d.data[p] != '"' { // whitespace first, or not a string
		if !d.begin() {
			return "", false
		}
		if d.data[d.pos] != '"' {
			d.mismatch("string")
			return "", false
		}
	}
	var s, e int
	var esc bool
	// Fast path, as in NextKey: at most 7 plain bytes and the closing quote in the next 8-byte word.
	if p := d.pos + 1; p+8 <= len(d.data) {
		if m := special8(binary.LittleEndian.Uint64(d.data[p:])); m != 0 {
			if q := p + bits.TrailingZeros64(m)>>3; d.data[q] == '"' {
				s, e = p, q
				d.pos = q + 1
				goto scanned
			}
		}
	}
	{
		var ok bool
		if s, e, esc, ok = d.scanString(); !ok {
			return "", false
		}
	}
scanned:
	if !esc {
		d.ensureSrc()
		return d.src[s:e], true
	}
	if cap(d.strBuf) < e-s {
		d.strBuf = make([]byte, 0, e-s)
	}
	d.strBuf = appendUnescaped(d.strBuf[:0], d.data[s:e])
	return string(d.strBuf), true
}

// StringBytes reads a string value, unescaped, without allocating (for enums). The bytes are valid
// until the next call of any Decoder method.
func (d *Decoder) StringBytes() ([]byte, bool) {
	if !d.begin() {
		return nil, false
	}
	if d.data[d.pos] != '"' {
		d.mismatch("string")
		return nil, false
	}
	if p := d.pos + 1; p+8 <= len(d.data) { // the fast path of String
		if m := special8(binary.LittleEndian.Uint64(d.data[p:])); m != 0 {
			if q := p + bits.TrailingZeros64(m)>>3; d.data[q] == '"' {
				d.pos = q + 1
				return d.data[p:q], true
			}
		}
	}
	s, e, esc, ok := d.scanString()
	if !ok {
		return nil, false
	}
	if !esc {
		return d.data[s:e], true
	}
	if cap(d.strBuf) < e-s {
		d.strBuf = make([]byte, 0, e-s)
	}
	d.strBuf = appendUnescaped(d.strBuf[:0], d.data[s:e])
	return d.strBuf, true
}

// RuneCount returns the number of Unicode code points in s (JSON Schema string length).
func RuneCount(s string) int { return utf8.RuneCountInString(s) }

const dateTimeMsg = `must be a valid date-time (RFC 3339, e.g. "2026-01-02T15:04:05Z")`

// Time reads a string holding an RFC 3339 date-time, exactly as the JSON Schema "date-time" format
// accepts it (so 't', 'z' and a leap second "23:59:60Z" are accepted; a leap second becomes
// 23:59:59.999999999 of its minute, so it stays in its day and re-encodes as a valid date-time). "Z" gives time.UTC; a numeric offset, even
// +00:00, gives a fixed zone without name. Otherwise: `must be a valid date-time (RFC 3339, e.g.
// "2026-01-02T15:04:05Z"); got "x"`.
func (d *Decoder) Time() (time.Time, bool) {
	s, ok := d.String()
	if !ok {
		return time.Time{}, false
	}
	t, ok := parseDateTime(s)
	if !ok {
		d.FailString(dateTimeMsg, s)
		return time.Time{}, false
	}
	return t, true
}
