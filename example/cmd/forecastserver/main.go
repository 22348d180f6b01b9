// Command forecastserver is the MCP server of docs/mcp-server.md: the quickstart's tools over
// streamable HTTP at /mcp, or over stdio with -stdio, named as your server (WithImplementation).
package main

import (
	"context"
	"flag"
	"log"
	"net/http"

	"github.com/winkgen/wink/example/quickstart"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

func main() {
	stdio := flag.Bool("stdio", false, "serve over stdin and stdout instead of HTTP")
	addr := flag.String("http", "127.0.0.1:8080", "address of the streamable HTTP endpoint /mcp")
	flag.Parse()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(quickstart.WinkTools())}
	name := mcpserver.WithImplementation("forecast", "v1.0.0") // what clients see (default: wink)
	if *stdio {
		if err := mcpserver.ServeStdio(context.Background(), d, name); err != nil {
			log.Fatal(err)
		}
		return
	}
	h, err := mcpserver.HTTPHandler(d, name)
	if err != nil {
		log.Fatal(err)
	}
	http.Handle("/mcp", h)
	log.Fatal(http.ListenAndServe(*addr, nil))
}
