package strictjson

import (
	"encoding/binary"
	"time"
	"unicode/utf8"
	"unsafe"
)

// String reads a string value, unescaped. Decoded strings are copied into small shared blocks (see
// strs), not each into an allocation of its own and not as substrings of one copy of the whole input: a
// string keeps at most its block alive, and the input may be reused as soon as decoding ends. Any other
// value records "expected string, got ..." and is skipped.
func (d *Decoder) String() (string, bool) {
	// Fast path, as in NextKey: a string of plain bytes (plainEnd) right at d.pos, copied into the
	// current block when it fits.
	if data, p := d.data, d.pos; p < len(data) && data[p] == '"' && !d.fatal {
		q := plainEnd(data, p+1)
		if q < -1 {
			q = plainTail(data, ^q)
		}
		if q >= 0 {
			d.pos = q + 1
			src := data[p+1 : q]
			if n, start := len(src), d.strsUsed; n != 0 && n <= len(d.strs)-start {
				dst := d.strs[start : start+n : start+n]
				if n <= 16 {
					copySmall(dst, src)
				} else {
					copy(dst, src)
				}
				d.strsUsed = start + n
				return unsafe.String(unsafe.SliceData(dst), n), true
			}
			return d.keepSlow(src), true
		}
	}
	return d.stringSlow()
}

// stringSlow is String's general path.
func (d *Decoder) stringSlow() (string, bool) {
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
	s, e, esc, ok := d.scanString()
	if !ok {
		return "", false
	}
	if !esc {
		return d.keep(d.data[s:e]), true
	}
	if cap(d.strBuf) < e-s {
		d.strBuf = make([]byte, 0, e-s)
	}
	d.strBuf = appendUnescaped(d.strBuf[:0], d.data[s:e])
	return d.keep(d.strBuf), true
}

// copySmall copies src (at most 16 bytes) to dst (as long) without memmove's call: two overlapping words,
// two overlapping half-words or byte by byte, written within dst only.
func copySmall(dst, src []byte) {
	if n := len(src); n >= 8 {
		binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
		binary.LittleEndian.PutUint64(dst[n-8:], binary.LittleEndian.Uint64(src[n-8:]))
	} else if n >= 4 {
		binary.LittleEndian.PutUint32(dst, binary.LittleEndian.Uint32(src))
		binary.LittleEndian.PutUint32(dst[n-4:], binary.LittleEndian.Uint32(src[n-4:]))
	} else {
		for i, c := range src {
			dst[i] = c
		}
	}
}

// The blocks decoded strings are copied into. A block is filled front to back and never written below
// its length, so the strings already taken from it stay as they are; Reset drops the current block
// rather than reusing it. The first block of a decode holds strsFirst bytes (or the rest of the input,
// when that is shorter: no decoded string can be longer than its JSON text), each further one twice the
// last up to strsMax; a string of strsOwn bytes or more gets an allocation of its own.
const (
	strsFirst = 64
	strsMax   = 1024
	strsOwn   = 256
)

// KeepIn makes block the block the strings decoded next are copied into, until it is full (then blocks
// are allocated as usual): for a caller that stores the decoded value in the allocation that holds
// block, so that its strings cost no allocation of their own. The caller gives block up: the strings
// handed out are its bytes, so it must never write block again. Call it after Reset, which forgets it.
func (d *Decoder) KeepIn(block []byte) {
	d.strs, d.strsUsed = block, 0
}

// HasStrings reports whether strings decoded since Reset were copied into a block (KeepIn's or one the
// decoder allocated): false when every string was empty, or there were none.
func (d *Decoder) HasStrings() bool { return d.strsUsed > 0 }

// keep returns b as a string copied into the current block. The string is the block's bytes themselves
// (unsafe.String): no byte of a block is written twice, so the strings taken from it never change.
func (d *Decoder) keep(b []byte) string {
	n, start := len(b), d.strsUsed
	if n == 0 || len(d.strs)-start < n {
		return d.keepSlow(b)
	}
	copy(d.strs[start:], b)
	d.strsUsed = start + n
	return unsafe.String(&d.strs[start], n)
}

// keepSlow is keep for an empty string, a long one and one that does not fit the current block: it
// starts a new block.
func (d *Decoder) keepSlow(b []byte) string {
	n := len(b)
	if n == 0 {
		return ""
	}
	if n >= strsOwn {
		return string(b)
	}
	size := d.strsNext
	if size < strsFirst {
		size = strsFirst
	}
	d.strsNext = min(2*size, strsMax)
	if rest := len(d.data) - d.pos + n; size > rest {
		size = rest // n <= rest: b was read from the input before d.pos
	}
	d.strs = make([]byte, max(size, n))
	d.strsUsed = 0
	return d.keep(b)
}

// StringBytes reads a string value, unescaped, without allocating (for enums). The bytes are valid
// until the next call of any Decoder method.
func (d *Decoder) StringBytes() ([]byte, bool) {
	if data, p := d.data, d.pos; p < len(data) && data[p] == '"' && !d.fatal { // the fast path of String
		q := plainEnd(data, p+1)
		if q < -1 {
			q = plainTail(data, ^q)
		}
		if q >= 0 {
			d.pos = q + 1
			return data[p+1 : q], true
		}
	}
	if !d.begin() {
		return nil, false
	}
	if d.data[d.pos] != '"' {
		d.mismatch("string")
		return nil, false
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
