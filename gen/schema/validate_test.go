package schema

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/winkgen/wink/gen/model"
)

// TestSchemasMeanWhatTheDecoderEnforces runs an independent 2020-12 validator (format assertions on) over
// instances whose verdict the decoding rules fix.
func TestSchemasMeanWhatTheDecoderEnforces(t *testing.T) {
	sinkBase := `"s":"x","id":"i","email":"a@b.co","code":"AB","b":true,"i8":0,"i16":0,"i32":0,"i64":0,"u8":0,"u16":0,"u32":0,"u64":0,"f32":0,"f64":0,"ratio":0.5,"even":2,"when":"2024-01-02T03:04:05Z","level":1,"color":"red","point":{"x":1,"y":2},"points":[],"nullable_points":[null,{"x":0,"y":0}],"triple":[1,2,3],"pair_min":[-1,0],"matrix":[[1],[]]`
	sink := func(extra string) string {
		if extra == "" {
			return "{" + sinkBase + "}"
		}
		return "{" + sinkBase + "," + extra + "}"
	}
	sinkWithout := func(key string) string {
		i := strings.Index(sinkBase, `"`+key+`":`)
		rest := sinkBase[i:]
		if j := strings.Index(rest, `,"`); j >= 0 {
			return "{" + sinkBase[:i] + rest[j+1:] + "}"
		}
		return "{" + strings.TrimSuffix(sinkBase[:i], ",") + "}"
	}
	tests := []struct {
		fixture  string
		strict   bool
		instance string
		valid    bool
	}{
		{"search", false, `{"query":"filesystem snapshot rollback","limit":25,"case_sensitive":false,"file_types":["go","md","txt"],"filters":{"path_prefix":"file:///workspace/src","max_size":1048576},"mode":"fuzzy"}`, true},
		{"search", false, `{"query":"q"}`, true},
		{"search", false, `{"query":"q","limit":null,"case_sensitive":null,"file_types":null,"filters":null,"mode":null}`, true},
		{"search", false, `{"query":null}`, false},
		{"search", false, `{}`, false},
		{"search", false, `{"query":""}`, false},
		{"search", false, `{"query":"q","querry":"x"}`, false},
		{"search", false, `{"query":"q","limit":25.0}`, true},
		{"search", false, `{"query":"q","limit":2.5}`, false},
		{"search", false, `{"query":"q","limit":true}`, false},
		{"search", false, `{"query":"q","limit":"10"}`, false},
		{"search", false, `{"query":"q","limit":101}`, false},
		{"search", false, `{"query":"q","mode":"regex"}`, false},
		{"search", false, `{"query":"q","file_types":["go","go"]}`, false},
		{"search", false, `{"query":"q","file_types":["Go"]}`, false},
		{"search", false, `{"query":"q","file_types":["xgo!"]}`, false},
		{"search", false, `{"query":"q","filters":{"max_size":-1}}`, false},
		{"search", false, `{"query":"q","filters":{"extra":1}}`, false},
		{"search", false, `{"query":"q","filters":{"path_prefix":"not a uri"}}`, false},
		{"search", false, `{"query":"q","filters":{"max_size":9223372036854775808}}`, false},
		{"search", true, `{"query":"q","limit":null,"case_sensitive":null,"file_types":null,"filters":null,"mode":null}`, true},
		{"search", true, `{"query":"q"}`, false},
		{"tree", false, `{"label":"a","children":[{"label":"b","children":[null]}],"parent":null}`, true},
		{"tree", false, `{"label":"a","children":[{"label":"b"}]}`, false},
		{"tree", false, `{"label":"a","children":[],"parent":{"label":"p","children":[],"x":1}}`, false},
		{"mutual", false, `{"expr":{"call":{"func":"f","args":[{"literal":1},{}]}},"vars":[{"func":"g","args":[]}]}`, true},
		{"mutual", false, `{"expr":null,"vars":[]}`, false},
		{"mutual", false, `{"expr":{"call":{"func":"f","args":[{"literal":"1"}]}},"vars":[]}`, false},
		{"map", false, `{"labels":{"a":"b"},"vals":{"x":null,"y":{"n":1}}}`, true},
		{"map", false, `{"labels":{"a":1}}`, false},
		{"map", false, `{"labels":{},"vals":{"y":{"n":1,"m":2}}}`, false},
		{"sink", false, sink(""), true},
		{"sink", false, sinkWithout("matrix"), false},
		{"sink", false, sinkWithout("s"), false},
		{"sink", false, sinkWithout("when"), false},
		{"sink", false, sink(`"s_opt":null,"b_ptr":null,"when_opt":null,"level_opt":null,"tag_enum":null,"point_opt":null,"ints":null,"colors":null,"urls":null,"note":null`), true},
		{"sink", false, strings.Replace(sink(""), `"i8":0`, `"i8":128`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"i8":0`, `"i8":-128`, 1), true},
		{"sink", false, strings.Replace(sink(""), `"u64":0`, `"u64":18446744073709551615`, 1), true},
		{"sink", false, strings.Replace(sink(""), `"u64":0`, `"u64":18446744073709551616`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"u8":0`, `"u8":-1`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"f32":0`, `"f32":3.5e38`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"b":true`, `"b":1`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"code":"AB"`, `"code":"ABC"`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"code":"AB"`, `"code":"ab"`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"email":"a@b.co"`, `"email":"nope"`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"when":"2024-01-02T03:04:05Z"`, `"when":"yesterday"`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"ratio":0.5`, `"ratio":0`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"ratio":0.5`, `"ratio":0.3`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"even":2`, `"even":100`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"level":1`, `"level":4`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"level":1`, `"level":null`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"color":"red"`, `"color":"green"`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"triple":[1,2,3]`, `"triple":[1,2]`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"pair_min":[-1,0]`, `"pair_min":[-2,0]`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"points":[]`, `"points":[null]`, 1), false},
		{"sink", false, strings.Replace(sink(""), `"matrix":[[1],[]]`, `"matrix":[[1],[200]]`, 1), false},
		{"sink", false, sink(`"ints":[]`), false},
		{"sink", false, sink(`"ints":[null,9]`), true},
		{"sink", false, sink(`"ints":[10]`), false},
		{"sink", false, sink(`"colors":["red","red"]`), false},
		{"sink", false, sink(`"urls":["https://x.org/a"]`), true},
		{"sink", false, sink(`"urls":["no scheme"]`), false},
		{"sink", false, sink(`"note":"ab"`), false},
		{"sink", false, sink(`"tag_enum":7`), false},
	}
	schemas := map[string]*jsonschema.Schema{}
	for _, tc := range tests {
		key := tc.fixture
		if tc.strict {
			key += "/strict"
		}
		sch := schemas[key]
		if sch == nil {
			ty := allFixtures()[tc.fixture]
			var b []byte
			if tc.strict {
				b = []byte(mustStrict(t, ty))
			} else {
				b = []byte(mustPlain(t, ty))
			}
			sch = compile(t, b)
			schemas[key] = sch
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.instance))
		if err != nil {
			t.Fatalf("bad instance %s: %v", tc.instance, err)
		}
		err = sch.Validate(inst)
		if (err == nil) != tc.valid {
			t.Errorf("%s: %s: valid=%v, want %v (%v)", key, tc.instance, err == nil, tc.valid, err)
		}
	}
}

func TestCheckOpenAIStrictCatchesViolations(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"root not object", `{"type":"string"}`, `/: root must have "type": "object"`},
		{"root nullable object", `{"type":["object","null"],"properties":{},"additionalProperties":false}`, `/: root must have "type": "object"`},
		{"missing additionalProperties", `{"type":"object","properties":{}}`, `/: an object needs "additionalProperties": false`},
		{"additionalProperties schema", `{"type":"object","properties":{},"additionalProperties":{"type":"string"}}`, `/: "additionalProperties" must be false`},
		{"nested object open", `{"type":"object","properties":{"a":{"type":"object","properties":{}}},"required":["a"],"additionalProperties":false}`, `/properties/a: an object needs "additionalProperties": false`},
		{"property not required", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, `/: property "a" is not listed in "required"`},
		{"required not a property", `{"type":"object","properties":{},"required":["b"],"additionalProperties":false}`, `/: "b" is required but not a property`},
		{"unsupported keyword", `{"type":"object","properties":{"a":{"type":"string","minLength":1}},"required":["a"],"additionalProperties":false}`, `/properties/a: keyword "minLength" is not supported in strict mode`},
		{"default", `{"type":"object","properties":{"a":{"type":"string","default":"x"}},"required":["a"],"additionalProperties":false}`, `/properties/a: keyword "default" is not supported in strict mode`},
		{"unsupported format", `{"type":"object","properties":{"a":{"type":"string","format":"uri"}},"required":["a"],"additionalProperties":false}`, `/properties/a: format uri is not supported in strict mode`},
		{"ref with sibling", `{"type":"object","properties":{"a":{"description":"d","$ref":"#"}},"required":["a"],"additionalProperties":false}`, `/properties/a: "$ref" must not have sibling keywords`},
		{"dangling ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/X"}},"required":["a"],"additionalProperties":false}`, `/properties/a: $ref "#/$defs/X" does not resolve`},
		{"type beside anyOf", `{"type":"object","properties":{"a":{"type":"object","anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["a"],"additionalProperties":false}`, `/properties/a: "type" must not appear beside "anyOf"`},
		{"bad type list", `{"type":"object","properties":{"a":{"type":["null","string"]}},"required":["a"],"additionalProperties":false}`, `/properties/a: a type list must be [T, "null"], got [null string]`},
		{"nullable enum without null", `{"type":"object","properties":{"a":{"type":["string","null"],"enum":["x"]}},"required":["a"],"additionalProperties":false}`, `/properties/a: "enum" must list null exactly when the type is nullable`},
		{"array without items", `{"type":"object","properties":{"a":{"type":"array"}},"required":["a"],"additionalProperties":false}`, `/properties/a: an array needs "items"`},
		{"items checked", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","uniqueItems":true}}},"required":["a"],"additionalProperties":false}`, `/properties/a/items: keyword "uniqueItems" is not supported in strict mode`},
		{"defs checked", `{"type":"object","properties":{},"additionalProperties":false,"$defs":{"X":{"type":"object","properties":{"y":{"type":"integer"}},"additionalProperties":false}}}`, `/$defs/X: property "y" is not listed in "required"`},
		{"nested defs", `{"type":"object","properties":{"a":{"type":"object","properties":{},"additionalProperties":false,"$defs":{}}},"required":["a"],"additionalProperties":false}`, `/properties/a: "$defs" is only allowed at the root`},
		{"untyped schema", `{"type":"object","properties":{"a":{}},"required":["a"],"additionalProperties":false}`, `/properties/a: schema has no "type", "anyOf" or "$ref"`},
		{"not JSON", `{`, `schema is not JSON: unexpected EOF`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckOpenAIStrict([]byte(tc.schema))
			if err == nil {
				t.Fatalf("no error, want %s", tc.want)
			}
			found := false
			for _, line := range strings.Split(err.Error(), "\n") {
				found = found || line == tc.want
			}
			if !found {
				t.Errorf("got %q\nwant a line %q", err, tc.want)
			}
		})
	}
}

func TestCheckStrictAgainstPlainCatchesViolations(t *testing.T) {
	plain := `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["string","null"]},"c":{"type":"array","items":{"type":"object","properties":{"d":{"type":["integer","null"]}},"additionalProperties":false}}},"required":["a","c"],"additionalProperties":false}`
	tests := []struct {
		name, strict, want string
	}{
		{"optional not nullable", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"array","items":{"type":"object","properties":{"d":{"type":["integer","null"]}},"required":["d"],"additionalProperties":false}}},"required":["a","b","c"],"additionalProperties":false}`,
			`/properties/b: optional in the plain schema but not nullable in the strict schema`},
		{"required made nullable", `{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"type":["string","null"]},"c":{"type":"array","items":{"type":"object","properties":{"d":{"type":["integer","null"]}},"required":["d"],"additionalProperties":false}}},"required":["a","b","c"],"additionalProperties":false}`,
			`/properties/a: required in the plain schema but nullable in the strict schema`},
		{"nested optional not nullable", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["string","null"]},"c":{"type":"array","items":{"type":"object","properties":{"d":{"type":"integer"}},"required":["d"],"additionalProperties":false}}},"required":["a","b","c"],"additionalProperties":false}`,
			`/properties/c/items/properties/d: optional in the plain schema but not nullable in the strict schema`},
		{"property dropped", `{"type":"object","properties":{"a":{"type":"string"},"c":{"type":"array","items":{"type":"object","properties":{"d":{"type":["integer","null"]}},"required":["d"],"additionalProperties":false}}},"required":["a","c"],"additionalProperties":false}`,
			`/: property "b" is missing in the strict schema`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckStrictAgainstPlain([]byte(tc.strict), []byte(plain))
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
	// And the nullable-ref form counts as nullable.
	okStrict := `{"type":"object","properties":{"a":{"type":"string"},"b":{"anyOf":[{"type":"string"},{"type":"null"}]},"c":{"type":"array","items":{"type":"object","properties":{"d":{"type":["integer","null"]}},"required":["d"],"additionalProperties":false}}},"required":["a","b","c"],"additionalProperties":false}`
	if err := CheckStrictAgainstPlain([]byte(okStrict), []byte(plain)); err != nil {
		t.Errorf("valid pair rejected: %v", err)
	}
}

func BenchmarkPlainKitchenSink(b *testing.B) {
	ty := kitchenSink()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Plain(ty); err != nil {
			b.Fatal(err)
		}
	}
}

var _ = model.KindString
