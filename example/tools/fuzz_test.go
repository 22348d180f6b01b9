package tools

// Fuzz targets with the JSON Schema validator as the oracle, one per example tool, seeded with the agreement
// table. Each input is decoded with the default limits and with agreeLimits (never a panic), and, unless it is
// outside what JSON Schema can judge (see agreement_test.go), the decoder's verdict must equal the
// validator's; accepted params must re-encode to valid JSON that decodes to the same canonical bytes.

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// TestFuzzExclusionsMatchTable: the fuzz oracle's exclusion rules skip exactly the table rows that are
// excluded (so it is neither blind nor too broad), except that its float-edge rule, which knows the schema's
// float bounds but not where they apply, may skip a few more.
func TestFuzzExclusionsMatchTable(t *testing.T) {
	tables := agreementTables()
	for _, s := range subjects() {
		bounds := schemaBounds(s.tool.Spec().ParamsSchema)
		for _, r := range tables[s.name] {
			got := fuzzExclusion(s.name, bounds, []byte(r.in))
			want := r.exclude
			if want == exclDepth {
				want = "" // the table's depth rows exceed the default limit, not agreeLimits
			}
			if got == exclFloatEdge && want == "" {
				continue // the oracle's float bounds are per schema, not per location: a little broader
			}
			if (got != "") != (want != "") {
				t.Errorf("%s row %q: fuzz exclusion %q, table exclusion %q", s.name, r.name, got, r.exclude)
			}
		}
	}
}

// fuzzExclusion says why in is outside what the validator can judge, or "" when it can. Inputs the
// validator's parser rejects are judged (both sides must reject).
func fuzzExclusion(toolName string, bounds []*big.Rat, in []byte) string {
	if !utf8.Valid(in) {
		return exclUTF8
	}
	if toolName == "get_status" && len(bytes.TrimLeft(in, " \t\r\n")) == 0 {
		return exclEmptyInput
	}
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.UseNumber()
	type frame struct {
		object  bool
		keys    map[string]bool
		keyNext bool
	}
	var stack []*frame
	rawHasFFFD := bytes.Contains(in, []byte("\uFFFD")) || bytes.Contains(bytes.ToLower(in), []byte(`\ufffd`))
	for {
		tok, err := dec.Token()
		if err != nil {
			return "" // end of input or a syntax error: the validator's parser judges it
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		isKey := top != nil && top.object && top.keyNext
		if top != nil && top.object {
			top.keyNext = !top.keyNext
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, &frame{object: true, keys: map[string]bool{}, keyNext: true})
			case '[':
				stack = append(stack, &frame{})
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].object {
					// the closed container was a member value: the parent now expects a key
					stack[len(stack)-1].keyNext = true
				}
				continue
			}
			if top != nil && top.object {
				top.keyNext = false // the value is open; restored when it closes
			}
			if len(stack) > agreeLimits.MaxDepth-1 {
				return exclDepth
			}
		case string:
			if !rawHasFFFD && strings.ContainsRune(v, utf8.RuneError) {
				return exclUTF8
			}
			if isKey {
				if top.keys[v] {
					return exclDupKey
				}
				top.keys[v] = true
			}
		case json.Number:
			if excl := numberExclusion(string(v), bounds); excl != "" {
				return excl
			}
		}
	}
}

// numberExclusion: exponents beyond 4 digits make the validator expand a big.Rat of that many digits (left
// out, see agreement_test.go); a literal that is not a bound of the schema but rounds to the same float64 as
// one sits within half an ULP of that bound, where the decoder compares the float and the validator the
// decimal.
func numberExclusion(lit string, bounds []*big.Rat) string {
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		exp := strings.TrimLeft(lit[i+1:], "+-")
		if len(strings.TrimLeft(exp, "0")) > 4 {
			return "huge exponent: the validator expands it into a big.Rat"
		}
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		return ""
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return "" // out of float64 range: both sides judge it
	}
	for _, b := range bounds {
		bf, _ := b.Float64()
		if bf == f && b.Cmp(r) != 0 {
			return exclFloatEdge
		}
	}
	return ""
}

// schemaBounds lists the bounds of the number-typed (float) schemas of a schema; integer bounds are
// compared exactly on the decimal text by both sides.
func schemaBounds(raw []byte) []*big.Rat {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil
	}
	var out []*big.Rat
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			isNumber := v["type"] == "number"
			if ts, ok := v["type"].([]any); ok && len(ts) > 0 && ts[0] == "number" {
				isNumber = true
			}
			for k, e := range v {
				switch k {
				case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
					if n, ok := e.(json.Number); ok && isNumber {
						if r, ok := new(big.Rat).SetString(string(n)); ok {
							out = append(out, r)
						}
					}
				default:
					walk(e)
				}
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(doc)
	return out
}

func fuzzAgree(f *testing.F, toolName string) {
	var s subject
	for _, c := range subjects() {
		if c.name == toolName {
			s = c
		}
	}
	sch, err := compileSchema(s.name, s.tool.Spec().ParamsSchema)
	if err != nil {
		f.Fatal(err)
	}
	bounds := schemaBounds(s.tool.Spec().ParamsSchema)
	for _, r := range agreementTables()[toolName] {
		f.Add([]byte(r.in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s.decode(in, strictjson.Limits{})
		if _, err := s.tool.Decode(in, strictjson.Limits{}); err != nil {
			var ae *wink.ArgumentsError
			if !errors.As(err, &ae) {
				t.Fatalf("Tool.Decode error %T is not an *ArgumentsError: %v", err, err)
			}
		}
		if len(in) > 1<<16 {
			return
		}
		if fuzzExclusion(toolName, bounds, in) != "" {
			s.decode(in, agreeLimits)
			return
		}
		if toolName == "get_status" && string(bytes.TrimSpace(in)) == "null" {
			return // known: parameterless tools accept null, the plain schema says object
		}
		if msg := agreement(s, sch, in); msg != "" {
			t.Fatal(msg)
		}
		v, errs := s.decode(in, agreeLimits)
		if errs != nil {
			return
		}
		if p := reencodeProblem(s, sch, v); p != "" && knownReencodeBugs[toolName] == "" {
			t.Fatal(p)
		}
	})
}

// FuzzAgreeScheduleTask: the schedule_task decoder agrees with the validator on its plain schema.
func FuzzAgreeScheduleTask(f *testing.F) { fuzzAgree(f, "schedule_task") }

// FuzzAgreeSearchDocs: the search_docs decoder agrees with the validator on its plain schema.
func FuzzAgreeSearchDocs(f *testing.F) { fuzzAgree(f, "search_docs") }

// FuzzAgreeComputeStats: the compute_stats decoder agrees with the validator on its plain schema.
func FuzzAgreeComputeStats(f *testing.F) { fuzzAgree(f, "compute_stats") }

// FuzzAgreeGetStatus: the get_status decoder agrees with the validator on its plain schema.
func FuzzAgreeGetStatus(f *testing.F) { fuzzAgree(f, "get_status") }

// FuzzAgreeCountOutline: the count_outline decoder agrees with the validator on its plain schema.
func FuzzAgreeCountOutline(f *testing.F) { fuzzAgree(f, "count_outline") }

// FuzzAgreeArchiveDocs: the archive_docs decoder agrees with the validator on its plain schema.
func FuzzAgreeArchiveDocs(f *testing.F) { fuzzAgree(f, "archive_docs") }
