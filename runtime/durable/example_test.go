package durable_test

import (
	"context"
	"fmt"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// writer stands in for a model: it writes a file, then answers with what the tool told it.
type writer struct{}

func (writer) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	last := req.Messages[len(req.Messages)-1]
	if last.Role == loop.RoleUser {
		return loop.Response{ToolCalls: []wink.Call{{ID: "call_1", Name: "write_file",
			Arguments: []byte(`{"file_path":"order.txt","content":"42 widgets\n"}`)}}}, nil
	}
	return loop.Response{Text: "Done: " + last.Result.Output}, nil
}

// An Engine drives runs on every worker sharing its Store (here in memory; pgdurable.New for a fleet):
// each model response and each tool outcome is a checkpoint, so a worker that dies mid-run is replaced
// by another that goes on from the last one.
func ExampleEngine() {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ws := vfs.NewMemory()
	reg := wink.MustRegistry(files.WinkTools())
	sessions, _ := session.NewMemoryStore(durable.CommitSlice) // pgstore.New for a fleet
	model := writer{}

	st := durable.NewMemoryStore() // pgdurable.New(ctx, pool) for a fleet
	eng := &durable.Engine{Store: st, Agent: func(ctx context.Context, r durable.Run) (loop.Config, error) {
		sess := session.New(session.WithID(r.Session), session.WithStore(sessions))
		d := &wink.Dispatcher{Registry: reg, Session: sess, Filesystem: ws}
		return loop.Config{Provider: model, Dispatcher: d, System: "You take orders."}, nil
	}}
	go eng.Work(ctx) // on every worker
	eng.Start(ctx, "order-42", []loop.Message{loop.UserMessage("Record the order.")},
		durable.StartOptions{Session: "conv-7"})
	s, err := eng.Wait(ctx, "order-42") // eng.Status reads it at any time, from any process
	fmt.Println(s.State, s.Steps, err)
	fmt.Println(s.Text)
	// Output:
	// done 3 <nil>
	// Done: Created order.txt (1 line, 11 bytes).
}
