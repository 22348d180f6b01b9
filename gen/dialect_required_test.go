package gen

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/openai"
)

// requiredWalk walks a plain schema (what the decoder enforces) and a dialect's form of it in step, and
// records every property the plain schema requires that the dialect's form does not list in its properties
// and required. Written from the schemas' meaning, not from the adapters: $ref resolves against each
// root's $defs ("#" is the root), an anyOf of one schema and null is that schema, a map (an object whose
// additionalProperties is a schema) may be sent as an array of {"key","value"} pairs, and a dialect may cut
// recursion where the plain schema recurs (an array or map that can only be empty there, maxItems 0; an
// optional property left out).
type requiredWalk struct {
	plainRoot, formRoot map[string]any
	errs                checkErrs
}

func resolveIn(root, m map[string]any) map[string]any {
	for range 64 {
		if m == nil {
			return nil
		}
		if ref, ok := m["$ref"].(string); ok {
			if ref == "#" {
				m = root
				continue
			}
			name, _ := strings.CutPrefix(ref, "#/$defs/")
			m = asMap(asMap(root["$defs"])[name])
			continue
		}
		if alts, ok := m["anyOf"].([]any); ok {
			var keep []map[string]any
			for _, a := range alts {
				if am := asMap(a); am != nil && !(len(am) == 1 && am["type"] == "null") {
					keep = append(keep, am)
				}
			}
			if len(keep) == 1 {
				m = keep[0]
				continue
			}
		}
		return m
	}
	return m
}

func namesOf(v any) []string {
	arr, _ := v.([]any)
	var out []string
	for _, x := range arr {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// alwaysEmpty reports whether a form's array can only be empty (a recursion cut).
func alwaysEmpty(m map[string]any) bool {
	n, ok := m["maxItems"].(float64)
	return ok && n == 0
}

func (w *requiredWalk) walk(p, f map[string]any, path string, depth int) {
	p, f = resolveIn(w.plainRoot, p), resolveIn(w.formRoot, f)
	if p == nil || depth > 16 {
		return
	}
	if f == nil {
		w.errs.add(path, "the plain schema has a value here, the dialect's form none")
		return
	}
	if vals := asMap(p["additionalProperties"]); vals != nil && p["properties"] == nil {
		if items := asMap(f["items"]); items != nil { // sent as key/value pairs
			if alwaysEmpty(f) {
				return
			}
			props := asMap(items["properties"])
			if props["key"] == nil || props["value"] == nil || !slices.Contains(namesOf(items["required"]), "value") {
				w.errs.add(path, "a map sent as pairs without a required key and value")
				return
			}
			w.walk(vals, asMap(props["value"]), path+".*", depth+1)
			return
		}
		w.walk(vals, asMap(f["additionalProperties"]), path+".*", depth+1)
		return
	}
	if pp := asMap(p["properties"]); pp != nil {
		fp := asMap(f["properties"])
		freq := namesOf(f["required"])
		for _, r := range namesOf(p["required"]) {
			if fp[r] == nil {
				w.errs.add(joinPath(path, r), "required by the decoder, missing from the dialect's properties")
			} else if !slices.Contains(freq, r) {
				w.errs.add(joinPath(path, r), "required by the decoder, not in the dialect's required")
			}
		}
		for k, v := range pp {
			if fv := asMap(fp[k]); fv != nil {
				w.walk(asMap(v), fv, joinPath(path, k), depth+1)
			}
		}
	}
	if items := asMap(p["items"]); items != nil {
		if alwaysEmpty(f) {
			return
		}
		w.walk(items, asMap(f["items"]), path+"[*]", depth+1)
	}
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// TestEveryRequiredPropertyIsStatedToEveryDialect: for every generated tool, each dialect's parameters as
// the adapters send them (Gemini's function declaration, OpenAI's strict function, Anthropic's strict
// tool) state every property the decoder requires, at every depth, as a required property: a model shown
// the schema can always make a call the decoder accepts, and no required property disappears because a
// dialect cannot state it (an object without properties is a generation-time diagnostic instead,
// gen/testdata/diag_gemini_empty).
func TestEveryRequiredPropertyIsStatedToEveryDialect(t *testing.T) {
	tools := dialectTools(t)
	checked := map[string]int{}
	for _, ti := range tools {
		var plain map[string]any
		if err := json.Unmarshal(ti.ParamsSchema, &plain); err != nil {
			t.Fatal(err)
		}
		forms := map[string]map[string]any{}
		if e := payloadEntries(t, []ToolInfo{ti}, "gemini")[0]; e["parameters"] != nil {
			forms["gemini"] = asMap(e["parameters"])
		} else if len(namesOf(plain["required"])) > 0 {
			t.Errorf("%s: Gemini declaration without parameters for params that require %v", ti.Name, plain["required"])
		}
		if s, err := openai.StrictSchema(ti.ParamsSchema); err == nil {
			var m map[string]any
			if err := json.Unmarshal(s, &m); err != nil {
				t.Fatal(err)
			}
			forms["openai-strict"] = m
		}
		if s, ok, err := anthropic.StrictSchema(ti.ParamsSchema); err == nil && ok {
			var m map[string]any
			if err := json.Unmarshal(s, &m); err != nil {
				t.Fatal(err)
			}
			forms["anthropic-strict"] = m
		}
		for name, form := range forms {
			w := &requiredWalk{plainRoot: plain, formRoot: form}
			w.walk(plain, form, "", 0)
			for _, e := range w.errs {
				t.Errorf("%s %s: %s", name, ti.Name, e)
			}
			checked[name]++
		}
	}
	t.Logf("tools checked per dialect: %v", checked)
	for _, name := range []string{"gemini", "openai-strict", "anthropic-strict"} {
		if checked[name] < 50 {
			t.Errorf("%s: only %d tools checked", name, checked[name])
		}
	}
}
