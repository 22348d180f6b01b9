package tools

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/gemini"
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
		dialects := map[string][]byte{}
		g, err := gemini.Schema(sp.ParamsSchema)
		if err != nil {
			t.Fatal(err)
		}
		// A Gemini form that states maps as key/value pairs takes another input form than the canonical
		// one the tables hold (the decoder reads it under Call.PairMaps): left to the pair-form tests.
		if g != nil && !bytes.Contains(g, []byte(`"required":["key","value"]`)) {
			dialects["gemini"] = geminiAsJSONSchema(t, g)
		}
		if a, ok, err := anthropic.StrictSchema(sp.ParamsSchema); err != nil {
			t.Fatal(err)
		} else if ok {
			dialects["anthropic"] = a
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
					if errs == nil && !ok && name == "gemini" && strings.Contains(msg, "maxItems: got") && strings.Contains(msg, "want 0") {
						// Nesting deeper than gemini.RecursionDepth: the Gemini form states that the array
						// is always empty there ("always empty at this depth"); such a value cannot be
						// sent through Gemini, a documented limit.
						continue
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
