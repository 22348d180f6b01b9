package matrixcheck

// The type matrix: every supported kind (20 base types: strings, bools, every integer size, both float
// sizes, time.Time, time.Duration, string and integer enums, a named string and a recursive struct), each
// held directly, through a pointer, in a slice, an array, a map, a map of slices and a slice of pointers,
// required and optional: 276 fields in 20 tools (gen/testdata/matrix, written by package gen's
// matrixSource; gen's golden test generates and compiles it). TestMatrixRoundTrip encodes random values
// through the generated encoders, validates them against the generated schemas with an independent
// validator, decodes them back and re-encodes them; FuzzMatrixAgreesWithValidator compares the generated
// decoders with the validator on arbitrary inputs.

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/winkgen/wink/gen/testdata/matrix"
	"github.com/winkgen/wink/internal/schemaoracle"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// matrixTool is one tool of the matrix with what the tests need.
type matrixTool struct {
	name     string
	tool     *wink.Tool
	params   *jsonschema.Schema
	result   *jsonschema.Schema
	bounds   []*big.Rat
	newValue func(*rand.Rand) any                                // a random valid value of the params type
	encode   func(v any) []byte                                  // the generated encoder (params and result alike)
	decode   func(in []byte, lim strictjson.Limits) (any, error) // the generated decoder alone
	encodeR  func(v any) []byte                                  // the result encoder
}

func matrixTools(tb testing.TB) []matrixTool {
	tb.Helper()
	var out []matrixTool
	add := func(m matrixTool) {
		var err error
		spec := m.tool.Spec()
		if m.params, err = schemaoracle.Compile(m.name+"_params", spec.ParamsSchema); err != nil {
			tb.Fatal(err)
		}
		if m.result, err = schemaoracle.Compile(m.name+"_result", spec.ResultSchema); err != nil {
			tb.Fatal(err)
		}
		m.bounds = schemaoracle.Bounds(spec.ParamsSchema)
		out = append(out, m)
	}
	add(matrixOf(matrix.WinkEchoString, matrix.EchoString))
	add(matrixOf(matrix.WinkEchoBool, matrix.EchoBool))
	add(matrixOf(matrix.WinkEchoInt, matrix.EchoInt))
	add(matrixOf(matrix.WinkEchoInt8, matrix.EchoInt8))
	add(matrixOf(matrix.WinkEchoInt16, matrix.EchoInt16))
	add(matrixOf(matrix.WinkEchoInt32, matrix.EchoInt32))
	add(matrixOf(matrix.WinkEchoInt64, matrix.EchoInt64))
	add(matrixOf(matrix.WinkEchoUint, matrix.EchoUint))
	add(matrixOf(matrix.WinkEchoUint8, matrix.EchoUint8))
	add(matrixOf(matrix.WinkEchoUint16, matrix.EchoUint16))
	add(matrixOf(matrix.WinkEchoUint32, matrix.EchoUint32))
	add(matrixOf(matrix.WinkEchoUint64, matrix.EchoUint64))
	add(matrixOf(matrix.WinkEchoFloat32, matrix.EchoFloat32))
	add(matrixOf(matrix.WinkEchoFloat64, matrix.EchoFloat64))
	add(matrixOf(matrix.WinkEchoTime, matrix.EchoTime))
	add(matrixOf(matrix.WinkEchoDuration, matrix.EchoDuration))
	add(matrixOf(matrix.WinkEchoColor, matrix.EchoColor))
	add(matrixOf(matrix.WinkEchoLevel, matrix.EchoLevel))
	add(matrixOf(matrix.WinkEchoName, matrix.EchoName))
	add(matrixOf(matrix.WinkEchoLeaf, matrix.EchoLeaf))
	checkEveryTool(tb, out)
	return out
}

// checkEveryTool fails tb unless tools holds each tool of the generated matrix once: a base type added to
// the matrix (its tool generated) but not to matrixTools fails here.
func checkEveryTool(tb testing.TB, tools []matrixTool) {
	tb.Helper()
	listed := map[string]int{}
	for _, m := range tools {
		listed[m.name]++
	}
	generated := matrix.WinkTools()
	for _, def := range generated {
		if name := def.Spec().Name; listed[name] != 1 {
			tb.Fatalf("matrix tool %s is tested %d times, want once (add it to matrixTools)", name, listed[name])
		}
	}
	if len(tools) != len(generated) {
		tb.Fatalf("%d matrix tools tested, the generated matrix has %d", len(tools), len(generated))
	}
}

// matrixOf is the matrix tool def; its handler gives the params type (the result type is the same).
func matrixOf[P any](def *wink.Tool, _ func(*wink.ToolContext, P) (wink.ToolResult[P], error)) matrixTool {
	f, ok := wink.FuncsOf[P, P](def)
	if !ok {
		panic("matrixOf: " + def.Name() + " does not take and return its handler's params type")
	}
	return matrixTool{
		name: def.Spec().Name,
		tool: def,
		newValue: func(rng *rand.Rand) any {
			var p P
			randomValue(rng, reflect.ValueOf(&p).Elem(), 0)
			return p
		},
		encode:  func(v any) []byte { p := v.(P); return f.EncodeParams(nil, &p) },
		encodeR: func(v any) []byte { p := v.(P); return f.EncodeResult(nil, &p) },
		decode: func(in []byte, lim strictjson.Limits) (any, error) {
			var p P
			var d strictjson.Decoder
			d.Reset(in, lim)
			f.Decode(&d, &p)
			if errs := d.Finish(); errs != nil {
				return nil, errs
			}
			return p, nil
		},
	}
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	durationType = reflect.TypeFor[time.Duration]()
	enumValues   = map[reflect.Type][]reflect.Value{
		reflect.TypeFor[matrix.Color](): {reflect.ValueOf(matrix.Red), reflect.ValueOf(matrix.Green), reflect.ValueOf(matrix.Blue)},
		reflect.TypeFor[matrix.Level](): {reflect.ValueOf(matrix.Low), reflect.ValueOf(matrix.Mid), reflect.ValueOf(matrix.High)},
	}
)

// randomValue fills v with a random value its type's schema accepts (edge values are likely).
func randomValue(rng *rand.Rand, v reflect.Value, depth int) {
	if vals, ok := enumValues[v.Type()]; ok {
		v.Set(vals[rng.IntN(len(vals))])
		return
	}
	switch v.Type() {
	case timeType:
		const lo, hi = -62135596800, 253402300799 // years 0001 to 9999
		sec := lo + rng.Int64N(hi-lo+1)
		if rng.IntN(4) == 0 {
			sec = []int64{lo, hi, 0}[rng.IntN(3)]
		}
		v.Set(reflect.ValueOf(time.Unix(sec, rng.Int64N(1e9)).UTC()))
		return
	case durationType:
		d := time.Duration(rng.Uint64())
		if rng.IntN(4) == 0 {
			d = []time.Duration{0, 1, -1, math.MaxInt64, math.MinInt64, time.Hour}[rng.IntN(6)]
		}
		v.SetInt(int64(d))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(randomString(rng))
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := v.Type().Bits()
		n := int64(rng.Uint64())
		switch rng.IntN(4) {
		case 0:
			n = []int64{0, 1, -1, math.MaxInt64, math.MinInt64}[rng.IntN(5)]
		case 1:
			n = int64(rng.IntN(200)) - 100
		}
		v.SetInt(n << (64 - bits) >> (64 - bits)) // keep the sign, drop what does not fit
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		bits := v.Type().Bits()
		n := rng.Uint64()
		if rng.IntN(4) == 0 {
			n = []uint64{0, 1, math.MaxUint64}[rng.IntN(3)]
		}
		v.SetUint(n << (64 - bits) >> (64 - bits))
	case reflect.Float32:
		var f float32
		for {
			f = math.Float32frombits(rng.Uint32())
			if rng.IntN(3) == 0 {
				f = []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.1, math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32}[rng.IntN(8)]
			}
			if !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) {
				break
			}
		}
		v.SetFloat(float64(f))
	case reflect.Float64:
		var f float64
		for {
			f = math.Float64frombits(rng.Uint64())
			if rng.IntN(3) == 0 {
				f = []float64{0, math.Copysign(0, -1), 1, -1, 0.1, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 1e21, 1e-7}[rng.IntN(10)]
			}
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				break
			}
		}
		v.SetFloat(f)
	case reflect.Pointer:
		if rng.IntN(3) == 0 || depth > 3 {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		randomValue(rng, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		if rng.IntN(4) == 0 {
			v.SetZero()
			return
		}
		n := rng.IntN(4)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			randomValue(rng, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			randomValue(rng, v.Index(i), depth+1)
		}
	case reflect.Map:
		if rng.IntN(4) == 0 {
			v.SetZero()
			return
		}
		m := reflect.MakeMap(v.Type())
		for range rng.IntN(4) {
			e := reflect.New(v.Type().Elem()).Elem()
			randomValue(rng, e, depth+1)
			m.SetMapIndex(reflect.ValueOf(randomString(rng)).Convert(v.Type().Key()), e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && (depth < 3 || v.Field(i).Kind() != reflect.Pointer) {
				if rng.IntN(5) > 0 || depth < 3 {
					randomValue(rng, v.Field(i), depth+1)
				}
			}
		}
	}
}

// randomString returns valid UTF-8: ASCII, escapes, controls, non-ASCII, astral and line separators.
func randomString(rng *rand.Rand) string {
	pool := []rune{'a', 'z', ' ', '"', '\\', '/', '\n', '\t', 0, 0x1f, 0x7f, 'é', '€', 0x2028, 0x2029, 0xfeff, 0x1f600, 0x10ffff, '<', '&'}
	n := rng.IntN(6)
	var b strings.Builder
	for range n {
		r := pool[rng.IntN(len(pool))]
		if rng.IntN(3) == 0 {
			r = rune(rng.IntN(0x110000))
			if !utf8.ValidRune(r) {
				r = 'x'
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestMatrixRoundTrip: for every tool of the matrix, random values encode (as params and as results) to
// JSON the generated schema accepts, decode back, and re-encode to the same bytes.
func TestMatrixRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 300
	if testing.Short() {
		n = 30
	}
	for _, m := range matrixTools(t) {
		t.Run(m.name, func(t *testing.T) {
			for i := range n {
				v := m.newValue(rng)
				b := m.encode(v)
				if ok, msg := schemaoracle.Verdict(m.params, b); !ok {
					t.Fatalf("value %d encodes to %s, which its params schema refuses: %s", i, b, msg)
				}
				if ok, msg := schemaoracle.Verdict(m.result, m.encodeR(v)); !ok {
					t.Fatalf("value %d encodes as a result to %s, which the output schema refuses: %s", i, m.encodeR(v), msg)
				}
				got, err := m.decode(b, strictjson.Limits{})
				if err != nil {
					t.Fatalf("value %d: %s does not decode: %v", i, b, err)
				}
				if b2 := m.encode(got); !bytes.Equal(b, b2) {
					t.Fatalf("value %d: re-encoding differs:\n%s\n%s", i, b, b2)
				}
				if _, err := m.tool.Decode(b, strictjson.Limits{}); err != nil {
					t.Fatalf("value %d: Tool.Decode refuses %s: %v", i, b, err)
				}
			}
		})
	}
}

// FuzzMatrixAgreesWithValidator: the first byte picks a matrix tool; its generated decoder and the
// independent validator give the same verdict on the rest (outside what JSON Schema cannot judge), and
// what the decoder accepts re-encodes to JSON the schema accepts and that decodes to the same bytes.
func FuzzMatrixAgreesWithValidator(f *testing.F) {
	tools := matrixTools(f)
	rng := rand.New(rand.NewPCG(3, 4))
	for i, m := range tools {
		f.Add(append([]byte{byte(i)}, m.encode(m.newValue(rng))...))
		f.Add(append([]byte{byte(i)}, `{}`...))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 || len(in) > 1<<14 {
			return
		}
		m := tools[int(in[0])%len(tools)]
		in = in[1:]
		m.decode(in, strictjson.Limits{}) // never panics with the default limits
		if schemaoracle.Exclusion(in, m.bounds, false) != "" {
			m.decode(in, schemaoracle.Limits)
			return
		}
		v, err := m.decode(in, schemaoracle.Limits)
		vok, vmsg := schemaoracle.Verdict(m.params, in)
		if (err == nil) != vok {
			t.Fatalf("%s: decoder and validator disagree on %q\n  decoder:   %v\n  validator: %v %s", m.name, in, err, vok, vmsg)
		}
		if err != nil {
			return
		}
		b := m.encode(v)
		if ok, msg := schemaoracle.Verdict(m.params, b); !ok {
			t.Fatalf("%s: %q re-encodes to %s, which the schema refuses: %s", m.name, in, b, msg)
		}
		v2, err := m.decode(b, strictjson.Limits{})
		if err != nil {
			t.Fatalf("%s: re-encoding %s does not decode: %v", m.name, b, err)
		}
		if b2 := m.encode(v2); !bytes.Equal(b, b2) {
			t.Fatalf("%s: re-encoding is not stable:\n%s\n%s", m.name, b, b2)
		}
	})
}
