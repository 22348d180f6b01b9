package agent

import (
	"flag"
	"os"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var updatePrompt = flag.Bool("update", false, "rewrite testdata/prompt.golden.md")

// TestPromptOfTheSuitesRendersTheGolden renders the agent's prompt, built of the planning, digest, files, sandbox and eval suites
// and two custom sections, and compares the markdown with the golden and the tools with their expected order.
func TestPromptOfTheSuitesRendersTheGolden(t *testing.T) {
	a, err := New(0)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	const golden = "testdata/prompt.golden.md"
	if *updatePrompt {
		if err := os.WriteFile(golden, []byte(a.Rendered.Text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./example/agent -update)", err)
	}
	if diff := cmp.Diff(string(want), a.Rendered.Text); diff != "" {
		t.Errorf("prompt markdown (-want +got):\n%s", diff)
	}
	var names []string
	for _, tl := range a.Rendered.Tools {
		names = append(names, tl.Name())
	}
	wantTools := []string{
		"planning_setup_plan", "planning_add_step", "planning_update_step", "planning_read_plan", "workspace_digest",
		"ls", "read_file", "write_file", "edit_file", "glob", "grep", "rm", "shell", "eval",
		"schedule_task", "search_docs", "compute_stats", "get_status", "count_outline", "archive_docs", "publish_docs",
	}
	if !slices.Equal(names, wantTools) {
		t.Errorf("tools = %v\nwant    %v", names, wantTools)
	}
}
