package anthropic_test

import (
	"testing"

	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
)

// benchMessage is a Messages API response as Anthropic sends it: text, then one tool_use block.
var benchMessage = []byte(`{"id":"msg_01Aq9w938a90dw8q","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"I'll check the current weather in San Francisco for you."},{"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"get_current_weather","input":{"location":"San Francisco, CA","unit":"celsius"}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":472,"output_tokens":89}}`)

func BenchmarkParseToolUses(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if calls, err := anthropic.ParseToolUses(benchMessage); err != nil || len(calls) != 1 {
			b.Fatal(calls, err)
		}
	}
}

func BenchmarkTools(b *testing.B) {
	tools := adapterstest.WinkTools()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := anthropic.Tools(tools); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStrictTools(b *testing.B) {
	tools := adapterstest.WinkTools()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := anthropic.StrictTools(tools); err != nil {
			b.Fatal(err)
		}
	}
}
