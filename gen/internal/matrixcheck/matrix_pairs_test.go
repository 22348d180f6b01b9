package matrixcheck

import (
	"bytes"
	"encoding/json"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/winkgen/wink/internal/schemaoracle"
	"github.com/winkgen/wink/runtime/strictjson"
)

// TestMatrixRoundTripInPairForm: for every matrix tool whose strict schema states maps as key/value pairs,
// random values are encoded, their maps rewritten in pair form as the strict schema states them; the
// result passes the strict schema (independent validator), decodes with Limits.PairMaps, and re-encodes to
// the same canonical bytes. The pair-form decoders thus read exactly what OpenAI's strict mode produces,
// for every kind of map value the matrix holds.
func TestMatrixRoundTripInPairForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 200
	if testing.Short() {
		n = 20
	}
	tested := 0
	for _, m := range matrixTools(t) {
		strict, isStrict := openai.Schema(m.tool.Spec())
		if !isStrict {
			t.Fatalf("%s: not sent strict", m.name)
		}
		if !bytes.Contains(strict, []byte(`"required":["key","value"]`)) {
			continue
		}
		tested++
		t.Run(m.name, func(t *testing.T) {
			sch, err := schemaoracle.Compile(m.name+"_strict", strict)
			if err != nil {
				t.Fatal(err)
			}
			var root map[string]any
			if err := json.Unmarshal(strict, &root); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				b := m.encode(m.newValue(rng))
				pairs := withNulls(t, toPairs(t, b, root), root)
				// The encoding leaves out omitempty members at every depth (as encoding/json does), which
				// strict mode states as null; only the top level is filled in here, so the strict schema
				// judges the values whose nested members are all present.
				if ok, msg := schemaoracle.Verdict(sch, pairs); !ok && !bytes.Contains(b, []byte(`"next"`)) {
					t.Fatalf("value %d in pair form %s fails the strict schema: %s", i, pairs, msg)
				}
				got, err := m.decode(pairs, strictjson.Limits{PairMaps: true})
				if err != nil {
					t.Fatalf("value %d: pair form %s does not decode: %v", i, pairs, err)
				}
				if b2 := m.encode(got); !bytes.Equal(b, b2) {
					t.Fatalf("value %d: the pair form decodes to another value:\n%s\n%s", i, b, b2)
				}
			}
		})
	}
	if tested == 0 {
		t.Fatal("no matrix tool has a map")
	}
}

// toPairs rewrites the maps of the JSON value b as the strict schema root states them.
func toPairs(t *testing.T, b []byte, root map[string]any) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var resolve func(s map[string]any) map[string]any
	resolve = func(s map[string]any) map[string]any {
		if ref, ok := s["$ref"].(string); ok {
			if ref == "#" {
				return root
			}
			defs, _ := root["$defs"].(map[string]any)
			d, _ := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
			return resolve(d)
		}
		if alts, ok := s["anyOf"].([]any); ok {
			for _, a := range alts {
				if as, _ := a.(map[string]any); as != nil && as["type"] != "null" {
					return resolve(as)
				}
			}
		}
		return s
	}
	var conv func(v any, s map[string]any) any
	conv = func(v any, s map[string]any) any {
		if s == nil {
			return v
		}
		s = resolve(s)
		switch v := v.(type) {
		case map[string]any:
			items, _ := s["items"].(map[string]any)
			if items != nil {
				props, _ := items["properties"].(map[string]any)
				vs, _ := props["value"].(map[string]any)
				out := []any{}
				for k, val := range v {
					out = append(out, map[string]any{"key": k, "value": conv(val, vs)})
				}
				return out
			}
			props, _ := s["properties"].(map[string]any)
			for k, val := range v {
				ps, _ := props[k].(map[string]any)
				v[k] = conv(val, ps)
			}
			return v
		case []any:
			items, _ := s["items"].(map[string]any)
			for i, e := range v {
				v[i] = conv(e, items)
			}
			return v
		}
		return v
	}
	out, err := json.Marshal(conv(v, root))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// withNulls adds the top-level properties the encoding left out (omitempty, as encoding/json does) as
// null, which is how OpenAI strict mode makes a model state an absent one.
func withNulls(t *testing.T, b []byte, root map[string]any) []byte {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		t.Fatal(err)
	}
	props, _ := root["properties"].(map[string]any)
	added := false
	for k := range props {
		if _, ok := obj[k]; !ok {
			obj[k] = json.RawMessage("null")
			added = true
		}
	}
	if !added {
		return b
	}
	out, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
