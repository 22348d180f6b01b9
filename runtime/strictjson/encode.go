package strictjson

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// strSafe marks the ASCII bytes AppendString copies as they are (HTML characters included).
var strSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// AppendString appends s as a JSON string, byte for byte as encoding/json does with HTML escaping off:
// '"' and '\' escaped, \b \f \n \r \t, other control characters as \u00XX, U+2028 and U+2029 escaped,
// and each byte of invalid UTF-8 replaced by \ufffd.
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if strSafe[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
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
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendInt appends v in decimal.
func AppendInt(dst []byte, v int64) []byte { return strconv.AppendInt(dst, v, 10) }

// AppendUint appends v in decimal.
func AppendUint(dst []byte, v uint64) []byte { return strconv.AppendUint(dst, v, 10) }

// AppendBool appends true or false.
func AppendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

// AppendFloat appends v with the text encoding/json produces for a float of the given size (32 or 64):
// shortest representation, exponent form below 1e-6 and from 1e21 on. NaN and ±Inf, which JSON cannot
// represent, are written as null. Negative zero is written 0: JSON (and JSON Schema) give -0 and 0 one
// meaning, and the encoding is canonical (equal values, equal bytes: idempotency keys depend on it).
func AppendFloat(dst []byte, v float64, bitSize int) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, "null"...)
	}
	if v == 0 {
		return append(dst, '0')
	}
	if bitSize != 32 {
		bitSize = 64
	}
	abs := math.Abs(v)
	f := byte('f')
	if abs != 0 {
		if bitSize == 64 && (abs < 1e-6 || abs >= 1e21) || bitSize == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			f = 'e'
		}
	}
	dst = strconv.AppendFloat(dst, v, f, -1, bitSize)
	if f == 'e' {
		// e-09 → e-9
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// AppendTime appends t as a quoted RFC 3339 date-time with nanoseconds (time.RFC3339Nano), in UTC: the
// encoding is canonical, so one instant written with different offsets encodes to the same bytes
// (idempotency keys depend on it). The instant is kept; the offset it was written with is not. The one
// exception: an instant whose UTC year falls outside 0000-9999 (RFC 3339's range, reachable only within
// hours of its ends) keeps its own offset, since UTC could not be written.
func AppendTime(dst []byte, t time.Time) []byte {
	dst = append(dst, '"')
	if u := t.UTC(); u.Year() >= 0 && u.Year() <= 9999 {
		t = u
	}
	dst = t.AppendFormat(dst, time.RFC3339Nano)
	return append(dst, '"')
}

// Clone returns an exact-size copy of s; nil stays nil and empty stays empty (non-nil).
func Clone[T any](s []T) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	copy(out, s)
	return out
}

// FirstDuplicate returns the first j (in order) whose element equals an earlier element i.
// Short slices are compared pairwise; long ones use a map.
func FirstDuplicate[T comparable](s []T) (i, j int, ok bool) {
	if len(s) <= 64 {
		for j := 1; j < len(s); j++ {
			for i := 0; i < j; i++ {
				if s[i] == s[j] {
					return i, j, true
				}
			}
		}
		return 0, 0, false
	}
	seen := make(map[T]int, len(s))
	for j, v := range s {
		if i, dup := seen[v]; dup {
			return i, j, true
		}
		seen[v] = j
	}
	return 0, 0, false
}
