package adapterstest_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/gemini"
	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/wink"
)

var update = flag.Bool("update", false, "rewrite testdata/payloads.golden")

// TestPayloadsGolden pins the tools payload every adapter writes for the same tools, byte for byte, and
// the errors of a list with a nil tool and a duplicate name, and of tools Gemini cannot convert.
func TestPayloadsGolden(t *testing.T) {
	tools := adapterstest.WinkTools()
	bad := []*wink.Tool{tools[0], nil, tools[0]}
	unresolved := []*wink.Tool{tools[0], refTool("r1"), refTool("r2")} // Gemini cannot convert the last two
	var b strings.Builder
	for _, w := range []struct {
		name  string
		write func([]*wink.Tool) ([]byte, error)
	}{
		{"openai.ChatTools", openai.ChatTools},
		{"openai.ResponsesTools", openai.ResponsesTools},
		{"anthropic.Tools", anthropic.Tools},
		{"anthropic.StrictTools", func(ts []*wink.Tool) ([]byte, error) {
			p, fell, err := anthropic.StrictTools(ts)
			if err == nil {
				p = append(append(p, "\nfell back: "...), strings.Join(fell, ",")...)
			}
			return p, err
		}},
		{"gemini.FunctionDeclarations", gemini.FunctionDeclarations},
	} {
		for _, ts := range [][]*wink.Tool{tools, {}, bad, unresolved} {
			p, err := w.write(ts)
			b.WriteString(w.name + ":\n")
			if err != nil {
				b.WriteString("error: " + err.Error() + "\n")
				continue
			}
			b.Write(p)
			b.WriteString("\n")
		}
	}
	if *update {
		if err := os.WriteFile("testdata/payloads.golden", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile("testdata/payloads.golden")
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("payloads differ from testdata/payloads.golden:\n%s", b.String())
	}
}

// refTool is a tool whose params schema has a $ref that does not resolve.
func refTool(name string) *wink.Tool {
	return wink.NewTool(wink.Spec{Name: name, Description: "Unresolved.",
		ParamsSchema: []byte(`{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`)},
		&wink.Funcs[wink.NoParams, wink.NoValue]{
			Decode:       wink.DecodeNoParams,
			EncodeResult: wink.EncodeNoValue,
			Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
				return wink.Done[wink.NoValue]("ok"), nil
			},
		})
}
