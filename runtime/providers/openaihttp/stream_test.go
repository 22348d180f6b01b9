package openaihttp_test

import (
	"context"
	"encoding/json"
	"github.com/google/go-cmp/cmp/cmpopts"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	pt "github.com/winkgen/wink/runtime/providers/internal/providertest"
	"github.com/winkgen/wink/runtime/providers/openaihttp"
	"github.com/winkgen/wink/runtime/wink"
)

// chunks writes a chat completions stream of the given chunk objects, then [DONE] when done.
func chunks(done bool, cs ...string) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString("data: " + c + "\n\n")
	}
	if done {
		b.WriteString("data: [DONE]\n\n")
	}
	return b.String()
}

func chunk(delta, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + `}]}`
}

const usageChunk = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[],"usage":{"prompt_tokens":20,"completion_tokens":7,"total_tokens":27}}`

func streamingProvider(t *testing.T, s *pt.Server) *openaihttp.Provider {
	p, err := openaihttp.New(openaihttp.Config{BaseURL: s.URL, Model: "gpt-4o", Stream: true, Retry: httpcall.Retry{BaseDelay: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStreamedParallelCallsThroughTheLoop: text and two tool calls streamed in fragments, dispatched,
// then a streamed final answer; every request unmarshals into the SDK's ChatCompletionNewParams and asks
// for a stream with usage.
func TestStreamedParallelCallsThroughTheLoop(t *testing.T) {
	s := pt.NewServer(t,
		pt.Stream(chunks(true,
			chunk(`{"role":"assistant","content":"Checking"}`, ""),
			chunk(`{"content":"."}`, ""),
			chunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]}`, ""),
			chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]}`, ""),
			chunk(`{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Porto\"}"}}]}`, ""),
			chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"Lisbon\"}"}}]}`, ""),
			chunk(`{}`, "tool_calls"), usageChunk)),
		pt.Stream(chunks(true, chunk(`{"role":"assistant","content":"Both sunny."}`, ""), chunk(`{}`, "stop"), usageChunk)),
	)
	reg, err := wink.NewRegistry([]*wink.Tool{pt.WeatherTool()})
	if err != nil {
		t.Fatal(err)
	}
	var turns []loop.Turn
	res, err := loop.Run(context.Background(), loop.Config{Provider: streamingProvider(t, s), Dispatcher: &wink.Dispatcher{Registry: reg},
		OnTurn: func(tr loop.Turn) { turns = append(turns, tr) }}, []loop.Message{loop.UserMessage("Lisbon and Porto?")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "Both sunny." || len(turns) != 2 {
		t.Fatalf("text %q after %d turns", res.Text, len(turns))
	}
	first := turns[0].Response
	if first.Text != "Checking." || first.Stop != "tool_calls" || first.Usage != (loop.Usage{Input: 20, Output: 7}) || len(first.ToolCalls) != 2 ||
		string(first.ToolCalls[0].Arguments) != `{"city":"Lisbon"}` || first.ToolCalls[1].ID != "call_2" {
		t.Fatalf("first turn = %+v", first)
	}
	for i, body := range s.Bodies() {
		var params openai.ChatCompletionNewParams
		if err := json.Unmarshal(body, &params); err != nil {
			t.Fatalf("request %d does not unmarshal into ChatCompletionNewParams: %v", i, err)
		}
		if !strings.Contains(string(body), `"stream":true,"stream_options":{"include_usage":true}`) {
			t.Errorf("request %d does not ask for a stream with usage: %s", i, body)
		}
	}
}

func TestStreamCutInTheMiddleOfArguments(t *testing.T) {
	s := pt.NewServer(t, pt.Stream(chunks(false,
		chunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"ci"}}]}`, ""))))
	resp, err := streamingProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Stop != "incomplete" || len(resp.ToolCalls) != 1 || string(resp.ToolCalls[0].Arguments) != `{"ci` {
		t.Fatalf("response = %+v", resp)
	}
	reg, _ := wink.NewRegistry([]*wink.Tool{pt.WeatherTool()})
	out, err := (&wink.Dispatcher{Registry: reg}).Dispatch(context.Background(), resp.ToolCalls[0])
	if err != nil || out.Success {
		t.Fatalf("dispatch of the truncated call: %+v, %v", out, err)
	}
}

func TestStreamRetries(t *testing.T) {
	ok := pt.Stream(chunks(true, chunk(`{"content":"ok"}`, "stop")))
	s := pt.NewServer(t, pt.Status(503, http.Header{"Retry-After-Ms": {"20"}}, `{"error":{"message":"busy"}}`), pt.Status(500, nil, `{"error":{"message":"boom"}}`), ok)
	resp, err := streamingProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("x")}})
	if err != nil || resp.Text != "ok" || len(s.Bodies()) != 3 {
		t.Fatalf("%+v, %v after %d requests", resp, err, len(s.Bodies()))
	}
	s = pt.NewServer(t, pt.Status(400, nil, `{"error":{"message":"bad request"}}`), ok)
	_, err = streamingProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("x")}})
	if err == nil || !strings.Contains(err.Error(), "400") || len(s.Bodies()) != 1 {
		t.Fatalf("err = %v after %d requests: a 400 must not be retried", err, len(s.Bodies()))
	}
}

var ignorePairMaps = cmpopts.IgnoreFields(wink.Call{}, "PairMaps")
