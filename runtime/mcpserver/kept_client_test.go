package mcpserver_test

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// TestHandlerGoroutinesAskTheClientConcurrently: a handler's goroutines ask the client (Sample, a
// Round's Wait) concurrently during the call, and keep asking after the handler returned, while the
// server reads what the request asked to answer it. At both protocol revisions the answers are the
// client's or an error (ErrNotAvailable once the call has ended), the call's own result stands, and the
// race detector finds nothing (go test -race).
func TestHandlerGoroutinesAskTheClientConcurrently(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			const goroutines, calls, after = 4, 8, 20
			var wg sync.WaitGroup
			var mu sync.Mutex
			var unexpected []string
			ask := func(tc *wink.ToolContext, i int) error {
				if i%2 == 0 {
					_, err := tc.SampleText("hi", 5)
					return err
				}
				r := wink.NewRound(tc)
				r.Sample("k", wink.SampleRequest{Messages: []wink.SampleMessage{{Role: "user", Content: wink.Text("hi")}}})
				return r.Wait()
			}
			tool := wink.NewTool(wink.Spec{Name: "asker", Description: "Asks the client from goroutines.", ParamsSchema: []byte(`{"type":"object"}`)},
				&wink.Funcs[wink.NoParams, wink.NoValue]{
					Decode:       wink.DecodeNoParams,
					EncodeResult: wink.EncodeNoValue,
					Handler: func(tc *wink.ToolContext, _ wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
						for g := range goroutines {
							wg.Add(1)
							go func() {
								defer wg.Done()
								for i := range after {
									err := ask(tc, g+i)
									// A question in flight when the request is answered ends with it (context canceled).
									if err != nil && !errors.Is(err, wink.ErrNotAvailable) && !errors.Is(err, context.Canceled) && version == "2025-11-25" {
										mu.Lock()
										unexpected = append(unexpected, err.Error())
										mu.Unlock()
									}
									runtime.Gosched()
								}
							}()
						}
						runtime.Gosched()
						return wink.Done[wink.NoValue]("ok"), nil
					},
				})
			srv, err := mcpserver.New(&wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{tool})})
			if err != nil {
				t.Fatal(err)
			}
			cs := connectServer(t, srv, version, &mcp.ClientOptions{CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
				return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "yes"}, StopReason: "endTurn"}, nil
			}})
			for range calls {
				res := callTool(t, cs, "asker", map[string]any{})
				if res.IsError || resultText(res) != "ok\n" {
					t.Fatalf("got %+v: %q", res, resultText(res))
				}
			}
			wg.Wait()
			for _, u := range unexpected {
				t.Error(u)
			}
		})
	}
}
