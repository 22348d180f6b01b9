package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/mcpservertest"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// heldInterviews is the session factory of a server where interview calls need approval: each client gets
// a session of its own, or shared when it is not nil (what a stateless server maps its requests to).
func heldInterviews(shared *session.Session) mcpserver.Option {
	return mcpserver.WithSessions(func(ctx context.Context, c mcpserver.Client) (*wink.Dispatcher, func(), error) {
		s := shared
		if s == nil {
			s = session.New()
		}
		return &wink.Dispatcher{Session: s, Policies: []wink.Policy{policy.NewRequireApproval("interview")}}, nil, nil
	})
}

// heldInterviewServer is a server whose clients each get a session, where interview calls need approval.
func heldInterviewServer(t *testing.T) *mcp.Server {
	t.Helper()
	srv, err := mcpserver.New(&wink.Dispatcher{Registry: wink.MustRegistry(mcpservertest.WinkTools())}, heldInterviews(nil))
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// interviewAnswers answers the approval, then the two questions, as a client's user; and the sampling
// question as its model. It records what it was asked.
type interviewAnswers struct {
	mu    sync.Mutex
	asked []string
}

func (a *interviewAnswers) options(disabled bool) *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.asked = append(a.asked, req.Params.Message)
			switch {
			case strings.HasPrefix(req.Params.Message, "Allow the call"):
				return &mcp.ElicitResult{Action: "accept"}, nil
			case req.Params.Message == "Who are you?":
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"text": "Ann"}}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"text": "nothing"}}, nil
		},
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.asked = append(a.asked, "sampling")
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "sunny"}}, nil
		},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: disabled},
	}
}

// A held call whose handler then asks the client two elicitation questions and one sampling question
// completes in one tools/call on every protocol version: on 2026-07-28 the approval and
// each question are round trips of their own, and the requestState of each round carries the approval
// and every earlier answer; the person is asked to approve once, and the handler's effect (a note in the
// session) happens once.
func TestHeldCallThenQuestionsComplete(t *testing.T) {
	for _, c := range []struct{ version, transport string }{
		{"2026-07-28", "memory"}, {"2025-11-25", "memory"}, {"2025-06-18", "memory"},
		{"2026-07-28", "stateless-http"}, {"2025-11-25", "stateful-http"}, {"2025-06-18", "stateful-http"},
	} {
		version := c.version
		t.Run(version+"/"+c.transport, func(t *testing.T) {
			var a interviewAnswers
			var cs *mcp.ClientSession
			if c.transport == "memory" {
				cs = connectServer(t, heldInterviewServer(t), version, a.options(false))
			} else {
				h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(mcpservertest.WinkTools())},
					heldInterviews(session.New()), mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: c.transport == "stateless-http"}))
				if err != nil {
					t.Fatal(err)
				}
				hs := httptest.NewServer(h)
				t.Cleanup(hs.Close)
				cs, err = mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, a.options(false)).Connect(context.Background(),
					&mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: version})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { cs.Close() })
			}
			before := mcpservertest.Interviews.Load()
			res := call(t, cs, "interview", `{"topic":"weather"}`)
			checkResult(t, res, false, "Interviewed.\n\n\"weather: Ann / sunny / nothing\"", `"weather: Ann / sunny / nothing"`)
			if n := mcpservertest.Interviews.Load() - before; n != 1 {
				t.Errorf("the handler's effect happened %d times, want 1", n)
			}
			if got := strings.Join(a.asked, "|"); got != `Allow the call to tool "interview" with the arguments {"topic":"weather"}?`+
				` (tool "interview" needs a person's approval)|Who are you?|sampling|Anything to add?` {
				t.Errorf("asked %q", got)
			}
			checkResult(t, call(t, cs, "list_notes", ""), false, "Notes.\n\n{\"notes\":[\"weather: Ann / sunny / nothing\"]}",
				`{"notes":["weather: Ann / sunny / nothing"]}`)
		})
	}
}

// Each round's requestState is used once: replaying any round of an approved call, the last one included,
// is refused and runs nothing, so the approved call runs once.
func TestHeldCallRoundsAreNotReplayed(t *testing.T) {
	var a interviewAnswers
	cs := connectServer(t, heldInterviewServer(t), "2026-07-28", a.options(true))
	ctx := context.Background()
	args := json.RawMessage(`{"topic":"rain"}`)
	before := mcpservertest.Interviews.Load()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "interview", Arguments: args})
	var retries []*mcp.CallToolParams
	for round := 0; err == nil && res.NeedsInput() && round < 10; round++ {
		resp := mcp.InputResponseMap{}
		for key, req := range res.InputRequests {
			switch r := req.(type) {
			case *mcp.ElicitParams:
				er, _ := a.options(true).ElicitationHandler(ctx, &mcp.ElicitRequest{Params: r})
				resp[key] = er
			case *mcp.CreateMessageParams, *mcp.CreateMessageWithToolsParams:
				resp[key] = &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "m", Content: []mcp.Content{&mcp.TextContent{Text: "wet"}}}
			default:
				t.Fatalf("round %d: input request %s is %T", round, key, req)
			}
		}
		p := &mcp.CallToolParams{Name: "interview", Arguments: args, InputResponses: resp, RequestState: res.RequestState}
		retries = append(retries, p)
		res, err = cs.CallTool(ctx, p)
	}
	if err != nil || res.NeedsInput() {
		t.Fatalf("after %d rounds: %v %+v", len(retries), err, res)
	}
	checkResult(t, res, false, "Interviewed.\n\n\"rain: Ann / wet / nothing\"", `"rain: Ann / wet / nothing"`)
	if len(retries) != 4 {
		t.Errorf("%d retries, want 4 (approval, two questions, sampling)", len(retries))
	}
	for i, p := range retries {
		if _, err := cs.CallTool(ctx, p); err == nil || !strings.Contains(err.Error(), "already decided") {
			t.Errorf("replayed round %d: %v", i+1, err)
		}
	}
	if n := mcpservertest.Interviews.Load() - before; n != 1 {
		t.Errorf("the handler's effect happened %d times, want 1", n)
	}
}
