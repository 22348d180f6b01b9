package mcpserver

import (
	"context"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/wink"
)

// Completions and subscriptions of scoped prompts and resources (auth_items.go): a caller learns nothing
// through them that it may not read.
//
// DESIGN-notes:
//   - completion/complete of a prompt's argument needs the prompt's scopes, of a template's variable the
//     template's: its suggestions show what the prompt or the resources are about.
//   - resources/subscribe, and each URI of subscriptions/listen, needs what resources/read of the URI
//     needs: a notifications/resources/updated tells that the resource exists and when it changes.
//   - Hidden (auth.Config.HideTools): the server records a subscription to any URI (an application may
//     call ResourceUpdated for it), so refusing one would tell a hidden resource from an unknown one. The
//     subscription is made as any other, and its (session, URI) is muted: a sending middleware drops
//     the session's notifications/resources/updated for it. A later subscription of the same session
//     to that URI with a token permitting it unmutes it; the session's mutes end with it.

// completion refuses completion/complete of a reference p may not use (nil: allowed).
func (s *itemScopes) completion(p *wink.Principal, ref *mcp.CompleteReference, hide bool) error {
	var need []string
	var what, unknown string
	switch ref.Type {
	case "ref/prompt":
		need = s.prompts[ref.Name]
		what, unknown = "prompt "+strconv.Quote(ref.Name), "completion: no prompt named "+strconv.Quote(ref.Name)
	case "ref/resource":
		need, _ = s.of("completion/complete", ref.URI)
		what, unknown = "resource template "+strconv.Quote(ref.URI), "completion: no resource template "+strconv.Quote(ref.URI)
	default:
		return nil
	}
	miss := p.Missing(need)
	if len(miss) == 0 {
		return nil
	}
	if hide { // the words completion.go answers a reference it does not know with
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: unknown}
	}
	return scopeRefusal("the arguments of "+what+" were not completed", need, miss)
}

// subscription refuses resources/subscribe or subscriptions/listen of a resource p may not read, or,
// hiding, mutes it (nil: go on).
func (s *itemScopes) subscription(p *wink.Principal, req mcp.Request, hide bool) error {
	var uris []string
	switch params := req.GetParams().(type) {
	case *mcp.SubscribeParams:
		if params != nil {
			uris = []string{params.URI}
		}
	case *mcp.SubscriptionsListenParams:
		if params != nil && params.Notifications != nil {
			uris = params.Notifications.ResourceSubscriptions
		}
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	var refused, need, miss []string
	for _, u := range uris {
		n, _ := s.of("resources/subscribe", u)
		m := p.Missing(n)
		canon, _, _, _ := s.ws.canonical(u) // the key notifications name it by
		switch {
		case len(m) == 0:
			s.muted.set(ss, canon, false)
		case hide:
			s.muted.set(ss, canon, true)
		default:
			refused = append(refused, strconv.Quote(u))
			need, miss = withScopes(need, n), withScopes(miss, m)
		}
	}
	if len(refused) > 0 {
		return scopeRefusal("no subscription was made to resource "+strings.Join(refused, ", "), need, miss)
	}
	return nil
}

// dropMuted is the sending middleware that drops notifications/resources/updated of a muted
// subscription.
func (s *itemScopes) dropMuted(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "notifications/resources/updated" {
			ss, _ := req.GetSession().(*mcp.ServerSession)
			if p, ok := req.GetParams().(*mcp.ResourceUpdatedNotificationParams); ok && p != nil && s.muted.has(ss, p.URI) {
				return nil, nil
			}
		}
		return next(ctx, method, req)
	}
}

// mutedSubs are the hidden subscriptions of each session.
type mutedSubs struct {
	mu sync.Mutex
	by map[*mcp.ServerSession]map[string]bool
}

// set mutes or unmutes ss's subscription to uri.
func (m *mutedSubs) set(ss *mcp.ServerSession, uri string, mute bool) {
	if ss == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	set := m.by[ss]
	if !mute {
		delete(set, uri)
		return
	}
	if set == nil {
		if m.by == nil {
			m.by = map[*mcp.ServerSession]map[string]bool{}
		}
		set = map[string]bool{}
		m.by[ss] = set
		go func() { // the session's mutes end with it
			ss.Wait()
			m.mu.Lock()
			delete(m.by, ss)
			m.mu.Unlock()
		}()
	}
	set[uri] = true
}

// has reports whether ss's subscription to uri is muted.
func (m *mutedSubs) has(ss *mcp.ServerSession, uri string) bool {
	if ss == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.by[ss][uri]
}
