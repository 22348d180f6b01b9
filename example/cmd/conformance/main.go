// Command conformance is the MCP server the official conformance suite (@modelcontextprotocol/conformance)
// is run against: its tools are winkgen handlers (package everything), its prompts, resources, resource
// template and completion are served with runtime/mcpserver's options, over streamable HTTP:
//
//	go run ./example/cmd/conformance -http 127.0.0.1:3001 [-stateless]
//	npx @modelcontextprotocol/conformance server --url http://127.0.0.1:3001/mcp --requirements 2026-07-28
//
// It writes "listening on http://HOST:PORT/mcp" to standard error once it accepts connections (the default
// address, 127.0.0.1:0, picks a free port). `make mcp-clients` runs every server scenario against it
// (testdata/mcpclients/conformance.sh); docs/mcp-server.md lists the results.
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/example/cmd/conformance/everything"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

func main() {
	addr := flag.String("http", "127.0.0.1:0", "serve streamable HTTP at `ADDR` (path /mcp)")
	stateless := flag.Bool("stateless", false, "serve every HTTP request on its own, without MCP sessions (StreamableHTTPOptions.Stateless)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *addr, *stateless); err != nil {
		os.Stderr.WriteString("conformance: " + err.Error() + "\n")
		os.Exit(1)
	}
}

func run(ctx context.Context, addr string, stateless bool) error {
	reg, err := wink.NewRegistry(everything.WinkTools())
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	opts := append([]mcpserver.Option{mcpserver.WithImplementation("wink-conformance", "v0.1.0"), mcpserver.WithLogger(logger)}, extras()...)
	to, err := withTasks(ctx) // tasks.go
	if err != nil {
		return err
	}
	opts = append(opts, to)
	if stateless {
		opts = append(opts, mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true}))
	} else {
		opts = append(opts, mcpserver.WithBothRevisions()) // sessions for 2025-11-25, 2026-07-28 without
	}
	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: reg}, opts...)
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

// extras are the prompts, resources, resource template and completions the scenarios read.
func extras() []mcpserver.Option {
	text := func(role, s string) mcpserver.PromptMessage {
		return mcpserver.PromptMessage{Role: role, Content: wink.Text(s)}
	}
	fixed := func(c wink.Content) func(context.Context) (wink.Content, error) {
		return func(context.Context) (wink.Content, error) { return c, nil }
	}
	return []mcpserver.Option{
		mcpserver.WithPrompt(everything.InputRequiredPrompt()), // asks the client first (inputrequired.go)
		mcpserver.WithPrompt(mcpserver.Prompt{
			Name: "test_simple_prompt", Description: "A simple prompt without arguments",
			Get: func(context.Context, map[string]string) ([]mcpserver.PromptMessage, error) {
				return []mcpserver.PromptMessage{text("user", "This is a simple prompt for testing.")}, nil
			},
		}),
		mcpserver.WithPrompt(mcpserver.Prompt{
			Name: "test_prompt_with_arguments", Description: "A prompt with two required arguments",
			Arguments: []mcpserver.PromptArgument{
				{Name: "arg1", Description: "First test argument", Required: true},
				{Name: "arg2", Description: "Second test argument", Required: true},
			},
			Get: func(_ context.Context, args map[string]string) ([]mcpserver.PromptMessage, error) {
				return []mcpserver.PromptMessage{text("user", "Prompt with arguments: arg1='"+args["arg1"]+"', arg2='"+args["arg2"]+"'")}, nil
			},
			Complete: func(_ context.Context, argument, value string, _ map[string]string) ([]string, error) {
				if argument == "arg1" {
					return []string{"paris", "park", "party"}, nil
				}
				return nil, nil
			},
		}),
		mcpserver.WithPrompt(mcpserver.Prompt{
			Name: "test_prompt_with_embedded_resource", Description: "A prompt that embeds a resource",
			Arguments: []mcpserver.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}},
			Get: func(_ context.Context, args map[string]string) ([]mcpserver.PromptMessage, error) {
				return []mcpserver.PromptMessage{
					{Role: "user", Content: wink.EmbeddedResource(args["resourceUri"], "text/plain", "Embedded resource content for testing.")},
					text("user", "Please process the embedded resource above."),
				}, nil
			},
		}),
		mcpserver.WithPrompt(mcpserver.Prompt{
			Name: "test_prompt_with_image", Description: "A prompt with an image",
			Get: func(context.Context, map[string]string) ([]mcpserver.PromptMessage, error) {
				return []mcpserver.PromptMessage{
					{Role: "user", Content: wink.Image("image/png", everything.RedPixelPNG)},
					text("user", "Please analyze the image above."),
				}, nil
			},
		}),
		mcpserver.WithResource(mcpserver.Resource{
			URI: "test://static-text", Name: "static-text", Description: "A static text resource", MIMEType: "text/plain",
			Read: fixed(wink.EmbeddedResource("test://static-text", "text/plain", "This is the content of the static text resource.")),
		}),
		mcpserver.WithResource(mcpserver.Resource{
			URI: "test://static-binary", Name: "static-binary", Description: "A static binary resource (a PNG image)", MIMEType: "image/png",
			Read: fixed(wink.EmbeddedBlob("test://static-binary", "image/png", everything.RedPixelPNG)),
		}),
		mcpserver.WithResource(mcpserver.Resource{
			URI: "test://watched-resource", Name: "watched-resource", Description: "A resource clients subscribe to", MIMEType: "text/plain",
			Read: fixed(wink.EmbeddedResource("test://watched-resource", "text/plain", "Watched resource content.")),
		}),
		mcpserver.WithResourceTemplate(mcpserver.ResourceTemplate{
			URITemplate: "test://template/{id}/data", Name: "template-data", Description: "Data for an id", MIMEType: "application/json",
			Read: func(_ context.Context, uri string, vars map[string]string) (wink.Content, error) {
				id := strings.ReplaceAll(vars["id"], `"`, "")
				return wink.EmbeddedResource(uri, "application/json", `{"id":"`+id+`","templateTest":true,"data":"Data for ID: `+id+`"}`), nil
			},
		}),
	}
}
