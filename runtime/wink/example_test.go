package wink_test

import (
	"context"
	"fmt"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
	"github.com/winkgen/wink/runtime/wink/internal/winktest"
)

// A registry of generated tools and a dispatcher answer a model's tool calls. Bad arguments are a failure
// the model reads, every problem at once, and the handler does not run.
func ExampleDispatcher_Dispatch() {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(winktest.WinkTools()), Filesystem: vfs.NewMemory()}
	ctx := context.Background()

	out, err := d.Dispatch(ctx, wink.Call{ID: "call_1", Name: "write_file", Arguments: []byte(`{"path":"a.txt","content":"hi"}`)})
	fmt.Println(out.Success, out.Output, err)

	out, _ = d.Dispatch(ctx, wink.Call{ID: "call_2", Name: "read_file", Arguments: []byte(`{"path":"a.txt"}`)})
	fmt.Println(out.Output)

	out, _ = d.Dispatch(ctx, wink.Call{ID: "call_3", Name: "write_file", Arguments: []byte(`{"paht":"b.txt","content":5}`)})
	fmt.Println(out.Success)
	fmt.Println(out.Output)
	// Output:
	// true Written. <nil>
	// {"content":"hi"}
	// false
	// Invalid arguments for tool "write_file":
	// - unknown field "paht"; did you mean "path"? (allowed: path, content)
	// - content: expected string, got number 5
	// - path: missing required field
	// Fix the arguments and call write_file again.
}

// A failed call is rolled back: the session's STATE slices and the filesystem are as they were before it,
// and only its log entry remains. Calls on one session may run concurrently: the dispatcher isolates them.
func ExampleDispatcher_Dispatch_rollback() {
	sess, fs := session.New(), vfs.NewMemory()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(winktest.WinkTools()), Session: sess, Filesystem: fs}
	ctx := context.Background()

	out, _ := d.Dispatch(ctx, wink.Call{Name: "mutate", Arguments: []byte(`{"note":"kept","path":"a.txt","content":"one","fail":"none"}`)})
	fmt.Println(out.Success)
	out, _ = d.Dispatch(ctx, wink.Call{Name: "mutate", Arguments: []byte(`{"note":"undone","path":"a.txt","content":"two","fail":"panic"}`)})
	fmt.Println(out.Success, out.Output)

	b, _ := fs.Read("a.txt")
	fmt.Println(session.All(sess, winktest.Notes), string(b), session.Len(sess, wink.ToolLog))
	// Output:
	// true
	// false Tool "mutate" failed: kaboom
	// [kept] one 2
}
