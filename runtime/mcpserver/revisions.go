package mcpserver

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// One stateful HTTP server, both revisions.
//
// Revision 2026-07-28 has no initialize handshake and no sessions: every request carries its protocol
// version (the Mcp-Protocol-Version header and _meta) and stands alone. The specification lets a server
// speak several revisions; it does not tie the new one to servers without sessions. The Go SDK does:
// its streamable handler refuses every 2026-07-28 request with -32022 unless
// StreamableHTTPOptions.Stateless is set (a rule in its code, not an option). With WithBothRevisions a
// stateful HTTPHandler serves 2026-07-28 requests with a second, stateless SDK handler of the same
// *mcp.Server: a request
// without Mcp-Session-Id whose Mcp-Protocol-Version names 2026-07-28 or later goes there, everything
// else (initialize, requests of a session, GET and DELETE of a session) to the stateful handler, as
// before. A 2026-07-28 request then gets exactly what a stateless server gives it.

// modernRevision is the first revision served without sessions.
const modernRevision = "2026-07-28"

// WithBothRevisions makes a stateful HTTPHandler serve 2026-07-28 requests too, each on its own as a
// stateless server serves it (no session: a WithSessions factory sees a Stateless client). Without it a
// stateful server refuses them with -32022 and 2026-07-28 clients fall back to 2025-11-25 and a session
// (the Go SDK's client does). It changes nothing on a stateless server, which serves 2026-07-28 anyway.
func WithBothRevisions() Option {
	return func(c *config) { c.bothRevisions = true }
}

// withStatelessRevisions returns stateful when ho is stateless already, else a handler that sends the
// requests of sessionless revisions to a stateless handler of ms.
func withStatelessRevisions(ms *mcp.Server, ho *mcp.StreamableHTTPOptions, stateful http.Handler) http.Handler {
	if ho.Stateless {
		return stateful
	}
	so := *ho
	so.Stateless = true
	so.EventStore = nil // nothing outlives a stateless request
	stateless := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ms }, &so)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if sessionless(r) {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
}

// sessionless reports a request of a revision without sessions: no Mcp-Session-Id, and an
// Mcp-Protocol-Version of 2026-07-28 or later (revisions are dates, so they order as strings).
func sessionless(r *http.Request) bool {
	v := r.Header.Get("Mcp-Protocol-Version")
	return r.Header.Get("Mcp-Session-Id") == "" && len(v) == len(modernRevision) && v >= modernRevision
}
