package openai_test

import (
	"encoding/json"
	"slices"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/internal/callertools"
)

// responsesFunctions reads a Responses tools array with the SDK's types: each function's allowed callers.
func responsesFunctions(t *testing.T, b []byte, err error) map[string][]string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	var tools []responses.ToolUnionParam
	if err := json.Unmarshal(b, &tools); err != nil {
		t.Fatalf("the SDK does not read %s: %v", b, err)
	}
	out := map[string][]string{}
	for _, u := range tools {
		if u.OfFunction != nil {
			out[u.OfFunction.Name] = u.OfFunction.AllowedCallers
		}
	}
	return out
}

// A tool only programs may call (callers=program) is never offered to the model as its own function:
// only with programmatic tool calling, for programs alone.
func TestProgramOnlyToolsAreNotDirectFunctions(t *testing.T) {
	all := callertools.WinkTools()
	b, err := openai.ChatTools(all)
	if err != nil {
		t.Fatal(err)
	}
	var chat []sdk.ChatCompletionToolUnionParam
	if err := json.Unmarshal(b, &chat); err != nil {
		t.Fatal(err)
	}
	for _, c := range chat {
		if c.OfFunction == nil || c.OfFunction.Function.Name == "audit" {
			t.Errorf("ChatTools sends %s", b)
		}
	}
	if len(chat) != len(all)-1 {
		t.Errorf("ChatTools sends %d tools", len(chat))
	}
	b, err = openai.ResponsesTools(all)
	if got := responsesFunctions(t, b, err); got["audit"] != nil || len(got) != len(all)-1 {
		t.Errorf("ResponsesTools sends %d functions, audit %v", len(got), got["audit"] != nil)
	}
	b, err = openai.ResponsesToolsWith(all, openai.ResponsesOptions{OutputSchema: true})
	if got := responsesFunctions(t, b, err); got["audit"] != nil || len(got) != len(all)-1 {
		t.Errorf("ResponsesToolsWith without programs sends %d functions, audit %v", len(got), got["audit"] != nil)
	}
	b, err = openai.ResponsesToolsWith(all, openai.ResponsesOptions{Programs: true})
	got := responsesFunctions(t, b, err)
	if !slices.Equal(got["audit"], []string{"programmatic"}) || !slices.Equal(got["refund"], []string{"direct"}) ||
		!slices.Equal(got["lookup"], []string{"direct", "programmatic"}) {
		t.Errorf("ResponsesToolsWith with programs: %v", got)
	}
}
