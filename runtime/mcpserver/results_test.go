package mcpserver_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/mcpservertest"
)

// withoutDialect drops a schema's "$schema".
func withoutDialect(v any) any {
	if m, ok := v.(map[string]any); ok {
		delete(m, "$schema")
	}
	return v
}

// Results that are not objects are listed with their own outputSchema (in the envelope of
// TestResultShapes) and answered with structuredContent of that shape, through the
// SDK's client.
func TestEveryResultTypeHasItsOutputSchemaAndStructuredContent(t *testing.T) {
	want := map[string]string{
		"words":   `{"type":"array","items":{"type":"string"}}`,
		"measure": `{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}`,
	}
	for _, tl := range mcpservertest.WinkTools() {
		if w, ok := want[tl.Name()]; ok && !cmp.Equal(withoutDialect(unmarshal(t, tl.Spec().ResultSchema)), unmarshal(t, []byte(w))) {
			t.Fatalf("%s: ResultSchema %s, want %s", tl.Name(), tl.Spec().ResultSchema, w)
		}
	}
	for _, tr := range []struct {
		name    string
		connect func(t *testing.T) *mcp.ClientSession
	}{
		{"in-memory", func(t *testing.T) *mcp.ClientSession { return inMemory(t, testDispatcher(t)) }},
		{"streamable-http", func(t *testing.T) *mcp.ClientSession { return overHTTP(t, testDispatcher(t)) }},
	} {
		t.Run(tr.name, func(t *testing.T) {
			cs := tr.connect(t)
			res, err := cs.ListTools(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]*mcp.Tool{}
			for _, mt := range res.Tools {
				byName[mt.Name] = mt
			}
			for _, tl := range mcpservertest.WinkTools() {
				switch tl.Name() {
				case "words", "measure", "lookup":
				default:
					continue
				}
				mt := byName[tl.Name()]
				if mt == nil {
					t.Fatalf("%s not listed", tl.Name())
				}
				want := unmarshal(t, []byte(envelopeOf(t, mcpserver.OutputSchema(tl.Spec().ResultSchema)))) // TestResultShapes
				if diff := cmp.Diff(want, mt.OutputSchema); diff != "" {
					t.Errorf("%s: outputSchema (-want +got):\n%s", tl.Name(), diff)
				}
			}
			checkResult(t, call(t, cs, "words", `{"text":"a bb  ccc"}`), false, "Split.\n\n[\"a\",\"bb\",\"ccc\"]", `["a","bb","ccc"]`)
			checkResult(t, call(t, cs, "words", `{"text":""}`), false, "Split.\n\n[]", `[]`)
			checkResult(t, call(t, cs, "measure", `{"text":"four"}`), false, "Measured.\n\n4", `4`)
			checkResult(t, call(t, cs, "lookup", `{"text":"known"}`), false, "Found.\n\n{\"text\":\"known\",\"length\":5}", `{"text":"known","length":5}`)
			checkResult(t, call(t, cs, "lookup", `{"text":"other"}`), false, "Not found.\n\nnull", "null")
			checkResult(t, call(t, cs, "measure", `{"text":5}`), true,
				"Invalid arguments for tool \"measure\":\n- text: expected string, got number 5\nFix the arguments and call measure again.", "")
		})
	}
}
