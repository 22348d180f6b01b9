package loop_test

import (
	"context"
	"fmt"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// twoTurns stands in for a model: it writes a file, then answers with what the tool told it.
type twoTurns struct{}

func (twoTurns) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	last := req.Messages[len(req.Messages)-1]
	if last.Role == loop.RoleUser {
		return loop.Response{ToolCalls: []wink.Call{{ID: "call_1", Name: "write_file",
			Arguments: []byte(`{"file_path":"hello.txt","content":"hello\n"}`)}}}, nil
	}
	return loop.Response{Text: "Done: " + last.Result.Output}, nil
}

// Run drives the model until it stops calling tools; every call goes through the dispatcher, and its
// outcome goes back to the model.
func ExampleRun() {
	fs := vfs.NewMemory()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(files.WinkTools()), Session: session.New(), Filesystem: fs}
	res, err := loop.Run(context.Background(), loop.Config{Provider: twoTurns{}, Dispatcher: d},
		[]loop.Message{loop.UserMessage("Write hello.txt.")})
	fmt.Println(res.Text, err)
	fmt.Println(res.Turns, len(res.Messages))
	b, _ := fs.Read("hello.txt")
	fmt.Printf("%q\n", b)
	// Output:
	// Done: Created hello.txt (1 line, 6 bytes). <nil>
	// 2 4
	// "hello\n"
}
