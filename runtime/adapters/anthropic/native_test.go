package anthropic_test

import (
	"encoding/json"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/wink"
)

func sdkTools(t *testing.T, payload []byte) []sdk.ToolUnionParam {
	t.Helper()
	var p sdk.MessageNewParams
	body := `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"Hi"}],"tools":` + string(payload) + `}`
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	return p.Tools
}

// input_examples carries each tool's validated examples, exactly their canonical inputs, in order.
func TestToolsWithSendsValidatedExamplesAsInputExamples(t *testing.T) {
	tools := files.WinkTools()
	payload, err := anthropic.ToolsWith(tools, anthropic.Options{Examples: true})
	if err != nil {
		t.Fatal(err)
	}
	got := sdkTools(t, payload)
	n := 0
	for i, tl := range tools {
		exs := tl.Spec().Examples
		tp := got[i].OfTool
		if len(tp.InputExamples) != len(exs) {
			t.Errorf("%s: %d input_examples, want %d", tl.Name(), len(tp.InputExamples), len(exs))
			continue
		}
		for j, ex := range exs {
			var want map[string]any
			if err := json.Unmarshal(ex.Input, &want); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(tp.InputExamples[j])
			w, _ := json.Marshal(want)
			if string(b) != string(w) {
				t.Errorf("%s example %d: %s, want %s", tl.Name(), j, b, w)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("the files suite has no examples to send")
	}
	plain, _ := anthropic.ToolsWith(tools, anthropic.Options{})
	for _, u := range sdkTools(t, plain) {
		if len(u.OfTool.InputExamples) != 0 {
			t.Errorf("examples sent without Options.Examples")
		}
	}
}

func TestToolsWithServerSearchAndErrors(t *testing.T) {
	tools := files.WinkTools()
	payload, err := anthropic.ToolsWith(tools[:1], anthropic.Options{Deferred: tools[1:], Search: anthropic.SearchBM25})
	if err != nil {
		t.Fatal(err)
	}
	got := sdkTools(t, payload)
	if len(got) != len(tools)+1 || got[len(got)-1].OfToolSearchToolBm25_20251119 == nil {
		t.Fatalf("want the tools then the BM25 search tool: %s", payload)
	}
	for i, u := range got[:len(tools)] {
		if u.OfTool.DeferLoading.Value != (i > 0) {
			t.Errorf("%s: defer_loading %v", u.OfTool.Name, u.OfTool.DeferLoading.Value)
		}
	}
	if _, err := anthropic.ToolsWith(tools, anthropic.Options{Search: "fuzzy"}); err == nil {
		t.Error("an unknown search kind is accepted")
	}
	_ = wink.Call{}
}
