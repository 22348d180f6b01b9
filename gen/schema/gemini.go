package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
				notes = append(notes, "one of "+gemLiterals(arr))
			}
		case "const":
			if str, ok := v.(string); ok {
				out.set("enum", []any{str})
			} else {
				notes = append(notes, "exactly "+gemLiteral(v))
			}
		case "exclusiveMinimum":
			notes = append(notes, "greater than "+gemLiteral(v))
		case "exclusiveMaximum":
			notes = append(notes, "less than "+gemLiteral(v))
		case "multipleOf":
			notes = append(notes, "a multiple of "+gemLiteral(v))
		case "uniqueItems":
			if v == true {
				notes = append(notes, "items unique")
			}
		case "format":
			if f, ok := v.(string); ok && slices.Contains(geminiFormats, f) {
				out.set("format", f)
			} else {
				notes = append(notes, "format "+gemLiteral(v))
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
				notes = append(notes, k+" "+gemLiteral(v))
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

func gemLiteral(v any) string {
	var b bytes.Buffer
	writeOrdered(&b, v)
	return b.String()
}

func gemLiterals(vs []any) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, gemLiteral(v))
	}
	return strings.Join(parts, ", ")
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

// ordObj is a JSON object that keeps its keys' order.
type ordObj struct {
	keys []string
	vals map[string]any
}

func (o *ordObj) get(k string) any {
	if o == nil || o.vals == nil {
		return nil
	}
	return o.vals[k]
}

func (o *ordObj) set(k string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// parseOrdered parses JSON into *ordObj, []any, string, json.Number, bool and nil.
func parseOrdered(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the schema")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &ordObj{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(kt.(string), v)
			}
			_, err := dec.Token()
			return o, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
	}
	return t, nil
}

// writeOrdered writes v compactly, objects in their keys' order.
func writeOrdered(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case *ordObj:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeOrdered(b, k)
			b.WriteByte(':')
			writeOrdered(b, v.vals[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeOrdered(b, e)
		}
		b.WriteByte(']')
	default:
		enc := json.NewEncoder(b)
		enc.SetEscapeHTML(false)
		enc.Encode(v)
		b.Truncate(b.Len() - 1) // the encoder's newline
	}
}

// Anthropic's strict tool use (tools[].strict) takes a JSON Schema subset: local $ref, enum, const,
// anyOf, required and additionalProperties false on every object, a few string formats, and minItems 0
// or 1; no numeric or length constraints, no pattern, no recursion, no other additionalProperties.
// AnthropicStrict converts a plain schema: what the subset cannot state is removed and restated in the
// description (the decoder enforces it all the same). ok is false when the schema cannot be strict (a
// map, a recursive type): such a tool is sent without strict.

// anthropicDrop are the keywords removed (and restated) for Anthropic's strict mode.
var anthropicDrop = map[string]string{
	"minimum": "at least ", "maximum": "at most ", "exclusiveMinimum": "greater than ", "exclusiveMaximum": "less than ",
	"multipleOf": "a multiple of ", "minLength": "at least %s characters", "maxLength": "at most %s characters",
	"pattern": "matching ", "maxItems": "at most %s items", "uniqueItems": "items unique", "default": "default ",
	"minProperties": "at least %s keys", "maxProperties": "at most %s keys",
}

// anthropicFormats are the string formats strict mode supports.
var anthropicFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}

// AnthropicStrict returns the strict form of plain, or ok false when it cannot have one.
func AnthropicStrict(plain []byte) (out []byte, ok bool, err error) {
	root, err := parseOrdered(plain)
	if err != nil {
		return nil, false, err
	}
	o, isObj := root.(*ordObj)
	if !isObj {
		return nil, false, errors.New("schema is not an object")
	}
	ok = true
	defs, _ := o.get("$defs").(*ordObj)
	// A definition that reaches itself is recursive: strict mode refuses it.
	for _, name := range defsKeys(defs) {
		if reaches(defs, name, name, map[string]bool{}) {
			return nil, false, nil
		}
	}
	var conv func(s *ordObj) *ordObj
	conv = func(s *ordObj) *ordObj {
		out := &ordObj{}
		var notes []string
		for _, k := range s.keys {
			v := s.vals[k]
			switch {
			case k == "additionalProperties":
				if v != false {
					ok = false // a map
				}
				out.set(k, false)
			case k == "minItems":
				if n, _ := v.(json.Number); n == "0" || n == "1" {
					out.set(k, v)
				} else {
					notes = append(notes, "at least "+gemLiteral(v)+" items")
				}
			case k == "format":
				if f, _ := v.(string); slices.Contains(anthropicFormats, f) {
					out.set(k, v)
				} else {
					notes = append(notes, "format "+gemLiteral(v))
				}
			case anthropicDrop[k] != "":
				w := anthropicDrop[k]
				if strings.Contains(w, "%s") {
					notes = append(notes, strings.Replace(w, "%s", gemLiteral(v), 1))
				} else if k == "uniqueItems" {
					if v == true {
						notes = append(notes, w)
					}
				} else {
					notes = append(notes, w+gemLiteral(v))
				}
			case k == "properties" || k == "$defs":
				m, _ := v.(*ordObj)
				c := &ordObj{}
				for _, pk := range m.keys {
					if ps, isObj := m.vals[pk].(*ordObj); isObj {
						c.set(pk, conv(ps))
					}
				}
				out.set(k, c)
			case k == "items":
				if is, isObj := v.(*ordObj); isObj {
					out.set(k, conv(is))
				}
			case k == "anyOf" || k == "oneOf" || k == "allOf":
				arr, _ := v.([]any)
				var alts []any
				for _, a := range arr {
					if as, isObj := a.(*ordObj); isObj {
						alts = append(alts, conv(as))
					}
				}
				if k == "oneOf" {
					k = "anyOf"
				}
				out.set(k, alts)
			default:
				out.set(k, v)
			}
		}
		if t, _ := out.get("type").(string); t == "object" || hasType(out, "object") {
			if out.get("additionalProperties") == nil {
				out.set("additionalProperties", false)
			}
		}
		addNotes(out, notes)
		return out
	}
	res := conv(o)
	if !ok {
		return nil, false, nil
	}
	var b bytes.Buffer
	writeOrdered(&b, res)
	return b.Bytes(), true, nil
}

func hasType(s *ordObj, name string) bool {
	arr, _ := s.get("type").([]any)
	return slices.Contains(arr, any(name))
}

func defsKeys(defs *ordObj) []string {
	if defs == nil {
		return nil
	}
	return defs.keys
}

// reaches reports whether definition from refers, directly or not, to target.
func reaches(defs *ordObj, from, target string, seen map[string]bool) bool {
	if seen[from] {
		return false
	}
	seen[from] = true
	def, _ := defs.get(from).(*ordObj)
	found := false
	var walk func(v any)
	walk = func(v any) {
		if found {
			return
		}
		switch v := v.(type) {
		case *ordObj:
			if ref, ok := v.get("$ref").(string); ok {
				name := strings.TrimPrefix(ref, "#/$defs/")
				if name == target || reaches(defs, name, target, seen) {
					found = true
					return
				}
			}
			for _, k := range v.keys {
				walk(v.vals[k])
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(def)
	return found
}

// CheckAnthropicStrict reports, all at once, what in b Anthropic's strict tool use does not accept.
func CheckAnthropicStrict(b []byte) error {
	root, err := parseOrdered(b)
	if err != nil {
		return err
	}
	var errs []error
	var walk func(v any, path string)
	walk = func(v any, path string) {
		s, ok := v.(*ordObj)
		if !ok {
			return
		}
		isObject := s.get("type") == "object" || hasType(s, "object")
		if isObject && s.get("additionalProperties") != false {
			errs = append(errs, fmt.Errorf("%s: an object must have additionalProperties false", path))
		}
		for _, k := range s.keys {
			val := s.vals[k]
			switch k {
			case "minItems":
				if n, _ := val.(json.Number); n != "0" && n != "1" {
					errs = append(errs, fmt.Errorf("%s: minItems must be 0 or 1", path))
				}
			case "format":
				if f, _ := val.(string); !slices.Contains(anthropicFormats, f) {
					errs = append(errs, fmt.Errorf("%s: format %q is not supported", path, f))
				}
			case "properties", "$defs":
				m, _ := val.(*ordObj)
				for _, pk := range m.keys {
					walk(m.vals[pk], path+"."+k+"."+pk)
				}
			case "items":
				walk(val, path+".items")
			case "anyOf", "allOf":
				for i, a := range val.([]any) {
					walk(a, path+"."+k+"["+strconv.Itoa(i)+"]")
				}
			default:
				if anthropicDrop[k] != "" || k == "oneOf" || k == "propertyNames" {
					errs = append(errs, fmt.Errorf("%s: keyword %q is not supported", path, k))
				}
			}
		}
	}
	walk(root, "$")
	if o, ok := root.(*ordObj); ok {
		defs, _ := o.get("$defs").(*ordObj)
		for _, name := range defsKeys(defs) {
			if reaches(defs, name, name, map[string]bool{}) {
				errs = append(errs, fmt.Errorf("$defs.%s: recursive schemas are not supported", name))
			}
		}
	}
	return errors.Join(errs...)
}

// addNotes restates notes at the end of out's description, in parentheses, joined by "; ".
func addNotes(out *ordObj, notes []string) {
	if len(notes) == 0 {
		return
	}
	d, _ := out.get("description").(string)
	note := "(" + strings.Join(notes, "; ") + ")"
	if d != "" {
		d += " " + note
	} else {
		d = note
	}
	out.set("description", d)
}
