package openai_test

import (
	"context"
	"github.com/google/go-cmp/cmp/cmpopts"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/wink"
)

func dispatcher() *wink.Dispatcher {
	return &wink.Dispatcher{Registry: wink.MustRegistry(adapterstest.WinkTools())}
}

// snake maps a recorded camelCase function name to the winkgen name of the equivalent tool
// (getCurrentWeather → get_current_weather): winkgen names are ^[a-z0-9_-]{1,64}$.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestRecordedChatResponsesDispatch reads the tool calls of each recorded chat completion, dispatches
// them against the adapterstest registry and writes the tool message the next request would carry.
func TestRecordedChatResponsesDispatch(t *testing.T) {
	for _, tc := range []struct {
		file        string
		want        wink.Call
		unknown     string // the outcome of the call under its recorded name, when that is not a winkgen name
		wantMessage string
	}{
		{
			file:        "llms_openai_TestFunctionCall.httprr",
			want:        wink.Call{ID: "call_olc8qHf1RDItRqwuEBNjsu3B", Name: "getCurrentWeather", Arguments: []byte(`{"location":"Boston"}`)},
			unknown:     `Unknown tool "getCurrentWeather". Available tools: get_current_weather, search, update_issue_list, label_issue.`,
			wantMessage: `{"role":"tool","tool_call_id":"call_olc8qHf1RDItRqwuEBNjsu3B","content":"Weather in Boston.\n\n{\"location\":\"Boston\",\"temperature\":22,\"unit\":\"celsius\"}"}`,
		},
		{
			file:        "llms_openai_TestStructuredOutputFunctionCalling.httprr",
			want:        wink.Call{ID: "call_ZK1sabbcL4sfbbcqmN9YALA7", Name: "search", Arguments: []byte(`{"search_engine":"google","search_query":"Bob Odenkirk age"}`)},
			wantMessage: `{"role":"tool","tool_call_id":"call_ZK1sabbcL4sfbbcqmN9YALA7","content":"1 hit.\n\n{\"hits\":[\"google: Bob Odenkirk age\"]}"}`,
		},
	} {
		t.Run(tc.file, func(t *testing.T) {
			ex := recordedExchange(t, tc.file)
			calls, err := openai.ParseChatCompletion(ex.ResponseBody)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff([]wink.Call{tc.want}, calls, ignorePairMaps); d != "" {
				t.Fatalf("calls (-want +got):\n%s", d)
			}
			d := dispatcher()
			call := calls[0]
			if tc.unknown != "" {
				out, err := d.Dispatch(context.Background(), call)
				if err != nil || out.Success || out.Output != tc.unknown {
					t.Errorf("recorded name: got %+v, %v; want failure %q", out, err, tc.unknown)
				}
				call.Name = snake(call.Name)
			}
			out, err := d.Dispatch(context.Background(), call)
			if err != nil || !out.Success {
				t.Fatalf("dispatch %s: %+v, %v", call.Name, out, err)
			}
			if got := string(openai.ChatToolMessage(call.ID, out)); got != tc.wantMessage {
				t.Errorf("tool message:\n got %s\nwant %s", got, tc.wantMessage)
			}
		})
	}
}

func TestParseChatToolCallsReadsMessagesAndChoices(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want []wink.Call
	}{
		{"assistant message, two calls in order",
			`{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"search","arguments":"{\"x\":1}"}},{"id":"b","type":"function","function":{"name":"update_issue_list","arguments":"{}"}}]}`,
			[]wink.Call{{ID: "a", Name: "search", Arguments: []byte(`{"x":1}`)}, {ID: "b", Name: "update_issue_list", Arguments: []byte(`{}`)}}},
		{"choice wrapping a message",
			`{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"search","arguments":"{}"}}]},"finish_reason":"tool_calls"}`,
			[]wink.Call{{ID: "a", Name: "search", Arguments: []byte(`{}`)}}},
		{"empty arguments string passes empty bytes",
			`{"tool_calls":[{"id":"a","type":"function","function":{"name":"update_issue_list","arguments":""}}]}`,
			[]wink.Call{{ID: "a", Name: "update_issue_list", Arguments: []byte{}}}},
		{"null arguments are empty",
			`{"tool_calls":[{"id":"a","type":"function","function":{"name":"x","arguments":null}}]}`,
			[]wink.Call{{ID: "a", Name: "x", Arguments: []byte{}}}},
		{"missing arguments are empty",
			`{"tool_calls":[{"id":"a","type":"function","function":{"name":"x"}}]}`,
			[]wink.Call{{ID: "a", Name: "x", Arguments: []byte{}}}},
		{"object arguments (compatible servers) pass verbatim",
			`{"tool_calls":[{"id":"a","function":{"name":"x","arguments":{ "k" : [1, 2] }}}]}`,
			[]wink.Call{{ID: "a", Name: "x", Arguments: []byte(`{ "k" : [1, 2] }`)}}},
		{"arguments string is unescaped exactly, whitespace and escapes kept",
			`{"tool_calls":[{"id":"a","type":"function","function":{"name":"x","arguments":"{ \"q\" : \"a\\\"b\\u00e9\\n\" }"}}]}`,
			[]wink.Call{{ID: "a", Name: "x", Arguments: []byte(`{ "q" : "a\"b\u00e9\n" }`)}}},
		{"invalid arguments text passes through for the dispatcher to reject",
			`{"tool_calls":[{"id":"a","type":"function","function":{"name":"x","arguments":"{\"q\":"}}]}`,
			[]wink.Call{{ID: "a", Name: "x", Arguments: []byte(`{"q":`)}}},
		{"no tool calls", `{"role":"assistant","content":"Hello."}`, nil},
		{"null tool calls", `{"role":"assistant","content":"Hello.","tool_calls":null}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := openai.ParseChatToolCalls([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got, ignorePairMaps); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestParseChatToolCallsErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"not JSON", `{"tool_calls":[`, "openai: reading chat message: unexpected end of JSON input"},
		{"custom tool call", `{"tool_calls":[{"id":"c1","type":"custom","custom":{"name":"x","input":"y"}}]}`,
			`openai: tool call 0 ("c1") has unsupported type "custom"`},
		{"no function", `{"tool_calls":[{"id":"c1","type":"function"}]}`, `openai: tool call 0 ("c1") has no "function"`},
		{"arguments not a string", `{"tool_calls":[{"id":"c1","function":{"name":"x","arguments":"\x"}}]}`,
			`openai: reading chat message: invalid character 'x' in string escape code`},
		{"message and tool_calls", `{"message":{},"tool_calls":[]}`, `openai: reading chat message: both "message" and "tool_calls" present`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := openai.ParseChatToolCalls([]byte(tc.in))
			if err == nil || err.Error() != tc.want || got != nil {
				t.Errorf("got %v, %v; want error %q", got, err, tc.want)
			}
		})
	}
}

func TestParseChatCompletionErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"error body", `{"error":{"message":"Invalid 'tools': empty array.","type":"invalid_request_error","param":"tools","code":"empty_array"}}`,
			"openai: chat completion error: invalid_request_error: Invalid 'tools': empty array."},
		{"no choices", `{"id":"x","choices":[]}`, "openai: chat completion has no choices"},
		{"not JSON", `nope`, "openai: reading chat completion: invalid character 'o' in literal null (expecting 'u')"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := openai.ParseChatCompletion([]byte(tc.in))
			if err == nil || err.Error() != tc.want || got != nil {
				t.Errorf("got %v, %v; want error %q", got, err, tc.want)
			}
		})
	}
}

func TestEmptyArgumentsReachTheDispatcherWhichDecides(t *testing.T) {
	calls, err := openai.ParseChatToolCalls([]byte(`{"tool_calls":[` +
		`{"id":"a","type":"function","function":{"name":"update_issue_list","arguments":""}},` +
		`{"id":"b","type":"function","function":{"name":"get_current_weather","arguments":""}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	d := dispatcher()
	want := []string{
		`{"role":"tool","tool_call_id":"a","content":"Issue list updated.\n\n{\"open\":3}"}`,
		`{"role":"tool","tool_call_id":"b","content":"Invalid arguments for tool \"get_current_weather\":\n- location: missing required field\nFix the arguments and call get_current_weather again."}`,
	}
	for i, c := range calls {
		out, err := d.Dispatch(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(openai.ChatToolMessage(c.ID, out)); got != want[i] {
			t.Errorf("call %s:\n got %s\nwant %s", c.ID, got, want[i])
		}
	}
}

func TestChatToolMessageWritesOutputAsContentExactly(t *testing.T) {
	for _, tc := range []struct {
		name string
		id   string
		out  wink.Outcome
		want string
	}{
		{"success", "call_1", wink.Outcome{Success: true, Message: "Done.", Output: "Done."},
			`{"role":"tool","tool_call_id":"call_1","content":"Done."}`},
		{"failure text as is", "call_2", wink.Outcome{Output: `Tool "x" failed: boom`},
			`{"role":"tool","tool_call_id":"call_2","content":"Tool \"x\" failed: boom"}`},
		{"escapes, no HTML escaping", "c\"3", wink.Outcome{Success: true, Output: "a<b> & \"c\"\n\t\\ é \u2028 \x01"},
			`{"role":"tool","tool_call_id":"c\"3","content":"a<b> & \"c\"\n\t\\ é \u2028 \u0001"}`},
		{"empty output", "c", wink.Outcome{Success: true}, `{"role":"tool","tool_call_id":"c","content":""}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(openai.ChatToolMessage(tc.id, tc.out)); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// ignorePairMaps leaves Call.PairMaps out of comparisons of calls (TestCallsSayTheirMapsArePairs checks it).
var ignorePairMaps = cmpopts.IgnoreFields(wink.Call{}, "PairMaps")

// TestCallsSayTheirMapsArePairs: the calls read from OpenAI payloads carry PairMaps, since ChatTools and
// ResponsesTools send every tool's strict schema (maps as key/value pairs).
func TestCallsSayTheirMapsArePairs(t *testing.T) {
	chat, err := openai.ParseChatToolCalls([]byte(`{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"label_issue","arguments":"{}"}}]}`))
	if err != nil || len(chat) != 1 || !chat[0].PairMaps {
		t.Fatalf("chat: %+v, %v", chat, err)
	}
	resp, err := openai.ParseResponsesToolCalls([]byte(`[{"type":"function_call","call_id":"c","name":"label_issue","arguments":"{}"}]`))
	if err != nil || len(resp) != 1 || !resp[0].PairMaps {
		t.Fatalf("responses: %+v, %v", resp, err)
	}
}
