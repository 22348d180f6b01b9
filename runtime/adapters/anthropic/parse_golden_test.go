package anthropic_test

import (
	"flag"
	"testing"

	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
	"github.com/winkgen/wink/runtime/wink"
)

var update = flag.Bool("update", false, "rewrite testdata/parse.golden")

// TestParseGolden pins what ParseToolUses returns (calls or error text) for every seed response,
// malformed ones included: the wording is encoding/json's, which callers may have matched on.
func TestParseGolden(t *testing.T) {
	adapterstest.ParseGolden(t, "testdata/parse.golden", *update, []string{"tool_uses"}, func(_ string, in []byte) ([]wink.Call, error) {
		return anthropic.ParseToolUses(in)
	})
}
