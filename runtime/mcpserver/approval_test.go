package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/mcpservertest"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// approvalClient connects the SDK's client, speaking protocolVersion, to a server whose clients each get a
// session and whose "echo" calls need approval; answer is the client's user.
func approvalClient(t *testing.T, protocolVersion string, answer func(*mcp.ElicitRequest) *mcp.ElicitResult) *mcp.ClientSession {
	t.Helper()
	reg, err := wink.NewRegistry(mcpservertest.WinkTools())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mcpserver.New(&wink.Dispatcher{Registry: reg}, mcpserver.WithSessions(
		func(ctx context.Context, c mcpserver.Client) (*wink.Dispatcher, func(), error) {
			return &wink.Dispatcher{Registry: reg, Session: session.New(),
				Policies: []wink.Policy{policy.NewRequireApproval("echo")}}, nil, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "approver", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return answer(req), nil
		},
	})
	cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// A held call is put to the client's user by elicitation, on the 2026-07-28 protocol (an input-required
// result the client answers by retrying) and on 2025-11-25 (the SDK asks by elicitation/create); accept
// runs it once under its original call id, decline gives the model the denial with the user's reason.
func TestHeldCallsAreApprovedByTheClientsUser(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		for _, accept := range []bool{true, false} {
			name := version + "/decline"
			if accept {
				name = version + "/accept"
			}
			t.Run(name, func(t *testing.T) {
				var asked atomic.Int32
				var message string
				cs := approvalClient(t, version, func(req *mcp.ElicitRequest) *mcp.ElicitResult {
					asked.Add(1)
					message = req.Params.Message
					if accept {
						return &mcp.ElicitResult{Action: "accept"}
					}
					return &mcp.ElicitResult{Action: "decline", Content: map[string]any{"reason": "not today"}}
				})
				res := call(t, cs, "echo", `{"text":"pay 5"}`)
				if asked.Load() != 1 || !strings.Contains(message, `"echo"`) || !strings.Contains(message, `{"text":"pay 5"}`) {
					t.Fatalf("asked %d times, message %q", asked.Load(), message)
				}
				if accept {
					checkResult(t, res, false, "Echoed.\n\n{\"text\":\"pay 5\",\"length\":5}", `{"text":"pay 5","length":5}`)
					return
				}
				checkResult(t, res, true, "A person declined this call to \"echo\". Their reason: not today\n"+
					"- Do not call it again with the same arguments; ask the user how to proceed.", "")
			})
		}
	}
}

// Tools the policy does not name run without asking.
func TestCallsNotHeldAreNotAsked(t *testing.T) {
	cs := approvalClient(t, "2026-07-28", func(*mcp.ElicitRequest) *mcp.ElicitResult {
		t.Error("asked for a call that is not held")
		return &mcp.ElicitResult{Action: "decline"}
	})
	checkResult(t, call(t, cs, "measure", `{"text":"four"}`), false, "Measured.\n\n4", `4`)
}

// The requestState binds the decision to the held call: a retry with other arguments, or with a forged
// state, is refused and runs nothing.
func TestRequestStateBindsTheDecisionToTheHeldCall(t *testing.T) {
	reg, err := wink.NewRegistry(mcpservertest.WinkTools())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mcpserver.New(&wink.Dispatcher{Registry: reg}, mcpserver.WithSessions(
		func(ctx context.Context, c mcpserver.Client) (*wink.Dispatcher, func(), error) {
			return &wink.Dispatcher{Registry: reg, Session: session.New(),
				Policies: []wink.Policy{policy.NewRequireApproval("echo")}}, nil, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The client handles the round trips itself, so it can tamper with them.
	client := mcp.NewClient(&mcp.Implementation{Name: "tamperer", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	})
	cs, err := client.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	ctx := context.Background()
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"text":"pay 5"}`)})
	if err != nil || !first.NeedsInput() || first.InputRequests["wink.approval"] == nil || first.RequestState == "" {
		t.Fatalf("first call: %v, %+v", err, first)
	}
	accept := mcp.InputResponseMap{"wink.approval": &mcp.ElicitResult{Action: "accept"}}
	for _, bad := range []struct {
		why, args, state string
	}{
		{"other arguments", `{"text":"pay 5000"}`, first.RequestState},
		{"forged state", `{"text":"pay 5"}`, "bWNwLTE." + strings.Repeat("A", 43)},
		{"garbage state", `{"text":"pay 5"}`, "not a state"},
	} {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(bad.args),
			InputResponses: accept, RequestState: bad.state})
		if err == nil || !strings.Contains(err.Error(), "requestState does not belong to this call") {
			t.Errorf("%s: %v", bad.why, err)
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"text":"pay 5"}`),
		InputResponses: accept, RequestState: first.RequestState})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, false, "Echoed.\n\n{\"text\":\"pay 5\",\"length\":5}", `{"text":"pay 5","length":5}`)
	// Replaying the same answer does not run the approved call again.
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"text":"pay 5"}`),
		InputResponses: accept, RequestState: first.RequestState})
	if err == nil || !strings.Contains(err.Error(), "was already decided") {
		t.Errorf("replayed retry: %v", err)
	}
}

// TestApprovalQuestionIsCanonicalAndBound: on every protocol version, the question the person reads
// shows the arguments in canonical form (the same text however the model spelled, padded or reordered
// them, and nothing pushed out of sight by padding), and the approval given for one held call lets that
// call run, not a second call with the very same tool and arguments.
func TestApprovalQuestionIsCanonicalAndBound(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25", "2025-06-18"} {
		t.Run(version, func(t *testing.T) {
			var messages []string
			cs := approvalClient(t, version, func(req *mcp.ElicitRequest) *mcp.ElicitResult {
				messages = append(messages, req.Params.Message)
				return &mcp.ElicitResult{Action: "accept"}
			})
			pad := strings.Repeat(" ", 20000)
			for _, args := range []string{`{"text":"pay 5"}`, "{" + pad + `"te\u0078t"` + pad + ":" + pad + `"pay\u00205"}`} {
				checkResult(t, call(t, cs, "echo", args), false, "Echoed.\n\n{\"text\":\"pay 5\",\"length\":5}", `{"text":"pay 5","length":5}`)
			}
			if len(messages) != 2 || messages[0] != messages[1] || !strings.Contains(messages[0], `{"text":"pay 5"}`) || len(messages[0]) > 300 {
				t.Fatalf("questions: %q", messages)
			}
		})
	}
}
