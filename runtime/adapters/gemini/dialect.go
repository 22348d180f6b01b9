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
//     description says so) and an array or a map can only be empty (maxItems 0), so a property the decoder
//     requires is always stated and required;
//   - an object without properties (an empty struct) below the root cannot be stated at all: Schema fails
//     with an EmptyObjectError naming each (a property, required or not, an array's items, a map's
//     values), and winkgen reports it at the field at generation time; it is never left out silently;
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
	out, _ := g.conv(root, nil, "")
	if len(g.empty) > 0 {
		g.err = errors.Join(g.err, &EmptyObjectError{Paths: g.empty})
	}
	if g.err != nil {
		return nil, g.err
	}
	if out == nil {
		return nil, nil
	}
	return jsontree.Append(make([]byte, 0, len(plain)), out), nil
}

type conv struct {
	root  *jsontree.Obj
	defs  *jsontree.Obj
	err   error
	empty []string // paths of objects without properties below the root
}

// EmptyObjectError is Schema's error for a schema that holds an object without properties (an empty
// struct) below its root: as a property, an array's items or a map's values, required or not. Gemini
// cannot state such an object (the API refuses an OBJECT without properties), and leaving the property
// out would tell the model less than the decoder enforces: a required property missing from the schema
// fails every call with "missing required field", and an optional one would silently be a tool the model
// cannot fully use through Gemini alone. Paths name each object as the decoder's errors name values:
// "filters.opts" for a property, "list[*]" for an array's items, "labels.*" for a map's values. (An
// object without properties at the root is a tool without parameters: no error.)
type EmptyObjectError struct {
	Paths []string
}

func (e *EmptyObjectError) Error() string {
	return "gemini: schema: an object without properties (an empty struct) at " + strings.Join(e.Paths, ", ") +
		": Gemini cannot state one (an OBJECT needs properties); give the struct a field, or use a bool, or a list of strings for a set"
}

// cut says why conv stated nothing: a recursion cut (the value can be left out or kept empty there, as
// the package doc says) or a schema that cannot be stated, already recorded (g.empty or g.err).
type cut bool

const (
	recursionCut cut = true
	unstatable   cut = false
)

// join appends a property name to a path.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (g *conv) fail(msg string) {
	if g.err == nil {
		g.err = errors.New("gemini: schema: " + msg)
	}
}

// conv converts one schema at path ("" for the root); stack holds the definitions being inlined ("#" for
// the root). nil means the schema cannot be stated here, and why says why: a recursion cut, or an object
// without properties (recorded in g.empty, except at the root, where it means no parameters).
func (g *conv) conv(s *jsontree.Obj, stack []string, path string) (_ *jsontree.Obj, why cut) {
	if ref, ok := s.Get("$ref").(string); ok {
		name, def := ref, g.root
		if ref != "#" {
			name = jsontree.DefName(ref)
			def, _ = g.defs.Get(name).(*jsontree.Obj)
			if def == nil {
				g.fail("$ref " + ref + " does not resolve")
				return nil, unstatable
			}
		}
		n := 0
		for _, x := range stack {
			if x == name {
				n++
			}
		}
		if n >= RecursionDepth {
			return nil, recursionCut
		}
		out, why := g.conv(def, append(stack, name), path)
		if out == nil {
			return nil, why
		}
		if d := s.Str("description"); d != "" {
			out.Set("description", d)
		}
		return out, false
	}
	out := &jsontree.Obj{}
	if jsontree.IsAny(s) {
		out.Set("type", "STRING")
		if d := s.Str("description"); d != "" {
			out.Set("description", d)
		}
		jsontree.AddNotes(out, []string{"JSON text"})
		return out, false
	}
	if jsontree.IsMap(s) {
		return g.pairs(s, stack, path)
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
			lost := false
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
					if c, why := g.conv(ps, stack, join(path, pk)); c != nil {
						conv.Set(pk, c)
					} else if why == recursionCut {
						// Only an optional property recurses (a required one would be an infinite
						// value), and the decoder accepts its absence.
						left = append(left, pk)
					} else {
						lost = true
					}
				}
			}
			if len(conv.Keys) == 0 {
				// Gemini refuses an OBJECT without properties.
				switch {
				case lost:
					return nil, unstatable // a property's own problem, recorded
				case len(left) > 0:
					return nil, recursionCut
				}
				return g.noProperties(path)
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
			if c, why := g.conv(is, stack, path+"[*]"); c != nil {
				out.Set("items", c)
			} else if why == unstatable {
				return nil, unstatable
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
				c, why := g.conv(as, stack, path)
				if c != nil {
					alts = append(alts, c)
				} else if why == unstatable {
					return nil, unstatable
				}
			}
			switch len(alts) {
			case 0:
				return nil, recursionCut
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
		return g.noProperties(path) // an object without fields: Gemini refuses an OBJECT without properties
	}
	if nullable {
		out.Set("nullable", true)
	}
	jsontree.AddNotes(out, notes)
	return out, false
}

// noProperties records an object without properties at path, which Gemini cannot state (EmptyObjectError);
// at the root it means a tool without parameters.
func (g *conv) noProperties(path string) (*jsontree.Obj, cut) {
	if path != "" && !slices.Contains(g.empty, path) {
		g.empty = append(g.empty, path)
	}
	return nil, unstatable
}

// pairs converts a map schema to an ARRAY of {"key","value"} OBJECTs. Where the values recur once more
// than RecursionDepth allows, the map can only be empty there (maxItems 0), as an array's items can.
func (g *conv) pairs(s *jsontree.Obj, stack []string, path string) (*jsontree.Obj, cut) {
	vs, _ := s.Get("additionalProperties").(*jsontree.Obj)
	val, why := g.conv(vs, stack, path+".*")
	if val == nil && why == unstatable {
		return nil, unstatable
	}
	out := &jsontree.Obj{}
	out.Set("type", "ARRAY")
	out.Set("description", jsontree.PairsDescription(s))
	if val == nil {
		empty := &jsontree.Obj{}
		empty.Set("type", "STRING")
		out.Set("items", empty)
		out.Set("maxItems", jsontree.Num("0"))
		jsontree.AddNotes(out, []string{"always empty at this depth"})
	} else {
		out.Set("items", jsontree.PairItem(s, val, "OBJECT", "STRING"))
	}
	if n := s.Get("minProperties"); n != nil {
		out.Set("minItems", n)
	}
	if n := s.Get("maxProperties"); n != nil && !out.Has("maxItems") {
		out.Set("maxItems", n)
	}
	if jsontree.HasType(s, "null") {
		out.Set("nullable", true)
	}
	if d := s.Get("default"); d != nil {
		n, _ := jsontree.Note("default", d)
		jsontree.AddNotes(out, []string{n})
	}
	return out, false
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
