package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winkgen/wink/runtime/internal/clienttest"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// badSignUp is an answer to the SignUp form with a problem in every field and a field the form lacks.
var badSignUp = map[string]any{"name": 5, "age": "old", "plan": "gold", "topics": []any{"news", 7}, "colour": "red"}

// wantSignUpProblems are the form decoder's words for badSignUp: every problem, each with its path.
var wantSignUpProblems = []string{
	`Tool "sign_up" failed: the answer to form SignUp does not fit it: `,
	`name: expected string, got number 5`,
	`age: expected integer, got string "old"`,
	`plan: must be one of`,
	`topics[1]: expected string, got number 7`,
	`unknown field "colour"`,
}

// TestAFormAnswerIsJudgedByTheFormsDecoder: an accepted answer of the wrong shape from a client that
// does not check it (a client's receiving middleware answers in place of its validating handler; on
// 2026-07-28 the answer comes as an input response) reaches the handler as the form decoder's error:
// every problem, each with its JSON path, in winkgen's words, not the SDK validator's first complaint;
// and the text the model reads starts with no package prefix.
func TestAFormAnswerIsJudgedByTheFormsDecoder(t *testing.T) {
	check := func(t *testing.T, res *mcp.CallToolResult) {
		t.Helper()
		text := resultText(res)
		if !res.IsError {
			t.Fatalf("the call succeeded: %q", text)
		}
		for _, want := range wantSignUpProblems {
			if !strings.Contains(text, want) {
				t.Errorf("the result lacks %q:\n%s", want, text)
			}
		}
		if strings.Contains(text, "wink:") || strings.Contains(text, "mcpserver:") || strings.Contains(text, "does not match requested schema") {
			t.Errorf("the result carries an internal prefix or the SDK's words:\n%s", text)
		}
	}
	t.Run("2025-11-25", func(t *testing.T) {
		srv, err := mcpserver.New(&wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())})
		if err != nil {
			t.Fatal(err)
		}
		st, ct := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(context.Background(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		client := mcp.NewClient(&mcp.Implementation{Name: "lax-client", Version: "v0"}, &mcp.ClientOptions{
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				t.Error("the validating handler ran")
				return &mcp.ElicitResult{Action: "cancel"}, nil
			}})
		client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "elicitation/create" {
					return &mcp.ElicitResult{Action: "accept", Content: badSignUp}, nil
				}
				return next(ctx, method, req)
			}
		})
		cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close(); ss.Wait() })
		check(t, callTool(t, cs, "sign_up", map[string]any{}))
	})
	t.Run("2026-07-28", func(t *testing.T) {
		cs := connectClientTools(t, "2026-07-28", &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "cancel"}, nil
			}})
		ctx := context.Background()
		first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "sign_up", Arguments: map[string]any{}})
		if err != nil || first.RequestState == "" || first.InputRequests["wink.input.0"] == nil {
			t.Fatalf("first: %v %+v", err, first)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "sign_up", Arguments: map[string]any{}, RequestState: first.RequestState,
			InputResponses: mcp.InputResponseMap{"wink.input.0": &mcp.ElicitResult{Action: "accept", Content: badSignUp}}})
		if err != nil {
			t.Fatal(err)
		}
		check(t, res)
	})
}
