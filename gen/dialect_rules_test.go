package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/winkgen/wink/gen/schema"
	"github.com/winkgen/wink/internal/schemaoracle"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/gemini"
	"github.com/winkgen/wink/runtime/adapters/openai"
)

// The providers' documented rules each dialect test holds every tool to. The checkers (gen/schema) implement
// them; each rule names its source.
//
// OpenAI strict mode (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas):
//   - the root is an object, every object has "additionalProperties": false and lists every property in
//     "required" (optional values are nullable instead), "$ref" resolves locally and "$defs" is at the root
//     (schema.CheckOpenAIStrict);
//   - only the supported keywords and string formats appear (schema.CheckOpenAIStrict);
//   - at most 5000 properties, 10 levels of nesting, 1000 enum values, 120,000 characters of names and
//     values (schema.CheckOpenAILimits, "Objects have limitations on nesting depth and size"); the depth
//     counted as OpenAI's SDK validator counts it (schema.OpenAINesting).
//
// Anthropic strict tool use (https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations,
// https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use):
//   - "additionalProperties": false on every object; no numerical (minimum, maximum, multipleOf) or string
//     (minLength, maxLength) constraints, minItems only 0 or 1, the listed formats only; no recursive schemas
//     (schema.CheckAnthropicStrict); a tool outside the subset is sent without strict.
//   - without strict, input_schema is any JSON Schema whose root is an object
//     (https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use).
//
// Gemini function declarations (https://ai.google.dev/api/caching#FunctionDeclaration,
// https://ai.google.dev/api/caching#Schema):
//   - "parameters" is an OBJECT Schema, left out for a function without parameters;
//   - parameter names start with a letter or an underscore and hold only a-z, A-Z, 0-9 and underscores, at
//     most 64;
//   - a Schema has one type of the Type enum (nullable for null), string enums, the listed fields and
//     formats only (no $ref, $defs, additionalProperties); an OBJECT has properties (the API refuses an
//     empty one) (schema.CheckGemini).
//
// MCP (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool): inputSchema is a JSON
// Schema object with "type": "object" (JSON Schema 2020-12 when it states no other dialect).

// dialectTools is every tool of the module (the packages winkgen generates for) and of the golden packages,
// read from the source once for the four tests.
func dialectTools(t *testing.T) []ToolInfo {
	t.Helper()
	dialectOnce.Do(func() { dialectInfos, dialectErr = inspectAll() })
	if dialectErr != nil {
		t.Fatal(dialectErr)
	}
	return dialectInfos
}

var (
	dialectOnce  sync.Once
	dialectInfos []ToolInfo
	dialectErr   error
)

// inspectAll inspects the module's tool packages and the golden packages without diagnostics in one load.
func inspectAll() ([]ToolInfo, error) {
	root, _ := filepath.Abs("..")
	patterns := []string{"./example/...", "./benchmarks/...", "./runtime/..."}
	entries, err := os.ReadDir("testdata")
	if err != nil {
		return nil, err
	}
	goldens := 0
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), "diag_") || strings.HasPrefix(e.Name(), "_") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		patterns = append(patterns, "./gen/testdata/"+e.Name())
		goldens++
	}
	infos, ds, err := Inspect(Config{Dir: root, Patterns: patterns})
	if err == nil && len(ds) > 0 {
		err = fmt.Errorf("diagnostics: %v", ds)
	}
	if err != nil {
		return nil, err
	}
	fromGoldens := map[string]bool{}
	for _, ti := range infos {
		if strings.HasPrefix(ti.Package, caseImportPath("")) {
			fromGoldens[ti.Package] = true
		}
	}
	if goldens < 10 || len(fromGoldens) < goldens*3/4 {
		return nil, fmt.Errorf("tools of only %d of %d golden packages", len(fromGoldens), goldens)
	}
	if len(infos) < 100 {
		return nil, fmt.Errorf("only %d tools", len(infos))
	}
	return infos, nil
}

func TestEveryToolFollowsOpenAIStrictRules(t *testing.T) {
	for _, ti := range dialectTools(t) {
		strict, err := openai.StrictSchema(ti.ParamsSchema)
		if err != nil {
			t.Errorf("%s: no strict form: %v", ti.Name, err)
			continue
		}
		for _, check := range []error{schema.CheckOpenAIStrict(strict), schema.CheckStrictAgainstPlain(strict, ti.ParamsSchema), schema.CheckOpenAILimits(strict)} {
			if check != nil {
				t.Errorf("%s: %v\n%s", ti.Name, check, strict)
			}
		}
	}
}

func TestEveryToolFollowsAnthropicRules(t *testing.T) {
	strictCount := 0
	for _, ti := range dialectTools(t) {
		if !objectRoot(ti.ParamsSchema) {
			t.Errorf("%s: input_schema's root is not an object", ti.Name)
		}
		s, ok, err := anthropic.StrictSchema(ti.ParamsSchema)
		if err != nil {
			t.Errorf("%s: %v", ti.Name, err)
			continue
		}
		if !ok {
			// Sent without strict: only for what the subset cannot state.
			p := string(ti.ParamsSchema)
			if !strings.Contains(p, `"additionalProperties":{`) && !strings.Contains(p, `"$ref"`) && !hasFreeForm(ti.ParamsSchema) {
				t.Errorf("%s: no strict form, but neither a map, a reference nor free-form JSON:\n%s", ti.Name, p)
			}
			continue
		}
		strictCount++
		if err := schema.CheckAnthropicStrict(s); err != nil {
			t.Errorf("%s: %v\n%s", ti.Name, err, s)
		}
	}
	if strictCount < 50 {
		t.Errorf("only %d tools have a strict form", strictCount)
	}
}

func TestEveryToolFollowsGeminiRules(t *testing.T) {
	for _, ti := range dialectTools(t) {
		g, err := gemini.Schema(ti.ParamsSchema)
		if err != nil {
			t.Errorf("%s: %v", ti.Name, err)
			continue
		}
		if g == nil {
			if len(ti.Params) != 0 {
				t.Errorf("%s: parameters left out of a tool with params %v", ti.Name, ti.Params)
			}
			continue
		}
		if !bytes.HasPrefix(g, []byte(`{"type":"OBJECT"`)) {
			t.Errorf("%s: parameters are not an OBJECT: %s", ti.Name, g)
		}
		if err := schema.CheckGemini(g); err != nil {
			t.Errorf("%s: %v\n%s", ti.Name, err, g)
		}
	}
}

func TestEveryToolFollowsMCPRules(t *testing.T) {
	for _, ti := range dialectTools(t) {
		if !objectRoot(ti.ParamsSchema) || !bytes.HasPrefix(ti.ParamsSchema, []byte(`{"$schema":"`+schema.Dialect+`"`)) {
			t.Errorf("%s: inputSchema must be an object schema stating JSON Schema 2020-12: %s", ti.Name, ti.ParamsSchema)
		}
		if _, err := schemaoracle.Compile(ti.Name, ti.ParamsSchema); err != nil {
			t.Errorf("%s: inputSchema is not valid JSON Schema 2020-12: %v", ti.Name, err)
		}
		if ti.ResultSchema != nil {
			if _, err := schemaoracle.Compile(ti.Name+"_result", ti.ResultSchema); err != nil {
				t.Errorf("%s: outputSchema is not valid JSON Schema 2020-12: %v", ti.Name, err)
			}
		}
	}
}

// objectRoot reports whether a schema's root says "type": "object".
func objectRoot(b []byte) bool {
	var root struct {
		Type any `json:"type"`
	}
	return json.Unmarshal(b, &root) == nil && root.Type == "object"
}

// hasFreeForm reports whether a schema holds a property without "type", "$ref" or "anyOf" (free-form JSON).
func hasFreeForm(b []byte) bool {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return false
	}
	found := false
	var walk func(v any)
	walk = func(v any) {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		if props, ok := m["properties"].(map[string]any); ok {
			for _, p := range props {
				pm, _ := p.(map[string]any)
				if pm != nil && pm["type"] == nil && pm["$ref"] == nil && pm["anyOf"] == nil && pm["enum"] == nil {
					found = true
				}
				walk(p)
			}
		}
		for _, k := range []string{"items", "additionalProperties"} {
			walk(m[k])
		}
		if defs, ok := m["$defs"].(map[string]any); ok {
			for _, d := range defs {
				walk(d)
			}
		}
	}
	walk(v)
	return found
}
