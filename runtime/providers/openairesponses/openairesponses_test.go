package openairesponses_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3/responses"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	pt "github.com/winkgen/wink/runtime/providers/internal/providertest"
	"github.com/winkgen/wink/runtime/providers/openairesponses"
	"github.com/winkgen/wink/runtime/wink"
)

// sse writes a Responses stream: each event's name is its data's "type", as the API sends them.
func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		typ := e[strings.Index(e, `"type":"`)+8:]
		typ = typ[:strings.IndexByte(typ, '"')]
		b.WriteString("event: " + typ + "\ndata: " + e + "\n\n")
	}
	return b.String()
}

func q(s string) string { b, _ := json.Marshal(s); return string(b) }

const created = `{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}`

func completed(in, out int) string {
	return `{"type":"response.completed","sequence_number":99,"response":{"id":"resp_1","object":"response","status":"completed","usage":{"input_tokens":` +
		strconv.Itoa(in) + `,"output_tokens":` + strconv.Itoa(out) + `,"total_tokens":` + strconv.Itoa(in+out) + `}}}`
}

func textDelta(s string) string {
	return `{"type":"response.output_text.delta","sequence_number":3,"item_id":"msg_1","output_index":0,"content_index":0,"delta":` + q(s) + `}`
}

func callAdded(i int, item, call string) string {
	return `{"type":"response.output_item.added","sequence_number":4,"output_index":` + strconv.Itoa(i) +
		`,"item":{"type":"function_call","id":"` + item + `","call_id":"` + call + `","name":"get_weather","arguments":"","status":"in_progress"}}`
}

func argsDelta(item string, i int, part string) string {
	return `{"type":"response.function_call_arguments.delta","sequence_number":5,"item_id":"` + item + `","output_index":` + strconv.Itoa(i) + `,"delta":` + q(part) + `}`
}

func argsDone(item string, i int, args string) string {
	return `{"type":"response.function_call_arguments.done","sequence_number":6,"item_id":"` + item + `","output_index":` + strconv.Itoa(i) + `,"arguments":` + q(args) + `}`
}

func newProvider(t *testing.T, s *pt.Server) *openairesponses.Provider {
	p, err := openairesponses.New(openairesponses.Config{BaseURL: s.URL, Model: "gpt-5", APIKey: "k",
		Retry: httpcall.Retry{BaseDelay: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTextAnswer(t *testing.T) {
	s := pt.NewServer(t, pt.Stream(sse(created, textDelta("Hello"), textDelta(", world"), completed(12, 4))))
	resp, err := newProvider(t, s).Complete(context.Background(), loop.Request{System: "Be brief.", Messages: []loop.Message{loop.UserMessage("Hi")}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Hello, world" || resp.Stop != "completed" || resp.Usage != (loop.Usage{Input: 12, Output: 4}) {
		t.Fatalf("response = %+v", resp)
	}
	if h := s.Header(0); h.Get("Authorization") != "Bearer k" {
		t.Errorf("headers = %v", h)
	}
}

// TestParallelStrictCallsThroughTheLoop: two function calls in one turn, arguments in fragments (the
// second confirmed by arguments.done), strict tools, dispatched and answered with function_call_output
// items; every request body unmarshals into the SDK's ResponseNewParams.
func TestParallelStrictCallsThroughTheLoop(t *testing.T) {
	s := pt.NewServer(t,
		pt.Stream(sse(created, callAdded(0, "fc_1", "call_1"), argsDelta("fc_1", 0, `{"city":`), argsDelta("fc_1", 0, `"Lisbon"}`),
			callAdded(1, "fc_2", "call_2"), argsDelta("fc_2", 1, `{"city":"Por`), argsDone("fc_2", 1, `{"city":"Porto"}`), completed(30, 20))),
		pt.Stream(sse(created, textDelta("Both sunny."), completed(60, 5))),
	)
	reg, err := wink.NewRegistry([]*wink.Tool{pt.WeatherTool()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := loop.Run(context.Background(), loop.Config{Provider: newProvider(t, s), Dispatcher: &wink.Dispatcher{Registry: reg}},
		[]loop.Message{loop.UserMessage("Weather in Lisbon and Porto?")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "Both sunny." {
		t.Fatalf("final text = %q", res.Text)
	}
	bodies := s.Bodies()
	for i, body := range bodies {
		var params responses.ResponseNewParams
		if err := json.Unmarshal(body, &params); err != nil {
			t.Fatalf("request %d does not unmarshal into responses.ResponseNewParams: %v\n%s", i, err, body)
		}
	}
	second := string(bodies[1])
	for _, want := range []string{
		`{"type":"function_call","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Lisbon\"}"}`,
		`{"type":"function_call","call_id":"call_2","name":"get_weather","arguments":"{\"city\":\"Porto\"}"}`,
		`{"type":"function_call_output","call_id":"call_1","output":"Lisbon: sunny"}`,
		`{"type":"function_call_output","call_id":"call_2","output":"Porto: sunny"}`,
		`"strict":true`, `"store":false`,
	} {
		if !strings.Contains(second, want) {
			t.Errorf("second request lacks %s\n%s", want, second)
		}
	}
}

func TestStreamCutInTheMiddleOfArguments(t *testing.T) {
	s := pt.NewServer(t, pt.Stream(sse(created, callAdded(0, "fc_1", "call_1"), argsDelta("fc_1", 0, `{"city":"Lis`))))
	resp, err := newProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Lisbon?")}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Stop != "incomplete" || len(resp.ToolCalls) != 1 || string(resp.ToolCalls[0].Arguments) != `{"city":"Lis` {
		t.Fatalf("response = %+v", resp)
	}
	reg, _ := wink.NewRegistry([]*wink.Tool{pt.WeatherTool()})
	out, err := (&wink.Dispatcher{Registry: reg}).Dispatch(context.Background(), resp.ToolCalls[0])
	if err != nil || out.Success {
		t.Fatalf("dispatch of the truncated call: %+v, %v", out, err)
	}
}

func TestRetriesAndErrors(t *testing.T) {
	ok := pt.Stream(sse(created, textDelta("ok"), completed(1, 1)))
	req := loop.Request{Messages: []loop.Message{loop.UserMessage("x")}}
	t.Run("429 with Retry-After", func(t *testing.T) {
		s := pt.NewServer(t, pt.Status(429, http.Header{"Retry-After": {"1"}}, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`), ok)
		start := time.Now()
		resp, err := newProvider(t, s).Complete(context.Background(), req)
		if err != nil || resp.Text != "ok" || time.Since(start) < time.Second {
			t.Fatalf("%+v, %v after %v", resp, err, time.Since(start))
		}
	})
	t.Run("500 then success", func(t *testing.T) {
		s := pt.NewServer(t, pt.Status(500, nil, `{"error":{"message":"The server had an error","type":"server_error"}}`), ok)
		resp, err := newProvider(t, s).Complete(context.Background(), req)
		if err != nil || resp.Text != "ok" || len(s.Bodies()) != 2 {
			t.Fatalf("%+v, %v", resp, err)
		}
	})
	t.Run("400 is not retried", func(t *testing.T) {
		s := pt.NewServer(t, pt.Status(400, nil, `{"error":{"message":"Invalid schema for function 'get_weather'","type":"invalid_request_error","param":"tools[0].parameters","code":"invalid_function_parameters"}}`), ok)
		_, err := newProvider(t, s).Complete(context.Background(), req)
		var se *httpcall.StatusError
		if !errors.As(err, &se) || se.StatusCode != 400 || se.Message != "Invalid schema for function 'get_weather'" || len(s.Bodies()) != 1 {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("failed response", func(t *testing.T) {
		s := pt.NewServer(t, pt.Stream(sse(created, `{"type":"response.failed","sequence_number":2,"response":{"id":"resp_1","status":"failed","error":{"code":"server_error","message":"The model failed"}}}`)))
		_, err := newProvider(t, s).Complete(context.Background(), req)
		var se *openairesponses.StreamError
		if !errors.As(err, &se) || se.Code != "server_error" {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("incomplete response", func(t *testing.T) {
		s := pt.NewServer(t, pt.Stream(sse(created, textDelta("partial"),
			`{"type":"response.incomplete","sequence_number":3,"response":{"id":"resp_1","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":5,"output_tokens":9}}}`)))
		resp, err := newProvider(t, s).Complete(context.Background(), req)
		if err != nil || resp.Stop != "incomplete: max_output_tokens" || resp.Usage.Output != 9 {
			t.Fatalf("%+v, %v", resp, err)
		}
	})
}
