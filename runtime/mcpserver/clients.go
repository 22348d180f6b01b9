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
	// Task is set when a worker took over a task (WithTasks) whose worker
	// died: the id of the task to run. SessionID is then the MCP session
	// id of the client that created the task ("" for a stateless one),
	// Principal who the task acts for, and Header and TokenInfo are nil.
	// The factory returns the dispatcher of that client's session (opened
	// from the session store it keeps sessions in); release is called when
	// the task's run ends. The worker that creates a task runs it on the
	// dispatcher of the client's session, which is not released before the
	// task's run ends.
	Task string
	// Principal is who the task acts for when Task is set; nil otherwise.
	Principal *wink.Principal
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
	// users counts the runs of tasks on disp; ended is set when the MCP
	// session ended. release runs once ended is set and users is 0.
	users int
	ended bool
}

// errOtherRegistry is returned when a factory's dispatcher has a registry
// other than the server's.
var errOtherRegistry = errors.New("the session factory returned a dispatcher with another Registry than the one the server lists; leave Registry nil or use the same registry")

// dispatcher returns the dispatcher of the client req comes from, making it
// on its first call.
func (cs *clients) dispatcher(ctx context.Context, req *mcp.CallToolRequest) (*wink.Dispatcher, error) {
	d, _, err := cs.client(ctx, req)
	return d, err
}

// forTask returns the dispatcher of the client req comes from for the run of a task it created, and
// the function to call when the run ends: the client's dispatcher is released only after it.
func (cs *clients) forTask(ctx context.Context, req *mcp.CallToolRequest) (*wink.Dispatcher, func(), error) {
	d, c, err := cs.client(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	cs.mu.Lock()
	if c.ended {
		cs.mu.Unlock()
		return nil, nil, errors.New("the client's session ended before its task started")
	}
	c.users++
	cs.mu.Unlock()
	var once sync.Once
	return d, func() {
		once.Do(func() {
			cs.mu.Lock()
			c.users--
			last := c.users == 0 && c.ended
			cs.mu.Unlock()
			if last && c.release != nil {
				c.release()
			}
		})
	}, nil
}

// takeOver asks the factory for the dispatcher of a task taken over from a worker that died.
func (cs *clients) takeOver(ctx context.Context, info Client) (*wink.Dispatcher, func(), error) {
	c := &client{}
	if err := cs.open(ctx, c, info); err != nil {
		return nil, nil, err
	}
	release := c.release
	if release == nil {
		release = func() {}
	}
	return &c.disp, release, nil
}

// client returns the dispatcher of the client req comes from, and the client, making it on its first
// call.
func (cs *clients) client(ctx context.Context, req *mcp.CallToolRequest) (*wink.Dispatcher, *client, error) {
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
			return nil, nil, ctx.Err()
		}
		if c.err != nil {
			return nil, nil, c.err
		}
		return &c.disp, c, nil
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
		return nil, nil, c.err
	}
	close(c.ready)
	if ss != nil {
		go func() {
			ss.Wait()
			cs.mu.Lock()
			delete(cs.m, ss)
			c.ended = true
			last := c.users == 0
			cs.mu.Unlock()
			if last && c.release != nil {
				c.release() // else the last task's run releases it
			}
		}()
	}
	return &c.disp, c, nil
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
