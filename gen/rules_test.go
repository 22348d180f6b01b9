package gen

import (
	"strings"
	"testing"

	"github.com/winkgen/wink/gen/model"
)

// TestExampleCheckerRules: the example checker refuses values with the rules' own messages, for every
// kind of number, for patterns and for arrays (the generated decoders call the same strictjson rules; the
// goldens and the round-trip tests compare the two).
func TestExampleCheckerRules(t *testing.T) {
	num := func(lit string) *model.Number {
		return &model.Number{Literal: lit, Int: !strings.ContainsAny(lit, ".eE")}
	}
	i64 := &model.Type{Kind: model.KindInt, Basic: "int64", Bits: 64}
	u16 := &model.Type{Kind: model.KindUint, Basic: "uint16", Bits: 16}
	f32 := &model.Type{Kind: model.KindFloat, Basic: "float32", Bits: 32}
	dur := &model.Type{Kind: model.KindDuration, Named: &model.Ident{Path: "time", Name: "Duration"}}
	str := &model.Type{Kind: model.KindString, Basic: "string"}
	arr := &model.Type{Kind: model.KindArray, Elem: i64, Len: 2}
	for _, c := range []struct {
		name string
		t    *model.Type
		c    *model.Constraints
		in   string
		want string // "" when accepted
	}{
		{"float min", f32, &model.Constraints{Min: num("0")}, `-1`, `must be >= 0; got -1`},
		{"float max", f32, &model.Constraints{Max: num("1e9")}, `2e9`, `must be <= 1e9; got 2000000000`},
		{"float exclusive min", f32, &model.Constraints{ExclusiveMin: num("0")}, `0`, `must be > 0; got 0`},
		{"float exclusive max", f32, &model.Constraints{ExclusiveMax: num("1")}, `1`, `must be < 1; got 1`},
		{"float multiple", f32, &model.Constraints{MultipleOf: num("0.001")}, `0.0015`, `must be a multiple of 0.001; got 0.0015`},
		{"float multiple ok", f32, &model.Constraints{MultipleOf: num("0.001")}, `0.003`, ``},
		{"int exclusive min", i64, &model.Constraints{ExclusiveMin: num("-10")}, `-10`, `must be > -10; got -10`},
		{"int exclusive max", i64, &model.Constraints{ExclusiveMax: num("10")}, `10`, `must be < 10; got 10`},
		{"int multiple", i64, &model.Constraints{MultipleOf: num("5")}, `-7`, `must be a multiple of 5; got -7`},
		{"uint min", u16, &model.Constraints{Min: num("3")}, `2`, `must be >= 3; got 2`},
		{"uint exclusive min below zero", u16, &model.Constraints{ExclusiveMin: num("-1")}, `0`, ``},
		{"uint exclusive max at zero", u16, &model.Constraints{ExclusiveMax: num("0")}, `0`, `must be < 0; got 0`},
		{"uint multiple", u16, &model.Constraints{MultipleOf: num("5")}, `12`, `must be a multiple of 5; got 12`},
		{"duration min", dur, &model.Constraints{MinDuration: &model.Duration{Text: "1s", Nanos: 1e9}}, `"30ms"`, `must be at least 1s; got 30ms`},
		{"duration max", dur, &model.Constraints{MaxDuration: &model.Duration{Text: "1m", Nanos: 60e9}}, `"2m"`, `must be at most 1m; got 2m0s`},
		{"pattern", str, &model.Constraints{Pattern: "[a-z]+"}, `"A"`, `must match the pattern ^(?:[a-z]+)$; got "A"`},
		{"pattern described", str, &model.Constraints{Pattern: "[a-z]+", PatternDesc: "lowercase"}, `"A"`, `must be lowercase; got "A"`},
		{"array length", arr, nil, `[1,2,3]`, `must contain exactly 2 items; got 3`},
		{"array length ok", arr, nil, `[1,2]`, ``},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, errs := decodeJSONValue([]byte(c.in), c.t, c.c)
			got := strings.Join(errs, "\n")
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
