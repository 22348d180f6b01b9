package mcpserver

import (
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Lifetimes and limits: the design notes.
//
// A server that runs for weeks must give back what each client cost once the client is gone. Over
// stdio the client is the connection, and it ends with it. Over streamable HTTP a client may simply
// stop sending requests without the DELETE that ends its session; the SDK keeps such a session (its
// connection goroutines, its state, and the dispatcher the session factory made, with whatever that
// opened) until StreamableHTTPOptions.SessionTimeout closes it, and that timeout is off unless set.
// HTTPHandler therefore sets it: DefaultSessionTimeout unless the caller chose (WithSessionTimeout, or
// WithHTTPOptions with a non-zero SessionTimeout; a negative one keeps idle sessions for ever, the
// SDK's own default). Thirty minutes outlasts any pause of an interactive client and frees an
// abandoned session's memory within the hour; a client that comes back later gets HTTP 404 for its
// old session id and starts a new session, as the protocol says. Only requests count as activity (the
// SDK's rule): a client that only listens, on its GET stream, for notifications or resource updates,
// pings within the timeout to keep its session. When the SDK closes the session
// (timeout, DELETE, or the end of a stateless request), the client's release function runs (clients.go),
// so a stored session, a watched workspace, anything the factory opened, is closed too.
//
// Requests: the SDK reads an HTTP body through http.MaxBytesReader (StreamableHTTPOptions.
// MaxRequestBodyBytes, 4 MiB by default) and answers a larger one with 413 Request Entity Too Large,
// "request body exceeds N bytes", having read at most the limit; the session goes on. HTTPHandler's
// own check of the message (httpcheck.go) reads the body first, within the same bound and with the
// same answer. Over stdio,
// LineTransport reads a line in chunks and stops keeping it past MaxLineBytes, answering -32600
// "Invalid Request: the line is longer than N bytes". ServeStdio uses the same 4 MiB as HTTP
// (DefaultMaxRequestBytes; LineTransport used on its own keeps its 16 MiB default, the SDK's stdio
// limit), and WithMaxRequestBytes sets both. A tool's arguments are limited again, to 1 MiB by
// default, by the strict decoder (wink.Dispatcher.Limits).

// DefaultSessionTimeout is how long HTTPHandler keeps a streamable HTTP session that receives no
// request (StreamableHTTPOptions.SessionTimeout) unless WithSessionTimeout or WithHTTPOptions says
// otherwise. When it is closed, the client's release function (WithSessions) runs.
const DefaultSessionTimeout = 30 * time.Minute

// DefaultMaxRequestBytes is the largest JSON-RPC message HTTPHandler (an HTTP request body) and
// ServeStdio (a line) accept unless WithMaxRequestBytes says otherwise: the SDK's HTTP default,
// 4 MiB. A larger body is answered with HTTP 413 and a larger line with a -32600 Invalid Request
// error, after reading at most the limit; the session goes on.
const DefaultMaxRequestBytes = mcp.DefaultMaxRequestBodyBytes

// lifetime holds the options of this file; zero values mean the defaults.
type lifetime struct {
	sessionTimeout time.Duration
	maxRequest     int64
}

// WithSessionTimeout sets how long HTTPHandler keeps an idle streamable HTTP session (one receiving
// no request) before closing it and releasing its client: DefaultSessionTimeout when not given; a
// negative d keeps idle sessions until the client deletes them. It overrides the SessionTimeout of
// WithHTTPOptions. An open GET stream is not activity: a client that only listens pings to stay.
func WithSessionTimeout(d time.Duration) Option {
	return func(c *config) { c.lifetime.sessionTimeout = d }
}

// WithMaxRequestBytes sets the largest JSON-RPC message accepted: an HTTP request body (HTTPHandler)
// or a line (ServeStdio); DefaultMaxRequestBytes when not given. n < 0 removes the limit (do not,
// on a server open to untrusted clients). It overrides the MaxRequestBodyBytes of WithHTTPOptions.
func WithMaxRequestBytes(n int64) Option {
	return func(c *config) { c.lifetime.maxRequest = n }
}

// httpOptions returns the streamable HTTP options HTTPHandler uses: WithHTTPOptions's, with the
// session timeout and request limit of this file applied.
func (c *config) httpOptions() *mcp.StreamableHTTPOptions {
	var o mcp.StreamableHTTPOptions
	if c.httpOpts != nil {
		o = *c.httpOpts
	}
	switch {
	case c.lifetime.sessionTimeout != 0:
		o.SessionTimeout = c.lifetime.sessionTimeout // negative: the SDK never closes idle sessions
	case o.SessionTimeout == 0:
		o.SessionTimeout = DefaultSessionTimeout
	}
	if c.lifetime.maxRequest != 0 {
		o.MaxRequestBodyBytes = c.lifetime.maxRequest // negative: no limit (the SDK's convention)
	}
	return &o
}

// maxLineBytes returns the line limit ServeStdio gives LineTransport.
func (c *config) maxLineBytes() int {
	switch n := c.lifetime.maxRequest; {
	case n > 0:
		return int(min(n, 1<<62))
	case n < 0:
		return 1 << 62 // no limit: larger than any line
	}
	return DefaultMaxRequestBytes
}
