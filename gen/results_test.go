package gen

import (
	"context"
	"testing"

	"github.com/winkgen/wink/gen/testdata/results"
	"github.com/winkgen/wink/internal/schemaoracle"
	"github.com/winkgen/wink/runtime/wink"
)

// TestNonStructResultsMatchTheirSchema dispatches every tool of the results golden (arrays, numbers,
// strings, maps, nullable objects, named slices and enums as results) and checks that the value the
// generated encoder writes is what the generated result schema accepts, as an independent validator
// judges it, and that a value of another shape is refused by that schema.
func TestNonStructResultsMatchTheirSchema(t *testing.T) {
	reg, err := wink.NewRegistry(results.WinkTools())
	if err != nil {
		t.Fatal(err)
	}
	d := &wink.Dispatcher{Registry: reg}
	wantValue := map[string]string{
		"list_items":  `[{"name":"ab1","size":1}]`,
		"count_items": `2`,
		"greet":       `"hello ab"`,
		"sizes":       `{"ab":1}`,
		"find_item":   `null`,
		"labels":      `["x"]`,
		"more_labels": `["y","z"]`,
		"severity":    `"high"`,
	}
	if len(results.WinkTools()) != len(wantValue) {
		t.Fatalf("%d tools, want %d", len(results.WinkTools()), len(wantValue))
	}
	for _, tl := range results.WinkTools() {
		t.Run(tl.Name(), func(t *testing.T) {
			sch, err := schemaoracle.Compile(tl.Name()+"_result", tl.Spec().ResultSchema)
			if err != nil {
				t.Fatal(err)
			}
			var value any
			d.Events = func(inv *wink.ToolInvoked) { value = inv.Value }
			out, err := d.Dispatch(context.Background(), wink.Call{ID: "c1", Name: tl.Name(), Arguments: []byte(`{"prefix":"ab"}`)})
			if err != nil || !out.Success {
				t.Fatalf("dispatch: %v %+v", err, out)
			}
			b, ok := tl.AppendValueJSON(nil, value)
			if !ok {
				t.Fatalf("AppendValueJSON refused %#v", value)
			}
			if string(b) != wantValue[tl.Name()] {
				t.Errorf("value %s, want %s", b, wantValue[tl.Name()])
			}
			if ok, msg := schemaoracle.Verdict(sch, b); !ok {
				t.Errorf("the result schema %s refuses the encoded value %s: %s", tl.Spec().ResultSchema, b, msg)
			}
			if ok, _ := schemaoracle.Verdict(sch, []byte(`{"unexpected":true}`)); ok && tl.Name() != "sizes" {
				t.Errorf("the result schema %s accepts an object of another shape", tl.Spec().ResultSchema)
			}
		})
	}
}
