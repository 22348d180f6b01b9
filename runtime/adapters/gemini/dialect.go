package gemini

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/adapters/internal/jsontree"
	"github.com/winkgen/wink/runtime/adapters/internal/toolset"
)

// Gemini function declarations take an OpenAPI 3.0 subset (the Schema object of the Gemini API,
// https://ai.google.dev/api/caching#Schema): one type per schema (nullable instead of a type array),
// string enums only, no $ref or $defs, no additionalProperties, a short list of keywords, an OBJECT only
// with at least one property, and parameter names of letters, digits and underscores
// (https://ai.google.dev/api/caching#FunctionDeclaration). Schema converts a plain schema to that subset.
// What the subset cannot state is removed from the schema and restated in the description; the decoder
// enforces it all the same:
//
//   - types are spelled as Gemini's Type enum ("OBJECT"); "type":[T,"null"] becomes "type":T,
//     "nullable":true, and null leaves enums;
//   - a tool without parameters has no schema at all: FunctionDeclarations leaves "parameters" out, as the
//     API asks (an OBJECT without properties is refused);
//   - $ref is replaced by the definition it names; a type that contains itself is unrolled RecursionDepth
//     levels deep, and where it would recur once more an optional property is left out (the parent's
//     description says so) and an array can only be empty (maxItems 0);
//   - a map is an ARRAY of {"key","value"} OBJECTs, described "key/value pairs, each key once", the form the
//     decoder reads under wink.Call.PairMaps, which ParseFunctionCalls sets;
//   - a free-form JSON value is a STRING holding the value's JSON text, described "(JSON text)"; the decoder
//     parses that text under wink.Call.PairMaps;
//   - an enum of numbers becomes its description ("one of 1, 2, 3"); const becomes a one-value enum
//     (a string) or its description;
//   - additionalProperties false is dropped (the decoder refuses unknown keys); exclusiveMinimum,
//     exclusiveMaximum, multipleOf, uniqueItems and formats Gemini does not know are described.

// RecursionDepth is how many times one type may be stated inside itself in the Gemini form.
const RecursionDepth = 3

// Keywords are the schema fields Gemini accepts.
var Keywords = []string{"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
	"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example",
	"anyOf", "propertyOrdering", "default", "items", "minimum", "maximum"}

// Formats are the formats Gemini accepts.
var Formats = []string{"date-time", "enum", "int32", "int64", "float", "double"}

// Types are the values of Gemini's Type enum a schema may use.
var Types = []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"}

// NameOK reports whether Gemini accepts name as a parameter (property) name: it starts with a letter or
// an underscore and has only letters, digits and underscores, at most 64 of them.
func NameOK(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// FuncNameOK reports whether Gemini accepts name as a function name: it starts with a letter or an
// underscore and has only letters, digits, underscores, dots, colons and dashes, at most 64 of them
// (https://ai.google.dev/api/caching#FunctionDeclaration; the start rule is Vertex AI's
// FunctionDeclaration.name: "Must start with a letter or an underscore").
func FuncNameOK(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case ('0' <= c && c <= '9' || c == '.' || c == ':' || c == '-') && i > 0:
		default:
			return false
		}
	}
	return true
}

// Schema returns the Gemini form of plain (a winkgen Spec.ParamsSchema), or nil when the tool has no
// parameters Gemini can be told of: its declaration then has no "parameters". A property name Gemini
// refuses (NameOK) is an error: the API would refuse the whole request, and renaming it would need the
// call's arguments renamed back (winkgen diagnoses such names at generation time). It is a pure function of
// plain; FunctionDeclarations caches it per tool, and winkgen calls it at generation time.
func Schema(plain []byte) ([]byte, error) {
	root, err := jsontree.ParseObject(plain)
	if err != nil {
		return nil, err
	}
	defs, _ := root.Get("$defs").(*jsontree.Obj)
	g := &conv{root: root, defs: defs}
	out := g.conv(root, nil)
	if g.err != nil {
		return nil, g.err
	}
	if out == nil {
		return nil, nil
	}
	return jsontree.Append(make([]byte, 0, len(plain)), out), nil
}

type conv struct {
	root *jsontree.Obj
	defs *jsontree.Obj
	err  error
}

func (g *conv) fail(msg string) {
	if g.err == nil {
		g.err = errors.New("gemini: schema: " + msg)
	}
}

// conv converts one schema; stack holds the definitions being inlined ("#" for the root). nil means the
// schema cannot be stated here (a recursion cut, an object without properties).
func (g *conv) conv(s *jsontree.Obj, stack []string) *jsontree.Obj {
	if ref, ok := s.Get("$ref").(string); ok {
		name, def := ref, g.root
		if ref != "#" {
			name = jsontree.DefName(ref)
			def, _ = g.defs.Get(name).(*jsontree.Obj)
			if def == nil {
				g.fail("$ref " + ref + " does not resolve")
				return nil
			}
		}
		n := 0
		for _, x := range stack {
			if x == name {
				n++
			}
		}
		if n >= RecursionDepth {
			return nil
		}
		out := g.conv(def, append(stack, name))
		if out == nil {
			return nil
		}
		if d := s.Str("description"); d != "" {
			out.Set("description", d)
		}
		return out
	}
	out := &jsontree.Obj{}
	if jsontree.IsAny(s) {
		out.Set("type", "STRING")
		if d := s.Str("description"); d != "" {
			out.Set("description", d)
		}
		jsontree.AddNotes(out, []string{"JSON text"})
		return out
	}
	if jsontree.IsMap(s) {
		return g.pairs(s, stack)
	}
	var notes []string
	nullable := false
	for _, k := range s.Keys {
		v := s.Vals[k]
		switch k {
		case "$defs", "$schema", "$id", "additionalProperties", "propertyNames", "required":
		case "type":
			if arr, ok := v.([]any); ok {
				var types []any
				for _, t := range arr {
					if t == "null" {
						nullable = true
					} else {
						types = append(types, t)
					}
				}
				if len(types) == 1 {
					out.Set("type", geminiType(types[0]))
				} else {
					var alts []any
					for _, t := range types {
						a := &jsontree.Obj{}
						a.Set("type", geminiType(t))
						alts = append(alts, a)
					}
					out.Set("anyOf", alts)
				}
			} else {
				out.Set("type", geminiType(v))
			}
		case "enum":
			arr, _ := v.([]any)
			var strs []any
			allStrings := true
			for _, e := range arr {
				switch e := e.(type) {
				case nil:
					nullable = true
				case string:
					strs = append(strs, e)
				default:
					allStrings = false
				}
			}
			if allStrings {
				out.Set("enum", strs)
			} else {
				notes = append(notes, "one of "+jsontree.Literals(arr))
			}
		case "const":
			if str, ok := v.(string); ok {
				out.Set("enum", []any{str})
			} else {
				notes = append(notes, "exactly "+jsontree.Literal(v))
			}
		case "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems":
			if n, ok := jsontree.Note(k, v); ok {
				notes = append(notes, n)
			}
		case "format":
			if f, ok := v.(string); ok && slices.Contains(Formats, f) {
				out.Set("format", f)
			} else {
				n, _ := jsontree.Note(k, v)
				notes = append(notes, n)
			}
		case "properties":
			props, _ := v.(*jsontree.Obj)
			conv := &jsontree.Obj{}
			var left []string
			if props != nil {
				for _, pk := range props.Keys {
					ps, _ := props.Vals[pk].(*jsontree.Obj)
					if ps == nil {
						g.fail("property " + pk + " is not a schema")
						continue
					}
					if !NameOK(pk) {
						g.fail("property name " + strconv.Quote(pk) + " is not one Gemini accepts (letters, digits and underscores, starting with a letter or an underscore, at most 64)")
						continue
					}
					if c := g.conv(ps, stack); c != nil {
						conv.Set(pk, c)
					} else {
						left = append(left, pk)
					}
				}
			}
			if len(conv.Keys) == 0 {
				return nil // Gemini refuses an OBJECT without properties
			}
			out.Set("properties", conv)
			if req, ok := s.Get("required").([]any); ok {
				var kept []any
				for _, r := range req {
					if name, _ := r.(string); conv.Has(name) {
						kept = append(kept, r)
					}
				}
				if len(kept) > 0 {
					out.Set("required", kept)
				}
			}
			if len(left) > 0 {
				notes = append(notes, strings.Join(left, ", ")+" cannot be given at this depth")
			}
		case "items":
			is, ok := v.(*jsontree.Obj)
			if !ok {
				g.fail("items is not a schema")
				continue
			}
			if c := g.conv(is, stack); c != nil {
				out.Set("items", c)
			} else {
				// Nested too deep to state: the array can only be empty here.
				empty := &jsontree.Obj{}
				empty.Set("type", "STRING")
				out.Set("items", empty)
				out.Set("maxItems", jsontree.Num("0"))
				notes = append(notes, "always empty at this depth")
			}
		case "minItems", "maxItems":
			if !out.Has("maxItems") || k == "minItems" {
				out.Set(k, v)
			}
		case "anyOf", "oneOf":
			arr, _ := v.([]any)
			var alts []any
			for _, a := range arr {
				as, ok := a.(*jsontree.Obj)
				if !ok {
					continue
				}
				if t, _ := as.Get("type").(string); t == "null" && len(as.Keys) == 1 {
					nullable = true
					continue
				}
				if c := g.conv(as, stack); c != nil {
					alts = append(alts, c)
				}
			}
			switch len(alts) {
			case 0:
				return nil
			case 1:
				a := alts[0].(*jsontree.Obj)
				for _, ak := range a.Keys {
					if ak == "description" && out.Has("description") {
						continue
					}
					out.Set(ak, a.Vals[ak])
				}
			default:
				out.Set("anyOf", alts)
			}
		default:
			if slices.Contains(Keywords, k) {
				out.Set(k, v)
			} else {
				notes = append(notes, k+" "+jsontree.Literal(v))
			}
		}
	}
	if jsontree.HasType(s, "object") && !out.Has("properties") {
		return nil // an object without fields: Gemini refuses an OBJECT without properties
	}
	if nullable {
		out.Set("nullable", true)
	}
	jsontree.AddNotes(out, notes)
	return out
}

// pairs converts a map schema to an ARRAY of {"key","value"} OBJECTs.
func (g *conv) pairs(s *jsontree.Obj, stack []string) *jsontree.Obj {
	vs, _ := s.Get("additionalProperties").(*jsontree.Obj)
	val := g.conv(vs, stack)
	if val == nil {
		return nil
	}
	out := &jsontree.Obj{}
	out.Set("type", "ARRAY")
	out.Set("description", jsontree.PairsDescription(s))
	out.Set("items", jsontree.PairItem(s, val, "OBJECT", "STRING"))
	if n := s.Get("minProperties"); n != nil {
		out.Set("minItems", n)
	}
	if n := s.Get("maxProperties"); n != nil {
		out.Set("maxItems", n)
	}
	if jsontree.HasType(s, "null") {
		out.Set("nullable", true)
	}
	if d := s.Get("default"); d != nil {
		n, _ := jsontree.Note("default", d)
		jsontree.AddNotes(out, []string{n})
	}
	return out
}

// geminiType is a JSON Schema type name as Gemini's Type enum spells it ("object" → "OBJECT").
func geminiType(v any) any {
	if s, ok := v.(string); ok {
		return strings.ToUpper(s)
	}
	return v
}

// schemaCache holds each tool's Gemini form.
var schemaCache toolset.Dialect[geminiForm]

type geminiForm struct {
	schema []byte // nil: no parameters
	err    error
}

// cached returns the Gemini form of plain, derived once per tool.
func cached(plain []byte) geminiForm {
	return schemaCache.Get(plain, func(plain []byte) geminiForm {
		b, err := Schema(plain)
		return geminiForm{b, err}
	})
}
