// Command mcpserver serves the example tools (github.com/winkgen/wink/example/tools) and tools of every
// result shape (example/cmd/mcpserver/shapes) to an MCP client, over standard input and output by
// default:
//
//	go build -o mcpserver ./example/cmd/mcpserver
//
// then point the client at the binary (Claude Desktop's "command", an IDE's MCP settings, or the Go SDK's
// mcp.CommandTransport). Diagnostics go to standard error; standard output carries only the protocol.
//
// With -http ADDR it serves the streamable HTTP transport at http://ADDR/mcp instead (stateful, with
// resumable streams; -stateless for a server that keeps no session between requests), and writes
// "listening on http://HOST:PORT/mcp" to standard error once it accepts connections (ADDR
// 127.0.0.1:0 picks a free port).
package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/example/cmd/mcpserver/shapes"
	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at `ADDR` (path /mcp) instead of standard input and output")
	stateless := flag.Bool("stateless", false, "with -http: a stateless server (no Mcp-Session-Id; each request stands alone)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *addr, *stateless); err != nil {
		os.Stderr.WriteString("mcpserver: " + err.Error() + "\n")
		os.Exit(1)
	}
}

func run(ctx context.Context, addr string, stateless bool) error {
	reg, err := wink.NewRegistry(tools.WinkTools(), shapes.WinkTools())
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
	opts := []mcpserver.Option{mcpserver.WithImplementation("wink-example", "v0.1.0"), mcpserver.WithLogger(logger)}
	if addr == "" {
		err = mcpserver.ServeStdio(ctx, d, opts...)
		if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
			return nil // the client went away, or we were interrupted
		}
		return err
	}
	if stateless {
		opts = append(opts, mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true}))
	}
	h, err := mcpserver.HTTPHandler(d, opts...)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	os.Stderr.WriteString("listening on http://" + ln.Addr().String() + "/mcp\n")
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
