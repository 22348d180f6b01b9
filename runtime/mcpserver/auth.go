package mcpserver

import (
	"context"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/wink"
)

// WithAuth makes HTTPHandler an OAuth 2.1 resource server (package auth):
// Protected Resource Metadata at its well-known path (scopes_supported
// holding cfg.Scopes and every scope a tool declares), 401 for a request
// without a valid token, 403 with the step-up challenge for a tools/call of
// a tool whose //wink:tool scopes the token lacks, and the token's
// principal in the context of every call (wink.PrincipalFrom,
// ToolContext.Principal), where the dispatcher checks each tool's scopes
// again before decoding its arguments. Prompts, resources and resource
// templates declaring Scopes are listed, got and read likewise
// (auth_items.go). HTTPHandler fails when cfg is
// invalid. Serve the handler at the root of the resource's origin so that
// clients find the metadata (or mount auth.Server.MetadataHandler there).
//
// New and ServeStdio ignore it: a stdio client is the local user, and its
// calls carry no principal, so no scope is checked.
func WithAuth(cfg auth.Config) Option {
	return func(c *config) { c.auth = &cfg }
}

// withAuth puts h behind the resource server c.auth configures, if any.
func withAuth(h http.Handler, c *config, d *wink.Dispatcher) (http.Handler, error) {
	if c.auth == nil {
		return h, nil
	}
	srv, err := auth.New(*c.auth)
	if err != nil {
		return nil, err
	}
	scopes := map[string][]string{}
	var all []string
	if d.Registry != nil {
		for _, t := range d.Registry.Tools() {
			sp := t.Spec()
			scopes[sp.Name] = sp.Scopes
			all = append(all, sp.Scopes...)
		}
	}
	items, err := itemScopesOf(c.ext)
	if err != nil {
		return nil, err
	}
	if items != nil {
		all = append(all, items.all...)
	}
	if srv, err = srv.WithScopes(all); err != nil {
		return nil, err
	}
	return srv.Handler(h, func(method, name string) ([]string, bool) {
		if method == "tools/call" {
			sc, ok := scopes[name]
			return sc, ok
		}
		return items.of(method, name)
	}), nil
}

// withPrincipal puts the principal of the request's verified token (WithAuth,
// or the SDK's auth.RequireBearerToken wrapped around the handler) into ctx.
func withPrincipal(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	if req == nil || req.Extra == nil || req.Extra.TokenInfo == nil {
		return ctx
	}
	return auth.NewContext(ctx, req.Extra.TokenInfo) // the principal, and what an auth.Exchanger needs

}

// listByScopes is the receiving middleware that shows each caller of tools/list only the tools its
// principal may call (every scope the tool declares granted; a tool declaring none is shown to everyone),
// and marks such a list private (cacheScope "private", 2026-07-28) so that no one else's client or an
// intermediary serves it. A request without a principal (stdio, a server without WithAuth) gets the whole
// list, as before. A page the SDK cut may come out shorter; its cursor still leads to the next.
//
// With auth.Config.HideTools, a tools/call of a tool the principal may not call is answered exactly as
// the SDK answers a name it does not know (a JSON-RPC invalid-params error `unknown tool "x"`), so that a
// caller cannot tell a hidden tool from a missing one.
func (s *server) listByScopes(cfg *auth.Config) mcp.Middleware {
	hide := cfg != nil && cfg.HideTools
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if s.disp.Registry == nil || req == nil || req.GetExtra() == nil || req.GetExtra().TokenInfo == nil ||
				(method != "tools/list" && (method != "tools/call" || !hide)) {
				return next(ctx, method, req)
			}
			p := auth.PrincipalOf(req.GetExtra().TokenInfo)
			if method == "tools/call" {
				if cp, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && cp != nil && !s.permits(p, cp.Name) {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown tool " + strconv.Quote(cp.Name)}
				}
				return next(ctx, method, req)
			}
			res, err := next(ctx, method, req)
			lr, ok := res.(*mcp.ListToolsResult)
			if !ok || err != nil {
				return res, err
			}
			out := *lr
			out.Tools = make([]*mcp.Tool, 0, len(lr.Tools))
			for _, t := range lr.Tools {
				if s.permits(p, t.Name) {
					out.Tools = append(out.Tools, t)
				}
			}
			out.CacheScope = "private"
			return &out, nil
		}
	}
}

// permits reports whether p holds every scope the tool name declares (true for a name the registry lacks,
// which the SDK answers as unknown anyway).
func (s *server) permits(p *wink.Principal, name string) bool {
	t, ok := s.disp.Registry.Lookup(name)
	return !ok || len(p.Missing(t.Spec().Scopes)) == 0
}
