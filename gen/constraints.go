package gen

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/winkgen/wink/annotations"
	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/gen/schema"
	"github.com/winkgen/wink/runtime/strictjson"
)

// scalarTarget is the type scalar constraints apply to: the field's type without a pointer, or the element
// type (without a pointer) of a slice or array field. nil when there is none.
func scalarTarget(t *model.Type) *model.Type {
	t = stripPtr(t)
	if t.Kind == model.KindSlice || t.Kind == model.KindArray {
		t = stripPtr(t.Elem)
	}
	switch t.Kind {
	case model.KindString, model.KindBool, model.KindInt, model.KindUint, model.KindFloat, model.KindTime, model.KindDuration:
		return t
	}
	return nil
}

// itemsTarget is the slice or array item constraints apply to.
func itemsTarget(t *model.Type) *model.Type {
	t = stripPtr(t)
	if t.Kind == model.KindSlice || t.Kind == model.KindArray {
		return t
	}
	return nil
}

func stripPtr(t *model.Type) *model.Type {
	if t.Kind == model.KindPointer {
		return t.Elem
	}
	return t
}

// aKind is the kind's name (model.Type.KindName) with its article: "a string", "an integer".
func aKind(t *model.Type) string {
	k := t.KindName()
	if strings.IndexByte("aeiou", k[0]) >= 0 {
		return "an " + k
	}
	return "a " + k
}

// constraints checks a wink tag against the field's type and returns the model constraints.
func (a *analyzer) constraints(tag *annotations.Tag, f *model.Field, where string) *model.Constraints {
	c := &model.Constraints{}
	st := scalarTarget(f.Type)
	it := itemsTarget(f.Type)
	bad := func(item annotations.TagItem, format string, args ...any) {
		a.ds.add(item.KeyPos, where+": "+format, args...)
	}
	isNum := func(t *model.Type) bool {
		return t != nil && len(t.Enum) == 0 && (t.Kind == model.KindInt || t.Kind == model.KindUint || t.Kind == model.KindFloat)
	}
	isStr := func(t *model.Type) bool {
		return t != nil && len(t.Enum) == 0 && t.Kind == model.KindString
	}
	ok := true
	num := func(item annotations.TagItem) *model.Number {
		if !isNum(st) {
			bad(item, "%s applies to numbers, not to %s field", item.Key, aKind(stripPtr(f.Type)))
			ok = false
			return nil
		}
		r, good := new(big.Rat).SetString(item.Value)
		if !good {
			a.ds.add(item.ValuePos, "%s: %s=%s is not a number", where, item.Key, item.Value)
			ok = false
			return nil
		}
		n := &model.Number{Literal: item.Value, Int: r.IsInt()}
		if (st.Kind == model.KindInt || st.Kind == model.KindUint) && !n.Int {
			a.ds.add(item.ValuePos, "%s: %s=%s on an integer field must be an integer", where, item.Key, item.Value)
			ok = false
			return nil
		}
		if item.Key == "multipleOf" && r.Sign() <= 0 {
			a.ds.add(item.ValuePos, "%s: multipleOf must be greater than 0", where)
			ok = false
			return nil
		}
		if st.Kind == model.KindFloat && st.Bits == 32 && item.Key != "multipleOf" {
			if msg := float32Bound(item.Key, r); msg != "" {
				a.ds.add(item.ValuePos, "%s: %s=%s %s", where, item.Key, item.Value, msg)
				ok = false
				return nil
			}
		}
		if st.Kind == model.KindInt || st.Kind == model.KindUint {
			lo, hi := typeRange(st)
			if item.Key != "multipleOf" && (r.Num().Cmp(lo) < 0 || r.Num().Cmp(hi) > 0) {
				a.ds.add(item.ValuePos, "%s: %s=%s is outside the range of %s (%s..%s)", where, item.Key, item.Value, st.Basic, lo, hi)
				ok = false
				return nil
			}
			if item.Key == "multipleOf" && r.Num().Cmp(hi) > 0 {
				a.ds.add(item.ValuePos, "%s: multipleOf=%s is outside the range of %s", where, item.Value, st.Basic)
				ok = false
				return nil
			}
		}
		return n
	}
	count := func(item annotations.TagItem, need func() bool, what string) *int {
		if !need() {
			bad(item, "%s applies to %s, not to %s field", item.Key, what, aKind(stripPtr(f.Type)))
			ok = false
			return nil
		}
		n, err := strconv.Atoi(item.Value)
		if err != nil || n < 0 {
			a.ds.add(item.ValuePos, "%s: %s must be a non-negative integer", where, item.Key)
			ok = false
			return nil
		}
		return &n
	}
	// duration reads a bound on a time.Duration field (min=1s); it reports whether item was one.
	duration := func(item annotations.TagItem) bool {
		if st == nil || st.Kind != model.KindDuration {
			if !isJSONNumberText(item.Value) {
				if _, err := time.ParseDuration(item.Value); err == nil {
					bad(item, "%s=%s is a duration: it applies to time.Duration fields, not to %s field", item.Key, item.Value, aKind(stripPtr(f.Type)))
					ok = false
					return true
				}
			}
			return false
		}
		du, err := time.ParseDuration(item.Value)
		if err != nil {
			a.ds.add(item.ValuePos, "%s: %s=%s is not a duration; write one as Go does, like 1s, 1m30s or 24h", where, item.Key, item.Value)
			ok = false
			return true
		}
		b := &model.Duration{Text: item.Value, Nanos: int64(du)}
		if item.Key == "min" {
			c.MinDuration = b
		} else {
			c.MaxDuration = b
		}
		return true
	}
	var defItem annotations.TagItem
	for _, item := range tag.Items {
		switch item.Key {
		case "min":
			if !duration(item) {
				c.Min = num(item)
			}
		case "max":
			if !duration(item) {
				c.Max = num(item)
			}
		case "exclusiveMin":
			c.ExclusiveMin = num(item)
		case "exclusiveMax":
			c.ExclusiveMax = num(item)
		case "multipleOf":
			c.MultipleOf = num(item)
		case "minLength":
			c.MinLength = count(item, func() bool { return isStr(st) && st == stripPtr(f.Type) || isStr(st) }, "strings")
		case "maxLength":
			c.MaxLength = count(item, func() bool { return isStr(st) }, "strings")
		case "minItems":
			c.MinItems = count(item, func() bool { return it != nil }, "slices and arrays")
		case "maxItems":
			c.MaxItems = count(item, func() bool { return it != nil }, "slices and arrays")
		case "uniqueItems":
			if it == nil {
				bad(item, "uniqueItems applies to slices and arrays, not to %s field", aKind(stripPtr(f.Type)))
				ok = false
				continue
			}
			if item.HasValue && item.Value == "false" {
				continue
			}
			e := stripPtr(it.Elem)
			if it.Elem.Kind == model.KindPointer || !(e.Kind == model.KindString || e.Kind == model.KindInt || e.Kind == model.KindUint || e.Kind == model.KindFloat || e.Kind == model.KindBool) {
				bad(item, "uniqueItems needs items of a string, number or bool type, not %s", it.Elem.KindName())
				ok = false
				continue
			}
			c.UniqueItems = true
		case "pattern":
			if !isStr(st) {
				bad(item, "pattern applies to strings, not to %s field", aKind(stripPtr(f.Type)))
				ok = false
				continue
			}
			if err := schema.CheckPattern(item.Value); err != nil {
				a.ds.add(item.ValuePos, "%s: %v", where, err)
				ok = false
				continue
			}
			c.Pattern = item.Value
		case "patternDesc":
			if !isStr(st) {
				bad(item, "patternDesc applies to strings, not to %s field", aKind(stripPtr(f.Type)))
				ok = false
				continue
			}
			c.PatternDesc = item.Value
		case "format":
			if !isStr(st) {
				bad(item, "format applies to strings, not to %s field (time.Time fields are date-time already)", aKind(stripPtr(f.Type)))
				ok = false
				continue
			}
			if _, known := strictjson.FormatByName(item.Value); !known {
				a.ds.add(item.ValuePos, "%s: unknown format %q; supported: %s", where, item.Value, strings.Join(formatNames(), ", "))
				ok = false
				continue
			}
			c.Format = item.Value
		case "enum":
			if st == nil || !(st.Kind == model.KindString || st.Kind == model.KindInt || st.Kind == model.KindUint || st.Kind == model.KindFloat) {
				bad(item, "enum applies to string and number fields, not to %s field", aKind(stripPtr(f.Type)))
				ok = false
				continue
			}
			for _, v := range strings.Split(item.Value, "|") {
				lit, err := scalarJSON(st, v)
				if err != "" {
					a.ds.add(item.ValuePos, "%s: enum value %q: %s", where, v, err)
					ok = false
					continue
				}
				if len(st.Enum) > 0 && enumByJSON(st, lit) == nil {
					a.ds.add(item.ValuePos, "%s: enum value %s is not a constant of %s (its values: %s)", where, v, st.Named.Name, enumList(st))
					ok = false
					continue
				}
				for _, prev := range c.Enum {
					if prev == lit || st.Kind == model.KindFloat && ratOf(&model.Number{Literal: prev}).Cmp(ratOf(&model.Number{Literal: lit})) == 0 {
						a.ds.add(item.ValuePos, "%s: enum value %s is listed twice", where, v)
						ok = false
					}
				}
				c.Enum = append(c.Enum, lit)
			}
		case "default":
			defItem = item
		case "header":
			if a.headerTag(item, f, where) {
				c.Header = item.Value
				c.HeaderPos = model.Pos{File: item.KeyPos.Filename, Line: item.KeyPos.Line, Col: item.KeyPos.Column}
			} else {
				ok = false
			}
		}
	}
	if c.Header != "" && !headerIntInRange(stripPtr(f.Type), c) {
		it, _ := tag.Get("header")
		a.ds.add(it.KeyPos, "%s: header=%s on %s field: MCP mirrors only integers within JavaScript's safe range (-9007199254740991..9007199254740991) into headers; add min= and max= within it, or use int32", where, c.Header, aKind(stripPtr(f.Type)))
		ok = false
	}
	if c.Min != nil && c.Max != nil && ratOf(c.Min).Cmp(ratOf(c.Max)) > 0 {
		a.ds.add(tag.Items[0].KeyPos, "%s: min=%s is greater than max=%s; no value could pass", where, c.Min.Literal, c.Max.Literal)
		ok = false
	}
	if c.MinDuration != nil && c.MaxDuration != nil && c.MinDuration.Nanos > c.MaxDuration.Nanos {
		a.ds.add(tag.Items[0].KeyPos, "%s: min=%s is greater than max=%s; no value could pass", where, c.MinDuration.Text, c.MaxDuration.Text)
		ok = false
	}
	if c.PatternDesc != "" && c.Pattern == "" {
		if it, found := tag.Get("patternDesc"); found {
			a.ds.add(it.KeyPos, "%s: patternDesc describes a pattern; add pattern='...' or remove it", where)
		}
		ok = false
	}
	if c.MinLength != nil && c.MaxLength != nil && *c.MinLength > *c.MaxLength {
		a.ds.add(tag.Items[0].KeyPos, "%s: minLength=%d is greater than maxLength=%d", where, *c.MinLength, *c.MaxLength)
		ok = false
	}
	if c.MinItems != nil && c.MaxItems != nil && *c.MinItems > *c.MaxItems {
		a.ds.add(tag.Items[0].KeyPos, "%s: minItems=%d is greater than maxItems=%d", where, *c.MinItems, *c.MaxItems)
		ok = false
	}
	if defItem.Key != "" && ok {
		dt := stripPtr(f.Type)
		var lit string
		if scalarTarget(dt) != dt {
			// A slice, array, map or struct: the default is its JSON (default=["a","b"]), checked like the
			// value of an argument, constraints included.
			v := strings.TrimSpace(defItem.Value)
			if v == "" || v[0] != '[' && v[0] != '{' {
				a.ds.add(defItem.ValuePos, "%s: default of %s field is its JSON value, like default=[\"a\",\"b\"] or default={\"k\":1}", where, aKind(dt))
				return nil
			}
			compact, err := compactJSON(v)
			if err != nil {
				a.ds.add(defItem.ValuePos, "%s: default %s is not valid JSON: %v", where, v, err)
				return nil
			}
			lit = compact
		} else {
			var err string
			lit, err = scalarJSON(dt, defItem.Value)
			if err != "" {
				a.ds.add(defItem.ValuePos, "%s: default %q: %s", where, defItem.Value, err)
				return nil
			}
		}
		val, errs := decodeJSONValue([]byte(lit), dt, c)
		if len(errs) > 0 {
			a.ds.add(defItem.ValuePos, "%s: default %s violates the field's own constraints: %s", where, lit, strings.Join(errs, "; "))
			return nil
		}
		if dt.Kind == model.KindFloat && dt.Bits == 32 {
			if r, good := new(big.Rat).SetString(lit); good && float32Text(r) != nil && float32Text(r).Cmp(r) != 0 {
				a.ds.add(defItem.ValuePos, "%s: default %s is not a float32 value: it would be stored and written as %s; write default=%s",
					where, lit, float32String(r), float32String(r))
				return nil
			}
		}
		c.Default = lit
		c.DefaultValue = val
	}
	if !ok {
		return nil
	}
	return c
}

// isJSONNumberText reports whether v reads as a JSON number.
func isJSONNumberText(v string) bool {
	var x json.Number
	return json.Unmarshal([]byte(v), &x) == nil
}

// compactJSON is v without insignificant whitespace, after a strict syntax check.
// compactJSON checks v with strictjson (whose messages are the same on every Go release, as diagnostics
// must be) and returns it compacted.
func compactJSON(v string) (string, error) {
	if _, err := strictjson.CanonicalExact(nil, []byte(v)); err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(v)); err != nil {
		return "", err
	}
	return b.String(), nil
}

// anchored is the full-match form of a pattern, as written in schemas and compiled in decoders.
func anchored(p string) string { return schema.Anchored(p) }

func ratOf(n *model.Number) *big.Rat {
	r, _ := new(big.Rat).SetString(n.Literal)
	return r
}

// typeRange is the range of an integer type.
func typeRange(t *model.Type) (lo, hi *big.Int) {
	one := big.NewInt(1)
	if t.Kind == model.KindUint {
		hi = new(big.Int).Sub(new(big.Int).Lsh(one, uint(t.Bits)), one)
		return big.NewInt(0), hi
	}
	hi = new(big.Int).Sub(new(big.Int).Lsh(one, uint(t.Bits-1)), one)
	lo = new(big.Int).Neg(new(big.Int).Lsh(one, uint(t.Bits-1)))
	return lo, hi
}

// scalarJSON converts a tag value to a JSON literal of the scalar type t: strings (and string enums and
// times) are quoted, numbers and bools are checked literals. It returns a message when the value cannot be
// of that type.
func scalarJSON(t *model.Type, v string) (string, string) {
	switch t.Kind {
	case model.KindString, model.KindTime, model.KindDuration:
		return jsonQuote(v), ""
	case model.KindBool:
		if v != "true" && v != "false" {
			return "", "want true or false"
		}
		return v, ""
	case model.KindInt, model.KindUint, model.KindFloat:
		var x json.Number
		if err := json.Unmarshal([]byte(v), &x); err != nil {
			return "", "not a number"
		}
		return v, ""
	}
	return "", "not a scalar type"
}

func enumByJSON(t *model.Type, lit string) *model.EnumValue {
	for _, e := range t.Enum {
		if e.JSON == lit {
			return e
		}
	}
	// integer literals may be written differently (1e0); compare numerically
	if t.Kind != model.KindString {
		r, ok := new(big.Rat).SetString(lit)
		if !ok {
			return nil
		}
		for _, e := range t.Enum {
			if er, ok := new(big.Rat).SetString(e.JSON); ok && er.Cmp(r) == 0 {
				return e
			}
		}
	}
	return nil
}

func enumList(t *model.Type) string {
	var out []string
	for _, e := range t.Enum {
		out = append(out, e.JSON)
	}
	return strings.Join(out, ", ")
}

func formatNames() []string {
	var out []string
	for f := strictjson.Format(1); f < 64; f++ {
		n := f.Name()
		if n == "" {
			break
		}
		if _, ok := strictjson.FormatByName(n); ok {
			out = append(out, n)
		}
	}
	return out
}

// float32Text is the value of the text the encoder writes for the float32 nearest to r (the shortest
// decimal that reads back as that float32), or nil when r is beyond float32's range.
func float32Text(r *big.Rat) *big.Rat {
	f, _ := r.Float64()
	if math.Abs(f) > strictjson.MaxFloat32JSON {
		return nil
	}
	t, _ := new(big.Rat).SetString(float32String(r))
	return t
}

// float32String is the text the encoder writes for the float32 nearest to r.
func float32String(r *big.Rat) string {
	f, _ := r.Float64()
	return strconv.FormatFloat(float64(float32(f)), 'g', -1, 32)
}

// float32Bound checks a bound on a float32 field and returns why it cannot be used, or "". The decoder
// checks bounds on the number as written and stores the nearest float32, which the encoder writes as
// its shortest text; so that everything the encoder writes satisfies the schema, an inclusive bound must
// be a float32's own text (a value at the bound is then written as the bound), and an exclusive bound
// cannot be kept (a value just inside it rounds onto it): the message names the inclusive bound to use.
func float32Bound(key string, r *big.Rat) string {
	t := float32Text(r)
	if t == nil {
		return "" // beyond float32's range: looser than the type's own bound, which the schema states
	}
	switch key {
	case "exclusiveMax":
		return "cannot bound a float32 field: values just below it round onto it as float32; use max=" + float32Near(r, true, true)
	case "exclusiveMin":
		return "cannot bound a float32 field: values just above it round onto it as float32; use min=" + float32Near(r, false, true)
	}
	if t.Cmp(r) == 0 {
		return ""
	}
	return "is not a float32 value (the nearest is written " + float32String(r) + "); use " + key + "=" + float32Near(r, key == "max", false)
}

// float32Near is the text of the float32 nearest to r whose text is below r (below) or above it, or
// equal to r unless strict.
func float32Near(r *big.Rat, below, strict bool) string {
	f, _ := r.Float64()
	g := float32(f)
	text := func() *big.Rat {
		t, _ := new(big.Rat).SetString(strconv.FormatFloat(float64(g), 'g', -1, 32))
		return t
	}
	c := text().Cmp(r)
	switch {
	case below && (c > 0 || c == 0 && strict):
		g = math.Nextafter32(g, float32(math.Inf(-1)))
	case !below && (c < 0 || c == 0 && strict):
		g = math.Nextafter32(g, float32(math.Inf(1)))
	}
	return strconv.FormatFloat(float64(g), 'g', -1, 32)
}
