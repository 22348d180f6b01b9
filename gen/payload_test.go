package gen

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/openai"
)

// TestPayloadMatchesTheAdapters: what `winkgen schema -format openai|anthropic` prints from the source is
// what the runtime adapters send for the same tools (compared as JSON values).
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
		{"anthropic", func() ([]byte, error) { return anthropic.Tools(registry) }},
	} {
		got, err := Payload(infos, c.format)
		if err != nil {
			t.Fatal(err)
		}
		want, err := c.adapt()
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(w, g); diff != "" {
			t.Errorf("%s: winkgen schema differs from the adapter (-adapter +winkgen):\n%s", c.format, diff)
		}
	}
}
