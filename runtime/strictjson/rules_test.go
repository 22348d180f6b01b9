package strictjson

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// ruleCase decodes in (one value, read by read) and runs check on it.
type ruleCase struct {
	name  string
	in    string
	check func(d *Decoder) bool
	want  string // the error line; "" when the value passes
}

func TestRules(t *testing.T) {
	pat := regexp.MustCompile(`^(?:[a-z]+)$`)
	float := func(f func(d *Decoder, v float64) bool) func(d *Decoder) bool {
		return func(d *Decoder) bool {
			v, ok := d.Float(64)
			return ok && f(d, v)
		}
	}
	integer := func(f func(d *Decoder, v int64) bool) func(d *Decoder) bool {
		return func(d *Decoder) bool {
			v, ok := d.Int(-1000, 1000)
			return ok && f(d, v)
		}
	}
	unsigned := func(f func(d *Decoder, v uint64) bool) func(d *Decoder) bool {
		return func(d *Decoder) bool {
			v, ok := d.Uint(1000)
			return ok && f(d, v)
		}
	}
	duration := func(f func(d *Decoder, v time.Duration) bool) func(d *Decoder) bool {
		return func(d *Decoder) bool {
			v, ok := d.Duration()
			return ok && f(d, v)
		}
	}
	str := func(f func(d *Decoder, s string) bool) func(d *Decoder) bool {
		return func(d *Decoder) bool {
			s, ok := d.String()
			return ok && f(d, s)
		}
	}
	half := MustRat("0.5")
	cases := []ruleCase{
		{"float min ok", `0`, float(func(d *Decoder, v float64) bool { return CheckMin(d, v, 0, "0") }), ""},
		{"float min", `-0.5`, float(func(d *Decoder, v float64) bool { return CheckMin(d, v, 0, "0") }), `must be >= 0; got -0.5`},
		{"float max ok", `1`, float(func(d *Decoder, v float64) bool { return CheckMax(d, v, 1e9, "1e9") }), ""},
		{"float max", `2e9`, float(func(d *Decoder, v float64) bool { return CheckMax(d, v, 1e9, "1e9") }), `must be <= 1e9; got 2000000000`},
		{"float exclusive min", `0`, float(func(d *Decoder, v float64) bool { return CheckExclusiveMin(d, v, 0, "0") }), `must be > 0; got 0`},
		{"float exclusive max", `1`, float(func(d *Decoder, v float64) bool { return CheckExclusiveMax(d, v, 1, "1") }), `must be < 1; got 1`},
		{"float exclusive max ok", `0.999`, float(func(d *Decoder, v float64) bool { return CheckExclusiveMax(d, v, 1, "1") }), ""},
		{"float multiple ok", `2.5`, float(func(d *Decoder, v float64) bool { return d.CheckMultipleOfFloat(v, half, "0.5") }), ""},
		{"float multiple exact", `0.30000000000000000001`, float(func(d *Decoder, v float64) bool { return d.CheckMultipleOfFloat(v, MustRat("0.1"), "0.1") }), `must be a multiple of 0.1; got 0.3`},
		{"float multiple", `2.25`, float(func(d *Decoder, v float64) bool { return d.CheckMultipleOfFloat(v, half, "0.5") }), `must be a multiple of 0.5; got 2.25`},
		{"int exclusive min", `-10`, integer(func(d *Decoder, v int64) bool { return CheckExclusiveMin(d, v, -10, "-10") }), `must be > -10; got -10`},
		{"int exclusive max", `10`, integer(func(d *Decoder, v int64) bool { return CheckExclusiveMax(d, v, 10, "10") }), `must be < 10; got 10`},
		{"int multiple ok", `-15`, integer(func(d *Decoder, v int64) bool { return CheckMultipleOf(d, v, 5, "5") }), ""},
		{"int multiple", `-7`, integer(func(d *Decoder, v int64) bool { return CheckMultipleOf(d, v, 5, "5") }), `must be a multiple of 5; got -7`},
		{"uint min", `2`, unsigned(func(d *Decoder, v uint64) bool { return CheckMin(d, v, 3, "3") }), `must be >= 3; got 2`},
		{"uint multiple", `7`, unsigned(func(d *Decoder, v uint64) bool { return CheckMultipleOf(d, v, 5, "5") }), `must be a multiple of 5; got 7`},
		{"uint exclusive max at zero", `0`, unsigned(func(d *Decoder, v uint64) bool { return CheckExclusiveMax(d, v, 0, "-3") }), `must be < -3; got 0`},
		{"duration min", `"500ms"`, duration(func(d *Decoder, v time.Duration) bool { return CheckMin(d, v, time.Second, "1s") }), `must be at least 1s; got 500ms`},
		{"duration max", `"25h"`, duration(func(d *Decoder, v time.Duration) bool { return CheckMax(d, v, 24*time.Hour, "24h") }), `must be at most 24h; got 25h0m0s`},
		{"duration ok", `"1m"`, duration(func(d *Decoder, v time.Duration) bool {
			return CheckMin(d, v, time.Second, "1s") && CheckMax(d, v, time.Hour, "1h")
		}), ""},
		{"pattern ok", `"abc"`, str(func(d *Decoder, s string) bool { return d.CheckPattern(s, pat, "") }), ""},
		{"pattern", `"ab1"`, str(func(d *Decoder, s string) bool { return d.CheckPattern(s, pat, "") }), `must match the pattern ^(?:[a-z]+)$; got "ab1"`},
		{"pattern described", `"ab1"`, str(func(d *Decoder, s string) bool { return d.CheckPattern(s, pat, "lowercase letters") }), `must be lowercase letters; got "ab1"`},
		{"array len ok", `0`, func(d *Decoder) bool { d.Skip(); return d.CheckArrayLen(2, 2) }, ""},
		{"array len", `0`, func(d *Decoder) bool { d.Skip(); return d.CheckArrayLen(3, 2) }, `must contain exactly 2 items; got 3`},
		{"array len one", `0`, func(d *Decoder) bool { d.Skip(); return d.CheckArrayLen(0, 1) }, `must contain exactly 1 item; got 0`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d Decoder
			d.Reset([]byte(`{"x":`+c.in+`}`), Limits{})
			if !d.ObjectStart() || !d.NextKey() {
				t.Fatal("no member")
			}
			passed := c.check(&d)
			for d.NextKey() {
			}
			d.ObjectEnd()
			errs := d.Finish()
			if passed != (c.want == "") {
				t.Errorf("check reported %v, want %v", passed, c.want == "")
			}
			got := strings.Join(lines(errs), "\n")
			want := ""
			if c.want != "" {
				want = "x: " + c.want
			}
			if got != want {
				t.Errorf("error %q, want %q", got, want)
			}
		})
	}
}

// TestRulesDoNotAllocate: checking a value that passes costs no allocation beyond reading it.
func TestRulesDoNotAllocate(t *testing.T) {
	pat := regexp.MustCompile(`^(?:[a-z]+)$`)
	half := MustRat("0.5")
	in := []byte(`[2.5,"abc",7,"90s"]`)
	decode := func(check bool) {
		var d Decoder
		d.Reset(in, Limits{})
		d.ArrayStart()
		d.NextElem()
		f, _ := d.Float(64)
		if check {
			CheckMin(&d, f, 0, "0")
			CheckMax(&d, f, 10, "10")
			CheckExclusiveMin(&d, f, 0, "0")
			CheckExclusiveMax(&d, f, 10, "10")
			d.CheckMultipleOfFloat(f, half, "0.5")
		}
		d.NextElem()
		s, _ := d.String()
		if check {
			d.CheckPattern(s, pat, "")
		}
		d.NextElem()
		n, _ := d.Int(0, 100)
		if check {
			CheckMultipleOf(&d, n, 7, "7")
			CheckExclusiveMax(&d, n, 8, "8")
		}
		d.NextElem()
		du, _ := d.Duration()
		if check {
			CheckMin(&d, du, time.Second, "1s")
			CheckMax(&d, du, time.Hour, "1h")
			d.CheckArrayLen(4, 4)
		}
		for d.NextElem() {
			d.Skip()
		}
		d.ArrayEnd()
		if d.Finish() != nil {
			t.Fatal("errors")
		}
	}
	read := testing.AllocsPerRun(100, func() { decode(false) })
	// MultipleOf's exact decimal arithmetic on a fractional literal allocates (big.Int); it did so before
	// it was a rule, and integral literals take its fast path.
	const multipleOfFrac = 8
	if checked := testing.AllocsPerRun(100, func() { decode(true) }); checked != read+multipleOfFrac {
		t.Errorf("%v allocations with the checks, %v without", checked, read)
	}
}

var ruleSink bool

// BenchmarkRules compares the rule calls with the checks written inline, as generated decoders wrote them
// before the rules were strictjson functions.
func BenchmarkRules(b *testing.B) {
	in := []byte(`{"ratio":0.25,"temp":22,"delta":-3,"count":45}`)
	two := MustRat("2") // an integral divisor: MultipleOf's fast path, so that the rules are what is measured
	run := func(b *testing.B, decode func(d *Decoder)) {
		b.ReportAllocs()
		var d Decoder
		for b.Loop() {
			d.Reset(in, Limits{})
			decode(&d)
			ruleSink = d.Finish() == nil
		}
		if !ruleSink {
			b.Fatal("errors")
		}
	}
	b.Run("calls", func(b *testing.B) {
		run(b, func(d *Decoder) {
			d.ObjectStart()
			for d.NextKey() {
				switch string(d.Key()) {
				case "ratio":
					if f, ok := d.Float(32); ok {
						CheckMin(d, f, 0.0, "0")
						CheckMax(d, f, 1.0, "1")
						CheckExclusiveMax(d, f, 1.0, "1")
					}
				case "temp":
					if f, ok := d.Float(64); ok {
						d.CheckMultipleOfFloat(f, two, "2")
					}
				case "delta":
					if n, ok := d.Int(-100, 100); ok {
						CheckExclusiveMin(d, n, -10, "-10")
						CheckExclusiveMax(d, n, 10, "10")
					}
				case "count":
					if n, ok := d.Uint(500); ok {
						CheckMultipleOf(d, n, 5, "5")
					}
				}
			}
			d.ObjectEnd()
		})
	})
	b.Run("inline", func(b *testing.B) {
		run(b, func(d *Decoder) {
			d.ObjectStart()
			for d.NextKey() {
				switch string(d.Key()) {
				case "ratio":
					if f, ok := d.Float(32); ok {
						if f < 0.0 {
							d.FailFloat("must be >= 0", f)
						}
						if f > 1.0 {
							d.FailFloat("must be <= 1", f)
						}
						if f >= 1.0 {
							d.FailFloat("must be < 1", f)
						}
					}
				case "temp":
					if f, ok := d.Float(64); ok {
						if !MultipleOf(d.NumberLiteral(), two) {
							d.FailFloat("must be a multiple of 2", f)
						}
					}
				case "delta":
					if n, ok := d.Int(-100, 100); ok {
						if n <= -10 {
							d.FailInt("must be > -10", n)
						}
						if n >= 10 {
							d.FailInt("must be < 10", n)
						}
					}
				case "count":
					if n, ok := d.Uint(500); ok {
						if n%5 != 0 {
							d.FailUint("must be a multiple of 5", n)
						}
					}
				}
			}
			d.ObjectEnd()
		})
	})
}

// TestFreeFormJSONText: under PairMaps a free-form value may arrive as a string of JSON text; what the
// text holds is returned, and text that is not one JSON value is an error at the field's path saying
// what is wrong inside the text (never "the arguments object", which the text is not).
func TestFreeFormJSONText(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{`{"o":"{\"a\": [1]}"}`, `{"a": [1]}`, ""},
		{`{"o":{"a":[1]}}`, `{"a":[1]}`, ""},
		{`{"o":"{\"a\":[1,]}"}`, "", "o: must be JSON text (the value written as a string of JSON): invalid JSON at byte 8: trailing comma before ']'"},
		{`{"o":"{\"a\":\"x\"} more"}`, "", "o: must be JSON text (the value written as a string of JSON): invalid JSON at byte 10: unexpected data after the value"},
	} {
		var d Decoder
		d.Reset([]byte(c.in), Limits{PairMaps: true})
		var got []byte
		d.ObjectStart()
		for d.NextKey() {
			got, _ = d.FreeForm()
		}
		errs := d.Finish()
		switch {
		case c.err == "" && (errs != nil || string(got) != c.want):
			t.Errorf("%s: %q %v, want %q", c.in, got, errs, c.want)
		case c.err != "" && (errs == nil || errs.Error() != c.err):
			t.Errorf("%s: %v, want %q", c.in, errs, c.err)
		}
	}
}

// TestFreeFormRefusesRepeatedMembers: a free-form value never carries a member twice, at any depth, however
// the second is spelled (escaped, or inside JSON text under PairMaps), so no handler, idempotency key or
// approval binding sees one.
func TestFreeFormRefusesRepeatedMembers(t *testing.T) {
	for _, c := range []struct {
		in    string
		pairs bool
	}{
		{`{"o":{"a":1,"a":2}}`, false},
		{`{"o":{"a":1,"\u0061":2}}`, false},
		{`{"o":[{"x":{"k":1,"k":1}}]}`, false},
		{`{"o":"{\"a\":1,\"\\u0061\":2}"}`, true},
	} {
		var d Decoder
		d.Reset([]byte(c.in), Limits{PairMaps: c.pairs})
		d.ObjectStart()
		for d.NextKey() {
			if v, ok := d.FreeForm(); ok {
				t.Errorf("%s: accepted %s", c.in, v)
			}
		}
		d.ObjectEnd()
		errs := d.Finish()
		if errs == nil || !strings.Contains(errs.Error(), "o: duplicate member") || !strings.Contains(errs.Error(), "give each member once") {
			t.Errorf("%s: %v", c.in, errs)
		}
	}
}
