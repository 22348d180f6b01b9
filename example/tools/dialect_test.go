package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDialectSchemasAcceptWhatTheDecoderAccepts: the Gemini and Anthropic-strict schemas relax the plain
// one (what they cannot state moves to descriptions; the decoder still enforces it), so every input the
// decoder accepts must pass them, and whatever they refuse the decoder refuses too. Checked over the
// agreement tables with the independent validator; the Gemini schema is read as JSON Schema by spelling its
// types in lower case and its nullable as a type array.
func TestDialectSchemasAcceptWhatTheDecoderAccepts(t *testing.T) {
	tables := agreementTables()
	for _, s := range subjects() {
		sp := s.tool.Spec()
		dialects := map[string][]byte{"gemini": geminiAsJSONSchema(t, sp.ParamsSchemaGemini)}
		if sp.ParamsSchemaAnthropic != nil {
			dialects["anthropic"] = sp.ParamsSchemaAnthropic
		}
		for name, raw := range dialects {
			t.Run(s.name+"/"+name, func(t *testing.T) {
				sch, err := compileSchema(s.name+"_"+name, raw)
				if err != nil {
					t.Fatalf("%v\n%s", err, raw)
				}
				refused := 0
				for _, r := range tables[s.name] {
					if r.exclude != "" {
						continue
					}
					in := []byte(r.in)
					_, errs := s.decode(in, agreeLimits)
					ok, msg := validatorVerdict(sch, in)
					if !ok {
						refused++
					}
					if errs == nil && !ok {
						t.Errorf("row %q: the decoder accepts %s, the %s schema refuses it: %s", r.name, trunc(in), name, msg)
					}
				}
				if refused < 10 {
					t.Errorf("the %s schema refused only %d rows: it judges almost nothing", name, refused)
				}
			})
		}
	}
}

// geminiAsJSONSchema rewrites a Gemini schema as the JSON Schema it means.
func geminiAsJSONSchema(t *testing.T, b []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if typ, ok := v["type"].(string); ok {
				v["type"] = strings.ToLower(typ)
			}
			if v["nullable"] == true {
				v["type"] = []any{v["type"], "null"}
				if e, ok := v["enum"].([]any); ok {
					v["enum"] = append(e, nil)
				}
			}
			delete(v, "nullable")
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
