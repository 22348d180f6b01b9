package gen

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/winkgen/wink/gen/testdata/mapsoptional"
	"github.com/winkgen/wink/runtime/strictjson"
)

// TestEncodersWriteWhatTheirSchemaAccepts round-trips values of the mapsoptional golden (maps of structs,
// pointers, slices, maps and arrays; optional arrays and structs whose zero values break their own
// constraints) through the generated encoder, the generated schema (an independent validator) and the
// generated decoder.
func TestEncodersWriteWhatTheirSchemaAccepts(t *testing.T) {
	def := mapsoptional.WinkStore
	spec := def.Spec()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	var doc any
	if err := json.Unmarshal(spec.ParamsSchema, &doc); err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("mem://params.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem://params.json")
	if err != nil {
		t.Fatal(err)
	}
	item := func(s string) mapsoptional.Item { return mapsoptional.Item{Name: s} }
	values := []mapsoptional.Params{
		{},
		{ByName: map[string]mapsoptional.Item{"a": item("x"), "b": item("y")},
			Refs:   map[string]*mapsoptional.Item{"n": nil, "p": {Name: "z"}},
			Lists:  map[string][]mapsoptional.Item{"l": {item("1"), item("2")}, "e": {}},
			Nested: map[string]map[string]mapsoptional.Item{"o": {"i": item("deep")}},
			Pairs:  map[string][2]mapsoptional.Item{"p": {item("l"), item("r")}},
			Pair:   [2]string{"a", "b"}, Prefix: mapsoptional.Prefix{Value: "v"}},
	}
	values[1].Anon.X = "x"
	for i, v := range values {
		b, ok := def.EncodeParams(nil, v)
		if !ok {
			t.Fatal("no params encoder")
		}
		var inst any
		if err := json.Unmarshal(b, &inst); err != nil {
			t.Fatalf("value %d encodes to invalid JSON %s: %v", i, b, err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Fatalf("value %d encodes to %s, which its own schema refuses: %v", i, b, err)
		}
		got, err := def.Decode(b, strictjson.Limits{})
		if err != nil {
			t.Fatalf("value %d: %s does not decode: %v", i, b, err)
		}
		b2, _ := def.EncodeParams(nil, got)
		if !bytes.Equal(b, b2) {
			t.Fatalf("value %d: re-encoding differs:\n%s\n%s", i, b, b2)
		}
	}
}
