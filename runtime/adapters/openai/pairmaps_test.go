package openai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/winkgen/wink/gen/schema"
	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// TestMapsTravelAsPairsInStrictMode: a tool whose params hold a map is strict, its strict schema states
// the map as key/value pairs (and passes OpenAI's rules), a call read from an OpenAI payload decodes that
// form exactly, and the object form is refused there (and the pair form elsewhere), with messages a model
// can act on.
func TestMapsTravelAsPairsInStrictMode(t *testing.T) {
	sp := label.Spec()
	if _, strict := openai.Schema(sp); !strict {
		t.Fatal("label_issue is not strict")
	}
	if err := schema.CheckOpenAIStrict(strictOf(t, label)); err != nil {
		t.Fatal(err)
	}
	if err := schema.CheckStrictAgainstPlain(strictOf(t, label), sp.ParamsSchema); err != nil && !strings.Contains(err.Error(), "labels") {
		t.Fatal(err)
	}
	d := &wink.Dispatcher{Registry: wink.MustRegistry(adapterstest.WinkTools())}
	call := func(args string) wink.Outcome {
		t.Helper()
		calls, err := openai.ParseChatToolCalls([]byte(`{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"label_issue","arguments":` +
			string(strictjson.AppendString(nil, args)) + `}}]}`))
		if err != nil {
			t.Fatal(err)
		}
		out, err := d.Dispatch(context.Background(), calls[0])
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out := call(`{"issue":7,"labels":[{"key":"prio","value":"high"},{"value":"ui","key":"area"}]}`); !out.Success {
		t.Fatalf("pair form refused: %s", out.Output)
	}
	var got map[string]string
	def := adapterstest.WinkLabelIssue
	p, err := wink.DecodeParams[adapterstest.LabelParams](def, []byte(`{"issue":7,"labels":[{"key":"prio","value":"high"},{"key":"area","value":"ui"}]}`), strictjson.Limits{PairMaps: true})
	if err != nil {
		t.Fatal(err)
	}
	got = p.Labels
	if len(got) != 2 || got["prio"] != "high" || got["area"] != "ui" {
		t.Fatalf("decoded %v", got)
	}
	for _, c := range []struct{ args, want string }{
		{`{"issue":7,"labels":{"prio":"high"}}`, `labels: expected an array of {"key": …, "value": …} objects (a map in strict mode), got object`},
		{`{"issue":7,"labels":[{"key":"a","value":"1"},{"key":"a","value":"2"}]}`, `key "a" appears twice`},
		{`{"issue":7,"labels":[{"key":"a"}]}`, "missing required field"},
		{`{"issue":7,"labels":[{"key":"a","value":"1","extra":1}]}`, `unknown field "extra"`},
	} {
		if out := call(c.args); out.Success || !strings.Contains(out.Output, c.want) {
			t.Errorf("%s: %s; want a failure saying %q", c.args, out.Output, c.want)
		}
	}
	// Elsewhere (MCP, Anthropic, Gemini) a map is an object, and the pair form is refused.
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "c2", Name: "label_issue", Arguments: []byte(`{"issue":7,"labels":[{"key":"a","value":"1"}]}`)})
	if err != nil || out.Success || !strings.Contains(out.Output, "expected object") {
		t.Errorf("pair form outside strict mode: %+v, %v", out, err)
	}
}
