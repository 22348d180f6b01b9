package anthropic

import (
	"errors"
	"slices"
	"strconv"

	"github.com/winkgen/wink/runtime/adapters/internal/jsontree"
	"github.com/winkgen/wink/runtime/adapters/internal/toolset"
	"github.com/winkgen/wink/runtime/wink"
)

// Anthropic's strict tool use (tools[].strict) takes a JSON Schema subset: local $ref, enum, const, anyOf,
// required and additionalProperties false on every object, a few string formats, and minItems 0 or 1; no
// numeric or length constraints, no pattern, no recursion, no other additionalProperties
// (https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations).
// StrictSchema converts a plain schema to it: what the subset cannot state is removed and restated in the
// description (the decoder enforces it all the same).

// anthropicDrop are the keywords removed (and restated in jsontree.Note's words) for Anthropic's strict mode.
var anthropicDrop = map[string]bool{
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minLength": true, "maxLength": true, "pattern": true, "maxItems": true, "uniqueItems": true, "default": true,
	"minProperties": true, "maxProperties": true,
}

// StrictFormats are the string formats Anthropic's strict mode supports.
var StrictFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}

// StrictSchema returns the strict form of plain (a winkgen Spec.ParamsSchema), or ok false when the
// params cannot have one and the tool is sent without strict: a map (an object with arbitrary keys), a
// free-form JSON value (a schema stating no type), or a recursive type ("$ref":"#" or a definition that
// reaches itself). It is a pure function of plain; StrictTools caches it per tool, and winkgen calls it at
// generation time.
func StrictSchema(plain []byte) (out []byte, ok bool, err error) {
	root, err := jsontree.ParseObject(plain)
	if err != nil {
		return nil, false, err
	}
	if jsontree.Recursive(root) {
		return nil, false, nil
	}
	ok = true
	var conv func(s *jsontree.Obj) *jsontree.Obj
	conv = func(s *jsontree.Obj) *jsontree.Obj {
		out := &jsontree.Obj{}
		if jsontree.IsAny(s) {
			ok = false // free-form JSON
		}
		var notes []string
		for _, k := range s.Keys {
			v := s.Vals[k]
			switch {
			case k == "$schema":
			case k == "additionalProperties":
				if v != false {
					ok = false // a map
				}
				out.Set(k, false)
			case k == "propertyNames":
				ok = false // a map's keys
			case k == "minItems":
				if n, _ := v.(jsontree.Num); n == "0" || n == "1" {
					out.Set(k, v)
				} else {
					n, _ := jsontree.Note(k, v)
					notes = append(notes, n)
				}
			case k == "format":
				if f, _ := v.(string); slices.Contains(StrictFormats, f) {
					out.Set(k, v)
				} else {
					n, _ := jsontree.Note(k, v)
					notes = append(notes, n)
				}
			case anthropicDrop[k]:
				if n, ok := jsontree.Note(k, v); ok {
					notes = append(notes, n)
				}
			case k == "properties" || k == "$defs":
				m, _ := v.(*jsontree.Obj)
				c := &jsontree.Obj{}
				if m != nil {
					for _, pk := range m.Keys {
						if ps, isObj := m.Vals[pk].(*jsontree.Obj); isObj {
							c.Set(pk, conv(ps))
						}
					}
				}
				out.Set(k, c)
			case k == "items":
				if is, isObj := v.(*jsontree.Obj); isObj {
					out.Set(k, conv(is))
				}
			case k == "anyOf" || k == "oneOf" || k == "allOf":
				arr, _ := v.([]any)
				var alts []any
				for _, a := range arr {
					if as, isObj := a.(*jsontree.Obj); isObj {
						alts = append(alts, conv(as))
					}
				}
				if k == "oneOf" {
					k = "anyOf"
				}
				out.Set(k, alts)
			default:
				out.Set(k, v)
			}
		}
		if jsontree.HasType(out, "object") && !out.Has("additionalProperties") {
			out.Set("additionalProperties", false)
		}
		jsontree.AddNotes(out, notes)
		return out
	}
	res := conv(root)
	if !ok {
		return nil, false, nil
	}
	return jsontree.Append(make([]byte, 0, len(plain)), res), true, nil
}

// strictCache holds each tool's strict form; schema nil when it has none.
var strictCache toolset.Dialect[[]byte]

// strictSchema returns the cached strict form of plain, nil when it has none (or plain is not JSON:
// Check reports that).
func strictSchema(plain []byte) []byte {
	return strictCache.Get(plain, func(plain []byte) []byte {
		b, ok, err := StrictSchema(plain)
		if err != nil || !ok {
			return nil
		}
		return b
	})
}

// KeyOK reports whether Anthropic accepts name as a property key of input_schema: ^[a-zA-Z0-9_.-]{1,64}$
// (the Messages API refuses the whole request otherwise: "Property keys should match pattern
// '^[a-zA-Z0-9_.-]{1,64}$'"). winkgen's names are within it (it diagnoses what Gemini refuses, a subset).
func KeyOK(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c == '.' || c == '-' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// keysCache holds each tool's first property key outside KeyOK ("" when all pass).
var keysCache toolset.Dialect[string]

// keysUsable reports a tool whose input_schema has a top-level property key Anthropic refuses (the key the
// API validates), before the request is sent.
func keysUsable(s *wink.Spec) error {
	bad := keysCache.Get(s.ParamsSchema, func(plain []byte) string {
		root, err := jsontree.ParseObject(plain)
		if err != nil {
			return "" // reported by the schema check
		}
		props, _ := root.Get("properties").(*jsontree.Obj)
		if props == nil {
			return ""
		}
		for _, k := range props.Keys {
			if !KeyOK(k) {
				return strconv.Quote(k)
			}
		}
		return ""
	})
	if bad != "" {
		return errors.New("property key " + bad + " does not match ^[a-zA-Z0-9_.-]{1,64}$, which Anthropic requires")
	}
	return nil
}
