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
//
// With -issuer URL and -resource URL as well, the HTTP server is an OAuth 2.1 resource server
// (mcpserver.WithAuth): it accepts only access tokens the authorization server at -issuer signed for the
// audience -resource (the URL clients call, such as http://127.0.0.1:8080/mcp), publishes its Protected
// Resource Metadata at /.well-known/oauth-protected-resource/mcp (scopes_supported lists the scopes its
// tools declare: search_docs needs docs:read, schedule_task tasks:write), answers 401 without a
// valid token and 403 with a step-up challenge for a tool whose scopes the token lacks. -hide-tools
// answers such a tool as an unknown one instead.
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
	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/wink"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at `ADDR` (path /mcp) instead of standard input and output")
	stateless := flag.Bool("stateless", false, "with -http: a stateless server (no Mcp-Session-Id; each request stands alone)")
	var ac auth.Config
	flag.StringVar(&ac.Issuer, "issuer", "", "with -http: accept only OAuth access tokens of the authorization server with issuer `URL`")
	flag.StringVar(&ac.Resource, "resource", "", "with -issuer: this server's resource identifier, the `URL` clients call (the tokens' audience)")
	flag.BoolVar(&ac.HideTools, "hide-tools", false, "with -issuer: answer a call of a tool the token lacks scopes for as an unknown tool, not 403")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var authCfg *auth.Config
	if ac.Issuer != "" || ac.Resource != "" {
		if *addr == "" {
			os.Stderr.WriteString("mcpserver: -issuer and -resource need -http\n")
			os.Exit(2)
		}
		authCfg = &ac
	}
	if err := run(ctx, *addr, *stateless, authCfg); err != nil {
		os.Stderr.WriteString("mcpserver: " + err.Error() + "\n")
		os.Exit(1)
	}
}

func run(ctx context.Context, addr string, stateless bool, ac *auth.Config) error {
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
	if ac != nil {
		opts = append(opts, mcpserver.WithAuth(*ac))
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
	if ac != nil { // the metadata, which the handler serves at its well-known paths
		mux.Handle("/.well-known/oauth-protected-resource", h)
		mux.Handle("/.well-known/oauth-protected-resource/", h)
	}
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
