package strictjson

import (
	"math/big"
	"time"
)

// The rules of the schema keywords a decoder checks after reading a value, each with its wording (the
// Msg functions of checks.go). Generated decoders call them, and so does winkgen's example and default
// checker, so a rule is written once. Each records its message at the current path (completed by
// "; got <value>") and reports whether the value passed. The literal arguments are the bounds as written
// in the tag ("0.5", "1e9", "1s"): they are what the message quotes.

// Number is a value the bound checks compare: what Int, Uint, Float and Duration return.
type Number interface {
	int64 | uint64 | float64 | time.Duration
}

// CheckMin checks v >= min (minimum; for a duration, min=): MsgMin, or MsgMinDuration for a duration.
func CheckMin[T Number](d *Decoder, v, min T, lit string) bool {
	if v >= min {
		return true
	}
	if _, isDur := any(v).(time.Duration); isDur {
		failNumber(d, MsgMinDuration(lit), v)
	} else {
		failNumber(d, MsgMin(lit), v)
	}
	return false
}

// CheckMax checks v <= max (maximum; for a duration, max=): MsgMax, or MsgMaxDuration for a duration.
func CheckMax[T Number](d *Decoder, v, max T, lit string) bool {
	if v <= max {
		return true
	}
	if _, isDur := any(v).(time.Duration); isDur {
		failNumber(d, MsgMaxDuration(lit), v)
	} else {
		failNumber(d, MsgMax(lit), v)
	}
	return false
}

// CheckExclusiveMin checks v > bound (exclusiveMinimum): MsgExclusiveMin.
func CheckExclusiveMin[T Number](d *Decoder, v, bound T, lit string) bool {
	if v > bound {
		return true
	}
	failNumber(d, MsgExclusiveMin(lit), v)
	return false
}

// CheckExclusiveMax checks v < bound (exclusiveMaximum): MsgExclusiveMax.
func CheckExclusiveMax[T Number](d *Decoder, v, bound T, lit string) bool {
	if v < bound {
		return true
	}
	failNumber(d, MsgExclusiveMax(lit), v)
	return false
}

// CheckMultipleOf checks that the integer v is a multiple of m (multipleOf; m > 0): MsgMultipleOf.
func CheckMultipleOf[T int64 | uint64](d *Decoder, v, m T, lit string) bool {
	if v%m == 0 {
		return true
	}
	failNumber(d, MsgMultipleOf(lit), v)
	return false
}

// CheckMultipleOfFloat checks that the number just read by Float (v) is a multiple of m (multipleOf),
// exactly, on the decimal text the model wrote (MultipleOf of NumberLiteral): MsgMultipleOf.
func (d *Decoder) CheckMultipleOfFloat(v float64, m *big.Rat, lit string) bool {
	if MultipleOf(d.NumberLiteral(), m) {
		return true
	}
	d.FailFloat(MsgMultipleOf(lit), v)
	return false
}

// Pattern is a compiled pattern: a *regexp.Regexp of the anchored pattern (as the schema states it).
// strictjson takes it as an interface so that it does not link package regexp for tools without one.
type Pattern interface {
	MatchString(s string) bool
	String() string
}

// CheckPattern checks that p matches s (pattern): MsgPattern(p.String(), desc), desc being the tag's
// patternDesc ("" when none).
func (d *Decoder) CheckPattern(s string, p Pattern, desc string) bool {
	if p.MatchString(s) {
		return true
	}
	d.FailString(MsgPattern(p.String(), desc), s)
	return false
}

// CheckArrayLen checks that a Go array of length want received exactly n items: MsgExactItems.
func (d *Decoder) CheckArrayLen(n, want int) bool {
	if n == want {
		return true
	}
	d.FailLen(MsgExactItems(want), n)
	return false
}

// failNumber records msg with v written as its type's Fail method writes it.
func failNumber[T Number](d *Decoder, msg string, v T) {
	switch x := any(v).(type) {
	case int64:
		d.FailInt(msg, x)
	case uint64:
		d.FailUint(msg, x)
	case float64:
		d.FailFloat(msg, x)
	case time.Duration:
		d.FailDuration(msg, x)
	}
}
