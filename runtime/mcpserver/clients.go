package mcpserver

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/wink"
)

// Client describes the MCP client a session factory (WithSessions) makes a
// session for. One Client is one MCP session of the SDK: the connection of a
// stdio server, one Mcp-Session-Id of the streamable HTTP transport, or one
// request of a stateless HTTP server.
type Client struct {
	// SessionID is the MCP session id (the Mcp-Session-Id header) of a
	// streamable HTTP session; "" over stdio and for stateless requests.
	SessionID string
	// Stateless reports a client that lives for one HTTP request: a
	// stateless server (StreamableHTTPOptions.Stateless), or a server that
	// hands out no session ids. Such a client gets a fresh session unless
	// the factory maps the request to a stored one (by a header, say).
	Stateless bool
	// Header is the header of the HTTP request carrying the client's first
	// tools/call (every call, for a stateless client); nil over stdio. It
	// must not be modified.
	Header http.Header
	// TokenInfo is the bearer token's information when the HTTP handler is
	// wrapped in the SDK's auth middleware; nil otherwise.
	TokenInfo *auth.TokenInfo
}

// SessionFunc makes the dispatcher that serves one client's calls: usually
// a copy of a template Dispatcher whose Session (and Filesystem, Resources)
// belong to that client, fresh or opened from a session store. release, if
// not nil, is called once when the client's MCP session ends, after its last
// call. The dispatcher's Registry must be nil (the one New was given is
// used) or that same registry; its Events sink, if any, receives the
// client's events.
//
// An error fails the call as a JSON-RPC internal error (the client's next
// call asks again). The factory is called at most once at a time per client.
type SessionFunc func(ctx context.Context, c Client) (d *wink.Dispatcher, release func(), err error)

// WithSessions gives every client its own dispatcher, made by f when the
// client's first tools/call arrives and released when its MCP session ends.
// Two clients share state only when f gives them the same session.
func WithSessions(f SessionFunc) Option {
	return func(c *config) { c.sessions = f }
}

// clients holds the dispatchers of the clients of one server, by SDK
// session.
type clients struct {
	s    *server
	make SessionFunc
	mu   sync.Mutex
	m    map[*mcp.ServerSession]*client
}

// client is one client's dispatcher, ready once ready is closed (then err
// or disp is set).
type client struct {
	ready   chan struct{}
	disp    wink.Dispatcher
	release func()
	err     error
}

// errOtherRegistry is returned when a factory's dispatcher has a registry
// other than the server's.
var errOtherRegistry = errors.New("the session factory returned a dispatcher with another Registry than the one the server lists; leave Registry nil or use the same registry")

// dispatcher returns the dispatcher of the client req comes from, making it
// on its first call.
func (cs *clients) dispatcher(ctx context.Context, req *mcp.CallToolRequest) (*wink.Dispatcher, error) {
	var ss *mcp.ServerSession
	var extra *mcp.RequestExtra
	if req != nil {
		ss, extra = req.Session, req.Extra
	}
	cs.mu.Lock()
	c, ok := cs.m[ss]
	if !ok {
		c = &client{ready: make(chan struct{})}
		if cs.m == nil {
			cs.m = make(map[*mcp.ServerSession]*client)
		}
		cs.m[ss] = c
	}
	cs.mu.Unlock()
	if ok {
		select {
		case <-c.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if c.err != nil {
			return nil, c.err
		}
		return &c.disp, nil
	}

	info := Client{}
	if ss != nil {
		info.SessionID = ss.ID()
	}
	if extra != nil {
		info.Header, info.TokenInfo = extra.Header, extra.TokenInfo
		info.Stateless = extra.Header != nil && info.SessionID == ""
	}
	c.err = cs.open(ctx, c, info)
	if c.err != nil {
		cs.mu.Lock()
		delete(cs.m, ss) // the next call asks the factory again
		cs.mu.Unlock()
		close(c.ready)
		return nil, c.err
	}
	close(c.ready)
	if ss != nil {
		go func() {
			ss.Wait()
			cs.mu.Lock()
			delete(cs.m, ss)
			cs.mu.Unlock()
			if c.release != nil {
				c.release()
			}
		}()
	}
	return &c.disp, nil
}

// open calls the factory for info and sets up c's dispatcher.
func (cs *clients) open(ctx context.Context, c *client, info Client) (err error) {
	defer func() {
		if pv := recover(); pv != nil {
			err = errors.New("the session factory panicked: " + wink.PanicText(pv))
		}
	}()
	d, release, err := cs.make(ctx, info)
	if err != nil {
		if release != nil {
			release()
		}
		return err
	}
	if d == nil {
		if release != nil {
			release()
		}
		return errors.New("the session factory returned no dispatcher")
	}
	if d.Registry != nil && d.Registry != cs.s.disp.Registry {
		if release != nil {
			release()
		}
		return errOtherRegistry
	}
	c.disp, c.release = *d, release
	c.disp.Registry = cs.s.disp.Registry
	c.disp.Events = cs.s.eventSink(d.Events)
	if cs.s.disp.RateLimit != nil && c.disp.RateLimit == nil {
		c.disp.RateLimit = cs.s.disp.RateLimit // WithRateLimit (ratelimit.go)
	}
	return nil
}
