package openai

import (
	"errors"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/adapters/internal/jsontree"
	"github.com/winkgen/wink/runtime/adapters/internal/toolset"
	"github.com/winkgen/wink/runtime/wink"
)

// StrictSchema derives the OpenAI strict-mode form of a plain schema (a winkgen Spec.ParamsSchema or
// ResultSchema, JSON Schema 2020-12). It is a pure function of plain; Schema caches it per tool, and winkgen
// calls it at generation time to report a tool it cannot derive. The strict form differs from plain in
// that:
//
//   - every property is listed in "required" (an optional one is nullable in plain already, and stays so);
//   - a map ({"type":"object","additionalProperties":V}) is an array of {"key","value"} pair objects,
//     described "key/value pairs, each key once" (strict mode cannot state arbitrary keys); the decoder
//     reads that form when the call says so (wink.Call.PairMaps, set by this package's parsers);
//   - a free-form JSON value (a schema without "type", "$ref", "anyOf" or "enum": any JSON) is a string
//     holding the value's JSON text, described "(JSON text)": strict mode cannot state an arbitrary value;
//     the decoder parses that text, with the same strictness, under wink.Call.PairMaps;
//   - "$ref" never has siblings (it moves into a one-element "anyOf");
//   - keywords strict mode does not support ("$schema", minLength/maxLength, unsupported formats,
//     uniqueItems, default, minProperties/maxProperties, ...) are dropped and restated at the end of the
//     description in parentheses: "at least 1 character", "at most 200 characters", "exactly 2
//     characters", "format: uri", "items must be unique", "default: 10"; what is said of an array's items
//     is said on the array, "each item ..." (Source: https://platform.openai.com/docs/guides/structured-outputs#supported-schemas).
//
// The generated decoder enforces all of plain either way.
func StrictSchema(plain []byte) ([]byte, error) {
	root, err := jsontree.ParseObject(plain)
	if err != nil {
		return nil, err
	}
	var c strictConv
	out, notes := c.conv(root)
	jsontree.AddNotes(out, notes)
	if c.err != nil {
		return nil, c.err
	}
	jsontree.Rank(out, keyOrder)
	return jsontree.Append(make([]byte, 0, len(plain)+len(plain)/4), out), nil
}

// keyOrder is the order of keywords in a strict schema object: that of winkgen's plain schemas.
var keyOrder = []string{"type", "description", "anyOf", "enum", "properties", "required", "additionalProperties",
	"items", "minItems", "maxItems", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
	"pattern", "format", "$ref", "$defs"}

// strictFormats are the string formats strict mode supports.
var strictFormats = map[string]bool{
	"date-time": true, "time": true, "date": true, "duration": true, "email": true, "hostname": true,
	"ipv4": true, "ipv6": true, "uuid": true,
}

type strictConv struct{ err error }

// conv converts one schema; it returns the notes for the description of the schema that holds it (a
// property's own schema applies them itself: see props).
func (c *strictConv) conv(s *jsontree.Obj) (*jsontree.Obj, []string) {
	out := &jsontree.Obj{}
	if jsontree.IsAny(s) {
		// Free-form JSON: a string holding the JSON text.
		out.Set("type", "string")
		if d := s.Str("description"); d != "" {
			out.Set("description", d)
		}
		return out, []string{"JSON text"}
	}
	if jsontree.IsMap(s) {
		return c.pairs(s), nil
	}
	var notes, arrayNotes, itemNotes, own []string
	var deflt string
	minLen, maxLen := -1, -1
	for _, k := range s.Keys {
		v := s.Vals[k]
		switch k {
		case "$schema", "$id", "$comment", "title", "examples":
			// Not supported; nothing the model needs.
		case "type", "description", "enum", "pattern", "minimum", "maximum", "exclusiveMinimum",
			"exclusiveMaximum", "multipleOf", "minItems", "maxItems", "$ref":
			out.Set(k, v)
		case "required":
			// Written with "properties": every property.
		case "additionalProperties":
			out.Set(k, false)
		case "const":
			out.Set("enum", []any{v})
		case "minLength", "maxLength":
			n, err := strconv.Atoi(string(numOf(v)))
			if err != nil {
				c.fail(k + " is not an integer")
				continue
			}
			if k == "minLength" {
				minLen = n
			} else {
				maxLen = n
			}
		case "format":
			if f, _ := v.(string); strictFormats[f] {
				out.Set(k, v)
			} else {
				n, _ := jsontree.Note(k, v)
				own = append(own, n)
			}
		case "uniqueItems":
			if n, ok := jsontree.Note(k, v); ok {
				arrayNotes = append(arrayNotes, n)
			}
		case "default":
			deflt, _ = jsontree.Note(k, v)
		case "properties":
			props := c.props(s, v)
			out.Set(k, props)
			if len(props.Keys) > 0 {
				req := make([]any, 0, len(props.Keys))
				for _, pk := range props.Keys {
					req = append(req, pk)
				}
				out.Set("required", req)
			}
		case "items":
			is, ok := v.(*jsontree.Obj)
			if !ok {
				c.fail("items is not a schema")
				continue
			}
			conv, inner := c.conv(is)
			out.Set(k, conv)
			for _, n := range inner {
				if f, ok := strings.CutPrefix(n, "format: "); ok {
					n = "in format " + f
				}
				itemNotes = append(itemNotes, "each item "+n)
			}
		case "anyOf", "oneOf":
			arr, _ := v.([]any)
			var alts []any
			for _, a := range arr {
				as, ok := a.(*jsontree.Obj)
				if !ok {
					c.fail(k + " holds a non-schema")
					continue
				}
				conv, n := c.conv(as)
				jsontree.AddNotes(conv, n)
				alts = append(alts, conv)
			}
			out.Set("anyOf", alts)
		case "$defs":
			defs, _ := v.(*jsontree.Obj)
			conv := &jsontree.Obj{}
			for _, dk := range defs.Keys {
				ds, ok := defs.Vals[dk].(*jsontree.Obj)
				if !ok {
					c.fail("$defs." + dk + " is not a schema")
					continue
				}
				d, n := c.conv(ds)
				jsontree.AddNotes(d, n)
				conv.Set(dk, d)
			}
			out.Set(k, conv)
		default:
			own = append(own, k+": "+jsontree.Literal(v))
		}
	}
	notes = append(notes, arrayNotes...)
	notes = append(notes, itemNotes...)
	notes = append(notes, lengthNotes(minLen, maxLen)...)
	notes = append(notes, own...)
	if deflt != "" {
		notes = append(notes, deflt)
	}
	if out.Has("$ref") && len(out.Keys) > 1 {
		// OpenAI rejects keywords beside $ref.
		ref := out.Get("$ref")
		out.Del("$ref")
		inner := &jsontree.Obj{}
		inner.Set("$ref", ref)
		out.Set("anyOf", []any{inner})
	}
	return out, notes
}

// props converts the properties of object s; every property becomes required, and one that was optional
// is nullable.
func (c *strictConv) props(s *jsontree.Obj, v any) *jsontree.Obj {
	props, ok := v.(*jsontree.Obj)
	if !ok {
		c.fail("properties is not an object")
		return &jsontree.Obj{}
	}
	required := map[string]bool{}
	if r, ok := s.Get("required").([]any); ok {
		for _, e := range r {
			if name, ok := e.(string); ok {
				required[name] = true
			}
		}
	}
	out := &jsontree.Obj{}
	for _, pk := range props.Keys {
		ps, ok := props.Vals[pk].(*jsontree.Obj)
		if !ok {
			c.fail("property " + strconv.Quote(pk) + " is not a schema")
			continue
		}
		conv, notes := c.conv(ps)
		if !required[pk] {
			// Required in strict mode, so an optional property takes null for "absent" (winkgen's plain
			// schemas already say so; a hand-built one may not).
			makeNullable(conv)
		}
		jsontree.AddNotes(conv, notes)
		if conv.Has("$ref") && len(conv.Keys) > 1 {
			ref := conv.Get("$ref")
			conv.Del("$ref")
			inner := &jsontree.Obj{}
			inner.Set("$ref", ref)
			conv.Set("anyOf", []any{inner})
		}
		out.Set(pk, conv)
	}
	return out
}

// makeNullable lets s accept null: "type":T becomes [T,"null"] (an enum lists null too), a "$ref" or an
// "anyOf" gains a {"type":"null"} branch.
func makeNullable(s *jsontree.Obj) {
	if nullable(s) {
		return
	}
	switch t := s.Get("type").(type) {
	case string:
		s.Set("type", []any{t, "null"})
		if e, ok := s.Get("enum").([]any); ok {
			s.Set("enum", append(e, nil))
		}
		return
	}
	null := &jsontree.Obj{}
	null.Set("type", "null")
	if ref := s.Get("$ref"); ref != nil {
		s.Del("$ref")
		inner := &jsontree.Obj{}
		inner.Set("$ref", ref)
		s.Set("anyOf", []any{inner, null})
		return
	}
	if alts, ok := s.Get("anyOf").([]any); ok {
		s.Set("anyOf", append(alts, null))
	}
}

// nullable reports whether s accepts null through "type" or an "anyOf" branch.
func nullable(s *jsontree.Obj) bool {
	if jsontree.HasType(s, "null") {
		return true
	}
	alts, _ := s.Get("anyOf").([]any)
	for _, a := range alts {
		if as, ok := a.(*jsontree.Obj); ok && nullable(as) {
			return true
		}
	}
	return false
}

// pairs converts a map schema to its array of {"key","value"} pairs.
func (c *strictConv) pairs(s *jsontree.Obj) *jsontree.Obj {
	vs, _ := s.Get("additionalProperties").(*jsontree.Obj)
	val, valNotes := c.conv(vs)
	jsontree.AddNotes(val, valNotes)
	pair := jsontree.PairItem(s, val, "object", "string")
	pair.Set("additionalProperties", false)
	out := &jsontree.Obj{}
	if jsontree.HasType(s, "null") {
		out.Set("type", []any{"array", "null"})
	} else {
		out.Set("type", "array")
	}
	out.Set("description", jsontree.PairsDescription(s))
	out.Set("items", pair)
	var notes []string
	for _, k := range []string{"minProperties", "maxProperties"} {
		if n := s.Get(k); n != nil {
			out.Set(map[string]string{"minProperties": "minItems", "maxProperties": "maxItems"}[k], n)
		}
	}
	if d := s.Get("default"); d != nil {
		n, _ := jsontree.Note("default", d)
		notes = append(notes, n)
	}
	jsontree.AddNotes(out, notes)
	return out
}

func (c *strictConv) fail(msg string) {
	if c.err == nil {
		c.err = errors.New("openai: strict schema: " + msg)
	}
}

func numOf(v any) jsontree.Num {
	n, _ := v.(jsontree.Num)
	return n
}

// lengthNotes phrases minLength/maxLength (-1 when absent) in jsontree.Note's words: "at least 1
// character", "at most 200 characters", or "exactly 2 characters" when both are equal.
func lengthNotes(min, max int) []string {
	num := func(n int) jsontree.Num { return jsontree.Num(strconv.Itoa(n)) }
	if min >= 0 && min == max {
		return []string{"exactly " + jsontree.Count(num(min), "character")}
	}
	var notes []string
	if min >= 0 {
		n, _ := jsontree.Note("minLength", num(min))
		notes = append(notes, n)
	}
	if max >= 0 {
		n, _ := jsontree.Note("maxLength", num(max))
		notes = append(notes, n)
	}
	return notes
}

// strictCache holds each tool's strict form (or the reason it has none).
var strictCache toolset.Dialect[strictForm]

type strictForm struct {
	schema []byte
	deep   bool // nests deeper than MaxNesting: sent without strict
	err    error
}

// MaxNesting is the deepest strict schema OpenAI takes ("up to 10 levels of nesting",
// https://platform.openai.com/docs/guides/structured-outputs#objects-have-limitations-on-nesting-depth-and-size),
// counted as OpenAI's SDK validator counts it (openai/openai-java,
// openai-java-core/src/main/kotlin/com/openai/core/JsonSchemaValidator.kt, MAX_NESTING_DEPTH = 10): the root
// is level 0 and every step into a sub-schema one more, each property, an array's items, each anyOf
// alternative and each $defs definition; a $ref is not followed. A []struct property is two levels, a map
// sent as pairs three. winkgen reports a tool past it at generation time (gen/schema.CheckOpenAILimits).
const MaxNesting = 10

// nesting returns how deep a strict schema nests, counted as MaxNesting says.
func nesting(v any) int {
	o, ok := v.(*jsontree.Obj)
	if !ok {
		return 0
	}
	deepest := 0
	step := func(x any) { deepest = max(deepest, 1+nesting(x)) }
	for _, k := range []string{"properties", "$defs"} {
		if m, ok := o.Get(k).(*jsontree.Obj); ok {
			for _, name := range m.Keys {
				step(m.Vals[name])
			}
		}
	}
	if alts, ok := o.Get("anyOf").([]any); ok {
		for _, a := range alts {
			step(a)
		}
	}
	if it := o.Get("items"); it != nil {
		step(it)
	}
	return deepest
}

// Schema returns the parameters schema sent for a tool and whether it is sent in strict mode: the strict
// form StrictSchema derives from Spec.ParamsSchema (once per tool, cached) with strict true; the same form
// with strict false when it nests deeper than MaxNesting, which strict mode refuses (the form still states
// maps as pairs and free-form JSON as text, as the calls' PairMaps say); or, for a hand-built schema it
// cannot derive (or whose root is not an object with properties), the plain ParamsSchema with strict
// false.
func Schema(s *wink.Spec) (schema []byte, strict bool) {
	f := strictCache.Get(s.ParamsSchema, func(plain []byte) strictForm {
		root, err := jsontree.ParseObject(plain)
		if err != nil {
			return strictForm{err: err}
		}
		if root.Get("type") != "object" || jsontree.IsMap(root) {
			return strictForm{err: errors.New("openai: strict mode needs an object with properties at the root")}
		}
		b, err := StrictSchema(plain)
		if err != nil {
			return strictForm{err: err}
		}
		t, err := jsontree.ParseObject(b)
		if err != nil {
			return strictForm{err: err}
		}
		return strictForm{schema: b, deep: nesting(t) > MaxNesting}
	})
	if f.err != nil {
		return s.ParamsSchema, false
	}
	return f.schema, !f.deep
}
