// Package mcpbench measures winkgen's MCP server (runtime/mcpserver) side by side with the official Go
// SDK's own server (mcp.AddTool) on the same three tools of example/tools: search_docs, compute_stats
// and get_status. Each server runs in a process of its own (the test binary, re-executed), so that its
// CPU time and live heap are its own; the clients are the SDK's, in the benchmark's process, over
// loopback HTTP. `make bench-mcp` runs the benchmarks (scripts/bench-mcp.sh).
package mcpbench

import (
	"context"
	"errors"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// Implementations, as named in the benchmarks (impl=...).
const (
	Wink = "wink" // runtime/mcpserver with a session per client (WithSessions)
	SDK  = "sdk"  // the SDK's mcp.AddTool server
)

// benchTools are the three tools both servers serve.
func benchTools() []*wink.Tool {
	return []*wink.Tool{tools.WinkSearchDocs, tools.WinkComputeStats, tools.WinkGetStatus}
}

// WinkHandler is winkgen's server of the three tools over streamable HTTP: every client gets its own
// dispatcher and session (mcpserver.WithSessions), as a server keeping per-client state does, so
// every call is recorded in the session's logs (within their bound).
func WinkHandler(stateless bool) (http.Handler, error) {
	reg, err := wink.NewRegistry(benchTools())
	if err != nil {
		return nil, err
	}
	template := &wink.Dispatcher{Registry: reg}
	return mcpserver.HTTPHandler(template,
		mcpserver.WithSessions(func(context.Context, mcpserver.Client) (*wink.Dispatcher, func(), error) {
			d := *template
			d.Session = session.New()
			return &d, nil, nil
		}),
		mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: stateless}))
}

// SDKHandler is the same three tools written as the SDK documents it: mcp.AddTool with the params and
// result types (schemas inferred by reflection, arguments validated and decoded by the SDK), each
// handler calling the same Go function and applying the defaults the SDK does not.
func SDKHandler(stateless bool) http.Handler {
	s := mcp.NewServer(&mcp.Implementation{Name: "sdk", Version: "dev"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "search_docs", Description: tools.WinkSearchDocs.Spec().Description},
		func(ctx context.Context, _ *mcp.CallToolRequest, p tools.SearchParams) (*mcp.CallToolResult, tools.SearchResult, error) {
			if p.Limit == 0 {
				p.Limit = 10
			}
			if p.Mode == "" {
				p.Mode = tools.ModeFuzzy
			}
			return value(tools.SearchDocs(nil, p))
		})
	mcp.AddTool(s, &mcp.Tool{Name: "compute_stats", Description: tools.WinkComputeStats.Spec().Description},
		func(ctx context.Context, _ *mcp.CallToolRequest, p tools.StatsParams) (*mcp.CallToolResult, tools.Stats, error) {
			if p.Precision == 0 {
				p.Precision = 0.01
			}
			return value(tools.ComputeStats(nil, p))
		})
	mcp.AddTool(s, &mcp.Tool{Name: "get_status", Description: tools.WinkGetStatus.Spec().Description},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, tools.Status, error) {
			return value(tools.GetStatus(nil))
		})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
}

// value turns a wink result into the SDK handler's return values.
func value[R any](res wink.ToolResult[R], err error) (*mcp.CallToolResult, R, error) {
	if err == nil && !res.Success {
		err = errors.New(res.Message)
	}
	return nil, res.Value, err
}

// Calls are the arguments of the calls the benchmarks make, in turn. Every field the SDK's inferred
// schema requires (a field without omitempty) is given, so that both servers accept every call.
var Calls = []struct {
	Name, Args string
}{
	{"search_docs", `{"query":"docs","limit":2,"filters":{"path_prefix":"/docs","max_size":1000},"mode":"fuzzy"}`},
	{"compute_stats", `{"samples":[1,2,3.5,4.25,5]}`},
	{"get_status", `{}`},
}
