package strictjson

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"testing"
	"time"
	"unicode/utf8"
)

func stdString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

var stringSamples = []string{"", "plain", "<a&b>", "q\"b\\s/", "\b\f\n\r\t\x00\x1f\x7f", "é中😀", "\u2028\u2029",
	"bad\xff\xfeutf8", "\xed\xa0\x80", "tail\xe2\x82"}

// sameString reports whether AppendString's output for s is what encoding/json writes: byte for byte for
// valid UTF-8; for invalid UTF-8, where Go releases differ in how they spell U+FFFD (Go 1.26 escapes it,
// Go 1.27 writes it as UTF-8), the same string once decoded, each invalid byte one U+FFFD.
func sameString(t *testing.T, s string) {
	t.Helper()
	got, want := string(AppendString(nil, s)), stdString(s)
	if utf8.ValidString(s) {
		if got != want {
			t.Errorf("AppendString(%q) = %s, encoding/json %s", s, got, want)
		}
		return
	}
	var g, w string
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("AppendString(%q) = %s, not JSON: %v", s, got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("encoding/json wrote %s for %q: %v", want, s, err)
	}
	if g != w {
		t.Errorf("AppendString(%q) = %s (%q), encoding/json %s (%q)", s, got, g, want, w)
	}
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range stringSamples {
		sameString(t, s)
	}
	// The spelling winkgen writes for invalid UTF-8, on every Go release: each bad byte as \ufffd.
	if got := string(AppendString(nil, "a\xffb")); got != `"a\ufffdb"` {
		t.Errorf("AppendString(a\\xffb) = %s", got)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range stringSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameString(t, s) })
}

func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	for _, v := range []float64{0, -0.0, 1, -1.5, 0.1, 1e-6, 1e-7, 123456789, 1e20, 1e21, 1.5e300, 5e-324,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 3.4028234663852886e+38, 0.000001234} {
		want, _ := json.Marshal(v)
		if got := AppendFloat(nil, v, 64); string(got) != string(want) {
			t.Errorf("AppendFloat(%v, 64) = %s, encoding/json %s", v, got, want)
		}
		f32 := float32(v)
		if math.IsInf(float64(f32), 0) {
			continue
		}
		want, _ = json.Marshal(f32)
		if got := AppendFloat(nil, float64(f32), 32); string(got) != string(want) {
			t.Errorf("AppendFloat(%v, 32) = %s, encoding/json %s", f32, got, want)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := AppendFloat(nil, v, 64); string(got) != "null" {
			t.Errorf("AppendFloat(%v) = %s, want null", v, got)
		}
	}
}

// TestEncodingIsCanonical checks that equal values encode to equal bytes whatever their representation:
// one instant at different offsets, and negative zero.
func TestEncodingIsCanonical(t *testing.T) {
	utc := time.Date(2026, 1, 2, 15, 4, 5, 120000000, time.UTC)
	for _, off := range []int{-12 * 3600, -3600, 0, 1800, 5 * 3600, 14 * 3600} {
		in := utc.In(time.FixedZone("", off))
		if got, want := string(AppendTime(nil, in)), `"2026-01-02T15:04:05.12Z"`; got != want {
			t.Errorf("AppendTime(%v) = %s, want %s", in, got, want)
		}
	}
	if got := string(AppendTime(nil, utc.In(time.Local))); got != `"2026-01-02T15:04:05.12Z"` {
		t.Errorf("AppendTime(local) = %s", got)
	}
	edge := time.Date(0, 1, 1, 0, 30, 0, 0, time.FixedZone("", 3600)) // UTC would be year -1
	if got, want := string(AppendTime(nil, edge)), `"0000-01-01T00:30:00+01:00"`; got != want {
		t.Errorf("AppendTime(%v) = %s, want %s", edge, got, want)
	}
	negZero := math.Copysign(0, -1)
	for _, bits := range []int{32, 64} {
		if got := string(AppendFloat(nil, negZero, bits)); got != "0" {
			t.Errorf("AppendFloat(-0, %d) = %s, want 0", bits, got)
		}
	}
}

func TestAppendScalars(t *testing.T) {
	b := AppendInt(nil, -42)
	b = append(b, ',')
	b = AppendUint(b, math.MaxUint64)
	b = append(b, ',')
	b = AppendBool(b, true)
	b = append(b, ',')
	b = AppendBool(b, false)
	b = append(b, ',')
	b = AppendTime(b, time.Date(2026, 1, 2, 15, 4, 5, 120000000, time.FixedZone("", -3600)))
	want := `-42,18446744073709551615,true,false,"2026-01-02T16:04:05.12Z"`
	if string(b) != want {
		t.Errorf("got %s\nwant %s", b, want)
	}
	tm := time.Date(2026, 1, 2, 15, 4, 5, 1, time.UTC)
	std, _ := json.Marshal(tm)
	if got := AppendTime(nil, tm); string(got) != string(std) {
		t.Errorf("AppendTime = %s, encoding/json %s", got, std)
	}
}

func TestMultipleOfIsExact(t *testing.T) {
	rat := func(s string) *big.Rat { r, _ := new(big.Rat).SetString(s); return r }
	tests := []struct {
		lit, m string
		want   bool
	}{
		{"10", "5", true},
		{"12", "5", false},
		{"0.3", "0.1", true},
		{"0.35", "0.1", false},
		{"1e2", "25", true},
		{"1.5e1", "1.5", true},
		{"-7.5", "2.5", true},
		{"0", "7", true},
		{"-0.0e10", "0.3", true},
		{"1e1000000000", "3", false},
		{"1e1000000000", "1024", true},
		{"2e1000000000", "0.0001", true},
		{"1e-1000000000", "0.1", false},
		{"0.01", "0.001", true},
		{"0.001", "0.01", false},
		{"123456789012345678901234567890", "10", true},
		{"123456789012345678901234567891", "10", false},
		{"4.5", "1/2", true},
		{"1", "1/3", true},
		{"1.5", "1/3", false},
		{"10", "0", false},
	}
	for _, tt := range tests {
		if got := MultipleOf([]byte(tt.lit), rat(tt.m)); got != tt.want {
			t.Errorf("MultipleOf(%s, %s) = %v, want %v", tt.lit, tt.m, got, tt.want)
		}
	}
}

func TestCloneAndFirstDuplicate(t *testing.T) {
	if Clone[int](nil) != nil {
		t.Error("Clone(nil) != nil")
	}
	if c := Clone([]int{}); c == nil || len(c) != 0 {
		t.Error("Clone(empty) must be empty and non-nil")
	}
	src := make([]int, 2, 10)
	src[0], src[1] = 1, 2
	c := Clone(src)
	if cap(c) != 2 || c[0] != 1 || c[1] != 2 {
		t.Errorf("Clone = %v cap %d", c, cap(c))
	}
	c[0] = 9
	if src[0] != 1 {
		t.Error("Clone shares memory")
	}
	if i, j, ok := FirstDuplicate([]string{"a", "b", "c", "b", "a"}); !ok || i != 1 || j != 3 {
		t.Errorf("FirstDuplicate = %d, %d, %v", i, j, ok)
	}
	if _, _, ok := FirstDuplicate([]int{1, 2, 3}); ok {
		t.Error("FirstDuplicate found a duplicate in distinct values")
	}
	long := make([]int, 200)
	for i := range long {
		long[i] = i
	}
	long[150] = 70
	if i, j, ok := FirstDuplicate(long); !ok || i != 70 || j != 150 {
		t.Errorf("FirstDuplicate(long) = %d, %d, %v", i, j, ok)
	}
}

// TestFloat32EncodingStaysInTheDecodersRange checks that every float32 the encoder can write is a number
// a float32 field accepts back, to the same float32: the extremes, and a sweep of bit patterns.
func TestFloat32EncodingStaysInTheDecodersRange(t *testing.T) {
	check := func(f float32) {
		text := AppendFloat(nil, float64(f), 32)
		var d Decoder
		d.Reset(text, Limits{})
		got, ok := d.Float(32)
		if errs := d.Finish(); !ok || errs != nil {
			t.Fatalf("float32 %v is written %s, which a float32 field refuses: %v", f, text, lines(errs))
		}
		if float32(got) != f {
			t.Fatalf("float32 %v is written %s, which reads back as %v", f, text, float32(got))
		}
	}
	for _, f := range []float32{math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 0.1, 1e-7, 16777217} {
		check(f)
	}
	for bits := uint32(0); bits < 0x7f800000; bits += 0x00012345 {
		check(math.Float32frombits(bits))
		check(-math.Float32frombits(bits))
	}
}
