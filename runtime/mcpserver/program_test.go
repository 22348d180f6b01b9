package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winkgen/wink/runtime/internal/callertools"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/wink"
)

// A program (eval.Program) whose inner call a policy holds is put to the client's user like a held direct
// call; once approved, the program runs again: the inner calls completed before the hold are answered
// from their checkpoints, not run again, and the held one runs once.
func TestHeldProgramOverMCP(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			callertools.Lookups.Store(0)
			callertools.Payments.Store(0)
			reg := wink.MustRegistry(append(callertools.WinkTools(), eval.Program))
			srv, err := mcpserver.New(&wink.Dispatcher{Registry: reg}, mcpserver.WithSessions(
				func(ctx context.Context, c mcpserver.Client) (*wink.Dispatcher, func(), error) {
					return &wink.Dispatcher{Registry: reg, Session: session.New(),
						Policies: []wink.Policy{policy.NewRequireApproval("pay")}}, nil, nil
				}))
			if err != nil {
				t.Fatal(err)
			}
			st, ct := mcp.NewInMemoryTransports()
			ss, err := srv.Connect(context.Background(), st, nil)
			if err != nil {
				t.Fatal(err)
			}
			var asked atomic.Int32
			var question string
			client := mcp.NewClient(&mcp.Implementation{Name: "approver", Version: "v0"}, &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked.Add(1)
					question = req.Params.Message
					return &mcp.ElicitResult{Action: "accept"}, nil
				},
			})
			cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { cs.Close(); ss.Wait() }()

			src := "o = lookup(id=3)\npaid = pay(id=o['id'])\nresult = paid['total']"
			args, _ := json.Marshal(map[string]string{"source": src})
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_program", Arguments: json.RawMessage(args)})
			if err != nil {
				t.Fatal(err)
			}
			if asked.Load() != 1 || !strings.Contains(question, `"pay"`) || !strings.Contains(question, `{"id":3}`) {
				t.Fatalf("asked %d times: %q", asked.Load(), question)
			}
			var text string
			for _, c := range res.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					text += tc.Text
				}
			}
			if res.IsError || !strings.Contains(text, "result = 300") || !strings.Contains(text, "2 tool calls (1 answered from their checkpoints") {
				t.Errorf("the program's result after the approval: isError %v, %s", res.IsError, text)
			}
			if l, p := callertools.Lookups.Load(), callertools.Payments.Load(); l != 1 || p != 1 {
				t.Errorf("lookup ran %d times, pay %d times; want each once", l, p)
			}
		})
	}
}
