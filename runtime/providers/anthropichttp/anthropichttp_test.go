package anthropichttp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/anthropichttp"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	pt "github.com/winkgen/wink/runtime/providers/internal/providertest"
	"github.com/winkgen/wink/runtime/wink"
)

// sse writes the events of a Messages stream, as the API documents them.
func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		typ := e[strings.Index(e, `"type":"`)+8:]
		typ = typ[:strings.IndexByte(typ, '"')]
		b.WriteString("event: " + typ + "\ndata: " + e + "\n\n")
	}
	return b.String()
}

const (
	msgStart   = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"usage":{"input_tokens":25,"output_tokens":1}}}`
	ping       = `{"type":"ping"}`
	textStart  = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	stop0      = `{"type":"content_block_stop","index":0}`
	stop1      = `{"type":"content_block_stop","index":1}`
	stop2      = `{"type":"content_block_stop","index":2}`
	msgStop    = `{"type":"message_stop"}`
	endTurn    = `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}}`
	toolUseEnd = `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}`
)

func textDelta(i int, s string) string {
	b, _ := json.Marshal(s)
	return `{"type":"content_block_delta","index":` + itoa(i) + `,"delta":{"type":"text_delta","text":` + string(b) + `}}`
}

func toolStart(i int, id string) string {
	return `{"type":"content_block_start","index":` + itoa(i) + `,"content_block":{"type":"tool_use","id":"` + id + `","name":"get_weather","input":{}}}`
}

func argsDelta(i int, part string) string {
	b, _ := json.Marshal(part)
	return `{"type":"content_block_delta","index":` + itoa(i) + `,"delta":{"type":"input_json_delta","partial_json":` + string(b) + `}}`
}

func itoa(i int) string { return string(rune('0' + i)) }

func newProvider(t *testing.T, s *pt.Server) *anthropichttp.Provider {
	p, err := anthropichttp.New(anthropichttp.Config{BaseURL: s.URL, Model: "claude-sonnet-4-5", APIKey: "k",
		Retry: httpcall.Retry{BaseDelay: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTextAnswer(t *testing.T) {
	s := pt.NewServer(t, pt.Stream(sse(msgStart, textStart, ping,
		textDelta(0, "Hello"), textDelta(0, ", world"), stop0, endTurn, msgStop)))
	p := newProvider(t, s)
	resp, err := p.Complete(context.Background(), loop.Request{System: "Be brief.", Messages: []loop.Message{loop.UserMessage("Hi")}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Hello, world" || resp.Stop != "end_turn" || len(resp.ToolCalls) != 0 || resp.Usage != (loop.Usage{Input: 25, Output: 15}) {
		t.Fatalf("response = %+v", resp)
	}
	h := s.Header(0)
	if h.Get("x-api-key") != "k" || h.Get("anthropic-version") != anthropichttp.APIVersion {
		t.Errorf("headers = %v", h)
	}
}

// TestToolCallsThroughTheLoop: one turn with two parallel tool calls whose arguments arrive in fragments,
// dispatched, answered in one user message of tool_result blocks, then a final text turn. Every request
// body unmarshals into the SDK's MessageNewParams.
func TestToolCallsThroughTheLoop(t *testing.T) {
	s := pt.NewServer(t,
		pt.Stream(sse(msgStart, textStart, textDelta(0, "Checking."), stop0,
			toolStart(1, "toolu_1"), argsDelta(1, `{"ci`), argsDelta(1, `ty":"Lis`), argsDelta(1, `bon"}`), stop1,
			toolStart(2, "toolu_2"), argsDelta(2, `{"city":"Porto"}`), stop2, toolUseEnd, msgStop)),
		pt.Stream(sse(msgStart, textStart, textDelta(0, "Both sunny."), stop0, endTurn, msgStop)),
	)
	p := newProvider(t, s)
	reg, err := wink.NewRegistry([]*wink.Tool{pt.WeatherTool()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: &wink.Dispatcher{Registry: reg}},
		[]loop.Message{loop.UserMessage("Weather in Lisbon and Porto?")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "Both sunny." {
		t.Fatalf("final text = %q", res.Text)
	}
	if len(s.Bodies()) != 2 {
		t.Fatalf("%d requests, want 2", len(s.Bodies()))
	}
	for i, body := range s.Bodies() {
		var params sdk.MessageNewParams
		if err := json.Unmarshal(body, &params); err != nil {
			t.Fatalf("request %d does not unmarshal into sdk.MessageNewParams: %v\n%s", i, err, body)
		}
	}
	second := string(s.Bodies()[1])
	for _, want := range []string{
		`{"role":"assistant","content":[{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Lisbon"}},{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Porto"}}]}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"Lisbon: sunny"},{"type":"tool_result","tool_use_id":"toolu_2","content":"Porto: sunny"}]}`,
		`"stream":true`, `"system"`,
	} {
		if want == `"system"` {
			if strings.Contains(second, want) {
				t.Errorf("no system prompt was given, yet the body has one")
			}
			continue
		}
		if !strings.Contains(second, want) {
			t.Errorf("second request lacks %s\n%s", want, second)
		}
	}
}

// TestStreamCutInTheMiddleOfArguments: the connection ends inside a tool call's arguments. The turn is
// marked incomplete, the truncated arguments reach the dispatcher, which answers with a failure the
// model can read, and the next request sends {} as that tool_use's input.
func TestStreamCutInTheMiddleOfArguments(t *testing.T) {
	s := pt.NewServer(t,
		pt.Stream(sse(msgStart, toolStart(0, "toolu_1"), argsDelta(0, `{"city":"Lis`))),
		pt.Stream(sse(msgStart, textStart, textDelta(0, "Sorry."), stop0, endTurn, msgStop)),
	)
	p := newProvider(t, s)
	resp, err := p.Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Lisbon?")}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Stop != "incomplete" || len(resp.ToolCalls) != 1 || string(resp.ToolCalls[0].Arguments) != `{"city":"Lis` {
		t.Fatalf("response = %+v", resp)
	}
	reg, _ := wink.NewRegistry([]*wink.Tool{pt.WeatherTool()})
	d := &wink.Dispatcher{Registry: reg}
	out, err := d.Dispatch(context.Background(), resp.ToolCalls[0])
	if err != nil || out.Success || !strings.Contains(out.Output, "get_weather") {
		t.Fatalf("dispatch of the truncated call: %+v, %v", out, err)
	}
	msgs := []loop.Message{loop.UserMessage("Lisbon?"), {Role: loop.RoleAssistant, ToolCalls: resp.ToolCalls}, {Role: loop.RoleTool, Result: out}}
	if _, err := p.Complete(context.Background(), loop.Request{Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(s.Bodies()[1]), `"name":"get_weather","input":{}}`) {
		t.Errorf("the truncated input was not replaced by {}:\n%s", s.Bodies()[1])
	}
	var params sdk.MessageNewParams
	if err := json.Unmarshal(s.Bodies()[1], &params); err != nil {
		t.Fatalf("request does not unmarshal into sdk.MessageNewParams: %v", err)
	}
}

func TestRetries(t *testing.T) {
	ok := pt.Stream(sse(msgStart, textStart, textDelta(0, "ok"), stop0, endTurn, msgStop))
	t.Run("429 with Retry-After", func(t *testing.T) {
		s := pt.NewServer(t,
			pt.Status(429, http.Header{"Retry-After": {"1"}}, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`), ok)
		p := newProvider(t, s)
		start := time.Now()
		resp, err := p.Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("x")}})
		if err != nil || resp.Text != "ok" {
			t.Fatalf("%+v, %v", resp, err)
		}
		if el := time.Since(start); el < time.Second {
			t.Errorf("retried after %v, before the server's Retry-After of 1 s", el)
		}
	})
	t.Run("500 then success", func(t *testing.T) {
		s := pt.NewServer(t, pt.Status(500, nil, `{"type":"error","error":{"type":"api_error","message":"boom"}}`), ok)
		resp, err := newProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("x")}})
		if err != nil || resp.Text != "ok" || len(s.Bodies()) != 2 {
			t.Fatalf("%+v, %v, %d requests", resp, err, len(s.Bodies()))
		}
	})
	t.Run("529 overloaded then success", func(t *testing.T) {
		s := pt.NewServer(t, pt.Status(529, nil, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`), ok)
		resp, err := newProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("x")}})
		if err != nil || resp.Text != "ok" {
			t.Fatalf("%+v, %v", resp, err)
		}
	})
	t.Run("400 is not retried", func(t *testing.T) {
		s := pt.NewServer(t, pt.Status(400, nil, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: must be positive"}}`), ok)
		_, err := newProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("x")}})
		var se *httpcall.StatusError
		if !errors.As(err, &se) || se.StatusCode != 400 || se.Message != "max_tokens: must be positive" || len(s.Bodies()) != 1 {
			t.Fatalf("err = %v, %d requests", err, len(s.Bodies()))
		}
	})
	t.Run("retries end at the deadline", func(t *testing.T) {
		s := pt.NewServer(t, pt.Status(429, http.Header{"Retry-After": {"30"}}, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`), ok)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		start := time.Now()
		_, err := newProvider(t, s).Complete(ctx, loop.Request{Messages: []loop.Message{loop.UserMessage("x")}})
		var se *httpcall.StatusError
		if !errors.As(err, &se) || se.StatusCode != 429 || time.Since(start) > time.Second {
			t.Fatalf("err = %v after %v: want the 429 at once, since waiting 30 s would pass the deadline", err, time.Since(start))
		}
	})
	t.Run("error event in the stream", func(t *testing.T) {
		s := pt.NewServer(t, pt.Stream(sse(msgStart, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)))
		_, err := newProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("x")}})
		var se *anthropichttp.StreamError
		if !errors.As(err, &se) || se.Type != "overloaded_error" {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestStrictToolUse(t *testing.T) {
	s := pt.NewServer(t, pt.Stream(sse(msgStart, textStart, textDelta(0, "ok"), stop0, endTurn, msgStop)))
	p, err := anthropichttp.New(anthropichttp.Config{BaseURL: s.URL, Model: "claude-sonnet-4-5", Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("x")}, Tools: []*wink.Tool{pt.WeatherTool()}}); err != nil {
		t.Fatal(err)
	}
	body := s.Bodies()[0]
	var params sdk.MessageNewParams
	if err := json.Unmarshal(body, &params); err != nil {
		t.Fatal(err)
	}
	if len(params.Tools) != 1 || params.Tools[0].OfTool == nil || !params.Tools[0].OfTool.Strict.Value {
		t.Fatalf("the tool is not strict: %s", body)
	}
}
