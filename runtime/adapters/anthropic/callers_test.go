package anthropic_test

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/internal/callertools"
)

// sentTools reads a tools array with the SDK's types: each custom tool's allowed callers by name.
func sentTools(t *testing.T, b []byte, err error) map[string][]string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	var tools []sdk.ToolUnionParam
	if err := json.Unmarshal(b, &tools); err != nil {
		t.Fatalf("the SDK does not read %s: %v", b, err)
	}
	out := map[string][]string{}
	for _, u := range tools {
		if u.OfTool != nil {
			out[u.OfTool.Name] = u.OfTool.AllowedCallers
		}
	}
	return out
}

// A tool only programs may call (callers=program) is never offered to the model as its own tool: only
// with the code execution tool, for its programs alone.
func TestProgramOnlyToolsAreNotDirectTools(t *testing.T) {
	all := callertools.WinkTools()
	b, err := anthropic.Tools(all)
	if got := sentTools(t, b, err); got["audit"] != nil || len(got) != len(all)-1 {
		t.Errorf("Tools sends %v", slices.Sorted(maps.Keys(got)))
	}
	b, _, err = anthropic.StrictTools(all)
	if got := sentTools(t, b, err); got["audit"] != nil || len(got) != len(all)-1 {
		t.Errorf("StrictTools sends %v", slices.Sorted(maps.Keys(got)))
	}
	b, err = anthropic.ToolsWith(all, anthropic.Options{Examples: true})
	if got := sentTools(t, b, err); got["audit"] != nil || len(got) != len(all)-1 {
		t.Errorf("ToolsWith without code execution sends %v", slices.Sorted(maps.Keys(got)))
	}
	b, err = anthropic.ToolsWith(all, anthropic.Options{CodeExecution: true})
	got := sentTools(t, b, err)
	if !slices.Equal(got["audit"], []string{anthropic.CodeExecutionType}) || !slices.Equal(got["refund"], []string{"direct"}) ||
		!slices.Equal(got["lookup"], []string{"direct", anthropic.CodeExecutionType}) {
		t.Errorf("ToolsWith with code execution: %v", got)
	}
}
