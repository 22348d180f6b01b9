package resources

import (
	"errors"
	"io"
	"slices"
	"sync"
)

// Snapshotable is implemented by everything a tool call's transaction
// (runtime/txn) captures and restores: resources whose state it covers,
// filesystems (vfs.Memory, vfs.Host), sessions adapted by
// session.Transactional. It is declared here, the package every other one
// that names it imports.
type Snapshotable interface {
	// Snapshot captures the current state.
	Snapshot() (any, error)
	// Restore returns to a state captured by Snapshot.
	Restore(snap any) error
}

// PostConstructor is implemented by resources that finish their
// initialisation after construction. A binding's PostConstruct hook, when
// set, is used instead.
type PostConstructor interface {
	PostConstruct() error
}

// Getter is what Get resolves from: a *Context (at the top level) or the
// *Resolver passed to a provider (for its dependencies). It is sealed.
type Getter interface {
	get(id *keyID) (any, error)
}

// Get returns the resource bound to key, constructing it (and, first, its
// dependencies) if its scope holds no instance yet. g is a *Context or the
// *Resolver a provider received.
func Get[T any](g Getter, key Key[T]) (T, error) {
	var zero T
	v, err := g.get(key.id)
	if err != nil {
		return zero, err
	}
	if v == nil { // a provider returned a nil interface value
		return zero, nil
	}
	t, ok := v.(T)
	if !ok {
		return zero, errWrongType(displayName(key.id))
	}
	return t, nil
}

// Resolver is passed to providers; Get(r, key) resolves the provider's
// dependencies on the provider's resolution path, which is how cycles are
// detected. It is valid only until the provider returns.
type Resolver struct {
	c    *Context // the root Context
	s    *slot
	call *toolScope // the scope of the call handle the resolution started from; nil: the innermost
}

func (r *Resolver) get(id *keyID) (any, error) { return r.c.resolve(r.s, r.call, id) }

// Context holds the instances of one session or run: its singletons and the
// open tool-call scopes. It is safe for concurrent use; see the package doc
// for the locking design.
//
// A Context that ForCall returns is a handle on its root for one tool call
// (callscope.go): it has only root and call set, and its methods act on the
// root with the call's own scope.
type Context struct {
	root *Context   // a call's handle: the Context it is a handle on; nil for a Context Open made
	call *toolScope // a call's handle: the call's scope (begun by the handle's BeginToolCall)

	reg *Registry

	mu     sync.Mutex
	single []*slot      // by binding index
	tools  []*toolScope // open tool-call scopes, innermost last
	owned  []*slot      // constructed singletons, in construction order
	seq    uint64       // construction counter
	closed bool
}

// toolScope is one tool call's instances. A call handle's scope (ForCall) is made with the handle, in
// one allocation, and begun later; the root's mutex guards slots, owned, begun and ended.
type toolScope struct {
	slots []*slot // by binding index
	owned []*slot // constructed instances, in construction order
	begun bool    // BeginToolCall opened it
	ended bool
	h     Context // the call's handle (ForCall); unused for a scope the root's BeginToolCall opened
}

// slot is one construction: in progress until done is closed, then either a
// cached instance (val) or a failure (err, and removed from its table).
type slot struct {
	b        *binding
	parent   *slot // the construction that requested this one; nil at top level
	done     chan struct{}
	val      any
	err      error
	seq      uint64
	scope    *toolScope // for tool-call slots
	edges    []*slot    // while in progress: constructions this one waits for
	finished bool       // provider returned: its Resolver is no longer valid
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Open returns a new Context for r: Instance bindings are in place and eager
// singletons are constructed, in binding order. If an eager construction
// fails, everything constructed so far is closed and the error returned.
func (r *Registry) Open() (*Context, error) {
	c := &Context{reg: r, single: make([]*slot, len(r.bindings))}
	for i, b := range r.bindings {
		if b.instance {
			c.seq++
			s := &slot{b: b, done: closedChan, val: b.value, seq: c.seq, finished: true}
			c.single[i] = s
			c.owned = append(c.owned, s)
		}
	}
	for _, b := range r.bindings {
		if b.eager {
			if _, err := c.resolve(nil, nil, b.id); err != nil {
				return nil, errors.Join(err, c.Close())
			}
		}
	}
	return c, nil
}

func (c *Context) get(id *keyID) (any, error) {
	if c.root != nil {
		return c.root.resolve(nil, c.call, id)
	}
	return c.resolve(nil, nil, id)
}

// resolve returns the instance of id's binding for a request made by the
// construction parent (nil at top level). call is the scope of the call handle
// the request came through: its ToolCall resources are that scope's; nil means
// the innermost open scope.
func (c *Context) resolve(parent *slot, call *toolScope, id *keyID) (any, error) {
	c.mu.Lock()
	if parent != nil && parent.finished {
		c.mu.Unlock()
		return nil, errResolverExpired(parent.b.name(), displayName(id))
	}
	if c.closed {
		c.mu.Unlock()
		return nil, errClosed(displayName(id))
	}
	idx, ok := c.reg.index[id]
	if !ok {
		c.mu.Unlock()
		return nil, errUnbound(displayName(id))
	}
	b := c.reg.bindings[idx]
	for p := parent; p != nil; p = p.parent {
		if p.b == b {
			path := append(chainNames(parent, p), b.name())
			c.mu.Unlock()
			return nil, errCycle(path)
		}
	}
	var table []*slot
	var ts *toolScope
	switch b.scope {
	case Singleton:
		table = c.single
	case ToolCall:
		if call != nil {
			if !call.begun || call.ended {
				ended := call.ended // read under the mutex: endCall writes it
				c.mu.Unlock()
				if ended {
					return nil, errCallEnded(b.name())
				}
				return nil, errOutsideToolCall(b.name())
			}
		} else if len(c.tools) == 0 {
			c.mu.Unlock()
			return nil, errOutsideToolCall(b.name())
		}
		for p := parent; p != nil; p = p.parent {
			if p.b.scope == Singleton {
				c.mu.Unlock()
				return nil, errWidening(p.b.name(), b.name())
			}
		}
		if ts = call; ts == nil {
			ts = c.tools[len(c.tools)-1]
		}
		table = ts.slots
	}
	if table != nil {
		if s := table[idx]; s != nil {
			select {
			case <-s.done: // failures leave the table before done closes
				v := s.val
				c.mu.Unlock()
				return v, nil
			default:
			}
			return c.wait(parent, s)
		}
	}
	s := &slot{b: b, parent: parent, done: make(chan struct{}), scope: ts}
	if table != nil {
		table[idx] = s
	}
	if parent != nil {
		parent.edges = append(parent.edges, s)
	}
	c.mu.Unlock()
	return c.construct(s, table, call)
}

// wait waits, c.mu held on entry, for a construction run by another
// goroutine, unless waiting would close a cycle of waits.
func (c *Context) wait(parent, s *slot) (any, error) {
	if parent != nil {
		if path := waitCycle(parent, s); path != nil {
			c.mu.Unlock()
			return nil, errCycle(path)
		}
		parent.edges = append(parent.edges, s)
	}
	c.mu.Unlock()
	<-s.done
	if parent != nil {
		c.mu.Lock()
		removeEdge(parent, s)
		c.mu.Unlock()
	}
	if s.err != nil {
		return nil, s.err
	}
	return s.val, nil
}

// construct runs s's provider and post-construct hook, without the lock.
func (c *Context) construct(s *slot, table []*slot, call *toolScope) (any, error) {
	b := s.b
	returned := false
	defer func() {
		if !returned { // the provider or a hook panicked (or called Goexit)
			c.finish(s, table, nil, errProviderPanicked(b.name()))
		}
	}()
	if call == nil && s.scope != nil {
		call = s.scope // a tool-call resource's dependencies resolve in its own scope
	}
	v, err := b.provide(&Resolver{c: c, s: s, call: call})
	if err != nil {
		err = providerError(b.name(), err)
	} else if perr := runPost(b, v); perr != nil {
		err = errPostConstruct(b.name(), perr)
		if cerr := runClose(b, v); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}
	returned = true
	return c.finish(s, table, v, err)
}

// providerError wraps a provider's error, except that a resources error
// (a dependency's failure, a cycle) passes through unwrapped so the message
// names the real culprit once.
func providerError(name string, err error) error {
	var re *Error
	if errors.As(err, &re) {
		return re
	}
	return errProvider(name, err)
}

// finish records the outcome of s and wakes its waiters.
func (c *Context) finish(s *slot, table []*slot, v any, err error) (any, error) {
	c.mu.Lock()
	s.finished = true
	s.edges = nil
	if s.parent != nil {
		removeEdge(s.parent, s)
	}
	lateClose := false
	if err == nil && table != nil {
		switch {
		case c.closed:
			err, lateClose = errClosed(s.b.name()), true
		case s.scope != nil && s.scope.ended:
			err, lateClose = errToolCallEnded(s.b.name()), true
		}
	}
	if err == nil {
		s.val = v
		if table != nil {
			c.seq++
			s.seq = c.seq
			if s.scope != nil {
				s.scope.owned = append(s.scope.owned, s)
			} else {
				c.owned = append(c.owned, s)
			}
		}
	} else {
		s.err = err
		if table != nil && table[s.b.index] == s {
			table[s.b.index] = nil // not cached: the next Get retries
		}
	}
	close(s.done)
	c.mu.Unlock()
	if lateClose {
		if cerr := runClose(s.b, v); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// BeginToolCall opens a tool-call scope: until the matching EndToolCall,
// ToolCall resources are constructed once and cached in it. Scopes nest; the
// innermost one is current.
func (c *Context) BeginToolCall() {
	if c.root != nil {
		c.root.beginCall(c.call)
		return
	}
	c.mu.Lock()
	c.tools = append(c.tools, &toolScope{slots: make([]*slot, len(c.reg.bindings)), begun: true})
	c.mu.Unlock()
}

// EndToolCall closes the current tool-call scope: its instances are closed in
// reverse order of construction; their close errors are joined. Without an
// open scope it returns "No tool call in progress".
func (c *Context) EndToolCall() error {
	if c.root != nil {
		return c.root.endCall(c.call)
	}
	c.mu.Lock()
	if len(c.tools) == 0 {
		c.mu.Unlock()
		return errNoToolCall()
	}
	ts := c.tools[len(c.tools)-1]
	c.tools = c.tools[:len(c.tools)-1]
	ts.ended = true
	owned := ts.owned
	ts.owned = nil
	c.mu.Unlock()
	return errors.Join(closeAll(owned)...)
}

// InToolCall reports whether a tool-call scope is open.
func (c *Context) InToolCall() bool {
	if c.root != nil {
		c.root.mu.Lock()
		defer c.root.mu.Unlock()
		return c.call.begun && !c.call.ended
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.tools) > 0
}

// Close closes every instance the Context constructed: open tool-call scopes
// first (innermost first), then the singletons, each in reverse order of
// construction. Errors are joined. Instance bindings and prototypes are not
// closed. Later Gets fail; a second Close returns nil.
func (c *Context) Close() error {
	if c.root != nil {
		return c.root.Close()
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	scopes := c.tools
	c.tools = nil
	for _, ts := range scopes {
		ts.ended = true
	}
	owned := c.owned
	c.owned = nil
	var scoped [][]*slot
	for i := len(scopes) - 1; i >= 0; i-- {
		scoped = append(scoped, scopes[i].owned)
		scopes[i].owned = nil
	}
	c.mu.Unlock()
	var errs []error
	for _, o := range scoped {
		errs = append(errs, closeAll(o)...)
	}
	errs = append(errs, closeAll(owned)...)
	return errors.Join(errs...)
}

// Snapshotables returns the constructed singletons (Instance bindings
// included) and the current tool-call scope's instances that implement
// Snapshotable, in construction order.
func (c *Context) Snapshotables() []Snapshotable {
	call := c.call
	if c.root != nil {
		c = c.root
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var scoped []*slot
	switch {
	case call != nil:
		scoped = call.owned // nil unless begun (ended: closed, owned dropped)
	case len(c.tools) > 0:
		scoped = c.tools[len(c.tools)-1].owned
	}
	var out []Snapshotable
	i, j := 0, 0
	for i < len(c.owned) || j < len(scoped) {
		var s *slot
		if j == len(scoped) || (i < len(c.owned) && c.owned[i].seq < scoped[j].seq) {
			s, i = c.owned[i], i+1
		} else {
			s, j = scoped[j], j+1
		}
		if sn, ok := s.val.(Snapshotable); ok {
			out = append(out, sn)
		}
	}
	return out
}

// closeAll closes owned in reverse order and returns the failures.
func closeAll(owned []*slot) []error {
	var errs []error
	for i := len(owned) - 1; i >= 0; i-- {
		s := owned[i]
		if s.b.instance {
			continue
		}
		if err := runClose(s.b, s.val); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

func runPost(b *binding, v any) error {
	if b.post != nil {
		return b.post(v)
	}
	if p, ok := v.(PostConstructor); ok {
		return p.PostConstruct()
	}
	return nil
}

// runClose runs b's close hook (or v's Close method) on v. A panicking hook
// becomes an error so that the remaining instances are still closed.
func runClose(b *binding, v any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = errClosePanicked(b.name(), p)
		}
	}()
	var cerr error
	if b.close != nil {
		cerr = b.close(v)
	} else if cl, ok := v.(io.Closer); ok {
		cerr = cl.Close()
	}
	if cerr != nil {
		return errClose(b.name(), cerr)
	}
	return nil
}

// chainNames returns the names from construction from down to to (an
// ancestor of from, or from itself), outermost first.
func chainNames(from, to *slot) []string {
	var names []string
	for p := from; ; p = p.parent {
		names = append(names, p.b.name())
		if p == to {
			break
		}
	}
	slices.Reverse(names)
	return names
}

// waitCycle reports the cycle that waiting from construction me for the
// in-progress construction s would close, or nil. Edges are "waits for"
// (a child construction, or another goroutine's construction); following
// them from s, reaching any of me's ancestors (or me) is a deadlock. The path
// starts at that ancestor, runs down me's chain, then along the waits.
func waitCycle(me, s *slot) []string {
	var visited []*slot
	var trail []*slot
	var found *slot
	var dfs func(t *slot) bool
	dfs = func(t *slot) bool {
		if slices.Contains(visited, t) {
			return false
		}
		visited = append(visited, t)
		trail = append(trail, t)
		for _, e := range t.edges {
			for p := me; p != nil; p = p.parent {
				if p == e {
					found = e
					return true
				}
			}
			if dfs(e) {
				return true
			}
		}
		trail = trail[:len(trail)-1]
		return false
	}
	if !dfs(s) {
		return nil
	}
	path := chainNames(me, found)
	for _, t := range trail {
		path = append(path, t.b.name())
	}
	return append(path, found.b.name())
}

func removeEdge(from, to *slot) {
	if i := slices.Index(from.edges, to); i >= 0 {
		from.edges = slices.Delete(from.edges, i, i+1)
	}
}
