// Command mcpserver serves the example tools (github.com/winkgen/wink/example/tools) to an MCP
// client over standard input and output:
//
//	go build -o mcpserver ./example/cmd/mcpserver
//
// then point the client at the binary (Claude Desktop's "command", an IDE's MCP settings, or the Go SDK's
// mcp.CommandTransport). Diagnostics go to standard error; standard output carries only the protocol.
package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/signal"

	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx); err != nil {
		os.Stderr.WriteString("mcpserver: " + err.Error() + "\n")
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	reg, err := wink.NewRegistry(tools.WinkTools())
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	d := &wink.Dispatcher{
		Registry: reg,
		Events: func(ev *wink.ToolInvoked) {
			if ev.Panic != nil {
				logger.Error("tool panicked", "tool", ev.Name, "call_id", ev.CallID, "panic", ev.Message, "stack", string(ev.Stack))
			}
		},
	}
	err = mcpserver.ServeStdio(ctx, d, mcpserver.WithImplementation("wink-example", "v0.1.0"), mcpserver.WithLogger(logger))
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil // the client went away, or we were interrupted
	}
	return err
}
