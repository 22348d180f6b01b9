package mcpserver_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// A panic in the server outside the dispatcher (here in the WithCallContext function) is answered in
// the dispatcher's own wording (wink.FailureText, wink.PanicText), and the server keeps serving.
func TestPanicOutsideTheDispatcherIsWordedAsTheDispatcherWouldIt(t *testing.T) {
	var explode atomic.Bool
	explode.Store(true)
	cs := inMemory(t, testDispatcher(t), mcpserver.WithCallContext(func(ctx context.Context, _ map[string]any) context.Context {
		if explode.Load() {
			panic(struct{ Code int }{7})
		}
		return ctx
	}))
	checkResult(t, call(t, cs, "echo", `{"text":"hi"}`), true, `Tool "echo" failed: {7}`, "")
	if want := wink.FailureText("echo", wink.PanicText(struct{ Code int }{7})); want != `Tool "echo" failed: {7}` {
		t.Fatalf("wink wording %q", want)
	}
	explode.Store(false)
	checkResult(t, call(t, cs, "echo", `{"text":"b"}`), false, "Echoed.\n\n{\"text\":\"b\",\"length\":1}", `{"text":"b","length":1}`)
}
