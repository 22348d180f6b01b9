package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/internal/clienttest"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// connectClientTools links a client with opts, speaking protocol version (empty: the SDK's latest), to a
// server of the clienttest tools, with server options sopts.
func connectClientTools(t *testing.T, version string, opts *mcp.ClientOptions, sopts ...mcpserver.Option) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpserver.New(&wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())}, sopts...)
	if err != nil {
		t.Fatal(err)
	}
	return connectServer(t, srv, version, opts)
}

func connectServer(t *testing.T, srv *mcp.Server, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "wink-test-client", Version: "v0"}, opts).Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text + "\n")
		}
	}
	return b.String()
}

// TestContentBlocksReachTheClient: every kind of wink.Content arrives as its MCP block, after the text of
// the result, bytes intact; a failure is its text alone.
func TestContentBlocksReachTheClient(t *testing.T) {
	cs := connectClientTools(t, "", nil)
	res := callTool(t, cs, "showcase", map[string]any{})
	if res.IsError || len(res.Content) != 7 {
		t.Fatalf("got isError %v and %d blocks: %+v", res.IsError, len(res.Content), res.Content)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != "Here is everything:" {
		t.Errorf("block 0: %#v", res.Content[0])
	}
	if tc, ok := res.Content[1].(*mcp.TextContent); !ok || tc.Text != "A caption." {
		t.Errorf("block 1: %#v", res.Content[1])
	}
	if ic, ok := res.Content[2].(*mcp.ImageContent); !ok || ic.MIMEType != "image/png" || !bytes.Equal(ic.Data, clienttest.PNG) {
		t.Errorf("block 2: %#v", res.Content[2])
	}
	if ac, ok := res.Content[3].(*mcp.AudioContent); !ok || ac.MIMEType != "audio/wav" || !bytes.Equal(ac.Data, clienttest.WAV) {
		t.Errorf("block 3: %#v", res.Content[3])
	}
	if er, ok := res.Content[4].(*mcp.EmbeddedResource); !ok || er.Resource.URI != "test://embedded" || er.Resource.MIMEType != "text/plain" || er.Resource.Text != "Embedded text." || er.Resource.Blob != nil {
		t.Errorf("block 4: %#v", res.Content[4])
	}
	if er, ok := res.Content[5].(*mcp.EmbeddedResource); !ok || er.Resource.URI != "test://doc.pdf" || er.Resource.Text != "" || !bytes.Equal(er.Resource.Blob, clienttest.PDF) {
		t.Errorf("block 5: %#v", res.Content[5])
	}
	if rl, ok := res.Content[6].(*mcp.ResourceLink); !ok || rl.URI != "file:///notes/plan.md" || rl.Name != "plan.md" || rl.MIMEType != "text/markdown" || rl.Description != "The plan" {
		t.Errorf("block 6: %#v", res.Content[6])
	}
	res = callTool(t, cs, "fails", map[string]any{})
	if !res.IsError || len(res.Content) != 1 || resultText(res) != "It failed.\n" {
		t.Errorf("fails: %+v", res)
	}
}

// TestLogMessagesFollowTheClientLevel: ToolContext.Log sends notifications/message at or above the level
// the client set with logging/setLevel, with the tool's name as the logger; none before a level is set.
func TestLogMessagesFollowTheClientLevel(t *testing.T) {
	var got received
	cs := connectClientTools(t, "2025-11-25", &mcp.ClientOptions{LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
		got.add(string(req.Params.Level) + " " + req.Params.Logger + " " + req.Params.Data.(string))
	}})
	wait := got.wait
	callTool(t, cs, "chatty", map[string]any{})
	time.Sleep(50 * time.Millisecond)
	if g := wait(0); len(g) != 0 {
		t.Fatalf("before setLevel: %q", g)
	}
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatal(err)
	}
	callTool(t, cs, "chatty", map[string]any{})
	want := []string{"warning chatty at warning", "error chatty at error"}
	if g := wait(2); strings.Join(g, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", g, want)
	}
}

// TestSamplingAsksTheClientModel: ToolContext.Sample becomes sampling/createMessage with the handler's
// messages, system prompt, token bound and model hints (on 2026-07-28 an input request of an
// input-required result, which the SDK client answers and retries), and returns the client model's
// answer; a client without the sampling capability makes it a clear failure.
func TestSamplingAsksTheClientModel(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			var seen []*mcp.CreateMessageParams
			cs := connectClientTools(t, version, &mcp.ClientOptions{CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
				seen = append(seen, req.Params)
				return &mcp.CreateMessageResult{Role: "assistant", Model: "test-model", Content: &mcp.TextContent{Text: "Paris."}, StopReason: "endTurn"}, nil
			}})
			res := callTool(t, cs, "ask_model", map[string]any{"prompt": "Capital of France?"})
			if res.IsError || !strings.Contains(resultText(res), "LLM response (test-model):\n\n\"Paris.\"") {
				t.Fatalf("got %+v: %q", res, resultText(res))
			}
			if len(seen) != 1 {
				t.Fatalf("%d sampling requests", len(seen))
			}
			p := seen[0]
			if p.MaxTokens != 100 || p.SystemPrompt != "Be brief." || len(p.Messages) != 1 || p.Messages[0].Role != "user" ||
				p.Messages[0].Content.(*mcp.TextContent).Text != "Capital of France?" || p.ModelPreferences == nil || p.ModelPreferences.Hints[0].Name != "claude" {
				t.Fatalf("request: %+v", p)
			}
			cs = connectClientTools(t, version, nil)
			checkMissingCapability(t, cs, version, "ask_model", map[string]any{"prompt": "x"},
				`Tool "ask_model" failed: sampling is not available: the client did not declare the sampling capability`+"\n", "sampling")
		})
	}
}

// TestElicitationFillsTheGeneratedForm: wink.Elicit sends the form winkgen generated (the SDK client
// validates it as MCP's elicitation subset), and the answer, defaults applied, is decoded into the struct;
// a decline lets the handler ask again; cancel is reported as is. On 2026-07-28 each question is an
// input-required result and the handler runs again with the answers so far.
func TestElicitationFillsTheGeneratedForm(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			var mu sync.Mutex
			var messages []string
			var schema json.RawMessage
			answers := []*mcp.ElicitResult{
				{Action: "decline"},
				{Action: "accept", Content: map[string]any{"name": "Ann", "age": 30, "plan": "pro", "topics": []any{"news", "offers"}, "newsletter": false}},
			}
			cs := connectClientTools(t, version, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				mu.Lock()
				defer mu.Unlock()
				messages = append(messages, req.Params.Message)
				schema, _ = json.Marshal(req.Params.RequestedSchema)
				a := answers[0]
				answers = answers[1:]
				return a, nil
			}})
			res := callTool(t, cs, "sign_up", map[string]any{})
			if res.IsError || !strings.Contains(resultText(res), `"summary":"Ann, 30, pro, [news offers], newsletter false"`) {
				t.Fatalf("got %q", resultText(res))
			}
			if strings.Join(messages, "|") != "Please sign up.|Are you sure? Please sign up." {
				t.Errorf("messages %q", messages)
			}
			var got, want any
			_ = json.Unmarshal(schema, &got)
			_ = json.Unmarshal(clienttest.WinkFormSignUp.Schema, &want)
			if !sameJSON(got, want) {
				t.Errorf("requestedSchema %s, want %s", schema, clienttest.WinkFormSignUp.Schema)
			}

			answers = []*mcp.ElicitResult{{Action: "cancel"}}
			res = callTool(t, cs, "sign_up", map[string]any{})
			if res.IsError || !strings.Contains(resultText(res), `"action":"cancel"`) {
				t.Fatalf("cancel: %q", resultText(res))
			}

			cs = connectClientTools(t, version, nil)
			checkMissingCapability(t, cs, version, "sign_up", map[string]any{},
				`Tool "sign_up" failed: elicitation is not available: the client did not declare the elicitation capability`+"\n", "elicitation")
		})
	}
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestInputRequiredStateIsChecked: on 2026-07-28 a retry whose requestState was not issued for this
// call (forged, or carried over to other arguments) is refused before anything runs.
func TestInputRequiredStateIsChecked(t *testing.T) {
	cs := connectClientTools(t, "2026-07-28", &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "x"}}, nil
		}})
	ctx := context.Background()
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask_model", Arguments: map[string]any{"prompt": "a"}})
	if err != nil || first.RequestState == "" || first.InputRequests["wink.input.0"] == nil {
		t.Fatalf("first: %v %+v", err, first)
	}
	resp := mcp.InputResponseMap{"wink.input.0": &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "m", Content: []mcp.Content{&mcp.TextContent{Text: "B"}}}}
	for what, p := range map[string]*mcp.CallToolParams{
		"other arguments": {Name: "ask_model", Arguments: map[string]any{"prompt": "b"}, RequestState: first.RequestState, InputResponses: resp},
		"forged":          {Name: "ask_model", Arguments: map[string]any{"prompt": "a"}, RequestState: "wink-input.W10.AAAA", InputResponses: resp},
	} {
		if _, err := cs.CallTool(ctx, p); err == nil || !strings.Contains(err.Error(), "requestState does not belong to this call") {
			t.Errorf("%s: %v", what, err)
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask_model", Arguments: map[string]any{"prompt": "a"}, RequestState: first.RequestState, InputResponses: resp})
	if err != nil || res.IsError || !strings.Contains(resultText(res), `"B"`) {
		t.Fatalf("answered retry: %v %q", err, resultText(res))
	}
}

// TestClientCallsOverStreamableHTTP: elicitation and sampling reach the client over streamable HTTP,
// stateful and stateless, on 2025-11-25 (server requests on the call's stream; a stateless server cannot
// send them, which the handler is told) and 2026-07-28 (input-required results, which work statelessly).
func TestClientCallsOverStreamableHTTP(t *testing.T) {
	for _, c := range []struct {
		version   string
		stateless bool
		works     bool
	}{{"2025-11-25", false, true}, {"2026-07-28", false, true}, {"2026-07-28", true, true}, {"2025-11-25", true, false}} {
		t.Run(c.version+map[bool]string{true: "/stateless", false: "/stateful"}[c.stateless], func(t *testing.T) {
			h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())},
				mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: c.stateless}))
			if err != nil {
				t.Fatal(err)
			}
			hs := httptest.NewServer(h)
			t.Cleanup(hs.Close)
			client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Di", "age": 40, "plan": "free", "newsletter": true}}, nil
				},
				CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
					return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "Yes."}}, nil
				},
			})
			cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: c.version})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			res := callTool(t, cs, "sign_up", map[string]any{})
			sample := callTool(t, cs, "ask_model", map[string]any{"prompt": "?"})
			if !c.works {
				why := "is not available: a stateless HTTP server cannot send requests to the client before protocol 2026-07-28"
				if !res.IsError || !sample.IsError || !strings.Contains(resultText(res), why) || !strings.Contains(resultText(sample), why) {
					t.Fatalf("stateless: %q %q", resultText(res), resultText(sample))
				}
				return
			}
			if res.IsError || !strings.Contains(resultText(res), `"summary":"Di, 40, free, [], newsletter true"`) {
				t.Fatalf("sign_up: %q", resultText(res))
			}
			if sample.IsError || !strings.Contains(resultText(sample), `"Yes."`) {
				t.Fatalf("ask_model: %q", resultText(sample))
			}
		})
	}
}

// TestEveryKindOfSelect: a form with the five selects of SEP-1330 (untitled and titled single, legacy
// enumNames, untitled and titled multi) and defaults (SEP-1034) is accepted by the SDK client, which sees
// each stated as the spec says, and the answer decodes into the struct with the defaults filled in.
func TestEveryKindOfSelect(t *testing.T) {
	var props map[string]any
	cs := connectClientTools(t, "2025-11-25", &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		b, _ := json.Marshal(req.Params.RequestedSchema)
		var s map[string]any
		_ = json.Unmarshal(b, &s)
		props, _ = s["properties"].(map[string]any)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"titledSingle": "value2", "legacyEnum": "opt2",
			"untitledMulti": []any{"option1", "option3"}, "titledMulti": []any{"value1"}}}, nil
	}})
	res := callTool(t, cs, "choose", map[string]any{})
	want := `{"untitledSingle":"option1","titledSingle":"value2","legacyEnum":"opt2","untitledMulti":["option1","option3"],"titledMulti":["value1"],"score":95.5,"verified":true}`
	if res.IsError || !strings.Contains(resultText(res), want) {
		t.Fatalf("got %q, want %s", resultText(res), want)
	}
	for name, want := range map[string]string{
		"untitledSingle": `{"default":"option1","description":"UntitledSingle is an untitled single-select.","enum":["option1","option2","option3"],"type":"string"}`,
		"titledSingle":   `{"description":"TitledSingle is a titled single-select.","oneOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"}],"type":"string"}`,
		"legacyEnum":     `{"description":"LegacyEnum is a legacy titled single-select.","enum":["opt1","opt2"],"enumNames":["Option One","Option Two"],"type":"string"}`,
		"untitledMulti":  `{"description":"UntitledMulti is an untitled multi-select.","items":{"enum":["option1","option2","option3"],"type":"string"},"type":"array"}`,
		"titledMulti":    `{"description":"TitledMulti is a titled multi-select.","items":{"anyOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"}]},"type":"array"}`,
		"score":          `{"default":95.5,"description":"Score with a default.","type":"number"}`,
		"verified":       `{"default":true,"description":"Verified with a default.","type":"boolean"}`,
	} {
		got, _ := json.Marshal(props[name])
		if string(got) != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// received collects what a client's notification handler is sent.
type received struct {
	mu  sync.Mutex
	got []string
}

func (r *received) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, s)
}

// wait returns what was received once there are n items, or after 5s whatever there is.
func (r *received) wait(n int) []string {
	deadline := time.Now().Add(5 * time.Second)
	for {
		r.mu.Lock()
		g := append([]string(nil), r.got...)
		r.mu.Unlock()
		if len(g) >= n || time.Now().After(deadline) {
			return g
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// checkMissingCapability calls tool from a client without capability: a tool error saying so before
// 2026-07-28, the protocol error -32021 naming the capability from 2026-07-28 on.
func checkMissingCapability(t *testing.T, cs *mcp.ClientSession, version, tool string, args map[string]any, toolError, capability string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if version < "2026-07-28" {
		if err != nil || !res.IsError || resultText(res) != toolError {
			t.Errorf("%s without %s: %v %q, want the tool error %q", tool, capability, err, resultText(res), toolError)
		}
		return
	}
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != -32021 || string(je.Data) != `{"requiredCapabilities":{"`+capability+`":{}}}` {
		t.Errorf("%s without %s: %v, want -32021 naming it", tool, capability, err)
	}
}
