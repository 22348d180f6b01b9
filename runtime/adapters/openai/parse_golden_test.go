package openai_test

import (
	"flag"
	"testing"

	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/wink"
)

var update = flag.Bool("update", false, "rewrite testdata/parse.golden")

// TestParseGolden pins what the three readers return (calls or error text) for every seed response,
// malformed ones included: the wording is encoding/json's, which callers may have matched on.
func TestParseGolden(t *testing.T) {
	adapterstest.ParseGolden(t, "testdata/parse.golden", *update, []string{"chat", "completion", "responses"}, func(p string, in []byte) ([]wink.Call, error) {
		switch p {
		case "chat":
			return openai.ParseChatToolCalls(in)
		case "completion":
			return openai.ParseChatCompletion(in)
		}
		return openai.ParseResponsesToolCalls(in)
	})
}
