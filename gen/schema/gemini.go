package schema

import (
	"errors"
	"fmt"
	"github.com/winkgen/wink/runtime/adapters/gemini"
	"slices"
	"strconv"
	"strings"
)

// Gemini function declarations take an OpenAPI 3.0 subset; the runtime's Gemini adapter derives that form
// from the plain schema (gemini.Schema, which documents the conversion). CheckGemini reports what the
// subset does not allow.

// geminiKeywords are the schema fields Gemini accepts.
var geminiKeywords = []string{"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
	"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example",
	"anyOf", "propertyOrdering", "default", "items", "minimum", "maximum"}

// geminiFormats are the formats Gemini accepts.
var geminiFormats = []string{"date-time", "enum", "int32", "int64", "float", "double"}

// Gemini returns the Gemini form of plain, a schema written by Plain, as the Gemini adapter sends it (nil:
// the tool has no parameters and its declaration leaves "parameters" out).
func Gemini(plain []byte) ([]byte, error) {
	return gemini.Schema(plain)
}

// geminiTypes are the values of Gemini's Type enum a schema may use.
var geminiTypes = []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"}

// CheckGemini reports, all at once, what in b Gemini's function declarations do not accept: the fields,
// types and formats of the Schema object (https://ai.google.dev/api/caching#Schema), property names of
// letters, digits and underscores (https://ai.google.dev/api/caching#FunctionDeclaration), and an OBJECT
// without properties, which the API refuses (a function without parameters leaves "parameters" out).
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
		if s.get("type") == "OBJECT" {
			if p, _ := s.get("properties").(*ordObj); p == nil || len(p.keys) == 0 {
				errs = append(errs, fmt.Errorf("%s: an OBJECT must have properties", path))
			}
		}
		if s.get("type") == nil && s.get("anyOf") == nil {
			errs = append(errs, fmt.Errorf("%s: a schema needs a type", path))
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
					if !gemini.NameOK(pk) {
						errs = append(errs, fmt.Errorf("%s: property name %q is not one Gemini accepts", path, pk))
					}
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
