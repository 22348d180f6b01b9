package strictjson

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ---- a hand-written decoder in the shape winkgen generates ----

type testFilters struct {
	MaxSize uint64
	Ext     string
}

type testParams struct {
	Query     string
	Limit     int
	LimitSet  bool
	FileTypes []string
	Filters   testFilters
	Mode      int
	Labels    map[string]string
	Score     float64
	Matrix    [][]int64
}

var testParamsKeys = []string{"query", "limit", "file_types", "filters", "mode", "labels", "score", "matrix"}
var testFiltersKeys = []string{"max_size", "ext"}

func decodeTestFilters(d *Decoder, v *testFilters) {
	if !d.ObjectStart() {
		return
	}
	var seen [1]uint64
	for d.NextKey() {
		switch string(d.Key()) {
		case "max_size":
			if seen[0]&1 != 0 {
				d.Duplicate()
				d.Skip()
				continue
			}
			seen[0] |= 1
			if n, ok := d.Uint(math.MaxUint64); ok {
				if n > 1000 {
					d.FailUint("must be <= 1000", n)
				}
				v.MaxSize = n
			}
		case "ext":
			if seen[0]&2 != 0 {
				d.Duplicate()
				d.Skip()
				continue
			}
			seen[0] |= 2
			if s, ok := d.String(); ok {
				v.Ext = s
			}
		default:
			d.Unknown(testFiltersKeys)
		}
	}
	if seen[0]&1 == 0 {
		d.Missing("max_size")
	}
	d.ObjectEnd()
}

func decodeTestParams(d *Decoder, v *testParams) {
	if !d.ObjectStart() {
		return
	}
	var seen [1]uint64
	for d.NextKey() {
		switch string(d.Key()) {
		case "query":
			if seen[0]&1 != 0 {
				d.Duplicate()
				d.Skip()
				continue
			}
			seen[0] |= 1
			if s, ok := d.String(); ok {
				v.Query = s
				d.CheckLength(s, 1, -1)
			}
		case "limit":
			if seen[0]&2 != 0 {
				d.Duplicate()
				d.Skip()
				continue
			}
			seen[0] |= 2
			if d.Null() {
				break
			}
			if n, ok := d.Int(math.MinInt64, math.MaxInt64); ok {
				if n > 100 {
					d.FailInt("must be <= 100", n)
				}
				v.Limit, v.LimitSet = int(n), true
			}
		case "file_types":
			if seen[0]&4 != 0 {
				d.Duplicate()
				d.Skip()
				continue
			}
			seen[0] |= 4
			if d.ArrayStart() {
				var buf [8]string
				tmp := buf[:0]
				for d.NextElem() {
					if s, ok := d.String(); ok {
						if s == "" {
							d.FailString("must not be empty", s)
						}
						tmp = append(tmp, s)
					}
				}
				d.ArrayEnd()
				if i, j, dup := FirstDuplicate(tmp); dup {
					_ = i
					d.FailLen("items must be unique; duplicate at index", j)
				}
				v.FileTypes = Clone(tmp)
			}
		case "filters":
			if seen[0]&8 != 0 {
				d.Duplicate()
				d.Skip()
				continue
			}
			seen[0] |= 8
			decodeTestFilters(d, &v.Filters)
		case "mode":
			if seen[0]&16 != 0 {
				d.Duplicate()
				d.Skip()
				continue
			}
			seen[0] |= 16
			if b, ok := d.StringBytes(); ok {
				switch string(b) {
				case "fuzzy":
					v.Mode = 1
				case "exact":
					v.Mode = 2
				default:
					d.EnumMismatch(b, `"fuzzy", "exact"`)
				}
			}
		case "labels":
			if seen[0]&32 != 0 {
				d.Duplicate()
				d.Skip()
				continue
			}
			seen[0] |= 32
			if d.ObjectStart() {
				m := map[string]string{}
				for d.NextKey() {
					k := d.KeyString()
					if s, ok := d.String(); ok {
						if RuneCount(s) > 5 {
							d.FailLen("must be at most 5 characters long", RuneCount(s))
						}
						m[k] = s
					}
				}
				d.ObjectEnd()
				v.Labels = m
			}
		case "score":
			seen[0] |= 64
			if f, ok := d.Float(32); ok {
				if f < 0 {
					d.FailFloat("must be >= 0", f)
				}
				v.Score = f
			}
		case "matrix":
			if d.ArrayStart() {
				for d.NextElem() {
					var row []int64
					if d.ArrayStart() {
						for d.NextElem() {
							if n, ok := d.Int(-128, 127); ok {
								row = append(row, n)
							}
						}
						d.ArrayEnd()
					}
					v.Matrix = append(v.Matrix, row)
				}
				d.ArrayEnd()
			}
		default:
			d.Unknown(testParamsKeys)
		}
	}
	if seen[0]&1 == 0 {
		d.Missing("query")
	}
	d.ObjectEnd()
}

func decodeParams(in string, lim Limits) (testParams, *Errors) {
	var d Decoder
	var p testParams
	d.Reset([]byte(in), lim)
	decodeTestParams(&d, &p)
	return p, d.Finish()
}

func lines(e *Errors) []string {
	if e == nil {
		return nil
	}
	return e.Lines()
}

func TestGeneratedShapeDecodesValidInput(t *testing.T) {
	in := `{"query":"caf\u00e9 x","limit":25.0,"file_types":["go","md"],"filters":{"max_size":1e2,"ext":"go"},` +
		`"mode":"fuzzy","labels":{"a b":"x","k":"v"},"score":2.5,"matrix":[[1,2],[],[-128]]}`
	p, errs := decodeParams(in, Limits{})
	if errs != nil {
		t.Fatalf("unexpected errors: %q", errs.Lines())
	}
	want := testParams{
		Query: "café x", Limit: 25, LimitSet: true, FileTypes: []string{"go", "md"},
		Filters: testFilters{MaxSize: 100, Ext: "go"}, Mode: 1, Labels: map[string]string{"a b": "x", "k": "v"},
		Score: 2.5, Matrix: [][]int64{{1, 2}, nil, {-128}},
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("decoded value (-want +got):\n%s", diff)
	}
}

func TestGeneratedShapeReportsEveryErrorWithItsPath(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"design example", `{"querry":"x","limit":"10","mode":"regex"}`, []string{
			`unknown field "querry"; did you mean "query"? (allowed: query, limit, file_types, filters, mode, labels, score, matrix)`,
			`limit: expected integer, got string "10"`,
			`mode: must be one of "fuzzy", "exact"; got "regex"`,
			`query: missing required field`,
		}},
		{"nested object paths", `{"query":"q","filters":{"max_size":-1,"ext":3,"extt":1}}`, []string{
			`filters.max_size: must be >= 0; got -1`,
			`filters.ext: expected string, got number 3`,
			`filters: unknown field "extt"; did you mean "ext"? (allowed: max_size, ext)`,
		}},
		{"missing nested field", `{"query":"q","filters":{}}`, []string{`filters.max_size: missing required field`}},
		{"constraint after decode", `{"query":"q","filters":{"max_size":5000}}`, []string{`filters.max_size: must be <= 1000; got 5000`}},
		{"array element paths", `{"query":"q","file_types":["go",7,"",null]}`, []string{
			`file_types[1]: expected string, got number 7`,
			`file_types[2]: must not be empty; got ""`,
			`file_types[3]: expected string, got null`,
		}},
		{"array constraint at the field path", `{"query":"q","file_types":["a","b","a"]}`, []string{
			`file_types: items must be unique; duplicate at index; got 2`,
		}},
		{"nested arrays", `{"query":"q","matrix":[[1,200],[true],{}]}`, []string{
			`matrix[0][1]: must be <= 127; got 200`,
			`matrix[1][0]: expected integer, got boolean true`,
			`matrix[2]: expected array, got object`,
		}},
		{"map keys in paths", `{"query":"q","labels":{"a b":"too long","ok":"fine!!","x.y":1,"":"yyyyyy","é":"zzzzzz","_k9":"123456"}}`, []string{
			`labels["a b"]: must be at most 5 characters long; got 8`,
			`labels.ok: must be at most 5 characters long; got 6`,
			`labels["x.y"]: expected string, got number 1`,
			`labels[""]: must be at most 5 characters long; got 6`,
			`labels["é"]: must be at most 5 characters long; got 6`,
			`labels._k9: must be at most 5 characters long; got 6`,
		}},
		{"escaped key in path", `{"query":"q","labels":{"a\"b":"toolong"}}`, []string{`labels["a\"b"]: must be at most 5 characters long; got 7`}},
		{"duplicate", `{"query":"a","query":"b","limit":1,"limit":2}`, []string{
			`query: duplicate field; each field may appear once`,
			`limit: duplicate field; each field may appear once`,
		}},
		{"null for a required string", `{"query":null}`, []string{`query: expected string, got null`}},
		{"null for an optional field is absent", `{"query":"q","limit":null}`, nil},
		{"empty string constraint", `{"query":""}`, []string{`query: must be at least 1 character long; got 0`}},
		{"root type", `[1,2]`, []string{`expected object, got array`}},
		{"root string", `"{}"`, []string{`expected object, got string "{}"`}},
		{"float32 range", `{"query":"q","score":1e39}`, []string{`score: must be <= 3.4028235e+38; got 1e39`}},
		{"float constraint", `{"query":"q","score":-0.5}`, []string{`score: must be >= 0; got -0.5`}},
		{"syntax error keeps earlier errors", `{"query":1,"limit":2,}`, []string{
			`query: expected string, got number 1`,
			`invalid JSON at byte 21: trailing comma before '}'`,
		}},
		{"syntax error inside a skipped unknown value", `{"query":"q","zzz":[1,2}`, []string{
			`unknown field "zzz" (allowed: query, limit, file_types, filters, mode, labels, score, matrix)`,
			`invalid JSON at byte 23: expected ',' or ']' after array element`,
		}},
		{"trailing data", `{"query":"q"} {}`, []string{`invalid JSON at byte 14: unexpected data after the arguments object`}},
		{"empty input", ``, []string{`invalid JSON at byte 0: unexpected end of input`}},
		{"truncated", `{"query":"q",`, []string{`invalid JSON at byte 13: unexpected end of input`}},
		{"missing colon", `{"query" "q"}`, []string{`invalid JSON at byte 9: expected ':' after object key`}},
		{"bad key", `{query:1}`, []string{`invalid JSON at byte 1: expected a string key or '}'`}},
		{"missing comma", `{"query":"q" "limit":1}`, []string{`invalid JSON at byte 13: expected ',' or '}' after object member`}},
		{"lone surrogate", `{"query":"\ud800"}`, []string{`query: lone surrogate \ud800 in string (byte 10)`}},
		{"bad escape", `{"query":"\x"}`, []string{`query: invalid escape \x (byte 10)`}},
		{"control char", "{\"query\":\"a\tb\"}", []string{`query: control character in string (byte 11)`}},
		{"invalid utf8", "{\"query\":\"a\xffb\"}", []string{`query: invalid UTF-8 in string (byte 11)`}},
		{"invalid utf8 in an array element", "{\"query\":\"q\",\"file_types\":[\"go\",\"m\xffd\"]}", []string{`file_types[1]: invalid UTF-8 in string (byte 34)`}},
		{"control char in a nested object", "{\"query\":\"q\",\"filters\":{\"ext\":\"a\nb\"}}", []string{`filters.ext: control character in string (byte 32)`}},
		{"lone surrogate in a map value", `{"query":"q","labels":{"k":"\udc00"}}`, []string{`labels.k: lone surrogate \udc00 in string (byte 28)`}},
		{"invalid utf8 in a key", "{\"query\":\"q\",\"filters\":{\"e\xffxt\":\"go\"}}", []string{`filters: invalid UTF-8 in object key (byte 26)`}},
		{"control char in a top-level key", "{\"que\try\":\"q\"}", []string{`invalid JSON at byte 5: control character in object key`}},
		{"leading zeros", `{"query":"q","limit":01}`, []string{`invalid JSON at byte 21: leading zeros in number`}},
		{"bom", "\xef\xbb\xbf{}", []string{`invalid JSON at byte 0: unexpected byte order mark (U+FEFF); expected a value`}},
		{"bad literal", `{"query":nul}`, []string{`invalid JSON at byte 9: invalid literal; expected null`}},
		{"unknown value is validated", `{"query":"q","x":[tru]}`, []string{
			`unknown field "x" (allowed: query, limit, file_types, filters, mode, labels, score, matrix)`,
			`invalid JSON at byte 18: invalid literal; expected true`,
		}},
		{"unknown case-insensitive suggestion", `{"Query":"q","query":"q"}`, []string{
			`unknown field "Query"; did you mean "query"? (allowed: query, limit, file_types, filters, mode, labels, score, matrix)`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := decodeParams(tt.in, Limits{})
			if diff := cmp.Diff(tt.want, lines(errs)); diff != "" {
				t.Errorf("errors for %s (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestTypeMismatchDescribesTheValue(t *testing.T) {
	long := strings.Repeat("é", 70)
	tests := []struct {
		in   string
		read func(d *Decoder)
		want string
	}{
		{`"10"`, func(d *Decoder) { d.Int(0, 100) }, `expected integer, got string "10"`},
		{`2.5`, func(d *Decoder) { d.Int(0, 100) }, `expected integer, got number 2.5`},
		{`-2.5e-1`, func(d *Decoder) { d.Uint(100) }, `expected integer, got number -2.5e-1`},
		{`true`, func(d *Decoder) { d.Int(0, 100) }, `expected integer, got boolean true`},
		{`false`, func(d *Decoder) { d.Float(64) }, `expected number, got boolean false`},
		{`null`, func(d *Decoder) { d.Bool() }, `expected boolean, got null`},
		{`{"a":1}`, func(d *Decoder) { d.String() }, `expected string, got object`},
		{`[1]`, func(d *Decoder) { d.StringBytes() }, `expected string, got array`},
		{`1`, func(d *Decoder) { d.ArrayStart() }, `expected array, got number 1`},
		{`"a\nb\"c"`, func(d *Decoder) { d.Bool() }, `expected boolean, got string "a\nb\"c"`},
		{`"` + long + `"`, func(d *Decoder) { d.Bool() }, `expected boolean, got string "` + strings.Repeat("é", 60) + `…"`},
		{`1` + strings.Repeat("0", 80), func(d *Decoder) { d.Bool() }, `expected boolean, got number 1` + strings.Repeat("0", 59) + `…`},
		{`"x"`, func(d *Decoder) { d.Time() }, `must be a valid date-time (RFC 3339, e.g. "2026-01-02T15:04:05Z"); got "x"`},
	}
	for _, tt := range tests {
		var d Decoder
		d.Reset([]byte(tt.in), Limits{})
		tt.read(&d)
		errs := d.Finish()
		if diff := cmp.Diff([]string{tt.want}, lines(errs)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestIntAcceptsIntegralNumbersAndReportsRange(t *testing.T) {
	tests := []struct {
		in       string
		min, max int64
		want     int64
		err      string
	}{
		{"25", 0, 100, 25, ""},
		{"25.0", 0, 100, 25, ""},
		{"2.5e1", 0, 100, 25, ""},
		{"1E2", 0, 100, 100, ""},
		{"1000e-1", 0, 100, 100, ""},
		{"-0", 0, 100, 0, ""},
		{"-0.0e5", 0, 100, 0, ""},
		{"0e999999999999999", 0, 100, 0, ""},
		{"-9223372036854775808", math.MinInt64, math.MaxInt64, math.MinInt64, ""},
		{"9223372036854775807", math.MinInt64, math.MaxInt64, math.MaxInt64, ""},
		{"9.223372036854775807e18", math.MinInt64, math.MaxInt64, math.MaxInt64, ""},
		{"2.5", 0, 100, 0, "expected integer, got number 2.5"},
		{"1e-400", 0, 100, 0, "expected integer, got number 1e-400"},
		{"101", 0, 100, 0, "must be <= 100; got 101"},
		{"1e3", 0, 100, 0, "must be <= 100; got 1000"},
		{"-1", 0, 100, 0, "must be >= 0; got -1"},
		{"200", -128, 127, 0, "must be <= 127; got 200"},
		{"-200", -128, 127, 0, "must be >= -128; got -200"},
		{"9223372036854775808", math.MinInt64, math.MaxInt64, 0, "must be <= 9223372036854775807; got 9223372036854775808"},
		{"-9223372036854775809", math.MinInt64, math.MaxInt64, 0, "must be >= -9223372036854775808; got -9223372036854775809"},
		{"1e400", 0, 100, 0, "must be <= 100; got 1e400"},
		{"-1e999999999999999999", 0, 100, 0, "must be >= 0; got -1e999999999999999999"},
		{"123456789012345678901234567890", 0, 100, 0, "must be <= 100; got 123456789012345678901234567890"},
	}
	for _, tt := range tests {
		var d Decoder
		d.Reset([]byte(tt.in), Limits{})
		got, ok := d.Int(tt.min, tt.max)
		errs := d.Finish()
		if tt.err == "" {
			if !ok || got != tt.want || errs != nil {
				t.Errorf("Int(%s) = %d, %v, %v; want %d", tt.in, got, ok, lines(errs), tt.want)
			}
			if string(d.NumberLiteral()) != tt.in {
				t.Errorf("NumberLiteral after %s = %q", tt.in, d.NumberLiteral())
			}
			continue
		}
		if ok || cmp.Diff([]string{tt.err}, lines(errs)) != "" {
			t.Errorf("Int(%s) = %d, %v, %q; want error %q", tt.in, got, ok, lines(errs), tt.err)
		}
	}
}

func TestUintRange(t *testing.T) {
	tests := []struct {
		in   string
		max  uint64
		want uint64
		err  string
	}{
		{"18446744073709551615", math.MaxUint64, math.MaxUint64, ""},
		{"1.8446744073709551615e19", math.MaxUint64, math.MaxUint64, ""},
		{"-0", 10, 0, ""},
		{"255", 255, 255, ""},
		{"256", 255, 0, "must be <= 255; got 256"},
		{"-1", 255, 0, "must be >= 0; got -1"},
		{"-1e1", 255, 0, "must be >= 0; got -10"},
		{"-9223372036854775809", 255, 0, "must be >= 0; got -9223372036854775809"},
		{"18446744073709551616", math.MaxUint64, 0, "must be <= 18446744073709551615; got 18446744073709551616"},
		{"0.5", 255, 0, "expected integer, got number 0.5"},
	}
	for _, tt := range tests {
		var d Decoder
		d.Reset([]byte(tt.in), Limits{})
		got, ok := d.Uint(tt.max)
		errs := d.Finish()
		if tt.err == "" {
			if !ok || got != tt.want || errs != nil {
				t.Errorf("Uint(%s) = %d, %v, %v; want %d", tt.in, got, ok, lines(errs), tt.want)
			}
			continue
		}
		if ok || cmp.Diff([]string{tt.err}, lines(errs)) != "" {
			t.Errorf("Uint(%s) = %d, %v, %q; want error %q", tt.in, got, ok, lines(errs), tt.err)
		}
	}
}

func TestFloatRange(t *testing.T) {
	tests := []struct {
		in   string
		bits int
		want float64
		err  string
	}{
		{"1.5", 64, 1.5, ""},
		{"-12", 64, -12, ""},
		{"1e-400", 64, 0, ""},
		{"0.1", 32, 0.1, ""}, // not rounded: bounds are checked on the number as written
		{"3.4028235e38", 32, 3.4028235e38, ""},
		{"3.40282351e38", 32, 0, "must be <= 3.4028235e+38; got 3.40282351e38"},
		{"12345678901234567890", 64, 12345678901234567890, ""},
		{"1e39", 32, 0, "must be <= 3.4028235e+38; got 1e39"},
		{"-1e39", 32, 0, "must be >= -3.4028235e+38; got -1e39"},
		{"1e309", 64, 0, "must be <= 1.7976931348623157e+308; got 1e309"},
		{"-1e309", 64, 0, "must be >= -1.7976931348623157e+308; got -1e309"},
		{"3e38", 32, 3e38, ""},
	}
	for _, tt := range tests {
		var d Decoder
		d.Reset([]byte(tt.in), Limits{})
		got, ok := d.Float(tt.bits)
		errs := d.Finish()
		if tt.err == "" {
			if !ok || got != tt.want || errs != nil {
				t.Errorf("Float(%s, %d) = %v, %v, %v; want %v", tt.in, tt.bits, got, ok, lines(errs), tt.want)
			}
			continue
		}
		if ok || cmp.Diff([]string{tt.err}, lines(errs)) != "" {
			t.Errorf("Float(%s) = %v, %v, %q; want error %q", tt.in, got, ok, lines(errs), tt.err)
		}
	}
}

func TestErrorCapCountsOmitted(t *testing.T) {
	in := `{"query":1,"limit":"a","mode":2,"filters":3,"labels":4,"score":"x"}`
	_, errs := decodeParams(in, Limits{MaxErrors: 3})
	want := []string{
		`query: expected string, got number 1`,
		`limit: expected integer, got string "a"`,
		`mode: expected string, got number 2`,
		`and 3 more errors`,
	}
	if diff := cmp.Diff(want, lines(errs)); diff != "" {
		t.Errorf("Lines (-want +got):\n%s", diff)
	}
	if errs.Omitted != 3 || len(errs.List) != 3 {
		t.Errorf("List %d Omitted %d; want 3 and 3", len(errs.List), errs.Omitted)
	}
	wantErr := `query: expected string, got number 1; limit: expected integer, got string "a"; mode: expected string, got number 2; and 3 more errors`
	if errs.Error() != wantErr {
		t.Errorf("Error() = %q\nwant      %q", errs.Error(), wantErr)
	}
	errs.Add("x", "joined")
	if errs.Omitted != 4 {
		t.Errorf("Add past the cap: Omitted = %d, want 4", errs.Omitted)
	}
	var e Errors
	e.Add("", "root problem")
	e.Add("a.b", "field problem")
	if got := e.Error(); got != "root problem; a.b: field problem" {
		t.Errorf("Error() = %q", got)
	}
	one := Errors{List: []FieldError{{"", "x"}}, Omitted: 1}
	if diff := cmp.Diff([]string{"x", "and 1 more error"}, one.Lines()); diff != "" {
		t.Errorf("singular omitted line (-want +got):\n%s", diff)
	}
}

func TestDefaultErrorCapIs20(t *testing.T) {
	in := "[" + strings.Repeat(`"x",`, 29) + `"x"]`
	var d Decoder
	d.Reset([]byte(in), Limits{})
	if d.ArrayStart() {
		for d.NextElem() {
			d.Int(0, 1)
		}
		d.ArrayEnd()
	}
	errs := d.Finish()
	if len(errs.List) != DefaultMaxErrors || errs.Omitted != 10 {
		t.Fatalf("List %d Omitted %d; want 20 and 10", len(errs.List), errs.Omitted)
	}
	if errs.List[19].Path != "[19]" {
		t.Errorf("20th error path = %q", errs.List[19].Path)
	}
}

func TestSizeLimit(t *testing.T) {
	var d Decoder
	d.Reset(make([]byte, 2000000), Limits{})
	if !d.Failed() || d.ObjectStart() || d.NextKey() {
		t.Fatal("an oversized input must fail everything")
	}
	want := []string{"arguments are 2000000 bytes; the limit is 1048576 bytes"}
	if diff := cmp.Diff(want, lines(d.Finish())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	d.Reset([]byte(`{"a":1}`), Limits{MaxBytes: 6})
	if diff := cmp.Diff([]string{"arguments are 7 bytes; the limit is 6 bytes"}, lines(d.Finish())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestDepthLimit(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	if errs := skipAll([]byte(nest(64))); errs != nil {
		t.Errorf("64 levels rejected: %v", errs)
	}
	want := []string{"invalid JSON at byte 64: nesting deeper than 64 levels"}
	if diff := cmp.Diff(want, lines(skipAll([]byte(nest(65))))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// levels pushed by ObjectStart count with those inside Skip
	var d Decoder
	d.Reset([]byte(`{"a":{"b":[[1]]}}`), Limits{MaxDepth: 3})
	d.ObjectStart()
	d.NextKey()
	d.ObjectStart()
	d.NextKey()
	d.Skip()
	d.ObjectEnd()
	d.ObjectEnd()
	want = []string{"invalid JSON at byte 11: nesting deeper than 3 levels"}
	if diff := cmp.Diff(want, lines(d.Finish())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// deep levels beyond the inline stack keep their paths
	in := strings.Repeat(`{"k":`, 40) + `"x"` + strings.Repeat("}", 40)
	d.Reset([]byte(in), Limits{})
	var walk func(n int)
	walk = func(n int) {
		if !d.ObjectStart() {
			return
		}
		for d.NextKey() {
			if n == 1 {
				d.Int(0, 1)
			} else {
				walk(n - 1)
			}
		}
		d.ObjectEnd()
	}
	walk(40)
	errs := d.Finish()
	wantPath := strings.TrimSuffix(strings.Repeat("k.", 40), ".")
	if errs == nil || errs.List[0].Path != wantPath || errs.List[0].Message != `expected integer, got string "x"` {
		t.Errorf("deep path: %v", lines(errs))
	}
}

func TestDecodeEmpty(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{``, nil},
		{" \n\t ", nil},
		{`{}`, nil},
		{` { } `, nil},
		{`null`, nil},
		{`{"x":1,"y":{"z":[]}}`, []string{
			`unknown field "x"; this tool takes no arguments`,
			`unknown field "y"; this tool takes no arguments`,
		}},
		{`[]`, []string{`expected object, got array`}},
		{`{} x`, []string{`invalid JSON at byte 3: unexpected data after the arguments object`}},
		{`{`, []string{`invalid JSON at byte 1: unexpected end of input`}},
	}
	for _, tt := range tests {
		var d Decoder
		d.Reset([]byte(tt.in), Limits{})
		DecodeEmpty(&d)
		if diff := cmp.Diff(tt.want, lines(d.Finish())); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestUnknownSuggestions(t *testing.T) {
	allowed := []string{"query", "limit", "mode", "file_types", "max_results"}
	tests := []struct{ key, want string }{
		{"querry", "query"},
		{"qeury", "query"}, // transposition
		{"QUERY", "query"}, // case-insensitive
		{"limt", "limit"},  // deletion
		{"filetypes", "file_types"},
		{"max_result", "max_results"},
		{"mod", "mode"},
		{"xyz", ""},
		{"modes_and_more", ""},
		{strings.Repeat("q", 100000), ""},
	}
	for _, tt := range tests {
		got, ok := suggest(tt.key, allowed)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("suggest(%.20q) = %q, %v; want %q", tt.key, got, ok, tt.want)
		}
	}
	var d Decoder
	d.Reset([]byte(`{"a":1}`), Limits{})
	d.ObjectStart()
	for d.NextKey() {
		d.Unknown(nil)
	}
	d.ObjectEnd()
	if diff := cmp.Diff([]string{`unknown field "a"; this object takes no fields`}, lines(d.Finish())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestStringsUnescapeAndShareTheInput(t *testing.T) {
	in := `["plain","a\"b\\c\/d\b\f\n\r\t","\u00e9\u4e2d\ud83d\ude00","é中😀",""]`
	want := []string{"plain", "a\"b\\c/d\b\f\n\r\t", "é中😀", "é中😀", ""}
	var d Decoder
	d.Reset([]byte(in), Limits{})
	var got []string
	d.ArrayStart()
	for d.NextElem() {
		s, _ := d.String()
		got = append(got, s)
	}
	d.ArrayEnd()
	if errs := d.Finish(); errs != nil {
		t.Fatal(errs)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var bs []string
	d.Reset([]byte(in), Limits{})
	d.ArrayStart()
	for d.NextElem() {
		b, _ := d.StringBytes()
		bs = append(bs, string(b))
	}
	d.ArrayEnd()
	if diff := cmp.Diff(want, bs); diff != "" {
		t.Errorf("StringBytes (-want +got):\n%s", diff)
	}
}

func TestKeysUnescapeAndKeyString(t *testing.T) {
	var d Decoder
	d.Reset([]byte(`{"plain":1,"esc\u0041ped":2}`), Limits{})
	var keys, strs []string
	d.ObjectStart()
	for d.NextKey() {
		keys = append(keys, string(d.Key()))
		strs = append(strs, d.KeyString())
	}
	d.ObjectEnd()
	want := []string{"plain", "escAped"}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("Key (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, strs); diff != "" {
		t.Errorf("KeyString (-want +got):\n%s", diff)
	}
	if errs := d.Finish(); errs != nil {
		t.Error(errs)
	}
}

func TestUnreadValuesAreSkipped(t *testing.T) {
	var d Decoder
	d.Reset([]byte(`{"a":{"x":[1,{"y":2}]},"b":[1,2,3],"c":3}`), Limits{})
	var keys []string
	d.ObjectStart()
	for d.NextKey() {
		keys = append(keys, string(d.Key()))
		if string(d.Key()) == "b" {
			d.ArrayStart()
			d.NextElem()
			d.ArrayEnd() // leaves 2 elements unread
		}
	}
	d.ObjectEnd()
	if diff := cmp.Diff([]string{"a", "b", "c"}, keys); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if errs := d.Finish(); errs != nil {
		t.Error(errs)
	}
	// ObjectEnd without reading any member
	d.Reset([]byte(`{"a":1,"b":[}`), Limits{})
	d.ObjectStart()
	d.ObjectEnd()
	if diff := cmp.Diff([]string{"invalid JSON at byte 12: unexpected character '}'; expected a value"}, lines(d.Finish())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestPeekNullBoolIndex(t *testing.T) {
	var d Decoder
	d.Reset([]byte(` [null, true, false, 1, "s", [], {}]`), Limits{})
	want := []Kind{KindNull, KindBool, KindBool, KindNumber, KindString, KindArray, KindObject}
	if d.Peek() != KindArray {
		t.Fatal("Peek at root")
	}
	d.ArrayStart()
	var kinds []Kind
	var idx []int
	for d.NextElem() {
		kinds = append(kinds, d.Peek())
		idx = append(idx, d.Index())
		switch d.Peek() {
		case KindNull:
			if !d.Null() {
				t.Error("Null() false on null")
			}
		case KindBool:
			if d.Null() {
				t.Error("Null() true on a boolean")
			}
			d.Bool()
		}
	}
	d.ArrayEnd()
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{0, 1, 2, 3, 4, 5, 6}, idx); diff != "" {
		t.Errorf("Index (-want +got):\n%s", diff)
	}
	if d.Peek() != KindInvalid {
		t.Error("Peek at the end must be KindInvalid")
	}
	if errs := d.Finish(); errs != nil {
		t.Error(errs)
	}
	names := []string{"invalid", "null", "boolean", "number", "string", "array", "object"}
	for k := KindInvalid; k <= KindObject; k++ {
		if k.String() != names[k] {
			t.Errorf("Kind(%d).String() = %q", k, k.String())
		}
	}
}

func TestFailHelpersAndEnums(t *testing.T) {
	var d Decoder
	d.Reset([]byte(`{"a":[1]}`), Limits{})
	d.ObjectStart()
	d.NextKey()
	d.ArrayStart()
	d.NextElem()
	d.Int(0, 10)
	d.Fail("plain")
	d.FailInt("must be even", 1)
	d.FailUint("must be even", 3)
	d.FailFloat("must be small", 1e21)
	d.FailFloat("must be big", 0.000001)
	d.FailLen("too long", 4)
	d.FailString("bad", "x\"y")
	d.EnumMismatch([]byte("regex"), `"fuzzy", "exact"`)
	d.EnumMismatchInt(5, "1, 2, 3")
	d.NextElem()
	d.ArrayEnd()
	d.Fail("after the array")
	d.Duplicate()
	d.NextKey()
	d.Missing("b")
	d.Missing("c d")
	d.ObjectEnd()
	want := []string{
		"a[0]: plain",
		"a[0]: must be even; got 1",
		"a[0]: must be even; got 3",
		"a[0]: must be small; got 1e+21",
		"a[0]: must be big; got 0.000001",
		"a[0]: too long; got 4",
		`a[0]: bad; got "x\"y"`,
		`a[0]: must be one of "fuzzy", "exact"; got "regex"`,
		`a[0]: must be one of 1, 2, 3; got 5`,
		"a: after the array",
		"a: duplicate field; each field may appear once",
		"b: missing required field",
		`["c d"]: missing required field`,
	}
	d.errs.max = 100
	if diff := cmp.Diff(want, lines(d.Finish())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestFinishResultDoesNotAliasTheDecoder(t *testing.T) {
	var d Decoder
	d.Reset([]byte(`1`), Limits{})
	d.String()
	first := d.Finish()
	d.Reset([]byte(`2`), Limits{})
	d.Bool()
	second := d.Finish()
	if first.List[0].Message != "expected string, got number 1" || second.List[0].Message != "expected boolean, got number 2" {
		t.Errorf("first %v second %v", first.Lines(), second.Lines())
	}
}
