package mcpserver_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/mcpservertest"
)

// connect links a client with opts to New(testDispatcher) over in-memory transports.
func connect(t *testing.T, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpserver.New(testDispatcher(t))
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "wink-test-client", Version: "v0"}, opts).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// TestProgressReachesTheClient: a handler's ToolContext.Progress becomes notifications/progress with the
// client's token, in order; without a token nothing is sent.
func TestProgressReachesTheClient(t *testing.T) {
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	cs := connect(t, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, req.Params)
	}})
	params := &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"to": 3}}
	params.SetProgressToken("tok-1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n == 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 3 {
		t.Fatalf("%d progress notifications, want 3", len(got))
	}
	for i, p := range got {
		if p.ProgressToken != "tok-1" || p.Progress != float64(i+1) || p.Total != 3 || p.Message != "counted "+string(rune('1'+i)) {
			t.Errorf("notification %d: %+v", i, p)
		}
	}
	got = nil
	mu.Unlock()
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"to": 2}}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	if len(got) != 0 {
		t.Errorf("progress without a token: %+v", got)
	}
}

// TestCancellationReachesTheHandler: a client that cancels its call (notifications/cancelled) cancels the
// handler's context.
func TestCancellationReachesTheHandler(t *testing.T) {
	cs := connect(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wait"})
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // the call is running
	cancel()
	select {
	case err := <-mcpservertest.Waits:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the handler's context ended with %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler never saw the cancellation")
	}
	if err := <-done; err == nil {
		t.Error("the cancelled call returned no error to the client")
	}
}
