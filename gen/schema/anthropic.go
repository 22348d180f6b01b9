package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"slices"
	"strconv"
	"strings"
)

// Anthropic's strict tool use (tools[].strict) takes a JSON Schema subset: local $ref, enum, const,
// anyOf, required and additionalProperties false on every object, a few string formats, and minItems 0
// or 1; no numeric or length constraints, no pattern, no recursion, no other additionalProperties.
// AnthropicStrict converts a plain schema: what the subset cannot state is removed and restated in the
// description (the decoder enforces it all the same). ok is false when the schema cannot be strict (a
// map, a recursive type): such a tool is sent without strict.

// anthropicDrop are the keywords Anthropic's strict mode does not take (anthropic.StrictSchema removes
// them and restates them in the description).
var anthropicDrop = map[string]bool{
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minLength": true, "maxLength": true, "pattern": true, "maxItems": true, "uniqueItems": true, "default": true,
	"minProperties": true, "maxProperties": true,
}

// anthropicFormats are the string formats strict mode supports.
var anthropicFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}

// AnthropicStrict returns the strict form of plain as the Anthropic adapter sends it
// (anthropic.StrictSchema), or ok false when it has none.
func AnthropicStrict(plain []byte) (out []byte, ok bool, err error) {
	return anthropic.StrictSchema(plain)
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

// CheckAnthropicStrict reports, all at once, what in b Anthropic's strict tool use does not accept
// (https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations): an
// object without additionalProperties false, numeric and length constraints, minItems other than 0 or 1,
// formats outside the list, and recursion ("$ref":"#" or a definition that reaches itself).
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
				if anthropicDrop[k] || k == "oneOf" || k == "propertyNames" {
					errs = append(errs, fmt.Errorf("%s: keyword %q is not supported", path, k))
				}
			}
		}
	}
	walk(root, "$")
	if bytes.Contains(b, []byte(`"$ref":"#"`)) {
		errs = append(errs, errors.New(`$: recursive schemas are not supported ("$ref":"#")`))
	}
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
