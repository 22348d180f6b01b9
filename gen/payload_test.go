package gen

import (
	"path/filepath"
	"testing"

	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/gemini"
	"github.com/winkgen/wink/runtime/adapters/openai"
)

// TestPayloadMatchesTheAdapters: what `winkgen schema -format F` prints from the source is, byte for byte,
// what the runtime adapter of F sends for the same (generated) tools, for every format but mcp.
func TestPayloadMatchesTheAdapters(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("..", "example", "tools"))
	infos, diags, err := Inspect(Config{Dir: dir})
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	registry := tools.WinkTools()
	for _, c := range []struct {
		format string
		adapt  func() ([]byte, error)
	}{
		{"openai", func() ([]byte, error) { return openai.ChatTools(registry) }},
		{"openai-responses", func() ([]byte, error) { return openai.ResponsesTools(registry) }},
		{"anthropic", func() ([]byte, error) { return anthropic.Tools(registry) }},
		{"anthropic-strict", func() ([]byte, error) { b, _, err := anthropic.StrictTools(registry); return b, err }},
		{"gemini", func() ([]byte, error) { return gemini.FunctionDeclarations(registry) }},
	} {
		got, err := Payload(infos, c.format)
		if err != nil {
			t.Fatal(err)
		}
		want, err := c.adapt()
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want)+"\n" {
			t.Errorf("%s: winkgen schema prints\n%s\nthe adapter sends\n%s", c.format, got, want)
		}
	}
	if _, err := Payload(infos, "xml"); err == nil {
		t.Error("an unknown format is not an error")
	}
}
