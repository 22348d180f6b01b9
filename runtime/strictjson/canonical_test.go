package strictjson

import (
	"bufio"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCanonicalRFC8785Vectors checks the published test vectors of RFC 8785's reference implementation:
// testdata/jcs/*.in.json and *.out.json are testdata/input and testdata/output of
// https://github.com/cyberphone/json-canonicalization (commit 19d51d7f, Apache-2.0, by RFC 8785's
// author), byte for byte. values.in.json holds the RFC's own example of section 3.2.4.
func TestCanonicalRFC8785Vectors(t *testing.T) {
	ins, _ := filepath.Glob("testdata/jcs/*.in.json")
	if len(ins) != 6 {
		t.Fatalf("want the 6 vectors, found %d", len(ins))
	}
	for _, in := range ins {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(in, ".in.json") + ".out.json")
		if err != nil {
			t.Fatal(err)
		}
		want = []byte(strings.TrimRight(string(want), "\n"))
		for _, exact := range []bool{false, true} {
			if exact && strings.HasSuffix(in, "values.in.json") {
				continue // 333333333.33333329 has more digits than a double: TestCanonicalExactNumbers
			}
			got, err := canonical(nil, src, exact)
			if err != nil || string(got) != string(want) {
				t.Errorf("%s (exact %v):\n got %s (%v)\nwant %s", in, exact, got, err, want)
			}
		}
	}
}

// TestCanonicalNumbers checks ECMAScript's Number-to-string for 3,000 doubles (edge cases, then pseudo-random
// bit patterns and short decimals): testdata/jcs/numbers.txt has the "hex-ieee,expected" lines of
// cyberphone/json-canonicalization's testdata/README.md (its es6testfile100m format), made by
// testdata/jcs/numgen.js with Node.js v20's JSON.stringify, the reference ECMAScript serializer. The
// first 24 lines are the samples of RFC 8785 appendix B.
func TestCanonicalNumbers(t *testing.T) {
	f, err := os.Open("testdata/jcs/numbers.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		hexBits, want, _ := strings.Cut(sc.Text(), ",")
		bits, err := strconv.ParseUint(hexBits, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		v := math.Float64frombits(bits)
		// Write the double in Go's notation (another spelling) and canonicalize it.
		src := strconv.AppendFloat(nil, v, 'g', -1, 64)
		for _, exact := range []bool{false, true} {
			got, err := canonical(nil, src, exact)
			if err != nil || string(got) != want {
				t.Errorf("%s (%s, exact %v): got %s (%v), want %s", hexBits, src, exact, got, err, want)
			}
		}
		n++
	}
	if n < 3000 {
		t.Fatalf("read %d lines", n)
	}
}

// TestCanonicalRespellings: every spelling of one value has one canonical form.
func TestCanonicalRespellings(t *testing.T) {
	groups := [][]string{
		{`{"a":1,"b":[true,null]}`, ` { "b" : [ true , null ] , "a" : 1 } `, "{\"\\u0062\":[true,null],\n\t\"a\":1.0}", `{"b":[true,null],"a":1e0}`, `{"a":10E-1,"b":[true,null]}`},
		{`100`, `1e2`, `1E+2`, `100.000`, `10000e-2`, `0.1e3`},
		{`"é/\""`, `"\u00e9\/\u0022"`, `"\u00E9/\""`},
		{`{"x":"😂"}`, `{"x":"\ud83d\ude02"}`, `{"\u0078":"\uD83D\uDE02"}`},
		{`0`, `-0`, `0.0`, `-0e10`, `0E-5`},
	}
	for _, g := range groups {
		first, err := Canonical(nil, []byte(g[0]))
		if err != nil {
			t.Fatalf("%s: %v", g[0], err)
		}
		for _, s := range g[1:] {
			for _, exact := range []bool{false, true} {
				got, err := canonical(nil, []byte(s), exact)
				if err != nil || string(got) != string(first) {
					t.Errorf("%s (exact %v): got %s (%v), want %s", s, exact, got, err, first)
				}
			}
		}
	}
}

// TestCanonicalExactNumbers: CanonicalExact keeps numbers a double cannot hold, so different values
// never share a form; Canonical rounds them as RFC 8785 says.
func TestCanonicalExactNumbers(t *testing.T) {
	for _, c := range []struct{ in, rfc, exact string }{
		{`12345678901234567891`, `12345678901234567000`, `12345678901234567891`},
		{`12345678901234567892`, `12345678901234567000`, `12345678901234567892`},
		{`1.2345678901234567891e19`, `12345678901234567000`, `12345678901234567891`},
		{`333333333.33333329`, `333333333.3333333`, `333333333.33333329`},
		{`1e-400`, `0`, `1e-400`},
		{`-1e400`, ``, `-1e+400`},
		{`0.30000000000000001`, `0.3`, `0.30000000000000001`},
		{`9007199254740993`, `9007199254740992`, `9007199254740993`},
		{`4.50`, `4.5`, `4.5`},
		{`1e21`, `1e+21`, `1e+21`},
		{`-0.000001`, `-0.000001`, `-0.000001`},
		{`1e-7`, `1e-7`, `1e-7`},
	} {
		got, err := Canonical(nil, []byte(c.in))
		if c.rfc == "" {
			if err == nil {
				t.Errorf("Canonical(%s) = %s, want an error", c.in, got)
			}
		} else if err != nil || string(got) != c.rfc {
			t.Errorf("Canonical(%s) = %s (%v), want %s", c.in, got, err, c.rfc)
		}
		got, err = CanonicalExact(nil, []byte(c.in))
		if err != nil || string(got) != c.exact {
			t.Errorf("CanonicalExact(%s) = %s (%v), want %s", c.in, got, err, c.exact)
		}
		again, err := CanonicalExact(nil, got)
		if err != nil || string(again) != string(got) {
			t.Errorf("CanonicalExact(%s) = %s (%v): not idempotent", got, again, err)
		}
	}
}

// TestCanonicalRefuses: duplicates (however spelled), invalid UTF-8, lone surrogates, invalid JSON.
func TestCanonicalRefuses(t *testing.T) {
	for _, s := range []string{
		`{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"b":{"x":1,"\u0078":1}}`, `[{"k":1,"k":1}]`,
		"\"\xff\"", "{\"\xc3\":1}", `"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, "\"\xed\xa0\x80\"",
		``, `{`, `[1,]`, `{"a":1,}`, `01`, `1.`, `.5`, `+1`, `1e`, `"\x"`, `"a`, "\"\x01\"", `tru`, `1 2`, `NaN`, `1e400`,
	} {
		for _, exact := range []bool{false, true} {
			if exact && s == `1e400` {
				continue
			}
			if got, err := canonical([]byte("keep"), []byte(s), exact); err == nil || string(got) != "keep" {
				t.Errorf("%q (exact %v): got %q, %v; want an error and dst unchanged", s, exact, got, err)
			}
		}
	}
	_, err := Canonical(nil, []byte(`{"a":1,"\u0061":2}`))
	if !errors.Is(err, ErrDuplicateMember) || !strings.Contains(err.Error(), `duplicate member "a"`) {
		t.Errorf("duplicate: %v", err)
	}
	deep := strings.Repeat("[", MaxCanonicalDepth+1) + strings.Repeat("]", MaxCanonicalDepth+1)
	if _, err := Canonical(nil, []byte(deep)); err == nil {
		t.Error("nesting beyond MaxCanonicalDepth accepted")
	}
}

// TestCanonicalProperties: for random values, every random re-spelling (member order, whitespace,
// escapes, number notation) has the form of the value's plain encoding, and the form is a fixed point.
func TestCanonicalProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		v := randValue(r, 0)
		plain, _ := json.Marshal(v)
		want, err := CanonicalExact(nil, plain)
		if err != nil {
			t.Fatalf("%s: %v", plain, err)
		}
		if again, err := CanonicalExact(nil, want); err != nil || string(again) != string(want) {
			t.Fatalf("not a fixed point: %s -> %s (%v)", want, again, err)
		}
		if rfc, _ := Canonical(nil, plain); string(rfc) != string(want) {
			t.Fatalf("Canonical and CanonicalExact differ on doubles: %s vs %s", rfc, want)
		}
		var std any
		if err := json.Unmarshal(want, &std); err != nil {
			t.Fatalf("canonical form %s is not JSON: %v", want, err)
		}
		for range 3 {
			var b strings.Builder
			respell(r, &b, v)
			got, err := CanonicalExact(nil, []byte(b.String()))
			if err != nil || string(got) != string(want) {
				t.Fatalf("respelling %s\n got %s (%v)\nwant %s", b.String(), got, err, want)
			}
		}
	}
}

func randValue(r *rand.Rand, depth int) any {
	k := r.IntN(7)
	if depth > 3 {
		k = r.IntN(4)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		switch r.IntN(3) {
		case 0:
			return float64(r.IntN(2000) - 1000)
		case 1:
			return math.Float64frombits(r.Uint64()&^(0x7ff<<52) | uint64(r.IntN(0x7fe))<<52)
		}
		return float64(r.IntN(100000)) * math.Pow(10, float64(r.IntN(50)-25))
	case 3:
		return randString(r)
	case 4, 5:
		m := map[string]any{}
		for range r.IntN(5) {
			m[randString(r)] = randValue(r, depth+1)
		}
		return m
	}
	a := make([]any, r.IntN(4))
	for i := range a {
		a[i] = randValue(r, depth+1)
	}
	return a
}

func randString(r *rand.Rand) string {
	alphabet := []rune{'a', 'b', 'A', '"', '\\', '/', '\n', 0x01, 0x7f, 'é', '€', 0x2028, 0xfb33, 0x1f602, 0x10000}
	var b strings.Builder
	for range r.IntN(6) {
		b.WriteRune(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// respell writes v with random whitespace, member order, escapes and number notation.
func respell(r *rand.Rand, b *strings.Builder, v any) {
	ws := func() {
		for range r.IntN(3) {
			b.WriteByte(" \t\n\r"[r.IntN(4)])
		}
	}
	ws()
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case float64:
		respellNumber(r, b, v)
	case string:
		respellString(r, b, v)
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			ws()
			respellString(r, b, k)
			ws()
			b.WriteByte(':')
			respell(r, b, v[k])
		}
		ws()
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			respell(r, b, e)
		}
		ws()
		b.WriteByte(']')
	}
	ws()
}

func respellNumber(r *rand.Rand, b *strings.Builder, v float64) {
	s := strconv.FormatFloat(v, 'e', -1, 64)
	switch r.IntN(4) {
	case 0:
		s = strconv.FormatFloat(v, 'g', -1, 64)
	case 1:
		s = strings.Replace(strings.Replace(s, "e", "E", 1), "E+", "E", 1)
	case 2: // trailing zeros in the mantissa, exponent shifted
		mant, exp, _ := strings.Cut(s, "e")
		e, _ := strconv.Atoi(exp)
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		s = mant + "000e" + strconv.Itoa(e)
	}
	b.WriteString(s)
}

func respellString(r *rand.Rand, b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c < 0x20 || r.IntN(3) == 0:
			if c >= 0x10000 {
				h, l := utf16Units(c)[0], utf16Units(c)[1]
				b.WriteString(`\u` + strconv.FormatUint(uint64(h), 16) + `\u` + strings.ToUpper(strconv.FormatUint(uint64(l), 16)))
			} else {
				b.WriteString(`\u` + leftPad(strconv.FormatUint(uint64(c), 16)))
			}
		case c == '/' && r.IntN(2) == 0:
			b.WriteString(`\/`)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
}

func leftPad(h string) string { return strings.Repeat("0", 4-len(h)) + h }

// FuzzCanonical: whatever the input, the canonical form (when there is one) is a fixed point, valid JSON,
// and Go's own decoder agrees the input was one JSON value.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1e2,"\u00e9"]}`, `[0.1,-0,1E400]`, `{"a":{"a":{}}}`, `"\ud83d\ude02"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, exact := range []bool{false, true} {
			out, err := canonical(nil, src, exact)
			if err != nil {
				continue
			}
			if !json.Valid(src) {
				t.Fatalf("accepted invalid JSON %q", src)
			}
			again, err := canonical(nil, out, exact)
			if err != nil || string(again) != string(out) {
				t.Fatalf("not a fixed point: %q -> %q -> %q (%v)", src, out, again, err)
			}
		}
	})
}

func BenchmarkCanonicalExact(b *testing.B) {
	in := []byte(`{"query":"filesystem","limit":10,"mode":"fuzzy","filters":{"max_size":1024}}`)
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		buf, _ = CanonicalExact(buf[:0], in)
	}
}
