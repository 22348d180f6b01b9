package gen

import (
	"math/big"
	"time"

	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/runtime/strictjson"
)

// A rule is one strictjson check a decoder makes after reading a number (a bound or multipleOf that the
// read itself does not enforce: Decoder.Int folds an integer's minimum and maximum into its range). The
// emitter writes each as a call (emit_decode.go) and the example checker makes the same call (values.go),
// so which checks apply, and how each reads, is decided once.
//
// Contract version: the strictjson rule functions were added without a bump of wink.GenVersion, as
// Decoder.FreeForm and FailDuration were. The version guards exist so that generated code that no
// longer fits the runtime fails to compile: code generated before the rules still compiles against this
// runtime (nothing it calls was removed or changed), and code generated now against an older runtime
// fails to compile too ("undefined: strictjson.CheckMin"), which go.mod's version of the module prevents.
// A bump would make every user regenerate for no change in behaviour.
type rule struct {
	fn  string // CheckMin, CheckMax, CheckExclusiveMin, CheckExclusiveMax, CheckMultipleOf or CheckMultipleOfFloat
	lit string // the bound as written in the tag, quoted by the message
	i   int64  // the bound of an int
	u   uint64 // the bound of a uint
	f   float64
	dur time.Duration
	rat *big.Rat // multipleOf of a float
}

// numberRules lists the checks of a number (int, uint, float or duration) of type t under c, in the order
// they are made.
func numberRules(t *model.Type, c *model.Constraints) []rule {
	if c == nil {
		return nil
	}
	var out []rule
	switch t.Kind {
	case model.KindInt:
		if n := c.ExclusiveMin; n != nil {
			out = append(out, rule{fn: "CheckExclusiveMin", lit: n.Literal, i: ratOf(n).Num().Int64()})
		}
		if n := c.ExclusiveMax; n != nil {
			out = append(out, rule{fn: "CheckExclusiveMax", lit: n.Literal, i: ratOf(n).Num().Int64()})
		}
		if n := c.MultipleOf; n != nil {
			out = append(out, rule{fn: "CheckMultipleOf", lit: n.Literal, i: ratOf(n).Num().Int64()})
		}
	case model.KindUint:
		// Decoder.Uint checks >= 0 and the maximum: a minimum only matters above 0, an exclusive minimum
		// from 0 on; an exclusive maximum at or below 0 refuses every value (n < 0 never holds).
		if n := c.Min; n != nil && ratOf(n).Sign() > 0 {
			out = append(out, rule{fn: "CheckMin", lit: n.Literal, u: ratOf(n).Num().Uint64()})
		}
		if n := c.ExclusiveMin; n != nil && ratOf(n).Sign() >= 0 {
			out = append(out, rule{fn: "CheckExclusiveMin", lit: n.Literal, u: ratOf(n).Num().Uint64()})
		}
		if n := c.ExclusiveMax; n != nil {
			var u uint64
			if ratOf(n).Sign() > 0 {
				u = ratOf(n).Num().Uint64()
			}
			out = append(out, rule{fn: "CheckExclusiveMax", lit: n.Literal, u: u})
		}
		if n := c.MultipleOf; n != nil {
			out = append(out, rule{fn: "CheckMultipleOf", lit: n.Literal, u: ratOf(n).Num().Uint64()})
		}
	case model.KindFloat:
		for _, b := range []struct {
			fn string
			n  *model.Number
		}{{"CheckMin", c.Min}, {"CheckMax", c.Max}, {"CheckExclusiveMin", c.ExclusiveMin}, {"CheckExclusiveMax", c.ExclusiveMax}} {
			if b.n != nil {
				out = append(out, rule{fn: b.fn, lit: b.n.Literal, f: floatOf(b.n)})
			}
		}
		if n := c.MultipleOf; n != nil {
			out = append(out, rule{fn: "CheckMultipleOfFloat", lit: n.Literal, rat: ratOf(n)})
		}
	case model.KindDuration:
		if c.MinDuration != nil {
			out = append(out, rule{fn: "CheckMin", lit: c.MinDuration.Text, dur: time.Duration(c.MinDuration.Nanos)})
		}
		if c.MaxDuration != nil {
			out = append(out, rule{fn: "CheckMax", lit: c.MaxDuration.Text, dur: time.Duration(c.MaxDuration.Nanos)})
		}
	}
	return out
}

// checkInt64, checkUint64, checkFloat64 and checkDuration make the rule's call on a value read by the
// decoder, as the generated code does; each reports whether v passed.
func (r rule) checkInt64(d *strictjson.Decoder, v int64) bool {
	return callRule(d, r.fn, v, r.i, r.lit)
}

func (r rule) checkUint64(d *strictjson.Decoder, v uint64) bool {
	return callRule(d, r.fn, v, r.u, r.lit)
}

func (r rule) checkFloat64(d *strictjson.Decoder, v float64) bool {
	if r.fn == "CheckMultipleOfFloat" {
		return d.CheckMultipleOfFloat(v, r.rat, r.lit)
	}
	return callRule(d, r.fn, v, r.f, r.lit)
}

func (r rule) checkDuration(d *strictjson.Decoder, v time.Duration) bool {
	return callRule(d, r.fn, v, r.dur, r.lit)
}

func callRule[T strictjson.Number](d *strictjson.Decoder, fn string, v, bound T, lit string) bool {
	switch fn {
	case "CheckMin":
		return strictjson.CheckMin(d, v, bound, lit)
	case "CheckMax":
		return strictjson.CheckMax(d, v, bound, lit)
	case "CheckExclusiveMin":
		return strictjson.CheckExclusiveMin(d, v, bound, lit)
	case "CheckExclusiveMax":
		return strictjson.CheckExclusiveMax(d, v, bound, lit)
	case "CheckMultipleOf":
		switch x := any(v).(type) {
		case int64:
			return strictjson.CheckMultipleOf(d, x, any(bound).(int64), lit)
		case uint64:
			return strictjson.CheckMultipleOf(d, x, any(bound).(uint64), lit)
		}
	}
	panic("gen: no rule " + fn)
}
