package mcpserver_test

import (
	"context"
	"net/http"

	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// Serve a registry over stdio, or over streamable HTTP.
func Example() {
	ctx := context.Background()
	reg := wink.MustRegistry(tools.WinkTools())
	serveStdio := func() error {
		return mcpserver.ServeStdio(ctx, &wink.Dispatcher{Registry: reg})
	}
	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: reg})
	if err != nil {
		panic(err)
	}
	http.Handle("/mcp", h)
	_ = serveStdio // started by a client that launches the binary; see example/cmd/mcpserver
}
