package strictjson

import (
	"encoding/binary"
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

type numStatus uint8

const (
	numOK   numStatus = iota
	numFrac           // not integral
	numBig            // integral, magnitude beyond uint64
)

// expCap saturates exponents; any larger exponent behaves the same for inputs below 1 TB.
const expCap = 1 << 40

// numParts splits a validated number literal: integer digits lit[is:ie], fraction digits lit[fs:fe], the
// (saturated) exponent and the sign.
func numParts(lit []byte) (is, ie, fs, fe int, exp int64, neg bool) {
	i := 0
	if len(lit) > 0 && lit[0] == '-' {
		neg = true
		i = 1
	}
	is = i
	for i < len(lit) && lit[i] >= '0' && lit[i] <= '9' {
		i++
	}
	ie, fs, fe = i, i, i
	if i < len(lit) && lit[i] == '.' {
		i++
		fs = i
		for i < len(lit) && lit[i] >= '0' && lit[i] <= '9' {
			i++
		}
		fe = i
	}
	if i < len(lit) && (lit[i] == 'e' || lit[i] == 'E') {
		i++
		eneg := false
		if i < len(lit) && (lit[i] == '+' || lit[i] == '-') {
			eneg = lit[i] == '-'
			i++
		}
		for ; i < len(lit) && lit[i] >= '0' && lit[i] <= '9'; i++ {
			if exp < expCap {
				exp = exp*10 + int64(lit[i]-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	return
}

// sigDigits locates the significant digits of the literal (int part followed by fraction part, seen as
// one digit string of length nd) and the exponent that applies to the last of them.
type sigDigits struct {
	lit            []byte
	is, ie, fs, fe int
}

func (s *sigDigits) n() int { return s.ie - s.is + s.fe - s.fs }

func (s *sigDigits) at(k int) byte {
	if k < s.ie-s.is {
		return s.lit[s.is+k]
	}
	return s.lit[s.fs+k-(s.ie-s.is)]
}

// decimal returns the significant-digit range [first, last] and the exponent e such that the value is
// digits[first..last] × 10^e; first > last for zero.
func decimal(lit []byte) (s sigDigits, first, last int, e int64, neg bool) {
	var exp int64
	s.lit = lit
	s.is, s.ie, s.fs, s.fe, exp, neg = numParts(lit)
	nd := s.n()
	last = nd - 1
	for last >= 0 && s.at(last) == '0' {
		last--
	}
	if last < 0 {
		return s, 0, -1, 0, neg
	}
	for s.at(first) == '0' {
		first++
	}
	e = exp - int64(s.fe-s.fs) + int64(nd-1-last)
	return
}

// integral converts a validated literal to a magnitude and sign if it denotes an integer.
func integral(lit []byte) (uint64, bool, numStatus) {
	// fast path: plain integer of at most 19 digits
	i, neg := 0, false
	if len(lit) > 0 && lit[0] == '-' {
		i, neg = 1, true
	}
	if len(lit)-i <= 19 {
		var m uint64
		j := i
		for ; j < len(lit); j++ {
			c := lit[j]
			if c < '0' || c > '9' {
				break
			}
			m = m*10 + uint64(c-'0')
		}
		if j == len(lit) {
			return m, neg, numOK
		}
	}
	s, first, last, e, neg := decimal(lit)
	if first > last {
		return 0, neg, numOK
	}
	if e < 0 {
		return 0, neg, numFrac
	}
	if int64(last-first+1)+e > 20 {
		return 0, neg, numBig
	}
	var m uint64
	for k := first; k <= last; k++ {
		hi, lo := bits.Mul64(m, 10)
		sum, carry := bits.Add64(lo, uint64(s.at(k)-'0'), 0)
		if hi != 0 || carry != 0 {
			return 0, neg, numBig
		}
		m = sum
	}
	for ; e > 0; e-- {
		hi, lo := bits.Mul64(m, 10)
		if hi != 0 {
			return 0, neg, numBig
		}
		m = lo
	}
	return m, neg, numOK
}

// number reads a number literal; any other value is a type error "expected <want>, got ...".
func (d *Decoder) number(want string) ([]byte, bool) {
	if !d.begin() {
		return nil, false
	}
	c := d.data[d.pos]
	if c != '-' && (c < '0' || c > '9') {
		d.mismatch(want)
		return nil, false
	}
	start := d.pos
	if !d.scanNumber() {
		return nil, false
	}
	d.numStart, d.numEnd = start, d.pos
	return d.data[start:d.pos], true
}

// plainInt reads the common integer in one pass: at d.pos (no whitespace first), an optional '-' and 1 to
// 18 digits without a leading zero, not followed by a fraction, an exponent or a 19th digit. For anything
// else (and after a fatal error) it consumes nothing and returns false: Int's general path then scans the
// literal and reports what is wrong with it.
func (d *Decoder) plainInt() (int64, bool) {
	if d.fatal {
		return 0, false
	}
	data := d.data
	i := d.pos
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	s := i
	var m int64
	if i+8 <= len(data) {
		// A word at a time: the 1 to 7 digits that start the word, when a byte that is not a digit
		// follows them in it (digits8); 8 or more digits take the loop below.
		y := binary.LittleEndian.Uint64(data[i:]) ^ ('0' * lsb) // a digit becomes its value
		if n, ok := wordDigits(y); ok {
			if n == 0 || (n > 1 && y&0xff == 0) {
				return 0, false
			}
			i += n
			if c := data[i]; c == '.' || c == 'e' || c == 'E' {
				return 0, false
			}
			m = int64(digits8(y << (64 - 8*n)))
			d.numStart, d.numEnd = d.pos, i
			d.pos = i
			if neg {
				m = -m
			}
			return m, true
		}
	}
	end := min(len(data), s+19)
	for ; i < end; i++ {
		c := data[i] - '0'
		if c > 9 {
			break
		}
		m = m*10 + int64(c)
	}
	if n := i - s; n == 0 || n > 18 || (n > 1 && data[s] == '0') {
		return 0, false
	}
	if i < len(data) {
		if c := data[i]; c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	d.numStart, d.numEnd = d.pos, i
	d.pos = i
	if neg {
		m = -m
	}
	return m, true
}

// wordDigits returns how many of the bytes of y (8 input bytes minus '0' each, the first in the lowest
// byte) are digits before the first that is not, and false when all 8 are digits.
func wordDigits(y uint64) (n int, ok bool) {
	nd := ((y & (0x7f * lsb)) + 0x76*lsb | y) & msb // the high bit of each byte that is not a digit
	return bits.TrailingZeros64(nd) >> 3, nd != 0
}

// digits8 returns the number whose decimal digits are the bytes of y (each 0 to 9), the lowest byte the
// most significant digit: three multiplications instead of one per digit.
func digits8(y uint64) uint64 {
	y = y*10 + y>>8                                                                                 // pairs: 10a+b in the even bytes
	y = ((y&0x000000FF000000FF)*(100+1000000<<32) + (y>>16&0x000000FF000000FF)*(1+10000<<32)) >> 32 // quads, then the whole
	return y & 0xFFFFFFFF
}

// NumberLiteral returns the raw text of the last number read by Int, Uint or Float (for exact
// multipleOf checks). Valid until the next Reset.
func (d *Decoder) NumberLiteral() []byte { return d.data[d.numStart:d.numEnd] }

// Int reads an integral number in [min, max]. Integral values written with a fraction or exponent (25.0,
// 2.5e1, 1E2, -0) are accepted. Errors: "expected integer, got number 2.5"; "must be >= min; got v" and
// "must be <= max; got v" (v is the literal when it does not fit int64); wrong types as for every value.
func (d *Decoder) Int(min, max int64) (int64, bool) {
	if data, i := d.data, d.pos; i < len(data)-7 && !d.fatal {
		// plainInt's word at a time, without the call: 1 to 7 digits, not negative, followed by a byte
		// that is not a digit within the word.
		y := binary.LittleEndian.Uint64(data[i:]) ^ ('0' * lsb)
		if n, ok := wordDigits(y); ok {
			if c := data[i+n]; n != 0 && (n == 1 || y&0xff != 0) && c != '.' && c != 'e' && c != 'E' {
				if v := int64(digits8(y << (64 - 8*n))); v >= min && v <= max {
					d.numStart, d.numEnd = i, i+n
					d.pos = i + n
					return v, true
				}
			}
		}
	}
	if v, ok := d.plainInt(); ok {
		if v < min {
			d.rangeErr(">= ", strconv.FormatInt(min, 10), strconv.FormatInt(v, 10))
			return 0, false
		}
		if v > max {
			d.rangeErr("<= ", strconv.FormatInt(max, 10), strconv.FormatInt(v, 10))
			return 0, false
		}
		return v, true
	}
	return d.intLiteral(min, max)
}

// intLiteral is Int's general path: any literal, any error.
func (d *Decoder) intLiteral(min, max int64) (int64, bool) {
	lit, ok := d.number("integer")
	if !ok {
		return 0, false
	}
	mag, neg, st := integral(lit)
	switch {
	case st == numFrac:
		d.notInteger(lit)
		return 0, false
	case neg && (st == numBig || mag > 1<<63):
		d.rangeErr(">= ", strconv.FormatInt(min, 10), truncate(string(lit)))
		return 0, false
	case !neg && (st == numBig || mag > math.MaxInt64):
		d.rangeErr("<= ", strconv.FormatInt(max, 10), truncate(string(lit)))
		return 0, false
	}
	v := int64(mag)
	if neg {
		v = -v
	}
	if v < min {
		d.rangeErr(">= ", strconv.FormatInt(min, 10), strconv.FormatInt(v, 10))
		return 0, false
	}
	if v > max {
		d.rangeErr("<= ", strconv.FormatInt(max, 10), strconv.FormatInt(v, 10))
		return 0, false
	}
	return v, true
}

// Uint reads an integral number in [0, max], with the messages of Int ("must be >= 0; got -1").
func (d *Decoder) Uint(max uint64) (uint64, bool) {
	lit, ok := d.number("integer")
	if !ok {
		return 0, false
	}
	mag, neg, st := integral(lit)
	switch {
	case st == numFrac:
		d.notInteger(lit)
		return 0, false
	case neg && (st == numBig || mag > 1<<63):
		d.rangeErr(">= ", "0", truncate(string(lit)))
		return 0, false
	case neg && mag != 0:
		d.rangeErr(">= ", "0", "-"+strconv.FormatUint(mag, 10))
		return 0, false
	case st == numBig:
		d.rangeErr("<= ", strconv.FormatUint(max, 10), truncate(string(lit)))
		return 0, false
	case mag > max:
		d.rangeErr("<= ", strconv.FormatUint(max, 10), strconv.FormatUint(mag, 10))
		return 0, false
	}
	return mag, true
}

// MaxFloat32JSON is the largest magnitude a float32 field accepts: 3.4028235e+38, the text the encoder
// writes for math.MaxFloat32 (it rounds to that float32), so that every float32 the encoder writes is
// within the range the schema states.
const MaxFloat32JSON = 3.4028235e+38

// Float reads a number for a float field of the given size (32 or 64) and returns it as a float64, NOT
// rounded to float32: bounds are checked on the number the model wrote, as the schema states them, and
// the caller converts to float32 when it stores the value. Values beyond the type's finite range are
// errors: "must be <= 3.4028235e+38; got 1e39" (for 64 bits: 1.7976931348623157e+308); values too small
// to represent become 0.
func (d *Decoder) Float(bitSize int) (float64, bool) {
	lit, ok := d.number("number")
	if !ok {
		return 0, false
	}
	if bitSize != 32 {
		bitSize = 64
	}
	// fast path: small plain integers are exact in both sizes
	if len(lit) <= 7 {
		i, neg := 0, false
		if lit[0] == '-' {
			i, neg = 1, true
		}
		var m int64
		for ; i < len(lit); i++ {
			c := lit[i]
			if c < '0' || c > '9' {
				break
			}
			m = m*10 + int64(c-'0')
		}
		if i == len(lit) {
			if neg {
				return -float64(m), true
			}
			return float64(m), true
		}
	}
	s := string(lit)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || bitSize == 32 && math.Abs(f) > MaxFloat32JSON {
		max := "1.7976931348623157e+308"
		if bitSize == 32 {
			max = "3.4028235e+38"
		}
		if f < 0 {
			d.rangeErr(">= ", "-"+max, truncate(s))
		} else {
			d.rangeErr("<= ", max, truncate(s))
		}
		return 0, false
	}
	return f, true
}

func (d *Decoder) notInteger(lit []byte) {
	d.addErr(d.path(d.depth), "expected integer, got number "+truncate(string(lit)))
}

func (d *Decoder) rangeErr(op, bound, got string) {
	d.addErr(d.path(d.depth), "must be "+op+bound+"; got "+got)
}

// MultipleOf reports whether the number written as literal (a valid JSON number) is an exact multiple of
// m (m > 0; a non-positive or nil m gives false). The check is exact on the decimal text, so 0.3 is a
// multiple of 0.1; work is bounded by the length of the literal, whatever its exponent.
func MultipleOf(literal []byte, m *big.Rat) bool {
	if m == nil || m.Sign() <= 0 || len(literal) == 0 {
		return false
	}
	s, first, last, e, _ := decimal(literal)
	if first > last {
		return true // zero
	}
	p, q := m.Num(), m.Denom()
	// fast path: integer literal and integer m
	if e >= 0 && m.IsInt() && p.IsUint64() {
		if mag, _, st := integral(literal); st == numOK {
			return mag%p.Uint64() == 0
		}
	}
	digits := make([]byte, 0, last-first+1)
	for k := first; k <= last; k++ {
		digits = append(digits, s.at(k))
	}
	dv, ok := new(big.Int).SetString(string(digits), 10)
	if !ok {
		return false
	}
	n := dv.Mul(dv, q) // value/m = n·10^e / p
	if e >= 0 {
		// p | n·10^e  ⇔  p/gcd(p, n) has only the prime factors 2 and 5, each at most e times
		g := new(big.Int).GCD(nil, nil, p, n)
		r := new(big.Int).Quo(p, g)
		var c2, c5 int64
		two, five, mod := big.NewInt(2), big.NewInt(5), new(big.Int)
		for {
			if _, mod = new(big.Int).QuoRem(r, two, mod); mod.Sign() != 0 {
				break
			}
			r.Quo(r, two)
			c2++
		}
		for {
			if _, mod = new(big.Int).QuoRem(r, five, mod); mod.Sign() != 0 {
				break
			}
			r.Quo(r, five)
			c5++
		}
		return r.IsInt64() && r.Int64() == 1 && c2 <= e && c5 <= e
	}
	// p·10^-e | n; impossible when 10^-e alone exceeds n
	if -e > int64(len(n.String())) {
		return false
	}
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(-e), nil)
	den.Mul(den, p)
	return new(big.Int).Rem(n, den).Sign() == 0
}
