package mcpserver_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/asktest"
	"github.com/winkgen/wink/runtime/wink"
)

// askServer serves asktest's tools, a prompt whose Get asks the user's name, and a resource whose Read
// asks for the client's roots.
func askServer(t *testing.T) *mcp.Server {
	t.Helper()
	srv, err := mcpserver.New(&wink.Dispatcher{Registry: wink.MustRegistry(asktest.WinkTools())},
		mcpserver.WithPrompt(mcpserver.Prompt{Name: "greet", Get: func(ctx context.Context, _ map[string]string) ([]mcpserver.PromptMessage, error) {
			r := wink.NewRound(ctx)
			name := wink.AskForm(r, "who", "What is your name?", asktest.WinkFormName)
			if err := r.Wait(); err != nil {
				return nil, err
			}
			return []mcpserver.PromptMessage{{Role: "user", Content: wink.Text("Greet " + name.Value.Name + ".")}}, nil
		}}),
		mcpserver.WithResource(mcpserver.Resource{URI: "test://roots", Name: "roots", Read: func(ctx context.Context) (wink.Content, error) {
			r := wink.NewRound(ctx)
			roots := r.Roots("roots")
			if err := r.Wait(); err != nil {
				return wink.Content{}, err
			}
			return wink.EmbeddedResource("", "text/plain", roots.Roots[0].URI), nil
		}}))
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// askClient connects a Go SDK client with roots, a user who answers forms and a model; asked records the
// questions the client got (forms by message); the SDK client answers one round's questions concurrently.
func askClient(t *testing.T, srv *mcp.Server, version string, disabled bool, asked *[]string) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	c := mcp.NewClient(&mcp.Implementation{Name: "ask-client", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			*asked = append(*asked, req.Params.Message)
			mu.Unlock()
			if strings.Contains(req.Params.Message, "color") {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"color": "blue"}}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ann"}}, nil
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			mu.Lock()
			*asked = append(*asked, "sampling")
			mu.Unlock()
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "Hello!"}}, nil
		},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: disabled},
	})
	c.AddRoots(&mcp.Root{URI: "file:///work", Name: "work"})
	cs, err := c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// TestARoundAsksNamedQuestionsTogether: one handler, every revision. On 2026-07-28 the first round's
// input-required result holds the three questions under the keys the handler chose, the second round's
// the fourth, and the handler runs three times; on 2025-11-25 the client is sent each question as a
// request and the handler runs once. Prompts and resources ask the same way.
func TestARoundAsksNamedQuestionsTogether(t *testing.T) {
	const want = `Ann likes blue; the model says "Hello!"; roots: file:///work` + "\n"
	for _, c := range []struct {
		version string
		runs    int32
	}{{"2026-07-28", 3}, {"2025-11-25", 1}} {
		t.Run(c.version, func(t *testing.T) {
			srv := askServer(t)
			var asked []string
			if c.version == "2026-07-28" {
				// What travels: the round's questions under their keys, and a state.
				cs := askClient(t, srv, c.version, true, &asked)
				res := callTool(t, cs, "survey", map[string]any{})
				keys := make([]string, 0, len(res.InputRequests))
				for k := range res.InputRequests {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				if !slices.Equal(keys, []string{"client_roots", "greeting", "user_name"}) || res.RequestState == "" {
					t.Fatalf("first round: keys %v, state %q", keys, res.RequestState)
				}
				if _, ok := res.InputRequests["client_roots"].(*mcp.ListRootsParams); !ok {
					t.Fatalf("client_roots is %T", res.InputRequests["client_roots"])
				}
			}
			asktest.Runs.Store(0)
			asked = nil
			cs := askClient(t, srv, c.version, false, &asked)
			res := callTool(t, cs, "survey", map[string]any{})
			if res.IsError || resultText(res) != want {
				t.Fatalf("got %q (isError %v)", resultText(res), res.IsError)
			}
			if n := asktest.Runs.Load(); n != c.runs {
				t.Fatalf("the handler ran %d times; want %d", n, c.runs)
			}
			if !slices.Contains(asked, "sampling") || !slices.Contains(asked, "What is your favorite color?") {
				t.Fatalf("asked %v", asked)
			}
			pr, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "greet"})
			if err != nil || len(pr.Messages) != 1 || pr.Messages[0].Content.(*mcp.TextContent).Text != "Greet Ann." {
				t.Fatalf("prompt: %+v, %v", pr, err)
			}
			rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "test://roots"})
			if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Text != "file:///work" {
				t.Fatalf("resource: %+v, %v", rr, err)
			}
		})
	}
}

// TestAKeyNamesOneQuestion: a key asked as a form and later as sampling is refused, at every revision.
func TestAKeyNamesOneQuestion(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			var asked []string
			cs := askClient(t, askServer(t), version, false, &asked)
			res := callTool(t, cs, "reuse", map[string]any{})
			if !res.IsError || !strings.Contains(resultText(res), `question "k" was asked as elicitation/create earlier in this request and now as sampling/createMessage; a key names one question for the whole request`) {
				t.Fatalf("got %q", resultText(res))
			}
		})
	}
}

// TestAnAnswerOfTheWrongKindIsRefused: on 2026-07-28 a retry that answers a form with a sampling result
// is refused with -32602 naming the key, before anything is decided.
func TestAnAnswerOfTheWrongKindIsRefused(t *testing.T) {
	var asked []string
	cs := askClient(t, askServer(t), "2026-07-28", true, &asked)
	first := callTool(t, cs, "survey", map[string]any{})
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "survey", Arguments: map[string]any{},
		RequestState: first.RequestState,
		InputResponses: mcp.InputResponseMap{
			"user_name":    &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "Ann"}},
			"greeting":     &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "Hi"}},
			"client_roots": &mcp.ListRootsResult{Roots: []*mcp.Root{{URI: "file:///w"}}},
		}})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, `inputResponses["user_name"]: the answer is not a result of elicitation/create, which the question asked`) {
		t.Fatalf("got %v", err)
	}
}
