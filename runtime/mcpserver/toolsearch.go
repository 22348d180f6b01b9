package mcpserver

import (
	"context"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// WithToolSearch serves tool search over MCP, which has no progressive discovery of its own: tools/list
// leaves out the deferred tools (//wink:tool defer) and lists a tool named toolsearch.Name instead
// ({"query": text, "limit": n}, toolsearch.ParamsSchema), which searches the catalogs (each package's
// generated WinkCatalog) for deferred tools the caller may call (its token's scopes) and answers with
// each found tool's name, description and inputSchema, as text and as structuredContent
// {"tools":[{"name":N,"description":D,"inputSchema":S},...]}. Deferred tools stay callable by name with
// tools/call. A registry tool named toolsearch.Name is an error.
func WithToolSearch(cats ...*toolsearch.Catalog) Option {
	return func(c *config) { c.search = cats }
}

// installSearch adds the search tool and hides the deferred tools from tools/list, when cats is set.
func (s *server) installSearch(ms *mcp.Server, cats []*toolsearch.Catalog) error {
	if cats == nil || s.disp.Registry == nil {
		return nil
	}
	if _, clash := s.disp.Registry.Lookup(toolsearch.Name); clash {
		return errors.New("mcpserver: a tool is named " + toolsearch.Name + ", the name of WithToolSearch's tool; rename it")
	}
	deferred := map[string]bool{}
	for _, t := range s.disp.Registry.Tools() {
		if t.Spec().Deferred {
			deferred[t.Name()] = true
		}
	}
	ms.AddTool(&mcp.Tool{Name: toolsearch.Name, Description: toolsearch.Description, InputSchema: rawJSON(toolsearch.ParamsSchema)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args []byte
			if req.Params != nil {
				args = req.Params.Arguments
			}
			q, err := toolsearch.ParseQuery(args)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			var p *wink.Principal
			if ex := req.GetExtra(); ex != nil && ex.TokenInfo != nil {
				p = auth.PrincipalOf(ex.TokenInfo)
			}
			hits := toolsearch.Search(cats, q.Text, q.Limit, func(n string) bool {
				return deferred[n] && (p == nil || s.permits(p, n))
			})
			return searchResult(s.disp.Registry, q.Text, hits), nil
		})
	ms.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			lr, ok := res.(*mcp.ListToolsResult)
			if method != "tools/list" || !ok || err != nil {
				return res, err
			}
			out := *lr
			out.Tools = make([]*mcp.Tool, 0, len(lr.Tools))
			var search *mcp.Tool
			for _, t := range lr.Tools {
				switch {
				case t.Name == toolsearch.Name:
					search = t
				case !deferred[t.Name]:
					out.Tools = append(out.Tools, t)
				}
			}
			if search != nil { // last, after the registry's tools in their order
				out.Tools = append(out.Tools, search)
			}
			return &out, nil
		}
	})
	return nil
}

// searchResult is the search tool's answer: the hits in words, then their definitions.
func searchResult(reg *wink.Registry, query string, hits []toolsearch.Hit) *mcp.CallToolResult {
	b := []byte(`{"tools":[`)
	n := 0
	for _, h := range hits {
		t, ok := reg.Lookup(h.Name)
		if !ok {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, `{"name":`...)
		b = strictjson.AppendString(b, t.Name())
		b = append(b, `,"description":`...)
		b = strictjson.AppendString(b, t.Description())
		b = append(b, `,"inputSchema":`...)
		b = append(b, t.Spec().ParamsSchema...)
		b = append(b, '}')
	}
	b = append(b, "]}"...)
	text := toolsearch.Text(query, hits)
	if len(hits) > 0 {
		text = strings.Replace(text, "they are loaded and can be called from now on", "call them by name", 1)
		text = strings.Replace(text, "it is loaded and can be called from now on", "call it by name", 1)
		text += "\n" + string(b)
	}
	return &mcp.CallToolResult{Content: textContent(text), StructuredContent: rawJSON(b)}
}

// SearchTool returns the definition of the search tool WithToolSearch serves (toolsearch.Name), as a
// tool whose fingerprint is part of the server's (FingerprintMeta): a host computes offline the
// fingerprint a server with tool search publishes as wink.Fingerprint(append(reg.Tools(),
// mcpserver.SearchTool())). It is a definition only: a dispatcher calling it gets an error; the server
// answers the search itself.
func SearchTool() *wink.Tool { return searchTool }

var searchTool = wink.NewTool(wink.Spec{
	Name: toolsearch.Name, Description: toolsearch.Description, ParamsSchema: []byte(toolsearch.ParamsSchema),
}, &searchFuncs)

var searchFuncs = wink.Funcs[searchDef, searchDef]{
	Decode:       func(d *strictjson.Decoder, _ *searchDef) { d.Skip() },
	EncodeResult: func(b []byte, _ *searchDef) []byte { return append(b, "null"...) },
	Handler: func(*wink.ToolContext, searchDef) (wink.ToolResult[searchDef], error) {
		return wink.ToolResult[searchDef]{}, errors.New("mcpserver: " + toolsearch.Name + " is answered by the MCP server (WithToolSearch), not by a dispatcher")
	},
}

type searchDef struct{}
