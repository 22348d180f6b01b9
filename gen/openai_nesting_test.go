package gen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/gen/schema"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/wink"
)

// sdkValidator re-reads a strict schema as OpenAI's SDK validator does, written from its source and not
// from gen/schema (openai/openai-java, openai-java-core/src/main/kotlin/com/openai/core/JsonSchemaValidator.kt,
// MAX_NESTING_DEPTH = 10 since "Increase max allowed nesting depth to match the API docs", #733):
// validateSchema(schema, path, depth) verifies depth <= 10, validates the "$defs" entries at depth+1, then
// dispatches on exactly one of anyOf, type and $ref: each anyOf entry at depth+1; a type of "array" (or
// [T,"null"]) validates its items at depth+1; "object" validates each property at depth+1 when properties
// and required are non-empty; $ref is only checked to resolve. Only the walk is kept here: the depth
// reached and the paths past the limit.
type sdkValidator struct {
	max  int
	over []string
}

const sdkMaxNestingDepth = 10

func (v *sdkValidator) validateSchema(s any, path string, depth int) {
	v.max = max(v.max, depth)
	if depth > sdkMaxNestingDepth {
		v.over = append(v.over, fmt.Sprintf("%s: Current nesting depth is %d, but maximum is %d.", path, depth, sdkMaxNestingDepth))
	}
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	if defs, ok := m["$defs"].(map[string]any); ok {
		for name, d := range defs {
			v.validateSchema(d, path+"/$defs/"+name, depth+1)
		}
	}
	anyOf, hasAnyOf := m["anyOf"]
	typ, hasType := m["type"]
	_, hasRef := m["$ref"]
	if !(hasAnyOf != hasType != hasRef) {
		return
	}
	if alts, ok := anyOf.([]any); ok {
		for i, a := range alts {
			v.validateSchema(a, fmt.Sprintf("%s/anyOf[%d]", path, i), depth+1)
		}
	}
	if hasType {
		name, _ := typ.(string)
		if arr, ok := typ.([]any); ok && len(arr) == 2 {
			for _, t := range arr {
				if t != "null" {
					name, _ = t.(string)
				}
			}
		}
		switch name {
		case "array":
			if items, ok := m["items"].(map[string]any); ok {
				v.validateSchema(items, path+"/items", depth+1)
			}
		case "object":
			props, _ := m["properties"].(map[string]any)
			req, _ := m["required"].([]any)
			if len(props) == 0 || len(req) == 0 {
				return
			}
			for name, p := range props {
				v.validateSchema(p, path+"/properties/"+name, depth+1)
			}
		}
	}
}

// sdkDepth is the deepest level the SDK's walk reaches in a strict schema, and its findings.
func sdkDepth(t *testing.T, strict []byte) (int, []string) {
	t.Helper()
	var root any
	if err := json.Unmarshal(strict, &root); err != nil {
		t.Fatal(err)
	}
	v := &sdkValidator{}
	v.validateSchema(root, "#", 0)
	return v.max, v.over
}

// checkNestingAgrees compares winkgen's count (schema.OpenAINesting, and CheckOpenAILimits' verdict) with
// the SDK's walk over one strict schema.
func checkNestingAgrees(t *testing.T, name string, strict []byte) (depth int) {
	t.Helper()
	want, over := sdkDepth(t, strict)
	got, deepest, err := schema.OpenAINesting(strict)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got != want {
		t.Errorf("%s: winkgen counts nesting depth %d (at %s), OpenAI's validator %d\n%s", name, got, deepest, want, strict)
	}
	lim := schema.CheckOpenAILimits(strict)
	diagnosed := lim != nil && strings.Contains(lim.Error(), "nesting depth")
	if diagnosed != (len(over) > 0) {
		t.Errorf("%s: CheckOpenAILimits says %v; OpenAI's validator says %q\n%s", name, lim, over, strict)
	}
	return want
}

// TestOpenAINestingCountedAsOpenAIValidatorCounts: over every generated tool's strict params and results,
// winkgen's nesting depth is the one OpenAI's SDK validator computes, and winkgen diagnoses exactly the
// schemas the validator refuses.
func TestOpenAINestingCountedAsOpenAIValidatorCounts(t *testing.T) {
	n := 0
	for _, ti := range dialectTools(t) {
		for i, plain := range [][]byte{ti.ParamsSchema, ti.ResultSchema} {
			if plain == nil {
				continue
			}
			strict, err := openai.StrictSchema(plain)
			if err != nil {
				continue // results of a non-object type have no strict form; params are checked elsewhere
			}
			checkNestingAgrees(t, fmt.Sprintf("%s[%d]", ti.Name, i), strict)
			n++
		}
	}
	if n < 100 {
		t.Errorf("only %d generated schemas compared", n)
	}
}

// TestOpenAINestingOfRandomTypes: the same comparison over random Go-shaped types (structs, pointers,
// slices, arrays, maps sent as key/value pairs, recursion through $defs) converted as the adapter converts
// them, on both sides of the limit; and the OpenAI adapter sends strict exactly the forms within it.
func TestOpenAINestingOfRandomTypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 20))
	over, under := 0, 0
	for i := range 3000 {
		g := &typeGen{rng: rng}
		root := g.structOf(0)
		plain, err := schema.Plain(root)
		if err != nil {
			t.Fatalf("random %d: %v", i, err)
		}
		strict, err := openai.StrictSchema(plain)
		if err != nil {
			t.Fatalf("random %d: %v\n%s", i, err, plain)
		}
		d := checkNestingAgrees(t, fmt.Sprintf("random %d", i), strict)
		if d > sdkMaxNestingDepth {
			over++
		} else {
			under++
		}
		// The adapter sends strict exactly when the validator takes the form (openai.MaxNesting).
		if _, sent := openai.Schema(&wink.Spec{Name: "t", ParamsSchema: plain}); sent != (d <= sdkMaxNestingDepth) {
			t.Errorf("random %d: depth %d, the OpenAI adapter sends strict=%v", i, d, sent)
		}
	}
	t.Logf("%d random types past the limit, %d within", over, under)
	if over < 300 || under < 300 {
		t.Errorf("random types: %d past the limit, %d within: the cases do not cover both sides", over, under)
	}
}

// TestFiveNestedSlicesOfStructsAreElevenLevels: a case a user met: five nested []struct levels put the
// leaf 11 levels deep, past OpenAI's limit, though only six objects nest; four fit.
func TestFiveNestedSlicesOfStructsAreElevenLevels(t *testing.T) {
	leaf := &model.Type{Kind: model.KindStruct, Named: &model.Ident{Path: "p", Name: "L"}, ID: "L",
		Fields: []*model.Field{{GoPath: []string{"Leaf"}, JSONName: "leaf", Type: &model.Type{Kind: model.KindString, Basic: "string"}, Required: true}}}
	for levels, want := range map[int]int{4: 9, 5: 11} {
		t0 := leaf
		for i := range levels {
			name := fmt.Sprintf("S%d", i)
			t0 = &model.Type{Kind: model.KindStruct, Named: &model.Ident{Path: "p", Name: name}, ID: name,
				Fields: []*model.Field{{GoPath: []string{"Items"}, JSONName: "items", Type: &model.Type{Kind: model.KindSlice, Elem: t0}, Required: true}}}
		}
		strict, _, err := schema.Strict(t0)
		if err != nil {
			t.Fatal(err)
		}
		if got := checkNestingAgrees(t, fmt.Sprintf("%d levels", levels), strict); got != want {
			t.Errorf("%d nested []struct levels: depth %d, want %d", levels, got, want)
		}
		if err := schema.CheckOpenAILimits(strict); (err != nil) != (want > 10) {
			t.Errorf("%d nested []struct levels: CheckOpenAILimits %v", levels, err)
		}
	}
}

// typeGen makes random model types of the shapes winkgen accepts.
type typeGen struct {
	rng   *rand.Rand
	n     int
	cycle *model.Type // a recursive struct, once made
}

func (g *typeGen) name() string { g.n++; return fmt.Sprintf("T%d", g.n) }

func (g *typeGen) structOf(depth int) *model.Type {
	name := g.name()
	t := &model.Type{Kind: model.KindStruct, Named: &model.Ident{Path: "example.com/p", Name: name}, ID: name}
	nf := 1 + g.rng.IntN(3)
	for i := range nf {
		f := &model.Field{GoPath: []string{fmt.Sprintf("F%d", i)}, JSONName: fmt.Sprintf("f%d", i), Required: g.rng.IntN(3) > 0}
		f.Type = g.typeOf(depth+1, t)
		if f.Type.Kind == model.KindPointer {
			f.Required = false
		}
		t.Fields = append(t.Fields, f)
	}
	return t
}

func (g *typeGen) typeOf(depth int, parent *model.Type) *model.Type {
	if depth > 7 {
		return &model.Type{Kind: model.KindString, Basic: "string"}
	}
	switch g.rng.IntN(8) {
	case 0:
		return &model.Type{Kind: model.KindInt, Bits: 64, Basic: "int"}
	case 1, 2:
		return g.structOf(depth)
	case 3:
		return &model.Type{Kind: model.KindPointer, Elem: g.structOf(depth)}
	case 4:
		return &model.Type{Kind: model.KindSlice, Elem: g.typeOf(depth+1, parent)}
	case 5:
		return &model.Type{Kind: model.KindMap, Elem: g.typeOf(depth+1, parent)}
	case 6:
		return &model.Type{Kind: model.KindArray, Len: 2, Elem: g.typeOf(depth+1, parent)}
	case 7:
		// A recursive type: Node{Kids []Node; Next *Node; Value <random>}.
		if g.cycle == nil {
			name := g.name()
			node := &model.Type{Kind: model.KindStruct, Named: &model.Ident{Path: "example.com/p", Name: name}, ID: name, Recursive: true}
			node.Fields = []*model.Field{
				{GoPath: []string{"Kids"}, JSONName: "kids", Type: &model.Type{Kind: model.KindSlice, Elem: node}},
				{GoPath: []string{"Next"}, JSONName: "next", Type: &model.Type{Kind: model.KindPointer, Elem: node}},
				{GoPath: []string{"Value"}, JSONName: "value", Type: g.typeOf(depth+1, parent), Required: true},
			}
			g.cycle = node
		}
		if g.rng.IntN(2) == 0 {
			return &model.Type{Kind: model.KindPointer, Elem: g.cycle}
		}
		return &model.Type{Kind: model.KindSlice, Elem: g.cycle}
	default:
		return &model.Type{Kind: model.KindString, Basic: "string"}
	}
}
