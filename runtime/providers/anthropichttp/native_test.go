package anthropichttp_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/internal/shoptools"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/anthropichttp"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	pt "github.com/winkgen/wink/runtime/providers/internal/providertest"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// The three turns of a run that searches for a deferred tool, then calls a tool from a program in a
// code execution container, as the Messages API streams them.
var (
	searchTurn = sse(msgStart,
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_s","name":"tool_search","input":{}}}`,
		argsDelta(0, `{"query":"refund an order's payment"}`), stop0, toolUseEnd, msgStop)
	programTurn = sse(msgStart, textStart, textDelta(0, "Checking."), stop0,
		`{"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"code_execution","input":{}}}`,
		argsDelta(1, `{"code":"c = await lookup_customer({\"customer_id\": \"c-1\"})\nprint(c)"}`), stop1,
		`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_p","name":"lookup_customer","input":{},"caller":{"type":"code_execution_20250825","tool_id":"srvtoolu_1"}}}`,
		argsDelta(2, `{"customer_id":"c-1"}`), stop2,
		`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null,"container":{"id":"container_011","expires_at":"2026-11-28T02:00:00Z"}},"usage":{"output_tokens":60}}`,
		msgStop)
	doneTurn = sse(msgStart, textStart, textDelta(0, "Refund found."), stop0, endTurn, msgStop)
)

func params(t *testing.T, body []byte) sdk.MessageNewParams {
	t.Helper()
	var p sdk.MessageNewParams
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("the SDK does not read the request: %v\n%s", err, body)
	}
	return p
}

func TestProgramsAndSearchRoundTripThroughTheMessagesAPI(t *testing.T) {
	s := pt.NewServer(t, pt.Stream(searchTurn), pt.Stream(programTurn), pt.Stream(doneTurn))
	p, err := anthropichttp.New(anthropichttp.Config{BaseURL: s.URL, Model: "claude-opus-4-5", APIKey: "k",
		CodeExecution: true, Retry: httpcall.Retry{BaseDelay: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	d := &wink.Dispatcher{Registry: wink.MustRegistry(shoptools.WinkTools()), Session: session.New()}
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: d,
		Search: []*toolsearch.Catalog{shoptools.WinkCatalog}}, []loop.Message{loop.UserMessage("refund c-1's order")})
	if err != nil {
		t.Fatal(err)
	}
	bodies := s.Bodies()
	if len(bodies) != 3 {
		t.Fatalf("%d requests", len(bodies))
	}

	// Request 1: deferred tools marked, the client search and the code execution tool, callers per tool.
	p1 := params(t, bodies[0])
	byName := map[string]*sdk.ToolParam{}
	var search, code bool
	for _, u := range p1.Tools {
		switch {
		case u.OfTool != nil:
			byName[u.OfTool.Name] = u.OfTool
		case u.OfCodeExecutionTool20250825 != nil:
			code = true
		}
	}
	if ts := byName[toolsearch.Name]; ts != nil {
		search = !ts.DeferLoading.Valid()
	}
	if !search || !code || len(byName) != 21 {
		t.Fatalf("tools: search %v, code execution %v, %d custom tools (want 20 and the search)", search, code, len(byName))
	}
	if lc := byName["lookup_customer"]; lc.DeferLoading.Value || !slices.Equal(lc.AllowedCallers, []string{"direct", anthropic.CodeExecutionType}) {
		t.Errorf("lookup_customer: defer %v, callers %v", lc.DeferLoading.Value, lc.AllowedCallers)
	}
	if ro := byName["refund_order"]; !ro.DeferLoading.Value || !slices.Equal(ro.AllowedCallers, []string{"direct"}) {
		t.Errorf("refund_order: defer %v, callers %v (a tool that changes state is not for programs by default)", ro.DeferLoading.Value, ro.AllowedCallers)
	}

	// Request 2: the search answered with tool_reference blocks; refund_order is loaded now.
	p2 := params(t, bodies[1])
	last := p2.Messages[len(p2.Messages)-1]
	tr := last.Content[0].OfToolResult
	if tr == nil || tr.ToolUseID != "toolu_s" || len(tr.Content) == 0 || tr.Content[0].OfToolReference == nil ||
		tr.Content[0].OfToolReference.ToolName != "refund_order" {
		t.Fatalf("search answer: %s", bodies[1])
	}
	for _, u := range p2.Tools {
		if u.OfTool != nil && u.OfTool.Name == "refund_order" && u.OfTool.DeferLoading.Value {
			t.Errorf("refund_order still deferred after it was found")
		}
	}

	// Request 3: the container, the program's blocks and the caller sent back exactly.
	p3 := params(t, bodies[2])
	if p3.Container.OfString.Value != "container_011" {
		t.Errorf("container = %+v", p3.Container)
	}
	asst := p3.Messages[len(p3.Messages)-2]
	if len(asst.Content) != 3 || asst.Content[1].OfServerToolUse == nil || asst.Content[2].OfToolUse == nil {
		t.Fatalf("assistant turn: %+v", asst.Content)
	}
	tu := asst.Content[2].OfToolUse
	if tu.Caller.OfCodeExecution20250825 == nil || tu.Caller.OfCodeExecution20250825.ToolID != "srvtoolu_1" {
		t.Errorf("caller not sent back: %+v", tu.Caller)
	}
	want := res.Messages[3].Native
	if got := mustMember(t, bodies[2], "messages", len(p3.Messages)-2, "content"); got != string(want) {
		t.Errorf("assistant content sent back\n%s\nwant (as kept)\n%s", got, want)
	}
	result := p3.Messages[len(p3.Messages)-1].Content[0].OfToolResult
	if result == nil || result.ToolUseID != "toolu_p" || result.IsError.Value {
		t.Errorf("program call's result: %+v", result)
	}
	if res.Text != "Refund found." || res.Messages[3].Container != "container_011" {
		t.Errorf("result: %q, container %q", res.Text, res.Messages[3].Container)
	}
}

// mustMember returns the raw JSON at a path of member names and array indexes.
func mustMember(t *testing.T, body []byte, path ...any) string {
	t.Helper()
	cur := json.RawMessage(body)
	for _, p := range path {
		switch k := p.(type) {
		case string:
			var m map[string]json.RawMessage
			if err := json.Unmarshal(cur, &m); err != nil {
				t.Fatal(err)
			}
			cur = m[k]
		case int:
			var a []json.RawMessage
			if err := json.Unmarshal(cur, &a); err != nil {
				t.Fatal(err)
			}
			cur = a[k]
		}
	}
	return string(cur)
}
