package main

import (
	"context"
	"time"

	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/tasks"
)

// withTasks serves the task-supporting tools (slow_compute, failing_job, confirm_delete, ...) as tasks of
// the io.modelcontextprotocol/tasks extension, kept in memory (a fleet shares pgtasks), and runs the
// worker that takes over tasks until ctx is done.
func withTasks(ctx context.Context) (mcpserver.Option, error) {
	tk, err := mcpserver.NewTasks(mcpserver.TaskOptions{Store: tasks.NewMemoryStore(), PollInterval: 200 * time.Millisecond,
		StartInRequest: []string{"test_tool_with_task"}})
	if err != nil {
		return nil, err
	}
	go tk.Work(ctx)
	return mcpserver.WithTasks(tk), nil
}
