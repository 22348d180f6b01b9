package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/runtime/adapters/openai"
)

func mustPlain(t *testing.T, ty *model.Type) string {
	t.Helper()
	b, err := Plain(ty)
	if err != nil {
		t.Fatalf("Plain: %v", err)
	}
	return string(b)
}

func mustStrict(t *testing.T, ty *model.Type) string {
	t.Helper()
	b, ok, err := Strict(ty)
	if err != nil || !ok {
		t.Fatalf("Strict: ok=%v err=%v", ok, err)
	}
	return string(b)
}

func TestPlainAndStrictGolden(t *testing.T) {
	tests := []struct {
		name          string
		ty            *model.Type
		plain, strict string // strict "" means not expressible (ok=false)
	}{
		{
			name:   "search params: constraints, nested optional struct, enum with default",
			ty:     searchParams(),
			plain:  `{"type":"object","properties":{"query":{"type":"string","description":"Search terms.","minLength":1,"maxLength":200},"limit":{"type":["integer","null"],"description":"Maximum results.","minimum":1,"maximum":100,"default":10},"case_sensitive":{"type":["boolean","null"]},"file_types":{"type":["array","null"],"description":"File extensions.","items":{"type":"string","maxLength":20,"pattern":"^(?:[a-z]+)$"},"maxItems":10,"uniqueItems":true},"filters":{"type":["object","null"],"description":"Filters narrow the search.","properties":{"path_prefix":{"type":["string","null"],"description":"Only paths under this prefix.","format":"uri"},"max_size":{"type":["integer","null"],"minimum":0,"maximum":9223372036854775807}},"additionalProperties":false},"mode":{"type":["string","null"],"description":"Mode picks the matching algorithm.","enum":["fuzzy","exact",null],"default":"fuzzy"}},"required":["query"],"additionalProperties":false}`,
			strict: `{"type":"object","properties":{"query":{"type":"string","description":"Search terms. (at least 1 character; at most 200 characters)"},"limit":{"type":["integer","null"],"description":"Maximum results. (default: 10)","minimum":1,"maximum":100},"case_sensitive":{"type":["boolean","null"]},"file_types":{"type":["array","null"],"description":"File extensions. (items must be unique; each item at most 20 characters)","items":{"type":"string","pattern":"^(?:[a-z]+)$"},"maxItems":10},"filters":{"type":["object","null"],"description":"Filters narrow the search.","properties":{"path_prefix":{"type":["string","null"],"description":"Only paths under this prefix. (format: uri)"},"max_size":{"type":["integer","null"],"minimum":0,"maximum":9223372036854775807}},"required":["path_prefix","max_size"],"additionalProperties":false},"mode":{"type":["string","null"],"description":"Mode picks the matching algorithm. (default: \"fuzzy\")","enum":["fuzzy","exact",null]}},"required":["query","limit","case_sensitive","file_types","filters","mode"],"additionalProperties":false}`,
		},
		{
			name:   "self-recursive root: refs are # and nullable pointers use anyOf",
			ty:     treeType(),
			plain:  `{"type":"object","description":"Tree is a labelled tree.","properties":{"label":{"type":"string"},"children":{"type":"array","description":"Sub-trees.","items":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"parent":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["label","children"],"additionalProperties":false}`,
			strict: `{"type":"object","description":"Tree is a labelled tree.","properties":{"label":{"type":"string"},"children":{"type":"array","description":"Sub-trees.","items":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"parent":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["label","children","parent"],"additionalProperties":false}`,
		},
		{
			name:   "mutual recursion under a plain root: $defs in first-use order; strict isolates $ref",
			ty:     mutualType(),
			plain:  `{"type":"object","properties":{"expr":{"description":"The expression to evaluate.","$ref":"#/$defs/Expr"},"vars":{"type":"array","items":{"$ref":"#/$defs/Call"}}},"required":["expr","vars"],"additionalProperties":false,"$defs":{"Expr":{"type":"object","description":"Expr is an expression.","properties":{"literal":{"type":["number","null"],"minimum":-1.7976931348623157e+308,"maximum":1.7976931348623157e+308},"call":{"anyOf":[{"$ref":"#/$defs/Call"},{"type":"null"}]}},"additionalProperties":false},"Call":{"type":"object","description":"Call applies a function.","properties":{"func":{"type":"string"},"args":{"type":"array","description":"Arguments.","items":{"$ref":"#/$defs/Expr"}}},"required":["func","args"],"additionalProperties":false}}}`,
			strict: `{"type":"object","properties":{"expr":{"description":"The expression to evaluate.","anyOf":[{"$ref":"#/$defs/Expr"}]},"vars":{"type":"array","items":{"$ref":"#/$defs/Call"}}},"required":["expr","vars"],"additionalProperties":false,"$defs":{"Expr":{"type":"object","description":"Expr is an expression.","properties":{"literal":{"type":["number","null"],"minimum":-1.7976931348623157e+308,"maximum":1.7976931348623157e+308},"call":{"anyOf":[{"$ref":"#/$defs/Call"},{"type":"null"}]}},"required":["literal","call"],"additionalProperties":false},"Call":{"type":"object","description":"Call applies a function.","properties":{"func":{"type":"string"},"args":{"type":"array","description":"Arguments.","items":{"$ref":"#/$defs/Expr"}}},"required":["func","args"],"additionalProperties":false}}}`,
		},
		{
			name:   "maps carry their value schema; strict states them as key/value pairs",
			ty:     mapType(),
			plain:  `{"type":"object","properties":{"labels":{"type":"object","description":"Labels.","additionalProperties":{"type":"string"}},"vals":{"type":["object","null"],"additionalProperties":{"type":["object","null"],"properties":{"n":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},"required":["n"],"additionalProperties":false}}},"required":["labels"],"additionalProperties":false}`,
			strict: `{"type":"object","properties":{"labels":{"type":"array","description":"Labels. (key/value pairs, each key once)","items":{"type":"object","properties":{"key":{"type":"string"},"value":{"type":"string"}},"required":["key","value"],"additionalProperties":false}},"vals":{"type":["array","null"],"description":"key/value pairs, each key once","items":{"type":"object","properties":{"key":{"type":"string"},"value":{"type":["object","null"],"properties":{"n":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},"required":["n"],"additionalProperties":false}},"required":["key","value"],"additionalProperties":false}}},"required":["labels","vals"],"additionalProperties":false}`,
		},
		{
			name:   "empty struct has no required",
			ty:     tStruct("Nothing", ""),
			plain:  `{"type":"object","properties":{},"additionalProperties":false}`,
			strict: `{"type":"object","properties":{},"additionalProperties":false}`,
		},
		{
			name:   "NoValue result",
			ty:     &model.Type{Kind: model.KindNoValue},
			plain:  `{"type":"null"}`,
			strict: `{"type":"null"}`,
		},
		{
			name: "optional recursive ref with doc and default",
			ty: func() *model.Type {
				l := tStruct("List", "List is a cons cell.")
				l.Recursive = true
				l.Fields = []*model.Field{req("v", tBool()), doc(opt("next", tPtr(l)), "The rest.")}
				return tStruct("Holder", "", doc(cons(req("head", l), model.Constraints{Default: `{"v":true}`}), "First cell."))
			}(),
			plain:  `{"type":"object","properties":{"head":{"description":"First cell.","default":{"v":true},"$ref":"#/$defs/List"}},"required":["head"],"additionalProperties":false,"$defs":{"List":{"type":"object","description":"List is a cons cell.","properties":{"v":{"type":"boolean"},"next":{"description":"The rest.","anyOf":[{"$ref":"#/$defs/List"},{"type":"null"}]}},"required":["v"],"additionalProperties":false}}}`,
			strict: `{"type":"object","properties":{"head":{"description":"First cell. (default: {\"v\":true})","anyOf":[{"$ref":"#/$defs/List"}]}},"required":["head"],"additionalProperties":false,"$defs":{"List":{"type":"object","description":"List is a cons cell.","properties":{"v":{"type":"boolean"},"next":{"description":"The rest.","anyOf":[{"$ref":"#/$defs/List"},{"type":"null"}]}},"required":["v","next"],"additionalProperties":false}}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustPlain(t, tc.ty); got != withDialect(tc.plain) {
				t.Errorf("Plain:\n got %s\nwant %s", got, withDialect(tc.plain))
			}
			b, ok, err := Strict(tc.ty)
			if err != nil {
				t.Fatalf("Strict: %v", err)
			}
			if tc.strict == "" {
				if ok || b != nil {
					t.Errorf("Strict: ok=%v bytes=%s, want not expressible", ok, b)
				}
				return
			}
			if !ok || string(b) != tc.strict {
				t.Errorf("Strict ok=%v:\n got %s\nwant %s", ok, b, tc.strict)
			}
		})
	}
}

// withDialect puts the "$schema" every plain schema states at the front of a root schema's text.
func withDialect(root string) string {
	return `{"$schema":"https://json-schema.org/draft/2020-12/schema",` + root[1:]
}

func TestNoValueAndEmptyBytes(t *testing.T) {
	if got := string(NoValue()); got != withDialect(`{"type":"null"}`) {
		t.Errorf("NoValue() = %s", got)
	}
	if got := string(Empty()); got != withDialect(`{"type":"object","properties":{},"additionalProperties":false}`) {
		t.Errorf("Empty() = %s", got)
	}
	strict, err := openai.StrictSchema(Empty())
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckOpenAIStrict(strict); err != nil {
		t.Errorf("Empty()'s strict form is not strict-valid: %v", err)
	}
}

// prop returns the schema of property "f" of a one-field struct.
func prop(t *testing.T, f *model.Field, strict bool) string {
	t.Helper()
	ty := tStruct("S", "", f)
	var b []byte
	if strict {
		b = []byte(mustStrict(t, ty))
	} else {
		b = []byte(mustPlain(t, ty))
	}
	var m struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return string(m.Properties["f"])
}

func TestScalarSchemas(t *testing.T) {
	level := tEnum("Level", "", model.KindUint, "0", "1")
	level.Bits = 8
	tests := []struct {
		name string
		f    *model.Field
		want string
	}{
		{"int8", req("f", tInt(8)), `{"type":"integer","minimum":-128,"maximum":127}`},
		{"int16", req("f", tInt(16)), `{"type":"integer","minimum":-32768,"maximum":32767}`},
		{"int32", req("f", tInt(32)), `{"type":"integer","minimum":-2147483648,"maximum":2147483647}`},
		{"int64", req("f", tInt(64)), `{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}`},
		{"uint8", req("f", tUint(8)), `{"type":"integer","minimum":0,"maximum":255}`},
		{"uint16", req("f", tUint(16)), `{"type":"integer","minimum":0,"maximum":65535}`},
		{"uint32", req("f", tUint(32)), `{"type":"integer","minimum":0,"maximum":4294967295}`},
		{"uint64", req("f", tUint(64)), `{"type":"integer","minimum":0,"maximum":18446744073709551615}`},
		{"float32", req("f", tFloat(32)), `{"type":"number","minimum":-3.4028235e+38,"maximum":3.4028235e+38}`},
		{"float64", req("f", tFloat(64)), `{"type":"number","minimum":-1.7976931348623157e+308,"maximum":1.7976931348623157e+308}`},
		{"optional int accepts null", opt("f", tInt(8)), `{"type":["integer","null"],"minimum":-128,"maximum":127}`},
		{"required pointer never accepts null", req("f", tPtr(tInt(8))), `{"type":"integer","minimum":-128,"maximum":127}`},
		{"optional pointer to pointer", opt("f", tPtr(tPtr(tBool()))), `{"type":["boolean","null"]}`},
		{"bool", req("f", tBool()), `{"type":"boolean"}`},
		{"time", req("f", tTime()), `{"type":"string","format":"date-time"}`},
		{"optional time", opt("f", tTime()), `{"type":["string","null"],"format":"date-time"}`},
		{"string", req("f", tString()), `{"type":"string"}`},
		{"integer enum has no implicit range", req("f", level), `{"type":"integer","description":"(0 = LevelA; 1 = LevelB)","enum":[0,1]}`},
		{"optional enum lists null", opt("f", level), `{"type":["integer","null"],"description":"(0 = LevelA; 1 = LevelB)","enum":[0,1,null]}`},
		{"tag enum narrows the type's enum", cons(req("f", level), model.Constraints{Enum: []string{"1"}}), `{"type":"integer","description":"(1 = LevelB)","enum":[1]}`},
		{"enum keeps explicit bounds", cons(req("f", tInt(8)), model.Constraints{Enum: []string{"1", "5"}, Max: num("4")}), `{"type":"integer","enum":[1,5],"maximum":4}`},
		{"bool tag enum", cons(req("f", tBool()), model.Constraints{Enum: []string{"true"}}), `{"type":"boolean","enum":[true]}`},
		{"pattern is anchored", cons(req("f", tString()), model.Constraints{Pattern: `a|b`}), `{"type":"string","pattern":"^(?:a|b)$"}`},
		{"pattern escapes", cons(req("f", tString()), model.Constraints{Pattern: `\d+"<>&`}), `{"type":"string","pattern":"^(?:\\d+\"<>&)$"}`},
		{"field doc beats type doc", doc(req("f", &model.Type{Kind: model.KindString, Named: &model.Ident{Name: "N"}, Doc: "Type doc."}), "Field doc."), `{"type":"string","description":"Field doc."}`},
		{"named scalar type doc", req("f", &model.Type{Kind: model.KindString, Named: &model.Ident{Name: "N"}, Doc: "Type doc."}), `{"type":"string","description":"Type doc."}`},
		{"array of pointers with scalar cons", cons(req("f", tArray(tPtr(tString()), 2)), model.Constraints{MinLength: n(3), MinItems: n(5)}), `{"type":"array","items":{"type":["string","null"],"minLength":3},"minItems":5,"maxItems":2}`},
		{"array cons cannot loosen the length", cons(req("f", tArray(tBool(), 4)), model.Constraints{MinItems: n(1), MaxItems: n(9)}), `{"type":"array","items":{"type":"boolean"},"minItems":4,"maxItems":4}`},
		{"slice of enums with tag enum", cons(opt("f", tSlice(tPtr(level))), model.Constraints{Enum: []string{"0"}}), `{"type":["array","null"],"items":{"type":["integer","null"],"description":"(0 = LevelA)","enum":[0,null]}}`},
		{"default compacted", cons(opt("f", tSlice(tInt(8))), model.Constraints{Default: "[1, 2]"}), `{"type":["array","null"],"items":{"type":"integer","minimum":-128,"maximum":127},"default":[1,2]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := prop(t, tc.f, false); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestNumericBounds(t *testing.T) {
	tests := []struct {
		name string
		ty   *model.Type
		c    model.Constraints
		want string
	}{
		{"tighter min replaces type min", tInt(8), model.Constraints{Min: num("-5")}, `"minimum":-5,"maximum":127`},
		{"looser min is dropped", tInt(8), model.Constraints{Min: num("-1000")}, `"minimum":-128,"maximum":127`},
		{"equal min is written as given", tUint(8), model.Constraints{Min: num("0.0")}, `"minimum":0.0,"maximum":255`},
		{"looser max is dropped", tUint(8), model.Constraints{Max: num("1e3")}, `"minimum":0,"maximum":255`},
		{"tighter max with exponent", tInt(64), model.Constraints{Max: num("1e3")}, `"minimum":-9223372036854775808,"maximum":1e3`},
		{"exclusive min inside range drops the type min", tInt(8), model.Constraints{ExclusiveMin: num("0")}, `"exclusiveMinimum":0,"maximum":127`},
		{"exclusive min below range keeps the type min", tUint(8), model.Constraints{ExclusiveMin: num("-3")}, `"minimum":0,"exclusiveMinimum":-3,"maximum":255`},
		{"explicit min and exclusive min both kept", tInt(8), model.Constraints{Min: num("1"), ExclusiveMin: num("2")}, `"minimum":1,"exclusiveMinimum":2,"maximum":127`},
		{"exclusive max inside range drops the type max", tInt(16), model.Constraints{ExclusiveMax: num("10")}, `"minimum":-32768,"exclusiveMaximum":10`},
		{"exclusive max above range keeps the type max", tInt(8), model.Constraints{ExclusiveMax: num("500")}, `"minimum":-128,"maximum":127,"exclusiveMaximum":500`},
		{"multipleOf", tInt(8), model.Constraints{MultipleOf: num("3")}, `"minimum":-128,"maximum":127,"multipleOf":3`},
		{"float32 tighter both", tFloat(32), model.Constraints{Min: num("-1.5"), Max: num("2.5E+1")}, `"minimum":-1.5,"maximum":2.5E+1`},
		{"float32 looser max dropped", tFloat(32), model.Constraints{Max: num("1e39")}, `"minimum":-3.4028235e+38,"maximum":3.4028235e+38`},
		{"float64 exclusive both", tFloat(64), model.Constraints{ExclusiveMin: num("0"), ExclusiveMax: num("1"), MultipleOf: num("0.1")}, `"exclusiveMinimum":0,"exclusiveMaximum":1,"multipleOf":0.1`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := prop(t, cons(req("f", tc.ty), tc.c), false)
			typ := "integer"
			if tc.ty.Kind == model.KindFloat {
				typ = "number"
			}
			want := `{"type":"` + typ + `",` + tc.want + `}`
			if got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

func TestStrictRestatesDroppedKeywords(t *testing.T) {
	tests := []struct {
		name string
		f    *model.Field
		want string
	}{
		{"min and max length", doc(cons(req("f", tString()), model.Constraints{MinLength: n(1), MaxLength: n(200)}), "Search terms."),
			`{"type":"string","description":"Search terms. (at least 1 character; at most 200 characters)"}`},
		{"plural min length, no doc", cons(req("f", tString()), model.Constraints{MinLength: n(3)}),
			`{"type":"string","description":"(at least 3 characters)"}`},
		{"single max length", cons(req("f", tString()), model.Constraints{MaxLength: n(1)}),
			`{"type":"string","description":"(at most 1 character)"}`},
		{"equal lengths", cons(req("f", tString()), model.Constraints{MinLength: n(4), MaxLength: n(4)}),
			`{"type":"string","description":"(exactly 4 characters)"}`},
		{"unsupported format", doc(cons(req("f", tString()), model.Constraints{Format: "uri"}), "Link."),
			`{"type":"string","description":"Link. (format: uri)"}`},
		{"supported formats kept", cons(req("f", tString()), model.Constraints{Format: "uuid"}),
			`{"type":"string","format":"uuid"}`},
		{"unique items", cons(req("f", tSlice(tBool())), model.Constraints{UniqueItems: true, MinItems: n(1)}),
			`{"type":"array","description":"(items must be unique)","items":{"type":"boolean"},"minItems":1}`},
		{"item notes are prefixed", doc(cons(opt("f", tSlice(tString())), model.Constraints{UniqueItems: true, MinLength: n(1), MaxLength: n(9), Format: "regex", Default: `["a"]`}), "Tags."),
			`{"type":["array","null"],"description":"Tags. (items must be unique; each item at least 1 character; each item at most 9 characters; each item in format regex; default: [\"a\"])","items":{"type":"string"}}`},
		{"default number", doc(cons(opt("f", tInt(8)), model.Constraints{Default: "10"}), "Limit."),
			`{"type":["integer","null"],"description":"Limit. (default: 10)","minimum":-128,"maximum":127}`},
		{"pattern and numbers are kept", cons(req("f", tSlice(tFloat(64))), model.Constraints{Min: num("0"), MultipleOf: num("0.5"), MaxItems: n(3)}),
			`{"type":"array","items":{"type":"number","minimum":0,"maximum":1.7976931348623157e+308,"multipleOf":0.5},"maxItems":3}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := prop(t, tc.f, true); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestStrictStatesNestedMapsAsPairs: a map anywhere (inside an array's struct, behind a pointer) becomes
// an array of key/value pairs in the strict variant, which passes OpenAI's rules.
func TestStrictStatesNestedMapsAsPairs(t *testing.T) {
	inner := tStruct("Inner", "", req("m", tMap(tInt(8))))
	for _, ty := range []*model.Type{
		tStruct("A", "", req("x", tSlice(inner))),
		tStruct("B", "", opt("x", tPtr(tMap(tString())))),
	} {
		b, ok, err := Strict(ty)
		if !ok || err != nil || !strings.Contains(string(b), `"required":["key","value"]`) {
			t.Errorf("%s: Strict = %s, %v, %v; want the pair form", ty.ID, b, ok, err)
		}
		if err := CheckOpenAIStrict(b); err != nil {
			t.Errorf("%s: %v", ty.ID, err)
		}
		if _, err := Plain(ty); err != nil {
			t.Errorf("%s: Plain: %v", ty.ID, err)
		}
	}
}

func TestErrors(t *testing.T) {
	cyc := tStruct("Loop", "")
	cyc.Fields = []*model.Field{opt("self", tPtr(cyc))} // not marked Recursive
	a1, a2 := tStruct("Dup", ""), tStruct("Dup", "")
	a1.Recursive, a2.Recursive = true, true
	a1.Fields = []*model.Field{opt("a", tPtr(a1))}
	a2.Fields = []*model.Field{opt("a", tPtr(a2))}
	tests := []struct {
		name string
		ty   *model.Type
		want string
	}{
		{"nil", nil, "schema: nil type"},
		{"map without values at the root", &model.Type{Kind: model.KindMap}, "schema: map: map without a value type"},
		{"pattern on integer", tStruct("S", "", cons(req("f", tInt(8)), model.Constraints{Pattern: "x"})), "schema: S.f: pattern does not apply to type integer"},
		{"min on string", tStruct("S", "", cons(req("f", tString()), model.Constraints{Min: num("1")})), "schema: S.f: min does not apply to type string"},
		{"minItems on string", tStruct("S", "", cons(req("f", tString()), model.Constraints{MinItems: n(1)})), "schema: S.f: minItems does not apply to type string"},
		{"format on time", tStruct("S", "", cons(req("f", tTime()), model.Constraints{Format: "date"})), "schema: S.f: format does not apply to type time.Time"},
		{"maxLength on struct", tStruct("S", "", cons(req("f", tStruct("T", "")), model.Constraints{MaxLength: n(1)})), "schema: S.f: maxLength does not apply to type struct"},
		{"uniqueItems on map", tStruct("S", "", cons(req("f", tMap(tBool())), model.Constraints{UniqueItems: true})), "schema: S.f: uniqueItems does not apply to type map"},
		{"scalar cons on slice of structs", tStruct("S", "", cons(req("f", tSlice(tStruct("T", ""))), model.Constraints{Enum: []string{"1"}})), "schema: S.f: enum does not apply to elements of type struct"},
		{"bad enum literal", tStruct("S", "", cons(req("f", tString()), model.Constraints{Enum: []string{"nope"}})), `schema: S.f: enum value: "nope" is not a JSON value`},
		{"bad default", tStruct("S", "", cons(opt("f", tString()), model.Constraints{Default: "{"})), `schema: S.f: default: "{" is not a JSON value`},
		{"bad bound", tStruct("S", "", cons(req("f", tInt(8)), model.Constraints{Min: num("1e99999")})), "schema: S.f: number 1e99999 out of the supported range"},
		{"duplicate json name", tStruct("S", "", req("f", tBool()), req("f", tBool())), `schema: S: duplicate JSON field name "f"`},
		{"bad bits", tStruct("S", "", req("f", tInt(12))), "schema: S.f: integer with 12 bits"},
		{"unmarked cycle", cyc, "schema: Loop: type is part of a reference cycle but not marked Recursive"},
		{"shared def ID", tStruct("S", "", opt("a", tPtr(a1)), opt("b", tPtr(a2))), `schema: two types under $defs share the ID "Dup"`},
		{"novalue field", tStruct("S", "", req("f", &model.Type{Kind: model.KindNoValue})), "schema: S.f: unsupported type NoValue"},
		{"slice without element", tStruct("S", "", req("f", &model.Type{Kind: model.KindSlice})), "schema: S.f: slice without an element type"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Plain(tc.ty)
			if err == nil || err.Error() != tc.want {
				t.Errorf("Plain error = %v\nwant %s", err, tc.want)
			}
			_, _, err = Strict(tc.ty)
			if err == nil || err.Error() != tc.want {
				t.Errorf("Strict error = %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestDeterministicBytes(t *testing.T) {
	for name, ty := range allFixtures() {
		p1, _ := Plain(ty)
		s1, _, _ := Strict(ty)
		for i := 0; i < 5; i++ {
			fresh := allFixtures()[name] // an identical model built anew
			p2, err := Plain(fresh)
			if err != nil {
				t.Fatal(err)
			}
			s2, _, _ := Strict(fresh)
			if !bytes.Equal(p1, p2) || !bytes.Equal(s1, s2) {
				t.Fatalf("%s: output differs between runs", name)
			}
		}
	}
}

func compile(t *testing.T, b []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("unmarshal schema: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("mem:///schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem:///schema.json")
	if err != nil {
		t.Fatalf("compile %s: %v", b, err)
	}
	return sch
}

func TestEverySchemaCompilesAgainstMetaSchema(t *testing.T) {
	all := map[string][]byte{"NoValue": NoValue(), "Empty": Empty()}
	for name, ty := range allFixtures() {
		p, err := Plain(ty)
		if err != nil {
			t.Fatal(err)
		}
		all[name+"/plain"] = p
		if s, ok, _ := Strict(ty); ok {
			all[name+"/strict"] = s
		}
	}
	for name, b := range all {
		t.Run(name, func(t *testing.T) { compile(t, b) })
	}
}

func TestMetaSchemaCheckIsActive(t *testing.T) {
	doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"type":"object","minimum":"zero"}`))
	c := jsonschema.NewCompiler()
	_ = c.AddResource("mem:///bad.json", doc)
	if _, err := c.Compile("mem:///bad.json"); err == nil {
		t.Fatal("an invalid schema compiled: meta-schema validation is off")
	}
}

func TestStrictSchemasFollowOpenAIRules(t *testing.T) {
	for name, ty := range allFixtures() {
		p, _ := Plain(ty)
		s, ok, err := Strict(ty)
		if err != nil || !ok {
			if name == "map" && !ok {
				continue
			}
			t.Fatalf("%s: ok=%v err=%v", name, ok, err)
		}
		if ty.Kind == model.KindNoValue {
			continue // not an object schema; never sent as tool parameters
		}
		if err := CheckOpenAIStrict(s); err != nil {
			t.Errorf("%s: CheckOpenAIStrict: %v", name, err)
		}
		if err := CheckStrictAgainstPlain(s, p); err != nil {
			t.Errorf("%s: CheckStrictAgainstPlain: %v", name, err)
		}
	}
}

// checkKeyOrder walks JSON tokens and checks that every schema object writes its keys in keyOrder.
func checkKeyOrder(t *testing.T, b []byte) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var walk func(kind string, path string) // kind: schema, map (of schemas), literal, schemas (array)
	walk = func(kind, path string) {
		tok, err := d.Token()
		if err != nil {
			t.Fatal(err)
		}
		switch tok {
		case json.Delim('{'):
			last := -1
			for d.More() {
				kt, _ := d.Token()
				k := kt.(string)
				next := "literal"
				switch kind {
				case "schema":
					r, ok := keyRank[k]
					if !ok {
						t.Errorf("%s: unexpected key %q", path, k)
					}
					if r <= last {
						t.Errorf("%s: key %q out of order", path, k)
					}
					last = r
					switch k {
					case "properties", "$defs":
						next = "map"
					case "items", "additionalProperties":
						next = "schema"
					case "anyOf":
						next = "schemas"
					}
				case "map":
					next = "schema"
				}
				walk(next, path+"/"+k)
			}
			d.Token()
		case json.Delim('['):
			next := "literal"
			if kind == "schemas" {
				next = "schema"
			}
			for i := 0; d.More(); i++ {
				walk(next, fmt.Sprintf("%s/%d", path, i))
			}
			d.Token()
		}
	}
	walk("schema", "")
}

func TestKeysFollowTheDocumentedOrder(t *testing.T) {
	for name, ty := range allFixtures() {
		p, _ := Plain(ty)
		checkKeyOrder(t, p)
		if s, ok, _ := Strict(ty); ok {
			checkKeyOrder(t, s)
		}
		_ = name
	}
}

func TestAppendStringEscapes(t *testing.T) {
	got := string(appendString(nil, "a\"b\\c\n\t\r\x01\x7f<>&é\xff"))
	want := `"a\"b\\c\n\t\r\u0001\u007f<>&é\ufffd"`
	if got != want {
		t.Errorf("got %s want %s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Error("not valid JSON")
	}
}

// The Go doc boilerplate of a params or result type is left out at the schema's root (the tool's
// description says it), and kept anywhere else and for any other doc.
func TestRootBoilerplateIsLeftOut(t *testing.T) {
	for doc, kept := range map[string]bool{
		"SearchArgs are the arguments of search_docs.":             false,
		"SearchArgs is the input to search_docs":                   false,
		"SearchArgs holds the parameters for search_docs.":         false,
		"SearchArgs are the arguments of search_docs. Use globs.":  true,
		"SearchArgs narrow a search to the files the model wants.": true,
		"Other are the arguments of search_docs.":                  true,
	} {
		ty := searchParams()
		ty.Doc = doc
		b, err := Plain(ty)
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(b, []byte(`"type":"object","description":`)); got != kept {
			t.Errorf("%q: root description kept %v, want %v", doc, got, kept)
		}
	}
}

func TestCheckOpenAILimits(t *testing.T) {
	var enum []string
	for i := range 300 {
		enum = append(enum, `"`+strings.Repeat("x", 60)+strconv.Itoa(i)+`"`)
	}
	big := `{"type":"object","properties":{"e":{"type":"string","enum":[` + strings.Join(enum, ",") + `]}},"required":["e"],"additionalProperties":false}`
	err := CheckOpenAILimits([]byte(big))
	if err == nil || !strings.Contains(err.Error(), "an enum of 300 values") {
		t.Errorf("big enum: %v", err)
	}
	var many []string
	for i := range 1100 {
		many = append(many, `"`+strconv.Itoa(i)+`"`)
	}
	manyEnums := `{"type":"object","properties":{"e":{"type":"string","enum":[` + strings.Join(many, ",") + `]}},"required":["e"],"additionalProperties":false}`
	if err := CheckOpenAILimits([]byte(manyEnums)); err == nil || !strings.Contains(err.Error(), "1100 enum values") {
		t.Errorf("many enum values: %v", err)
	}
	if err := CheckOpenAILimits([]byte(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`)); err != nil {
		t.Errorf("a small schema: %v", err)
	}
}

// A result may be any type: its schema is that type's, at the root.
func TestNonStructRoots(t *testing.T) {
	for _, tt := range []struct {
		name string
		t    *model.Type
		want string
	}{
		{"string", tString(), `{"type":"string"}`},
		{"slice", &model.Type{Kind: model.KindSlice, Elem: tString()}, `{"type":"array","items":{"type":"string"}}`},
		{"pointer to struct", &model.Type{Kind: model.KindPointer, Elem: tStruct("S", "", req("f", tString()))},
			`{"type":["object","null"],"properties":{"f":{"type":"string"}},"required":["f"],"additionalProperties":false}`},
	} {
		got, err := Plain(tt.t)
		if err != nil || string(got) != withDialect(tt.want) {
			t.Errorf("%s: Plain = %s, %v; want %s", tt.name, got, err, withDialect(tt.want))
		}
	}
}

// TestSharedStructsGoUnderDefs: a named struct used more than once is written once under "$defs" and
// referenced (a nullable use through anyOf with null); one used once stays inline; a struct inside a shared
// one counts once, as its definition is written once. The schema states its dialect first.
func TestSharedStructsGoUnderDefs(t *testing.T) {
	inner := tStruct("Inner", "", req("n", tString()))
	point := tStruct("Point", "Point is a place.", req("x", tString()), req("in", inner))
	once := tStruct("Once", "", req("y", tString()))
	root := tStruct("P", "", doc(req("from", point), "Start."), opt("to", tPtr(point)), req("path", tSlice(point)), req("once", once))
	got := mustPlain(t, root)
	want := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{` +
		`"from":{"description":"Start.","$ref":"#/$defs/Point"},` +
		`"to":{"anyOf":[{"$ref":"#/$defs/Point"},{"type":"null"}]},` +
		`"path":{"type":"array","items":{"$ref":"#/$defs/Point"}},` +
		`"once":{"type":"object","properties":{"y":{"type":"string"}},"required":["y"],"additionalProperties":false}},` +
		`"required":["from","path","once"],"additionalProperties":false,"$defs":{"Point":{"type":"object","description":"Point is a place.",` +
		`"properties":{"x":{"type":"string"},"in":{"type":"object","properties":{"n":{"type":"string"}},"required":["n"],"additionalProperties":false}},` +
		`"required":["x","in"],"additionalProperties":false}}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	compile(t, []byte(got))
	strict, err := openai.StrictSchema([]byte(got))
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckOpenAIStrict(strict); err != nil || !strings.Contains(string(strict), `"$defs":{"Point"`) {
		t.Errorf("strict form keeps $defs: %v\n%s", err, strict)
	}
}
