package anthropichttp_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/internal/callertools"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/anthropichttp"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	pt "github.com/winkgen/wink/runtime/providers/internal/providertest"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// programUse is a tool_use block at index i that the code execution srvtoolu_1 made.
func programUse(i int, name, args string) []string {
	return []string{`{"type":"content_block_start","index":` + itoa(i) + `,"content_block":{"type":"tool_use","id":"toolu_` + name +
		`","name":"` + name + `","input":{},"caller":{"type":"code_execution_20250825","tool_id":"srvtoolu_1"}}}`,
		argsDelta(i, args), `{"type":"content_block_stop","index":` + itoa(i) + `}`}
}

// runProgram runs the loop over callertools against a server whose first turn is a program calling
// each of calls (name, arguments), and returns the requests and the dispatcher's events.
func runProgram(t *testing.T, codeExecution bool, calls ...[2]string) ([][]byte, []*wink.ToolInvoked) {
	t.Helper()
	ev := []string{msgStart,
		`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"code_execution","input":{}}}`,
		argsDelta(0, `{"code":"..."}`), stop0}
	for i, c := range calls {
		ev = append(ev, programUse(i+1, c[0], c[1])...)
	}
	ev = append(ev, `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null,"container":{"id":"container_1","expires_at":"2026-11-28T02:00:00Z"}},"usage":{"output_tokens":60}}`, msgStop)
	s := pt.NewServer(t, pt.Stream(sse(ev...)), pt.Stream(doneTurn))
	p, err := anthropichttp.New(anthropichttp.Config{BaseURL: s.URL, Model: "claude-opus-4-5", APIKey: "k",
		CodeExecution: codeExecution, Retry: httpcall.Retry{BaseDelay: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	var events []*wink.ToolInvoked
	d := &wink.Dispatcher{Registry: wink.MustRegistry(callertools.WinkTools()), Session: session.New(),
		Events: func(e *wink.ToolInvoked) { events = append(events, e) }}
	if _, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: d}, []loop.Message{loop.UserMessage("go")}); err != nil {
		t.Fatal(err)
	}
	return s.Bodies(), events
}

func customTools(t *testing.T, body []byte) map[string]*sdk.ToolParam {
	t.Helper()
	out := map[string]*sdk.ToolParam{}
	for _, u := range params(t, body).Tools {
		if u.OfTool != nil {
			out[u.OfTool.Name] = u.OfTool
		}
	}
	return out
}

func toolResults(t *testing.T, body []byte) map[string]*sdk.ToolResultBlockParam {
	t.Helper()
	p := params(t, body)
	out := map[string]*sdk.ToolResultBlockParam{}
	for _, c := range p.Messages[len(p.Messages)-1].Content {
		if c.OfToolResult != nil {
			out[c.OfToolResult.ToolUseID] = c.OfToolResult
		}
	}
	return out
}

// A call the code execution tool's program makes is a program's call to the dispatcher: a tool declared
// for direct calls only is refused as from any program, and events name the program.
func TestCodeExecutionCallsAreProgramCalls(t *testing.T) {
	callertools.Refunds.Store(0)
	bodies, events := runProgram(t, true, [2]string{"lookup", `{"id":1}`}, [2]string{"refund", `{"id":2}`})
	res := toolResults(t, bodies[1])
	r := res["toolu_refund"]
	if r == nil || !r.IsError.Value || len(r.Content) == 0 || r.Content[0].OfText == nil ||
		!strings.Contains(r.Content[0].OfText.Text, `Tool "refund" cannot be called from a program`) {
		t.Errorf("refund from the program: %+v", r)
	}
	if n := callertools.Refunds.Load(); n != 0 {
		t.Errorf("refund ran %d times from a program", n)
	}
	if l := res["toolu_lookup"]; l == nil || l.IsError.Value {
		t.Errorf("lookup from the program: %+v", l)
	}
	for _, e := range events {
		if e.Program != "srvtoolu_1" {
			t.Errorf("event of %s names program %q", e.Name, e.Program)
		}
	}
}

// A tool only programs may call is sent for the code execution tool's programs only, and not at all
// without it.
func TestProgramOnlyToolsAreOfferedToCodeExecutionOnly(t *testing.T) {
	bodies, _ := runProgram(t, true, [2]string{"audit", `{"id":1}`})
	tools := customTools(t, bodies[0])
	if a := tools["audit"]; a == nil || !slices.Equal(a.AllowedCallers, []string{anthropic.CodeExecutionType}) {
		t.Errorf("audit with code execution: %+v", a)
	}
	if a := toolResults(t, bodies[1])["toolu_audit"]; a == nil || a.IsError.Value {
		t.Errorf("audit from the program: %+v", a)
	}
	bodies, _ = runProgram(t, false)
	if tools := customTools(t, bodies[0]); tools["audit"] != nil || tools["lookup"] == nil || tools["refund"] == nil {
		t.Errorf("without code execution the model is offered %d tools, audit %v", len(tools), tools["audit"] != nil)
	}
}
