// Command demo shows what winkgen gives an agent: for every tool of the example package it prints the
// payloads a model is shown (OpenAI strict function tools, Anthropic tools), then dispatches a dozen calls,
// good ones and each kind of bad one, printing exactly what the model would read back.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/wink"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// calls are the demo's tool calls: what a model might send, good and bad.
var calls = []struct{ why, name, args string }{
	{"a good search", "search_docs", `{"query":"snapshots","filters":{"path_prefix":"/docs","max_size":4096}}`},
	{"a search with several mistakes at once", "search_docs", `{"querry":"x","limit":"10","mode":"regex","filters":{"path_prefix":"docs","max_size":-1}}`},
	{"duplicate keys and a non-integral limit", "search_docs", `{"query":"a","query":"b","limit":2.5,"filters":{"path_prefix":"/","max_size":1}}`},
	{"not JSON at all", "search_docs", `{"query": "unterminated`},
	{"a tool that does not exist", "delete_everything", `{}`},
	{"scheduling with an enum priority, a map and a time", "schedule_task", `{"title":"Ship v1","at":"2026-12-01T10:00:00Z","priority":3,"labels":{"team":"core"}}`},
	{"a bad time, a bad e-mail and an unknown priority", "schedule_task", `{"title":"Go","at":"tomorrow","priority":7,"assignee":"nobody","ticket":"abc"}`},
	{"a cross-field rule (Validate) failing", "schedule_task", `{"title":"Review","at":"2026-12-01T10:00:00Z","repeat":{"every":7,"until":"2026-11-01T00:00:00Z"}}`},
	{"a parameterless tool", "get_status", ``},
	{"arguments sent to a parameterless tool", "get_status", `{"verbose":true}`},
	{"statistics (a float multipleOf default applies)", "compute_stats", `{"samples":[1,2,3.5]}`},
	{"a handler that returns a model-facing error", "compute_stats", `{"samples":[1,2],"weights":[1]}`},
	{"a handler that panics (the model never sees a stack)", "compute_stats", `{"samples":[1,200000000]}`},
	{"a recursive outline (value excluded from context)", "count_outline", `{"root":{"title":"Plan","children":[{"title":"Build","children":[{"title":"Test"}]}]}}`},
	{"a failure result from the handler", "archive_docs", `{"paths":["/docs/a.md","/docs/locked.md"]}`},
}

func run(w io.Writer) error {
	reg, err := wink.NewRegistry(tools.WinkTools())
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "# Tools as the model sees them")
	for _, t := range reg.Tools() {
		s := t.Spec()
		fmt.Fprintf(w, "\n## %s (%s)\n\nOpenAI (chat completions, strict):\n", s.Name, s.Position)
		openai, err := openAITool(s)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, openai)
		anthropic, err := anthropicTool(s)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "Anthropic (messages):\n%s\n", anthropic)
	}

	fmt.Fprintln(w, "\n# Calls and what the model reads back")
	d := &wink.Dispatcher{Registry: reg}
	for i, c := range calls {
		out, err := d.Dispatch(context.Background(), wink.Call{ID: fmt.Sprintf("call_%d", i+1), Name: c.name, Arguments: []byte(c.args)})
		if err != nil {
			return err
		}
		status := "ok"
		if !out.Success {
			status = "failed"
		}
		fmt.Fprintf(w, "\n--- %d. %s\n%s(%s) → %s\n%s\n", i+1, c.why, c.name, c.args, status, indent(out.Output))
	}
	return nil
}

func openAITool(s *wink.Spec) (string, error) {
	params, strict := openai.Schema(s)
	return pretty(map[string]any{
		"type": "function",
		"function": map[string]any{
			"name": s.Name, "description": s.Description, "parameters": json.RawMessage(params), "strict": strict,
		},
	})
}

func anthropicTool(s *wink.Spec) (string, error) {
	return pretty(map[string]any{"name": s.Name, "description": s.Description, "input_schema": json.RawMessage(s.ParamsSchema)})
}

func pretty(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}
