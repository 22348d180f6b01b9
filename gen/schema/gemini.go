package schema

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Gemini function declarations take an OpenAPI 3.0 subset: one type per schema (nullable instead of a
// type array), string enums only, no $ref or $defs, no additionalProperties, and a short list of
// keywords. Gemini converts a plain schema to that subset. What the subset cannot state is removed from
// the schema and restated in the description, as the strict variant does; the decoder enforces it all
// the same:
//
//   - types are spelled as Gemini's Type enum ("OBJECT"); "type":[T,"null"] becomes "type":T,
//     "nullable":true, and null leaves enums;
//   - $ref is replaced by the definition it names (a type that contains itself is cut where it recurs: an
//     object described as "a <Name> object, as above");
//   - additionalProperties false is dropped (the decoder refuses unknown keys); a map's value schema is
//     dropped and described ("an object of <type> values by key");
//   - an enum of numbers becomes its description ("one of 1, 2, 3"); const becomes a one-value enum
//     (a string) or its description;
//   - exclusiveMinimum, exclusiveMaximum, multipleOf, uniqueItems, propertyNames and formats Gemini does
//     not know are described.
//
// CheckGemini reports what the subset does not allow.

// geminiKeywords are the schema fields Gemini accepts.
var geminiKeywords = []string{"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
	"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example",
	"anyOf", "propertyOrdering", "default", "items", "minimum", "maximum"}

// geminiFormats are the formats Gemini accepts.
var geminiFormats = []string{"date-time", "enum", "int32", "int64", "float", "double"}

// Gemini returns the Gemini form of plain, a schema written by Plain.
func Gemini(plain []byte) ([]byte, error) {
	root, err := parseOrdered(plain)
	if err != nil {
		return nil, err
	}
	o, ok := root.(*ordObj)
	if !ok {
		return nil, errors.New("schema is not an object")
	}
	defs, _ := o.get("$defs").(*ordObj)
	g := &geminiConv{defs: defs}
	out := g.conv(o, nil)
	var b bytes.Buffer
	writeOrdered(&b, out)
	return b.Bytes(), nil
}

type geminiConv struct {
	defs *ordObj
}

// conv converts one schema; stack holds the definitions being inlined (to cut recursion).
func (g *geminiConv) conv(s *ordObj, stack []string) *ordObj {
	if ref, ok := s.get("$ref").(string); ok {
		name := strings.TrimPrefix(ref, "#/$defs/")
		def, _ := g.defs.get(name).(*ordObj)
		if def == nil || slices.Contains(stack, name) {
			out := &ordObj{}
			out.set("type", "OBJECT")
			out.set("description", "a "+name+" object, as above")
			return out
		}
		out := g.conv(def, append(stack, name))
		if d, ok := s.get("description").(string); ok {
			out.set("description", d)
		}
		return out
	}
	out := &ordObj{}
	var notes []string
	nullable := false
	for _, k := range s.keys {
		v := s.vals[k]
		switch k {
		case "$defs", "$schema", "$id", "additionalProperties", "propertyNames":
			if k == "additionalProperties" {
				if vs, ok := v.(*ordObj); ok {
					notes = append(notes, "an object of "+describe(vs)+" values by key")
				}
			}
			if k == "propertyNames" {
				if vs, ok := v.(*ordObj); ok {
					if p, ok := vs.get("pattern").(string); ok {
						notes = append(notes, "keys match "+p)
					}
				}
			}
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
					out.set("type", geminiType(types[0]))
				} else {
					var alts []any
					for _, t := range types {
						a := &ordObj{}
						a.set("type", geminiType(t))
						alts = append(alts, a)
					}
					out.set("anyOf", alts)
				}
			} else {
				out.set("type", geminiType(v))
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
				out.set("enum", strs)
			} else {
				notes = append(notes, "one of "+jsonLiterals(arr))
			}
		case "const":
			if str, ok := v.(string); ok {
				out.set("enum", []any{str})
			} else {
				notes = append(notes, "exactly "+jsonLiteral(v))
			}
		case "exclusiveMinimum":
			notes = append(notes, "greater than "+jsonLiteral(v))
		case "exclusiveMaximum":
			notes = append(notes, "less than "+jsonLiteral(v))
		case "multipleOf":
			notes = append(notes, "a multiple of "+jsonLiteral(v))
		case "uniqueItems":
			if v == true {
				notes = append(notes, "items unique")
			}
		case "format":
			if f, ok := v.(string); ok && slices.Contains(geminiFormats, f) {
				out.set("format", f)
			} else {
				notes = append(notes, "format "+jsonLiteral(v))
			}
		case "properties":
			props, _ := v.(*ordObj)
			conv := &ordObj{}
			for _, pk := range props.keys {
				ps, _ := props.vals[pk].(*ordObj)
				conv.set(pk, g.conv(ps, stack))
			}
			out.set("properties", conv)
		case "items":
			if is, ok := v.(*ordObj); ok {
				out.set("items", g.conv(is, stack))
			}
		case "anyOf", "oneOf":
			arr, _ := v.([]any)
			var alts []any
			for _, a := range arr {
				if as, ok := a.(*ordObj); ok {
					if t, _ := as.get("type").(string); t == "null" && len(as.keys) == 1 {
						nullable = true
						continue
					}
					alts = append(alts, g.conv(as, stack))
				}
			}
			if len(alts) == 1 {
				for _, ak := range alts[0].(*ordObj).keys {
					out.set(ak, alts[0].(*ordObj).vals[ak])
				}
			} else {
				out.set("anyOf", alts)
			}
		default:
			if slices.Contains(geminiKeywords, k) {
				out.set(k, v)
			} else {
				notes = append(notes, k+" "+jsonLiteral(v))
			}
		}
	}
	if nullable {
		out.set("nullable", true)
	}
	addNotes(out, notes)
	return out
}

// geminiType is a JSON Schema type name as Gemini's Type enum spells it ("object" → "OBJECT").
func geminiType(v any) any {
	if s, ok := v.(string); ok {
		return strings.ToUpper(s)
	}
	return v
}

// geminiTypes are the values of Gemini's Type enum a schema may use.
var geminiTypes = []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"}

// describe names a schema's type for a note.
func describe(s *ordObj) string {
	switch t := s.get("type").(type) {
	case string:
		return t
	case []any:
		var parts []string
		for _, x := range t {
			parts = append(parts, fmt.Sprint(x))
		}
		return strings.Join(parts, " or ")
	}
	if ref, ok := s.get("$ref").(string); ok {
		return strings.TrimPrefix(ref, "#/$defs/")
	}
	return "any"
}

// CheckGemini reports, all at once, what in b Gemini's function declarations do not accept.
func CheckGemini(b []byte) error {
	root, err := parseOrdered(b)
	if err != nil {
		return err
	}
	var errs []error
	var walk func(v any, path string)
	walk = func(v any, path string) {
		s, ok := v.(*ordObj)
		if !ok {
			errs = append(errs, fmt.Errorf("%s: a schema must be an object", path))
			return
		}
		for _, k := range s.keys {
			val := s.vals[k]
			if !slices.Contains(geminiKeywords, k) {
				errs = append(errs, fmt.Errorf("%s: keyword %q is not supported", path, k))
				continue
			}
			switch k {
			case "type":
				if t, ok := val.(string); !ok {
					errs = append(errs, fmt.Errorf("%s: type must be one string (use nullable)", path))
				} else if !slices.Contains(geminiTypes, t) {
					errs = append(errs, fmt.Errorf("%s: type %q is not one of %s", path, t, strings.Join(geminiTypes, ", ")))
				}
			case "enum":
				for _, e := range val.([]any) {
					if _, ok := e.(string); !ok {
						errs = append(errs, fmt.Errorf("%s: enum values must be strings", path))
						break
					}
				}
			case "format":
				if f, _ := val.(string); !slices.Contains(geminiFormats, f) {
					errs = append(errs, fmt.Errorf("%s: format %q is not supported", path, f))
				}
			case "properties":
				props, _ := val.(*ordObj)
				for _, pk := range props.keys {
					walk(props.vals[pk], path+".properties."+pk)
				}
			case "items":
				walk(val, path+".items")
			case "anyOf":
				for i, a := range val.([]any) {
					walk(a, path+".anyOf["+strconv.Itoa(i)+"]")
				}
			}
		}
	}
	walk(root, "$")
	return errors.Join(errs...)
}
