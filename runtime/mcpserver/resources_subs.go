package mcpserver

import (
	"context"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Subscriptions: the design notes.
//
// What one client's resources/subscribe creates is counted for that client's MCP session and for the
// server, bounded, and given back when the session ends (DESIGN.md, "Trust at the boundaries"):
//   - Keys: a workspace URI is canonicalized first (workspace.canonical; the middleware hands the SDK
//     the canonical URI too, so its own record and its notifications use the same key); any other URI is
//     kept as spelled, since only the application knows its equivalences.
//   - Per session: a session's set of URIs. Subscribing again to a URI it holds changes nothing;
//     unsubscribing touches only its own set (the SDK's record is per session as well), so one client
//     can never end another's subscription. A workspace file is watched while any session holds it.
//   - Bounds: DefaultMaxSubscriptionsPerSession and DefaultMaxSubscriptions (WithSubscriptionLimits);
//     over either, resources/subscribe fails with an invalid-params error saying which bound and how to
//     get under it, and nothing is recorded.
//   - Release: on a session's first subscription a goroutine waits for the session to end
//     (ServerSession.Wait: the client closed it, it timed out, the connection ended) and drops its set,
//     unwatching what no other session holds. The SDK drops its own record of the session then.
//   - Stateless HTTP requests (before 2026-07-28) have no session to hold a subscription or a stream to
//     notify it on: resources/subscribe is refused with a text saying so. On 2026-07-28,
//     subscriptions/listen holds its subscriptions for as long as its request stays open and is counted
//     the same way.

// DefaultMaxSubscriptionsPerSession is how many resources one MCP session may be subscribed to at once
// unless WithSubscriptionLimits says otherwise.
const DefaultMaxSubscriptionsPerSession = 256

// DefaultMaxSubscriptions is how many subscriptions all the sessions of a server may hold together
// unless WithSubscriptionLimits says otherwise.
const DefaultMaxSubscriptions = 4096

// WithSubscriptionLimits bounds resources/subscribe: perSession subscriptions for one MCP session and
// perServer for all sessions together (DefaultMaxSubscriptionsPerSession and DefaultMaxSubscriptions
// when not given; a value <= 0 keeps the default). A subscription over either bound is refused with an
// error; a session's subscriptions are released when it ends.
func WithSubscriptionLimits(perSession, perServer int) Option {
	return func(c *config) {
		x := c.extras()
		if perSession > 0 {
			x.subs.perSession = perSession
		}
		if perServer > 0 {
			x.subs.perServer = perServer
		}
	}
}

// subscriptions are the resources each session is subscribed to.
type subscriptions struct {
	perSession, perServer int // 0: the defaults

	mu    sync.Mutex
	by    map[*mcp.ServerSession]map[string]bool
	total int
}

// limits returns the bounds in force.
func (s *subscriptions) limits() (perSession, perServer int) {
	perSession, perServer = s.perSession, s.perServer
	if perSession <= 0 {
		perSession = DefaultMaxSubscriptionsPerSession
	}
	if perServer <= 0 {
		perServer = DefaultMaxSubscriptions
	}
	return perSession, perServer
}

// add records uri for ss: added false when ss held it already, first true for ss's first subscription;
// an error when a bound refuses it.
func (s *subscriptions) add(ss *mcp.ServerSession, uri string) (added, first bool, err error) {
	perSession, perServer := s.limits()
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.by[ss]
	if set[uri] {
		return false, false, nil
	}
	if len(set) >= perSession {
		return false, false, invalidParams("resources/subscribe " + strconv.Quote(uri) + ": this session already holds " +
			strconv.Itoa(len(set)) + " subscriptions, the most one session may hold; unsubscribe from one it no longer needs (resources/unsubscribe) first")
	}
	if s.total >= perServer {
		return false, false, invalidParams("resources/subscribe " + strconv.Quote(uri) + ": the server already holds " +
			strconv.Itoa(s.total) + " subscriptions for all its clients, the most it keeps; unsubscribe from one this session no longer needs, or try again later")
	}
	if set == nil {
		if s.by == nil {
			s.by = map[*mcp.ServerSession]map[string]bool{}
		}
		set = map[string]bool{}
		s.by[ss] = set
		first = true
	}
	set[uri] = true
	s.total++
	return true, first, nil
}

// remove drops uri from ss's subscriptions, reporting whether ss held it.
func (s *subscriptions) remove(ss *mcp.ServerSession, uri string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.by[ss]
	if !set[uri] {
		return false
	}
	delete(set, uri)
	s.total--
	return true // the empty set stays until the session ends: one waiter per session, however often it re-subscribes
}

// drop removes every subscription of ss and returns their URIs.
func (s *subscriptions) drop(ss *mcp.ServerSession) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.by[ss]
	delete(s.by, ss)
	s.total -= len(set)
	out := make([]string, 0, len(set))
	for u := range set {
		out = append(out, u)
	}
	return out
}

// count returns the number of subscriptions held by all sessions.
func (s *subscriptions) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// errStatelessSubscribe refuses resources/subscribe on a stateless request.
var errStatelessSubscribe = invalidParams("resources/subscribe needs an MCP session: this request is stateless (no Mcp-Session-Id), " +
	"so the subscription would end with the request and there is no stream to send notifications/resources/updated on; " +
	"connect to a server with sessions, or on protocol 2026-07-28 use subscriptions/listen")

// subscribe records a subscription of the requesting session (see the notes above); a workspace file
// starts being watched. Other URIs are recorded too: the application may call the server's
// ResourceUpdated itself.
func (x *extras) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	if req.Params == nil || req.Params.URI == "" {
		return invalidParams("resources/subscribe needs params.uri, the URI of the resource to watch")
	}
	ss := req.Session
	if ss == nil || (req.Extra != nil && req.Extra.Header != nil && ss.ID() == "") {
		return errStatelessSubscribe
	}
	uri, p, ours, ok := x.workspace.canonical(req.Params.URI)
	if ours && !ok {
		return invalidParams("resources/subscribe " + strconv.Quote(req.Params.URI) + ": names no file inside the workspace (the path must stay below its root); list the files with resources/list")
	}
	var base watchState
	if ours {
		base = x.workspace.look(p) // on the subscriber's own request, outside every lock
	}
	added, first, err := x.subs.add(ss, uri)
	if err != nil || !added {
		return err
	}
	if first {
		go func() {
			ss.Wait()
			for _, u := range x.subs.drop(ss) {
				x.workspace.unwatch(u)
			}
		}()
	}
	if ours {
		x.workspace.watch(uri, p, base)
	}
	return nil
}

// unsubscribe drops the requesting session's subscription, and stops watching a workspace file no
// session holds any more. Other sessions' subscriptions are never touched.
func (x *extras) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	if req.Params == nil || req.Session == nil {
		return nil
	}
	uri, _, ours, _ := x.workspace.canonical(req.Params.URI)
	if x.subs.remove(req.Session, uri) && ours {
		x.workspace.unwatch(uri)
	}
	return nil
}
