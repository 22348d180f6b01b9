package readersfuzz_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/strictjson"
)

// FuzzReadersRejectInvalidResponses: no reader panics, and every reader refuses, with an error in its
// "reading" wording, a response that encoding/json or the strict decoder (invalid UTF-8, lone surrogate
// escapes) rejects; a response both accept never gets a syntax error.
func FuzzReadersRejectInvalidResponses(f *testing.F) {
	for _, s := range adapterstest.ResponseSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var d strictjson.Decoder
		d.Reset(in, strictjson.Limits{MaxBytes: len(in) + 1, MaxDepth: 10000, MaxErrors: 1})
		d.Skip()
		valid := json.Valid(in) && d.Finish() == nil
		for _, r := range []struct {
			prefixes []string
			parse    func([]byte) (int, error)
		}{
			{[]string{"openai: reading chat message: "}, count(openai.ParseChatToolCalls)},
			{[]string{"openai: reading chat completion: "}, count(openai.ParseChatCompletion)},
			{[]string{"openai: reading response: ", "openai: reading response output: "}, count(openai.ParseResponsesToolCalls)},
			{[]string{"anthropic: reading message: ", "anthropic: reading content: "}, count(anthropic.ParseToolUses)},
		} {
			n, err := r.parse(in)
			reading := false
			for _, p := range r.prefixes {
				reading = reading || err != nil && strings.HasPrefix(err.Error(), p)
			}
			if !valid && !reading {
				t.Fatalf("%q is not valid JSON: got %d calls, error %v", in, n, err)
			}
			if valid && reading && strings.Contains(err.Error(), "invalid character") {
				t.Fatalf("%q is valid JSON: got a syntax error %v", in, err)
			}
		}
	})
}

func count[C any](parse func([]byte) ([]C, error)) func([]byte) (int, error) {
	return func(in []byte) (int, error) {
		calls, err := parse(in)
		return len(calls), err
	}
}
