// Command shapesserver serves the tools of package shapestest (every result shape) over standard input
// and output, or with -http ADDR over streamable HTTP at http://ADDR/mcp (-stateless for a server that
// keeps no session); it writes "listening on http://HOST:PORT/mcp" to standard error once it accepts
// connections. testdata/mcpclients (make mcp-clients) drives it with the official TypeScript SDK client
// and the Inspector CLI.
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
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/shapestest"
	"github.com/winkgen/wink/runtime/wink"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at `ADDR` (path /mcp) instead of standard input and output")
	stateless := flag.Bool("stateless", false, "with -http: a stateless server")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *addr, *stateless); err != nil {
		os.Stderr.WriteString("shapesserver: " + err.Error() + "\n")
		os.Exit(1)
	}
}

func run(ctx context.Context, addr string, stateless bool) error {
	reg, err := wink.NewRegistry(shapestest.WinkTools())
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	d := &wink.Dispatcher{Registry: reg}
	opts := []mcpserver.Option{mcpserver.WithImplementation("wink-shapes", "v0"), mcpserver.WithLogger(logger)}
	if addr == "" {
		err = mcpserver.ServeStdio(ctx, d, opts...)
		if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
			return nil
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
