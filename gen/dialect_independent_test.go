package gen

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Independent dialect checkers: each reads the exact bytes an adapter sends (Payload, the tools arrays of
// openai.ChatTools/ResponsesTools, anthropic.Tools/StrictTools and gemini.FunctionDeclarations) and holds
// them to the provider's documented rules, written here from the providers' documentation without the
// adapters' or gen/schema's code (a second reading of the same rules; the checkers of
// dialect_rules_test.go call gen/schema). Sources:
//
//   - OpenAI function names: ^[a-zA-Z0-9_-]{1,64}$ ("Must be a-z, A-Z, 0-9, or contain underscores and
//     dashes, with a maximum length of 64", https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools).
//   - OpenAI strict mode (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas):
//     types string, number, boolean, integer, object, array, null (in a type array), enum, anyOf; the root
//     is an object, not anyOf; every object has additionalProperties false and every property required;
//     supported keywords only (string: pattern, format; number: multipleOf, maximum, exclusiveMaximum,
//     minimum, exclusiveMinimum; array: minItems, maxItems; $defs and $ref, "#" for recursion); formats
//     date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid; at most 5000 object properties,
//     10 levels of nesting (counted as OpenAI's SDK validator counts: openai/openai-java,
//     openai-java-core/src/main/kotlin/com/openai/core/JsonSchemaValidator.kt, MAX_NESTING_DEPTH = 10, every
//     properties, items, anyOf and $defs step one level, $ref not followed), 1000 enum values, 120,000 characters of property names, definition names, enum
//     and const values, and 15,000 characters of values for one string enum of more than 250 values.
//   - Anthropic tools (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use):
//     name ^[a-zA-Z0-9_-]{1,64}$, input_schema an object schema without oneOf, allOf or anyOf at the top
//     level; property keys must match
//     ^[a-zA-Z0-9_.-]{1,64}$ (the API's 400 "Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'").
//   - Anthropic strict tool use (https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations):
//     additionalProperties false on every object; no numerical constraints (minimum, maximum, multipleOf,
//     exclusive bounds), no string constraints (minLength, maxLength), array minItems 0 or 1 only and no
//     other array constraints; enum of strings, numbers, booleans or null only; formats date-time, time,
//     date, duration, email, hostname, uri, ipv4, ipv6, uuid; local $ref only; no recursive schemas; per
//     request at most 20 strict tools, 24 optional parameters and 16 union-typed parameters.
//   - Gemini (https://ai.google.dev/api/caching#FunctionDeclaration, https://ai.google.dev/api/caching#Schema,
//     and Vertex AI's FunctionDeclaration reference, which states the parameter name rule): a function name
//     starts with a letter or an underscore and holds a-z, A-Z, 0-9, underscores, dots, colons and dashes,
//     at most 64; "parameters" is an OBJECT Schema, left unset for a function without parameters; a
//     Schema has only the fields type, format, title, description, nullable, enum, maxItems, minItems,
//     properties, required, minProperties, maxProperties, minLength, maxLength, pattern, example, anyOf,
//     propertyOrdering, default, items, minimum, maximum; type is one of STRING, NUMBER, INTEGER, BOOLEAN,
//     ARRAY, OBJECT, NULL; enum holds strings; formats are enum and date-time for STRING, float and double
//     for NUMBER, int32 and int64 for INTEGER; an OBJECT has at least one property (the API answers 400
//     otherwise), required and propertyOrdering name its properties; an ARRAY has items; parameter names
//     start with a letter or an underscore and hold only a-z, A-Z, 0-9 and underscores, at most 64.

var (
	openAIName       = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	anthropicName    = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	anthropicPropKey = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`)
	geminiFuncName   = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)
	geminiParamName  = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`)
)

// checkErrs collects a checker's findings, each with a JSON-pointer-like path.
type checkErrs []string

func (c *checkErrs) add(path, format string, args ...any) {
	*c = append(*c, path+": "+fmt.Sprintf(format, args...))
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }

// typesOf returns a schema's types ("type" as a string or an array).
func typesOf(m map[string]any) []string {
	switch t := m["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			s, _ := e.(string)
			out = append(out, s)
		}
		return out
	}
	return nil
}

// --- OpenAI strict ---

type openAIStrict struct {
	errs     checkErrs
	root     map[string]any
	props    int
	enumVals int
	chars    int
	maxDepth int
	refsSeen map[string]bool
}

func checkOpenAIStrictIndependent(params map[string]any) checkErrs {
	c := &openAIStrict{root: params, refsSeen: map[string]bool{}}
	if t := typesOf(params); len(t) != 1 || t[0] != "object" {
		c.errs.add("", "the root must be an object (type %v)", params["type"])
	}
	if _, ok := params["anyOf"]; ok {
		c.errs.add("", "the root must not be anyOf")
	}
	c.walk(params, "", 0, true)
	if defs := asMap(params["$defs"]); defs != nil {
		for name, d := range defs {
			c.chars += len(name)
			c.walk(asMap(d), "/$defs/"+name, 1, false)
		}
	}
	if c.props > 5000 {
		c.errs.add("", "%d object properties (at most 5000)", c.props)
	}
	if c.enumVals > 1000 {
		c.errs.add("", "%d enum values (at most 1000)", c.enumVals)
	}
	if c.chars > 120000 {
		c.errs.add("", "%d characters of names and values (at most 120,000)", c.chars)
	}
	if c.maxDepth > 10 {
		c.errs.add("", "nesting depth %d (at most 10, every properties, items, anyOf and $defs step counted)", c.maxDepth)
	}
	return c.errs
}

var openAIKeywords = []string{"type", "description", "enum", "const", "properties", "required", "additionalProperties",
	"items", "anyOf", "$ref", "$defs", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"pattern", "format", "minItems", "maxItems", "title"}
var openAIFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
var openAITypes = []string{"string", "number", "boolean", "integer", "object", "array", "null"}

// walk checks one schema at depth, counted as OpenAI's SDK validator counts (openai/openai-java,
// JsonSchemaValidator.kt: the root is 0, each property, items, anyOf alternative and $defs entry one more).
func (c *openAIStrict) walk(m map[string]any, path string, depth int, root bool) {
	c.maxDepth = max(c.maxDepth, depth)
	if m == nil {
		c.errs.add(path, "not a schema")
		return
	}
	for k := range m {
		if !slices.Contains(openAIKeywords, k) {
			c.errs.add(path, "keyword %q is not supported in strict mode", k)
		}
		if k == "$defs" && !root {
			c.errs.add(path, "$defs only at the root")
		}
	}
	if ref, ok := m["$ref"]; ok {
		r, _ := ref.(string)
		if len(m) > 1 {
			c.errs.add(path, "$ref beside other keywords")
		}
		if r != "#" {
			name, ok := strings.CutPrefix(r, "#/$defs/")
			if !ok || asMap(c.root["$defs"])[name] == nil {
				c.errs.add(path, "$ref %q does not resolve to a local definition", r)
			}
		}
		return
	}
	types := typesOf(m)
	_, hasAny := m["anyOf"]
	_, hasEnum := m["enum"]
	_, hasConst := m["const"]
	if len(types) == 0 && !hasAny && !hasEnum && !hasConst {
		c.errs.add(path, "no type (free-form values cannot be stated in strict mode)")
	}
	for _, t := range types {
		if !slices.Contains(openAITypes, t) {
			c.errs.add(path, "type %q not supported", t)
		}
	}
	if f, ok := m["format"]; ok {
		if s, _ := f.(string); !slices.Contains(openAIFormats, s) {
			c.errs.add(path, "format %v not supported", f)
		}
	}
	if e, ok := m["enum"].([]any); ok {
		c.enumVals += len(e)
		total := 0
		for _, v := range e {
			if s, ok := v.(string); ok {
				total += len(s)
			} else if v != nil && !slices.ContainsFunc(types, func(t string) bool { return t == "integer" || t == "number" || t == "boolean" }) {
				c.errs.add(path, "enum value %v does not match the type %v", v, types)
			}
		}
		c.chars += total
		if len(e) > 250 && total > 15000 {
			c.errs.add(path, "an enum of %d values with %d characters (at most 15,000 past 250 values)", len(e), total)
		}
	}
	if cv, ok := m["const"].(string); ok {
		c.chars += len(cv)
	}
	if slices.Contains(types, "object") || m["properties"] != nil {
		if m["additionalProperties"] != false {
			c.errs.add(path, "an object without additionalProperties false")
		}
		props := asMap(m["properties"])
		req, _ := m["required"].([]any)
		var reqNames []string
		for _, r := range req {
			s, _ := r.(string)
			reqNames = append(reqNames, s)
		}
		for name, p := range props {
			c.props++
			c.chars += len(name)
			if !slices.Contains(reqNames, name) {
				c.errs.add(path+"/properties/"+name, "not listed in required (strict mode requires every property)")
			}
			c.walk(asMap(p), path+"/properties/"+name, depth+1, false)
		}
		if len(reqNames) != len(props) {
			c.errs.add(path, "required lists %d names for %d properties", len(reqNames), len(props))
		}
	}
	if slices.Contains(types, "array") {
		it, ok := m["items"]
		if !ok {
			c.errs.add(path, "an array without items")
		} else {
			c.walk(asMap(it), path+"/items", depth+1, false)
		}
	}
	if alts, ok := m["anyOf"].([]any); ok {
		if len(alts) == 0 {
			c.errs.add(path, "empty anyOf")
		}
		for i, a := range alts {
			c.walk(asMap(a), fmt.Sprintf("%s/anyOf/%d", path, i), depth+1, false)
		}
	}
}

// --- Anthropic ---

var anthropicStrictDrop = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minLength", "maxLength", "maxItems", "uniqueItems", "minProperties", "maxProperties", "patternProperties",
	"propertyNames", "contains", "minContains", "maxContains", "unevaluatedProperties", "unevaluatedItems"}
var anthropicFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}

// checkAnthropicKeys holds every property key of a schema to Anthropic's pattern.
func checkAnthropicKeys(m map[string]any, path string, errs *checkErrs) {
	if m == nil {
		return
	}
	for name, p := range asMap(m["properties"]) {
		if !anthropicPropKey.MatchString(name) {
			errs.add(path+"/properties", "property key %q does not match ^[a-zA-Z0-9_.-]{1,64}$", name)
		}
		checkAnthropicKeys(asMap(p), path+"/properties/"+name, errs)
	}
	checkAnthropicKeys(asMap(m["items"]), path+"/items", errs)
	if ap := asMap(m["additionalProperties"]); ap != nil {
		checkAnthropicKeys(ap, path+"/additionalProperties", errs)
	}
	for name, d := range asMap(m["$defs"]) {
		checkAnthropicKeys(asMap(d), path+"/$defs/"+name, errs)
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		alts, _ := m[k].([]any)
		for i, a := range alts {
			checkAnthropicKeys(asMap(a), fmt.Sprintf("%s/%s/%d", path, k, i), errs)
		}
	}
}

func checkAnthropicStrictIndependent(root map[string]any) checkErrs {
	var errs checkErrs
	var walk func(m map[string]any, path string, refs []string)
	walk = func(m map[string]any, path string, refs []string) {
		if m == nil {
			errs.add(path, "not a schema")
			return
		}
		for _, k := range anthropicStrictDrop {
			if _, ok := m[k]; ok {
				errs.add(path, "%s is not supported in strict tool use", k)
			}
		}
		if n, ok := m["minItems"].(float64); ok && n != 0 && n != 1 {
			errs.add(path, "minItems %v (only 0 or 1)", n)
		}
		if f, ok := m["format"]; ok {
			if s, _ := f.(string); !slices.Contains(anthropicFormats, s) {
				errs.add(path, "format %v not supported", f)
			}
		}
		if e, ok := m["enum"].([]any); ok {
			for _, v := range e {
				switch v.(type) {
				case map[string]any, []any:
					errs.add(path, "enum holds a complex value %v", v)
				}
			}
		}
		if ref, ok := m["$ref"].(string); ok {
			if ref == "#" || slices.Contains(refs, ref) {
				errs.add(path, "recursive $ref %q", ref)
				return
			}
			name, ok := strings.CutPrefix(ref, "#/$defs/")
			d := asMap(asMap(root["$defs"])[name])
			if !ok || d == nil {
				errs.add(path, "$ref %q is not a local definition", ref)
				return
			}
			walk(d, path+"->"+ref, append(refs, ref))
		}
		types := typesOf(m)
		if slices.Contains(types, "object") || m["properties"] != nil {
			if m["additionalProperties"] != false {
				errs.add(path, "an object without additionalProperties false")
			}
		}
		for name, p := range asMap(m["properties"]) {
			walk(asMap(p), path+"/properties/"+name, refs)
		}
		if it, ok := m["items"]; ok {
			walk(asMap(it), path+"/items", refs)
		}
		for _, k := range []string{"anyOf", "allOf"} {
			alts, _ := m[k].([]any)
			for i, a := range alts {
				am := asMap(a)
				if k == "allOf" && am["$ref"] != nil {
					errs.add(path, "allOf with $ref is not supported")
				}
				walk(am, fmt.Sprintf("%s/%s/%d", path, k, i), refs)
			}
		}
	}
	walk(root, "", nil)
	return errs
}

// --- Gemini ---

var geminiFields = []string{"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
	"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example",
	"anyOf", "propertyOrdering", "default", "items", "minimum", "maximum"}
var geminiTypes = []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"}
var geminiFormats = map[string][]string{"STRING": {"enum", "date-time"}, "NUMBER": {"float", "double"}, "INTEGER": {"int32", "int64"}}

func checkGeminiSchemaIndependent(m map[string]any, path string, errs *checkErrs) {
	if m == nil {
		errs.add(path, "not a Schema object")
		return
	}
	for k := range m {
		if !slices.Contains(geminiFields, k) {
			errs.add(path, "field %q is not a Schema field", k)
		}
	}
	t, isStr := m["type"].(string)
	_, hasAny := m["anyOf"]
	if m["type"] != nil && (!isStr || !slices.Contains(geminiTypes, t)) {
		errs.add(path, "type %v is not a Type", m["type"])
	}
	if m["type"] == nil && !hasAny {
		errs.add(path, "no type")
	}
	if n, ok := m["nullable"]; ok {
		if _, b := n.(bool); !b {
			errs.add(path, "nullable %v is not a boolean", n)
		}
	}
	if f, ok := m["format"]; ok {
		s, _ := f.(string)
		if !slices.Contains(geminiFormats[t], s) {
			errs.add(path, "format %v is not one Gemini accepts for %s", f, t)
		}
	}
	if e, ok := m["enum"]; ok {
		arr, isArr := e.([]any)
		if !isArr || len(arr) == 0 {
			errs.add(path, "enum %v is not a list of strings", e)
		}
		for _, v := range arr {
			if _, ok := v.(string); !ok {
				errs.add(path, "enum value %v is not a string", v)
			}
		}
		if t != "STRING" {
			errs.add(path, "enum on a %s", t)
		}
	}
	for _, k := range []string{"maxItems", "minItems", "minProperties", "maxProperties", "minLength", "maxLength"} {
		if v, ok := m[k]; ok {
			if n, ok := v.(float64); !ok || n < 0 || n != float64(int64(n)) {
				errs.add(path, "%s %v is not a non-negative integer", k, v)
			}
		}
	}
	for _, k := range []string{"minimum", "maximum"} {
		if v, ok := m[k]; ok {
			if _, ok := v.(float64); !ok {
				errs.add(path, "%s %v is not a number", k, v)
			}
		}
	}
	if d, ok := m["description"]; ok {
		if _, ok := d.(string); !ok {
			errs.add(path, "description is not a string")
		}
	}
	props := asMap(m["properties"])
	if t == "OBJECT" {
		if len(props) == 0 {
			errs.add(path, "an OBJECT without properties (the API answers 400)")
		}
	} else if m["properties"] != nil {
		errs.add(path, "properties on a %s", t)
	}
	for name, p := range props {
		if !geminiParamName.MatchString(name) {
			errs.add(path+"/properties", "parameter name %q: letters, digits and underscores, starting with a letter or an underscore, at most 64", name)
		}
		checkGeminiSchemaIndependent(asMap(p), path+"/properties/"+name, errs)
	}
	for _, k := range []string{"required", "propertyOrdering"} {
		if v, ok := m[k]; ok {
			arr, _ := v.([]any)
			for _, r := range arr {
				s, _ := r.(string)
				if _, ok := props[s]; !ok {
					errs.add(path, "%s names %v, which is not a property", k, r)
				}
			}
		}
	}
	if t == "ARRAY" {
		if _, ok := m["items"]; !ok {
			errs.add(path, "an ARRAY without items")
		}
	}
	if it, ok := m["items"]; ok {
		if t != "ARRAY" {
			errs.add(path, "items on a %s", t)
		}
		checkGeminiSchemaIndependent(asMap(it), path+"/items", errs)
	}
	if alts, ok := m["anyOf"]; ok {
		arr, _ := alts.([]any)
		if len(arr) == 0 {
			errs.add(path, "empty anyOf")
		}
		for i, a := range arr {
			checkGeminiSchemaIndependent(asMap(a), fmt.Sprintf("%s/anyOf/%d", path, i), errs)
		}
	}
}

// payloadEntries renders tools in format and returns the array's entries.
func payloadEntries(t *testing.T, tools []ToolInfo, format string) []map[string]any {
	t.Helper()
	b, err := Payload(tools, format)
	if err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	var entries []map[string]any
	if err := json.Unmarshal(b, &entries); err != nil {
		t.Fatalf("%s: the payload is not a JSON array of objects: %v\n%s", format, err, b)
	}
	if len(entries) != len(tools) {
		t.Fatalf("%s: %d entries for %d tools", format, len(entries), len(tools))
	}
	return entries
}

func TestIndependentOpenAIChecker(t *testing.T) {
	tools := dialectTools(t)
	for _, format := range []string{"openai", "openai-responses"} {
		for _, ti := range tools {
			e := payloadEntries(t, []ToolInfo{ti}, format)[0]
			if e["type"] != "function" {
				t.Errorf("%s %s: type %v", format, ti.Name, e["type"])
			}
			fn := e
			if format == "openai" {
				fn = asMap(e["function"])
			}
			name, _ := fn["name"].(string)
			if !openAIName.MatchString(name) {
				t.Errorf("%s: name %q does not match ^[a-zA-Z0-9_-]{1,64}$", format, name)
			}
			params := asMap(fn["parameters"])
			if fn["strict"] != true {
				t.Errorf("%s %s: not sent strict", format, ti.Name)
				continue
			}
			for _, err := range checkOpenAIStrictIndependent(params) {
				t.Errorf("%s %s: %s", format, ti.Name, err)
			}
		}
	}
}

func TestIndependentAnthropicChecker(t *testing.T) {
	tools := dialectTools(t)
	strict := 0
	for _, ti := range tools {
		for _, format := range []string{"anthropic", "anthropic-strict"} {
			e := payloadEntries(t, []ToolInfo{ti}, format)[0]
			name, _ := e["name"].(string)
			if !anthropicName.MatchString(name) {
				t.Errorf("%s: name %q does not match ^[a-zA-Z0-9_-]{1,64}$", format, name)
			}
			in := asMap(e["input_schema"])
			if t0 := typesOf(in); len(t0) != 1 || t0[0] != "object" {
				t.Errorf("%s %s: input_schema type %v, want object", format, ti.Name, in["type"])
			}
			for _, k := range []string{"anyOf", "oneOf", "allOf"} {
				if _, ok := in[k]; ok {
					t.Errorf("%s %s: input_schema has %s at the top level, which the API does not support", format, ti.Name, k)
				}
			}
			var errs checkErrs
			checkAnthropicKeys(in, "", &errs)
			if e["strict"] == true {
				strict++
				errs = append(errs, checkAnthropicStrictIndependent(in)...)
			}
			for _, err := range errs {
				t.Errorf("%s %s: %s", format, ti.Name, err)
			}
		}
	}
	if strict < 50 {
		t.Errorf("only %d tools sent strict", strict)
	}
	// Per request (each package's tools in one request): at most 20 strict tools, 24 optional parameters
	// across their schemas and 16 parameters with a union type (a type array or anyOf)
	// (https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations).
	byPkg := map[string][]ToolInfo{}
	for _, ti := range tools {
		byPkg[ti.Package] = append(byPkg[ti.Package], ti)
	}
	for pkg, ts := range byPkg {
		var nStrict, optional, unions int
		for _, e := range payloadEntries(t, ts, "anthropic-strict") {
			if e["strict"] != true {
				continue
			}
			nStrict++
			var walk func(v any)
			walk = func(v any) {
				switch v := v.(type) {
				case map[string]any:
					if props := asMap(v["properties"]); props != nil {
						req, _ := v["required"].([]any)
						optional += len(props) - len(req)
					}
					if _, ok := v["type"].([]any); ok {
						unions++
					} else if _, ok := v["anyOf"]; ok {
						unions++
					}
					for k, x := range v {
						if k != "enum" && k != "const" && k != "default" {
							walk(x)
						}
					}
				case []any:
					for _, x := range v {
						walk(x)
					}
				}
			}
			walk(e["input_schema"])
		}
		if nStrict > 20 || optional > 24 || unions > 16 {
			t.Errorf("%s: one request has %d strict tools, %d optional parameters, %d union types (at most 20, 24, 16)", pkg, nStrict, optional, unions)
		}
	}
}

func TestIndependentGeminiChecker(t *testing.T) {
	for _, ti := range dialectTools(t) {
		e := payloadEntries(t, []ToolInfo{ti}, "gemini")[0]
		for k := range e {
			if k != "name" && k != "description" && k != "parameters" {
				t.Errorf("%s: declaration field %q", ti.Name, k)
			}
		}
		name, _ := e["name"].(string)
		if !geminiFuncName.MatchString(name) {
			t.Errorf("function name %q: starts with a letter or an underscore; a-z, A-Z, 0-9, '_', '.', ':', '-'; at most 64", name)
		}
		p, ok := e["parameters"]
		if !ok {
			continue
		}
		params := asMap(p)
		if params["type"] != "OBJECT" {
			t.Errorf("%s: parameters type %v, want OBJECT", ti.Name, params["type"])
		}
		var errs checkErrs
		checkGeminiSchemaIndependent(params, "", &errs)
		for _, err := range errs {
			t.Errorf("%s: %s", ti.Name, err)
		}
	}
}
