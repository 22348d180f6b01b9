package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// strictKeywords are the keywords OpenAI strict mode supports.
var strictKeywords = map[string]bool{
	"type": true, "description": true, "enum": true, "properties": true, "required": true,
	"additionalProperties": true, "items": true, "anyOf": true, "$ref": true, "$defs": true,
	"pattern": true, "format": true, "minimum": true, "maximum": true, "exclusiveMinimum": true,
	"exclusiveMaximum": true, "multipleOf": true, "minItems": true, "maxItems": true,
}

var jsonTypes = map[string]bool{
	"string": true, "number": true, "integer": true, "boolean": true, "object": true, "array": true, "null": true,
}

// CheckOpenAIStrict walks a strict-mode schema and reports every violation of OpenAI's strict rules
// (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas): the
// root is a non-nullable object; every object has "additionalProperties": false and lists every property
// in "required"; only supported keywords and formats appear; "type" is one type or [T, "null"]; an enum of
// a nullable type lists null; "$ref" has no siblings and resolves ("#" or "#/$defs/NAME"); "$defs" only at
// the root; no "type" beside "anyOf". Whether optional properties are nullable needs the plain schema: see
// CheckStrictAgainstPlain. Errors name the JSON pointer of the offending schema.
func CheckOpenAIStrict(schema []byte) error {
	root, err := parseSchema(schema)
	if err != nil {
		return err
	}
	c := &strictChecker{root: root}
	if m, ok := root.(map[string]any); ok {
		if t, _ := m["type"].(string); t != "object" {
			c.fail("", `root must have "type": "object"`)
		}
	}
	c.walk(root, "", true)
	return errors.Join(c.errs...)
}

// CheckStrictAgainstPlain checks that a strict schema keeps the plain schema's meaning for absent values:
// it has the same properties at every object, a property optional in plain is nullable in strict, and a
// property required in plain is not.
func CheckStrictAgainstPlain(strict, plain []byte) error {
	s, err := parseSchema(strict)
	if err != nil {
		return fmt.Errorf("strict: %w", err)
	}
	p, err := parseSchema(plain)
	if err != nil {
		return fmt.Errorf("plain: %w", err)
	}
	c := &strictChecker{}
	c.pair(p, s, "")
	return errors.Join(c.errs...)
}

func parseSchema(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("schema is not JSON: %w", err)
	}
	if d.More() {
		return nil, errors.New("schema has trailing data")
	}
	return v, nil
}

type strictChecker struct {
	root any
	errs []error
}

func (c *strictChecker) fail(ptr, format string, args ...any) {
	if ptr == "" {
		ptr = "/"
	}
	c.errs = append(c.errs, fmt.Errorf("%s: %s", ptr, fmt.Sprintf(format, args...)))
}

func escapePtr(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// types returns the "type" keyword's types, or nil when absent or malformed (reported).
func (c *strictChecker) types(m map[string]any, ptr string) []string {
	switch t := m["type"].(type) {
	case nil:
		return nil
	case string:
		if !jsonTypes[t] {
			c.fail(ptr, "unknown type %q", t)
		}
		return []string{t}
	case []any:
		var ts []string
		for _, e := range t {
			s, ok := e.(string)
			if !ok || !jsonTypes[s] {
				c.fail(ptr, "bad type entry %v", e)
				return nil
			}
			ts = append(ts, s)
		}
		if len(ts) != 2 || ts[0] == "null" || ts[1] != "null" {
			c.fail(ptr, `a type list must be [T, "null"], got %v`, ts)
		}
		return ts
	default:
		c.fail(ptr, "type must be a string or a list")
		return nil
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (c *strictChecker) walk(n any, ptr string, root bool) {
	m, ok := n.(map[string]any)
	if !ok {
		c.fail(ptr, "a schema must be a JSON object")
		return
	}
	for _, k := range sortedKeys(m) {
		if !strictKeywords[k] {
			c.fail(ptr, "keyword %q is not supported in strict mode", k)
		}
	}
	if r, ok := m["$ref"]; ok {
		if len(m) != 1 {
			c.fail(ptr, `"$ref" must not have sibling keywords`)
		}
		c.checkRef(r, ptr)
	}
	if _, ok := m["$defs"]; ok && !root {
		c.fail(ptr, `"$defs" is only allowed at the root`)
	}
	ts := c.types(m, ptr)
	_, hasAnyOf := m["anyOf"]
	if hasAnyOf && m["type"] != nil {
		c.fail(ptr, `"type" must not appear beside "anyOf"`)
	}
	if m["type"] == nil && !hasAnyOf && m["$ref"] == nil {
		c.fail(ptr, `schema has no "type", "anyOf" or "$ref"`)
	}
	if ap, ok := m["additionalProperties"]; ok && ap != false {
		c.fail(ptr, `"additionalProperties" must be false`)
	}
	if contains(ts, "object") {
		c.checkObject(m, ptr)
	} else if _, ok := m["properties"]; ok {
		c.fail(ptr, `"properties" on a schema whose type is not "object"`)
	}
	if _, ok := m["required"]; ok && m["properties"] == nil {
		c.fail(ptr, `"required" without "properties"`)
	}
	if items, ok := m["items"]; ok {
		c.walk(items, ptr+"/items", false)
	} else if contains(ts, "array") {
		c.fail(ptr, `an array needs "items"`)
	}
	if a, ok := m["anyOf"]; ok {
		l, ok := a.([]any)
		if !ok || len(l) == 0 {
			c.fail(ptr, `"anyOf" must be a non-empty list`)
		}
		for i, e := range l {
			c.walk(e, fmt.Sprintf("%s/anyOf/%d", ptr, i), false)
		}
	}
	if d, ok := m["$defs"]; ok {
		dm, ok := d.(map[string]any)
		if !ok {
			c.fail(ptr, `"$defs" must be an object`)
		}
		for _, k := range sortedKeys(dm) {
			c.walk(dm[k], ptr+"/$defs/"+escapePtr(k), false)
		}
	}
	if f, ok := m["format"]; ok {
		if s, _ := f.(string); !strictFormats[s] {
			c.fail(ptr, "format %v is not supported in strict mode", f)
		}
	}
	if e, ok := m["enum"]; ok {
		l, ok := e.([]any)
		if !ok || len(l) == 0 {
			c.fail(ptr, `"enum" must be a non-empty list`)
		}
		hasNull := false
		for _, v := range l {
			hasNull = hasNull || v == nil
		}
		if contains(ts, "null") != hasNull {
			c.fail(ptr, `"enum" must list null exactly when the type is nullable`)
		}
	}
	for _, k := range []string{"description", "pattern"} {
		if v, ok := m[k]; ok {
			if _, ok := v.(string); !ok {
				c.fail(ptr, "%q must be a string", k)
			}
		}
	}
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"} {
		if v, ok := m[k]; ok {
			if _, ok := v.(json.Number); !ok {
				c.fail(ptr, "%q must be a number", k)
			}
		}
	}
	for _, k := range []string{"minItems", "maxItems"} {
		if v, ok := m[k]; ok {
			n, ok := v.(json.Number)
			if i, err := n.Int64(); !ok || err != nil || i < 0 {
				c.fail(ptr, "%q must be a non-negative integer", k)
			}
		}
	}
}

func (c *strictChecker) checkObject(m map[string]any, ptr string) {
	if m["additionalProperties"] != false {
		c.fail(ptr, `an object needs "additionalProperties": false`)
	}
	props, ok := m["properties"].(map[string]any)
	if !ok {
		c.fail(ptr, `an object needs "properties"`)
		return
	}
	required := map[string]bool{}
	if r, ok := m["required"]; ok {
		l, ok := r.([]any)
		if !ok {
			c.fail(ptr, `"required" must be a list`)
		}
		for _, e := range l {
			s, ok := e.(string)
			switch {
			case !ok:
				c.fail(ptr, `"required" entries must be strings`)
			case required[s]:
				c.fail(ptr, "%q is listed twice in \"required\"", s)
			case props[s] == nil:
				c.fail(ptr, "%q is required but not a property", s)
			}
			required[s] = true
		}
	}
	for _, k := range sortedKeys(props) {
		if !required[k] {
			c.fail(ptr, "property %q is not listed in \"required\"", k)
		}
		c.walk(props[k], ptr+"/properties/"+escapePtr(k), false)
	}
}

func (c *strictChecker) checkRef(r any, ptr string) {
	s, ok := r.(string)
	if !ok {
		c.fail(ptr, `"$ref" must be a string`)
		return
	}
	if s == "#" {
		return
	}
	name, ok := strings.CutPrefix(s, "#/$defs/")
	if ok {
		if root, _ := c.root.(map[string]any); root != nil {
			if defs, _ := root["$defs"].(map[string]any); defs != nil && defs[name] != nil {
				return
			}
		}
	}
	c.fail(ptr, "$ref %q does not resolve", s)
}

// nullable reports whether a schema accepts null through "type" or an "anyOf" branch {"type":"null"}.
func nullable(n any) bool {
	m, _ := n.(map[string]any)
	switch t := m["type"].(type) {
	case string:
		if t == "null" {
			return true
		}
	case []any:
		for _, e := range t {
			if e == "null" {
				return true
			}
		}
	}
	if l, ok := m["anyOf"].([]any); ok {
		for _, e := range l {
			if nullable(e) {
				return true
			}
		}
	}
	return false
}

func (c *strictChecker) pair(p, s any, ptr string) {
	pm, _ := p.(map[string]any)
	sm, ok := s.(map[string]any)
	if pm == nil {
		return
	}
	if !ok {
		c.fail(ptr, "missing in the strict schema")
		return
	}
	if pp, ok := pm["properties"].(map[string]any); ok {
		sp, _ := sm["properties"].(map[string]any)
		req := map[string]bool{}
		if l, ok := pm["required"].([]any); ok {
			for _, e := range l {
				if s, ok := e.(string); ok {
					req[s] = true
				}
			}
		}
		for _, k := range sortedKeys(pp) {
			at := ptr + "/properties/" + escapePtr(k)
			sv, ok := sp[k]
			switch {
			case !ok:
				c.fail(ptr, "property %q is missing in the strict schema", k)
				continue
			case req[k] && nullable(sv):
				c.fail(at, "required in the plain schema but nullable in the strict schema")
			case !req[k] && !nullable(sv):
				c.fail(at, "optional in the plain schema but not nullable in the strict schema")
			}
			c.pair(pp[k], sv, at)
		}
		for _, k := range sortedKeys(sp) {
			if _, ok := pp[k]; !ok {
				c.fail(ptr, "property %q is not in the plain schema", k)
			}
		}
	}
	if pi, ok := pm["items"]; ok {
		c.pair(pi, sm["items"], ptr+"/items")
	}
	if pa, ok := pm["anyOf"].([]any); ok {
		if sa, ok := sm["anyOf"].([]any); ok && len(sa) == len(pa) {
			for i := range pa {
				c.pair(pa[i], sa[i], fmt.Sprintf("%s/anyOf/%d", ptr, i))
			}
		}
	}
	if pd, ok := pm["$defs"].(map[string]any); ok {
		sd, _ := sm["$defs"].(map[string]any)
		for _, k := range sortedKeys(pd) {
			c.pair(pd[k], sd[k], ptr+"/$defs/"+escapePtr(k))
		}
	}
}

// OpenAI's documented limits on a strict schema
// (https://platform.openai.com/docs/guides/structured-outputs#objects-have-limitations-on-nesting-depth-and-size).
const (
	OpenAIMaxProperties    = 5000    // object properties in all
	OpenAIMaxDepth         = 10      // nesting depth, counted as OpenAINesting counts it
	OpenAIMaxEnumValues    = 1000    // enum values across all enums
	OpenAIMaxBigEnumChars  = 15000   // characters of one string enum with more than 250 values
	OpenAIMaxStringsLength = 120_000 // characters of property names, definition names, enum and const values
)

// OpenAINesting returns how deep a strict schema nests, counted as OpenAI's own tooling counts it, and the
// JSON pointer of its deepest schema (the first in key order). The documentation says only "up to 10
// levels of nesting"; OpenAI's SDK validator (openai/openai-java,
// openai-java-core/src/main/kotlin/com/openai/core/JsonSchemaValidator.kt: validateSchema checks
// "depth <= MAX_NESTING_DEPTH" with MAX_NESTING_DEPTH = 10 at every schema it visits) gives the root depth
// 0 and every step into a sub-schema one more: each property of "properties" (validateProperties), an
// array's "items" (validateArraySchema), each "anyOf" alternative (validateAnyOfSchema) and each "$defs"
// definition (validateDefinitions); a "$ref" is not followed. So an object property holding a []struct is
// two levels (the array, then its items), a map sent as key/value pairs three (the array, the pair object,
// its "value"), and a nullable reference ({"anyOf":[{"$ref":...},{"type":"null"}]}) two.
func OpenAINesting(schema []byte) (depth int, deepest string, err error) {
	root, err := parseSchema(schema)
	if err != nil {
		return 0, "", err
	}
	depth = -1
	var walk func(n any, ptr string, d int)
	walk = func(n any, ptr string, d int) {
		if d > depth {
			depth, deepest = d, ptr
		}
		m, ok := n.(map[string]any)
		if !ok {
			return
		}
		if defs, ok := m["$defs"].(map[string]any); ok {
			for _, k := range sortedKeys(defs) {
				walk(defs[k], ptr+"/$defs/"+escapePtr(k), d+1)
			}
		}
		if a, ok := m["anyOf"].([]any); ok {
			for i, v := range a {
				walk(v, fmt.Sprintf("%s/anyOf/%d", ptr, i), d+1)
			}
		}
		if p, ok := m["properties"].(map[string]any); ok {
			for _, k := range sortedKeys(p) {
				walk(p[k], ptr+"/properties/"+escapePtr(k), d+1)
			}
		}
		if it, ok := m["items"]; ok {
			walk(it, ptr+"/items", d+1)
		}
	}
	walk(root, "#", 0)
	return depth, deepest, nil
}

// CheckOpenAILimits reports, all at once, the limits of OpenAI's strict mode that schema exceeds: the
// documented sizes, and the nesting depth as OpenAINesting counts it.
func CheckOpenAILimits(schema []byte) error {
	root, err := parseSchema(schema)
	if err != nil {
		return err
	}
	var props, enums, chars int
	var errs []error
	var walk func(n any)
	walk = func(n any) {
		m, ok := n.(map[string]any)
		if !ok {
			return
		}
		if p, ok := m["properties"].(map[string]any); ok {
			props += len(p)
			for k, v := range p {
				chars += len([]rune(k))
				walk(v)
			}
		}
		if e, ok := m["enum"].([]any); ok {
			enums += len(e)
			n := 0
			for _, v := range e {
				if s, ok := v.(string); ok {
					n += len([]rune(s))
				}
			}
			chars += n
			if len(e) > 250 && n > OpenAIMaxBigEnumChars {
				errs = append(errs, fmt.Errorf("an enum of %d values holds %d characters; at most %d when there are more than 250 values", len(e), n, OpenAIMaxBigEnumChars))
			}
		}
		if s, ok := m["const"].(string); ok {
			chars += len([]rune(s))
		}
		if d, ok := m["$defs"].(map[string]any); ok {
			for k, v := range d {
				chars += len([]rune(k))
				walk(v)
			}
		}
		if it, ok := m["items"]; ok {
			walk(it)
		}
		if a, ok := m["anyOf"].([]any); ok {
			for _, v := range a {
				walk(v)
			}
		}
	}
	walk(root)
	if props > OpenAIMaxProperties {
		errs = append(errs, fmt.Errorf("%d object properties; at most %d", props, OpenAIMaxProperties))
	}
	if depth, deepest, _ := OpenAINesting(schema); depth > OpenAIMaxDepth {
		errs = append(errs, fmt.Errorf("nesting depth %d at %s, counting each properties, items, anyOf and $defs step as OpenAI's validator does; at most %d", depth, deepest, OpenAIMaxDepth))
	}
	if enums > OpenAIMaxEnumValues {
		errs = append(errs, fmt.Errorf("%d enum values in all; at most %d", enums, OpenAIMaxEnumValues))
	}
	if chars > OpenAIMaxStringsLength {
		errs = append(errs, fmt.Errorf("%d characters of names, enum and const values; at most %d", chars, OpenAIMaxStringsLength))
	}
	return errors.Join(errs...)
}
