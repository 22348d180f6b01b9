// Package schemaoracle is the tests' independent judge of generated schemas: it compiles a schema with
// santhosh-tekuri/jsonschema/v6 (JSON Schema 2020-12, format assertions on), gives its verdict on an input,
// and says which inputs lie outside what JSON Schema can judge the way winkgen's strict decoder does (so a
// differential test or fuzz target skips them instead of reporting a false disagreement). Tests only.
package schemaoracle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/winkgen/wink/runtime/strictjson"
)

// Limits raises the decoder's depth limit to encoding/json's own (10000) so that recursion depth is
// compared too.
var Limits = strictjson.Limits{MaxDepth: 10000, MaxBytes: 1 << 24, MaxErrors: 1000}

// Why an input is outside what the validator can judge.
const (
	ExclUTF8       = "invalid UTF-8 or lone surrogate: the validator's parser substitutes U+FFFD"
	ExclDupKey     = "duplicate object key: the validator's parser keeps the last"
	ExclDepth      = "nesting beyond the decoder's depth limit"
	ExclFloatEdge  = "float rounding edge within half an ULP of a bound"
	ExclEmptyInput = "empty or null input of a tool without required fields: means {}, accepted by design"
	ExclHuge       = "huge exponent: the validator expands it into a big.Rat"
)

// Compile compiles raw as a 2020-12 schema with format assertions.
func Compile(name string, raw []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("schema %s is not JSON: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	url := "mem:///" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// Verdict validates one input: a text the validator's parser refuses is rejected.
func Verdict(sch *jsonschema.Schema, in []byte) (ok bool, msg string) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(in))
	if err != nil {
		return false, "not JSON: " + err.Error()
	}
	if err := sch.Validate(inst); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// Exclusion says why in is outside what the validator can judge, or "" when it can. Inputs the
// validator's parser rejects are judged (both sides must reject).
func Exclusion(in []byte, bounds []*big.Rat, emptyOK bool) string {
	if !utf8.Valid(in) {
		return ExclUTF8
	}
	if t := bytes.TrimSpace(in); emptyOK && (len(t) == 0 || string(t) == "null") {
		return ExclEmptyInput
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
			if len(stack) > Limits.MaxDepth-1 {
				return ExclDepth
			}
		case string:
			if !rawHasFFFD && strings.ContainsRune(v, utf8.RuneError) {
				return ExclUTF8
			}
			if isKey {
				if top.keys[v] {
					return ExclDupKey
				}
				top.keys[v] = true
			}
		case json.Number:
			if excl := number(string(v), bounds); excl != "" {
				return excl
			}
		}
	}
}

// number: exponents beyond 4 digits make the validator expand a big.Rat of that many digits (left
// out, see agreement_test.go); a literal that is not a bound of the schema but rounds to the same float64 as
// one sits within half an ULP of that bound, where the decoder compares the float and the validator the
// decimal.
func number(lit string, bounds []*big.Rat) string {
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		exp := strings.TrimLeft(lit[i+1:], "+-")
		if len(strings.TrimLeft(exp, "0")) > 4 {
			return ExclHuge
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
			return ExclFloatEdge
		}
	}
	return ""
}

// Bounds lists the bounds of the number-typed (float) schemas of a schema; integer bounds are
// compared exactly on the decimal text by both sides.
func Bounds(raw []byte) []*big.Rat {
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
