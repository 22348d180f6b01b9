package strictjson

import (
	"math/big"
	"sync"
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
	failRule(d, ruleMin, v, lit)
	return false
}

// CheckMax checks v <= max (maximum; for a duration, max=): MsgMax, or MsgMaxDuration for a duration.
func CheckMax[T Number](d *Decoder, v, max T, lit string) bool {
	if v <= max {
		return true
	}
	failRule(d, ruleMax, v, lit)
	return false
}

// CheckExclusiveMin checks v > bound (exclusiveMinimum): MsgExclusiveMin.
func CheckExclusiveMin[T Number](d *Decoder, v, bound T, lit string) bool {
	if v > bound {
		return true
	}
	failRule(d, ruleExclusiveMin, v, lit)
	return false
}

// CheckExclusiveMax checks v < bound (exclusiveMaximum): MsgExclusiveMax.
func CheckExclusiveMax[T Number](d *Decoder, v, bound T, lit string) bool {
	if v < bound {
		return true
	}
	failRule(d, ruleExclusiveMax, v, lit)
	return false
}

// CheckMultipleOf checks that the integer v is a multiple of m (multipleOf; m > 0): MsgMultipleOf.
func CheckMultipleOf[T int64 | uint64](d *Decoder, v, m T, lit string) bool {
	if v%m == 0 {
		return true
	}
	failRule(d, ruleMultipleOf, v, lit)
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

// LazyPattern is a Pattern compiled on its first match, so that a program linking generated code pays
// for compiling a tool's patterns only once a call needs them, not when it starts (a large pattern takes
// milliseconds to compile, and every process started from the executable, an evaluator say, would pay it).
// Generated code makes one per pattern: NewLazyPattern(src, regexp.MustCompile).
type LazyPattern[P Pattern] struct {
	src     string
	compile func(string) P
	once    sync.Once
	p       P
}

// NewLazyPattern returns the pattern src, compiled by compile on its first match (src was checked when
// the code was generated).
func NewLazyPattern[P Pattern](src string, compile func(string) P) *LazyPattern[P] {
	return &LazyPattern[P]{src: src, compile: compile}
}

// MatchString reports whether s matches the pattern, compiling it first if it is the first match.
func (l *LazyPattern[P]) MatchString(s string) bool {
	l.once.Do(func() { l.p = l.compile(l.src) })
	return l.p.MatchString(s)
}

// String returns the pattern's source, as the compiled pattern's String does.
func (l *LazyPattern[P]) String() string { return l.src }

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

type ruleKind uint8

const (
	ruleMin ruleKind = iota
	ruleMax
	ruleExclusiveMin
	ruleExclusiveMax
	ruleMultipleOf
)

// failRule records the message of rule k (bound lit) with v written as its type's Fail method writes it.
// It is kept out of the Check functions so that their passing path inlines.
//
//go:noinline
func failRule[T Number](d *Decoder, k ruleKind, v T, lit string) {
	var msg string
	switch k {
	case ruleMin:
		msg = MsgMin(lit)
	case ruleMax:
		msg = MsgMax(lit)
	case ruleExclusiveMin:
		msg = MsgExclusiveMin(lit)
	case ruleExclusiveMax:
		msg = MsgExclusiveMax(lit)
	case ruleMultipleOf:
		msg = MsgMultipleOf(lit)
	}
	switch x := any(v).(type) {
	case int64:
		d.FailInt(msg, x)
	case uint64:
		d.FailUint(msg, x)
	case float64:
		d.FailFloat(msg, x)
	case time.Duration:
		// A duration bound reads "at least 1s", as min= and max= are written on a time.Duration.
		switch k {
		case ruleMin:
			msg = MsgMinDuration(lit)
		case ruleMax:
			msg = MsgMaxDuration(lit)
		}
		d.FailDuration(msg, x)
	}
}
