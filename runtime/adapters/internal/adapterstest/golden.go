package adapterstest

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/wink"
)

// ResponseSeeds are provider responses, well-formed and not, that the adapters' readers are pinned on
// (ParseGolden): every kind of syntax error, values of the wrong kind where a string, an object or an
// array is expected, nulls, repeated and case-folded keys, error bodies, invalid UTF-8 and lone
// surrogate escapes (which the readers reject).
var ResponseSeeds = []string{
	// OpenAI chat completions.
	`{"tool_calls":[{"id":"a","type":"function","function":{"name":"x","arguments":"{\"q\":1}"}}]}`,
	`{"index":0,"message":{"tool_calls":[{"id":"a","function":{"name":"x","arguments":{ "k" : 1 }}}]}}`,
	`{"choices":[{"message":{"tool_calls":[{"id":"a","function":{"name":"x","arguments":""}}]}}],"error":null}`,
	`{"ID":"x","Tool_Calls":[{"ID":"a","FUNCTION":{"Name":"x","ARGUMENTS":null}}]}`,
	`{"tool_callſ":[{"id":"a","function":{"name":"x"}}]}`,
	`{"tool_calls":[{"id":"a","type":"function","function":{"name":"x"}},{"id":"b"}],"tool_calls":[{"type":"function"}]}`,
	`{"tool_calls":[{"id":"a","function":{"name":"x"},"function":{"arguments":"1"},"id":null}]}`,
	`{"tool_calls":[{"id":"a","type":"custom","function":{"name":"x"}}]}`,
	`{"tool_calls":[{"id":"a","function":{"name":"x","arguments":"\ud800"}}]}`,
	`{"tool_calls":[{"id":5}]}`, `{"tool_calls":[{"function":true}]}`, `{"tool_calls":{}}`, `{"tool_calls":[1,{"id":[]}]}`,
	`{"tool_calls":[{"function":{"name":{}}}]}`, `{"message":null,"tool_calls":[]}`, `{"message":5}`, `[]`, `null`, `"s"`,
	`{"message":{"tool_calls":[]},"tool_calls":[]}`,
	`{"error":{"message":"m"}}`, `{"error":"boom"}`, `{"error":{"type":5}}`, `{"error":{"TYPE":"t","message":null}}`, `{"choices":{}}`, `{"choices":[null]}`,
	`{"choices":[1]}`, `{"choices":[],"choices":[{}]}`, `{"choices":null}`, `{"error":{"type":"invalid_request_error","message":"bad"}}`,
	// OpenAI Responses.
	`{"output":[{"type":"function_call","call_id":"c","name":"n","arguments":"{}"}],"error":null}`,
	`[{"type":"function_call","call_id":"c","arguments":{"a":[1,2]}},null,{"type":"message"}]`,
	`[1]`, `{"output":[{"call_id":1}]}`, `[{"name":false}]`, `{"output":"x"}`, `5`, `{"output":null}`,
	`{"output":[{"type":"function_call","call_id":"c","name":"n","arguments":"\"x"}]}`,
	// Anthropic messages.
	`{"content":[{"type":"text","text":"hi"},{"type":"tool_use","id":"t","name":"n","input":{"a" : [1, 2]}}]}`,
	`[{"type":"tool_use","id":"t","name":"n"},{"TYPE":"tool_use","ID":"u","Name":"m","INPUT":null}]`,
	`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
	`{"content":[{"type":5}]}`, `{"content":{}}`, `[{"input":true,"id":{}}]`, `{"content":null,"content":[{"type":"tool_use"}]}`,
	// Syntax.
	``, ` `, `[`, `{`, `{"a"`, `{"a":`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `tru`, `nul`, `fx`, `-`, `1.`, `1e`, `1e+`, `01`, `"\x"`, `"\u12"`,
	"\"\x01\"", `{"a":1}x`, `[1 2]`, `{"a":1 "b":2}`, `{1:2}`, `]`, `'a'`, `{"a":[{"b":-0.5e+3}]}`, "[[[[[[]]]]]] ",
	"\"\xff\"", "{\"tool_calls\":[{\"id\":\"\xc3\"}]}", `{"output":[{"name":"\udc00"}]}`, `{"content":[{"id":"\ud83d\ude00"}]}`,
	"{\"a\":\"\t\"}", `{"a":"\/\b\f\n\r\t\u00e9"}`, `{"a":-}`, `{"a":1.5e}`, `{"a":0.}`, `{"a":tx}`, `{"a":n}`,
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	`{"tool_calls":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
}

// ParseGolden runs each parser on every seed and compares what each returned (its calls, or its error
// text) with the golden file path; update rewrites the file instead.
func ParseGolden(t *testing.T, path string, update bool, parsers []string, parse func(p string, in []byte) ([]wink.Call, error)) {
	t.Helper()
	var b strings.Builder
	for _, in := range ResponseSeeds {
		shown := in
		if len(shown) > 120 {
			shown = shown[:60] + "..." + shown[len(shown)-60:]
		}
		b.WriteString(strconv.Quote(shown) + "\n")
		for _, p := range parsers {
			calls, err := parse(p, []byte(in))
			b.WriteString("\t" + p + ": ")
			if err != nil {
				b.WriteString("error " + strconv.Quote(err.Error()))
				if calls != nil {
					b.WriteString(" with calls")
				}
			} else {
				b.WriteString(showCalls(calls))
			}
			b.WriteString("\n")
		}
	}
	got := b.String()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s: line %d:\n got %s\nwant %s", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", path, len(gl), len(wl))
	}
}

func showCalls(calls []wink.Call) string {
	if calls == nil {
		return "nil"
	}
	var b strings.Builder
	b.WriteString("[")
	for i, c := range calls {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString("{ID:" + strconv.Quote(c.ID) + " Name:" + strconv.Quote(c.Name) + " Arguments:")
		if c.Arguments == nil {
			b.WriteString("nil")
		} else {
			b.WriteString(strconv.Quote(string(c.Arguments)))
		}
		b.WriteString(" PairMaps:" + strconv.FormatBool(c.PairMaps) + "}")
	}
	return b.String() + "]"
}
