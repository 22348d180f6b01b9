package mcpserver

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/wink"
)

// FingerprintMeta is the _meta key under which the server publishes the fingerprint of its tool
// definitions (wink.Fingerprint): in the initialize result (server/discover's on 2026-07-28) and in
// every tools/list result.
//
// Where, and why there: the initialize result is what every client reads, once per session and before
// it sees any tool, so a host can compare it with the fingerprint it pinned before the model is shown
// anything; tools/list carries it too because that is the list a host approved, and a client that
// lists again (after notifications/tools/list_changed) checks it there. It is not in the RFC 9728
// Protected Resource Metadata: that document is public, unauthenticated and cached for an hour, and
// describes how to get a token, not what the server serves; a per-caller value cannot go there.
//
// Per caller: with WithAuth the list a caller sees is the tools its token permits, and the fingerprint
// is of that list (wink.Fingerprint(wink.Permitted(ctx, tools))), so it changes when a definition
// changes or when the caller's scopes let it see other tools. A host pins the fingerprint for the
// scopes it asks for; without a principal (stdio, no WithAuth) it is the fingerprint of every tool,
// which wink.Fingerprint(registry.Tools()) computes offline.
//
// What it covers is every tool the server can serve, not only the ones tools/list shows: with
// WithToolSearch, the deferred tools (left out of tools/list but callable by name, and shown to the model
// by the search tool) and the search tool itself (SearchTool); offline that is
// wink.Fingerprint(append(registry.Tools(), mcpserver.SearchTool())). A deferred tool whose definition
// changes after a host approved the server therefore changes the fingerprint, although no list shows it.
const FingerprintMeta = "com.github.winkgen/tools-fingerprint"

// maxFingerprints bounds the per-caller fingerprints a server keeps (one per distinct permitted set).
const maxFingerprints = 256

// fingerprints computes and caches the fingerprints of the permitted sets of a server's tools.
type fingerprints struct {
	tools []*wink.Tool // the registry's, deferred ones included
	extra []*wink.Tool // tools the server adds (the search tool), which every caller may call
	cache sync.Map     // permitted names joined by NUL -> fingerprint
	n     atomic.Int64
}

func (f *fingerprints) of(ctx context.Context) string {
	ts := wink.Permitted(ctx, f.tools)
	if len(f.extra) > 0 {
		ts = slices.Concat(ts, f.extra) // a copy: Permitted may return f.tools itself
	}
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.Name())
		b.WriteByte(0)
	}
	key := b.String()
	if v, ok := f.cache.Load(key); ok {
		return v.(string)
	}
	fp := wink.Fingerprint(ts)
	if f.n.Load() < maxFingerprints {
		if _, loaded := f.cache.LoadOrStore(key, fp); !loaded {
			f.n.Add(1)
		}
	}
	return fp
}

// withFingerprint is the receiving middleware that puts the caller's fingerprint into the _meta of
// initialize and tools/list results: of tools, and of extra, which every caller may call.
func withFingerprint(tools, extra []*wink.Tool) mcp.Middleware {
	f := &fingerprints{tools: tools, extra: extra}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "initialize" && method != "server/discover" && method != "tools/list" {
				return next(ctx, method, req)
			}
			res, err := next(ctx, method, req)
			if err != nil || res == nil {
				return res, err
			}
			if req != nil && req.GetExtra() != nil && req.GetExtra().TokenInfo != nil {
				ctx = wink.WithPrincipal(ctx, auth.PrincipalOf(req.GetExtra().TokenInfo))
			} else {
				ctx = context.Background() // a principal only from the request's token
			}
			fp := f.of(ctx)
			switch r := res.(type) {
			case *mcp.InitializeResult:
				out := *r
				out.Meta = withMeta(r.Meta, fp)
				return &out, nil
			case *mcp.DiscoverResult:
				out := *r
				out.Meta = withMeta(r.Meta, fp)
				return &out, nil
			case *mcp.ListToolsResult:
				out := *r
				out.Meta = withMeta(r.Meta, fp)
				return &out, nil
			}
			return res, err
		}
	}
}

func withMeta(m mcp.Meta, fp string) mcp.Meta {
	out := make(mcp.Meta, len(m)+1)
	maps.Copy(out, m)
	out[FingerprintMeta] = fp
	return out
}
