package mcpserver_test

import (
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/mcpservertest"
	"github.com/winkgen/wink/runtime/wink"
)

// TestConcurrentCallsOnOneSessionKeepAcknowledgedWrites is the isolation proof through the SDK's
// client: a slow call that fails and a fast call that succeeds arrive together on one session; the
// slow one's rollback must not undo the fast one's acknowledged write.
func TestConcurrentCallsOnOneSessionKeepAcknowledgedWrites(t *testing.T) {
	started := make(chan string, 1)
	mcpservertest.SlowStarted = func(text string) { started <- text }
	t.Cleanup(func() { mcpservertest.SlowStarted = nil })

	for _, tc := range []struct {
		name    string
		connect func(t *testing.T, f *freshSessions) *mcp.ClientSession
	}{
		{"in-memory", func(t *testing.T, f *freshSessions) *mcp.ClientSession {
			return inMemory(t, f.template, mcpserver.WithSessions(f.open))
		}},
		{"line-transport", func(t *testing.T, f *freshSessions) *mcp.ClientSession {
			return overLines(t, f.template, mcpserver.WithSessions(f.open))
		}},
		{"streamable-http", func(t *testing.T, f *freshSessions) *mcp.ClientSession {
			return connectHTTP(t, serveHTTP(t, f.template, mcpserver.WithSessions(f.open)), nil)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &freshSessions{template: testDispatcher(t)}
			cs := tc.connect(t, f)
			var acked []string
			for round := range 50 {
				slowText, fastText := "slow-"+strconv.Itoa(round), "fast-"+strconv.Itoa(round)
				slow := make(chan *mcp.CallToolResult, 1)
				go func() {
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow_fail", Arguments: map[string]any{"text": slowText}})
					if err != nil {
						res = errorResultText("slow_fail: " + err.Error())
					}
					slow <- res
				}()
				select {
				case <-started: // slow_fail holds the session and has written its note
				case <-time.After(10 * time.Second):
					t.Fatalf("round %d: slow_fail did not start", round)
				}
				fast := call(t, cs, "add_note", `{"text":"`+fastText+`"}`)
				if fast.IsError || text(fast) != "added" {
					t.Fatalf("round %d: add_note answered %q", round, text(fast))
				}
				acked = append(acked, fastText)
				if res := <-slow; !res.IsError || text(res) != "could not add "+slowText {
					t.Fatalf("round %d: slow_fail answered %q, want its failure", round, text(res))
				}
			}
			got := notes(t, cs)
			if strings.Join(got, ",") != strings.Join(acked, ",") {
				t.Errorf("after 50 rounds the session holds %q,\nwant every acknowledged write and no rolled-back one: %q", got, acked)
			}
		})
	}
}

func errorResultText(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// overLines connects the SDK's client (mcp.IOTransport) to New(d) served over mcpserver.LineTransport
// on pipes, as ServeStdio serves it.
func overLines(t *testing.T, d *wink.Dispatcher, opts ...mcpserver.Option) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpserver.New(d, opts...)
	if err != nil {
		t.Fatal(err)
	}
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	ss, err := srv.Connect(context.Background(), &mcpserver.LineTransport{Reader: serverR, Writer: serverW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := newClient().Connect(context.Background(), &mcp.IOTransport{Reader: clientR, Writer: clientW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}
