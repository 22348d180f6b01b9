package resources

import (
	"errors"
	"strconv"
)

// Scope is the lifetime of a bound resource's instances.
type Scope uint8

const (
	// Singleton resources are constructed once per Context (the default) and
	// closed by Context.Close.
	Singleton Scope = iota
	// ToolCall resources are constructed once per tool-call scope
	// (Context.BeginToolCall) and closed by Context.EndToolCall.
	ToolCall
	// Prototype resources are constructed afresh by every Get, never cached
	// and never closed by this package: whoever gets one owns it.
	Prototype
)

// String returns "singleton", "tool-call" or "prototype".
func (s Scope) String() string { return scopeText(s) }

// binding is the registry's view of one binding, with the typed functions of
// the builder erased to any (by closures, not reflection).
type binding struct {
	id       *keyID
	scope    Scope
	eager    bool
	instance bool // Instance binding: value is ready, owned by the caller
	value    any
	provide  func(*Resolver) (any, error)
	post     func(any) error // nil: the PostConstructor interface, if implemented
	close    func(any) error // nil: the io.Closer interface, if implemented
	index    int
}

func (b *binding) name() string { return displayName(b.id) }

// Binding is one entry of a Registry: a *BindingBuilder (from Bind) or the
// result of Instance. It is sealed: only this package implements it.
type Binding interface {
	spec() binding
}

// BindingBuilder configures a binding made by Bind. Its methods set one option
// each and return the builder, so a binding reads as one expression:
//
//	resources.Bind(TracerKey, newTracer).Scope(resources.ToolCall).OnClose(flush)
//
// NewRegistry copies the configuration; changing a builder afterwards does not
// change a registry built from it.
type BindingBuilder[T any] struct {
	b binding
}

// Bind binds key to provider. The provider runs lazily, the first time the
// resource is needed in its scope (or at Open for Eager singletons), and may
// get its dependencies with Get(r, otherKey). The default scope is Singleton.
func Bind[T any](key Key[T], provider func(r *Resolver) (T, error)) *BindingBuilder[T] {
	bb := &BindingBuilder[T]{b: binding{id: key.id}}
	if provider != nil {
		bb.b.provide = func(r *Resolver) (any, error) {
			v, err := provider(r)
			if err != nil {
				return nil, err
			}
			return v, nil
		}
	}
	return bb
}

// Scope sets the binding's scope (Singleton, ToolCall or Prototype).
func (bb *BindingBuilder[T]) Scope(s Scope) *BindingBuilder[T] {
	bb.b.scope = s
	return bb
}

// Eager makes a singleton constructed by Registry.Open instead of on first
// use. Only singletons may be eager.
func (bb *BindingBuilder[T]) Eager() *BindingBuilder[T] {
	bb.b.eager = true
	return bb
}

// PostConstruct sets a hook run on every new instance right after its
// provider returns and before anyone sees it. It replaces the instance's own
// PostConstruct method (see PostConstructor). When it fails, the instance is
// closed and the Get fails with "Post-construct for X failed: <err>".
func (bb *BindingBuilder[T]) PostConstruct(fn func(T) error) *BindingBuilder[T] {
	if fn == nil {
		bb.b.post = nil
		return bb
	}
	bb.b.post = func(v any) error {
		t, _ := v.(T) // v is a T, or nil for a nil interface value
		return fn(t)
	}
	return bb
}

// OnClose sets the hook that closes instances of this binding. It replaces
// the instance's own Close method (io.Closer); OnClose(func(T) error { return
// nil }) opts out of closing. Prototype bindings may not have a close hook:
// nobody closes prototypes.
func (bb *BindingBuilder[T]) OnClose(fn func(T) error) *BindingBuilder[T] {
	if fn == nil {
		bb.b.close = nil
		return bb
	}
	bb.b.close = func(v any) error {
		t, _ := v.(T)
		return fn(t)
	}
	return bb
}

func (bb *BindingBuilder[T]) spec() binding {
	if bb == nil {
		return binding{}
	}
	return bb.b
}

// instanceBinding is the Binding returned by Instance.
type instanceBinding struct {
	b binding
}

func (ib instanceBinding) spec() binding { return ib.b }

// Instance binds key to a ready value, a singleton. The value belongs to the
// caller: the Context neither post-constructs nor closes it. It is a
// Snapshotable of every Context from the moment of Open.
func Instance[T any](key Key[T], v T) Binding {
	return instanceBinding{b: binding{id: key.id, instance: true, value: v}}
}

// Registry is an immutable set of bindings. Open it once per session or run
// to get a Context holding that session's instances.
type Registry struct {
	bindings []*binding
	index    map[*keyID]int
}

// NewRegistry checks and collects bindings, in order. Errors (all of them,
// joined): "Duplicate binding for X" when a key, or a key name, is bound
// twice; invalid bindings (zero key, no provider, eager non-singleton, close
// hook on a prototype, unknown scope).
func NewRegistry(bindings ...Binding) (*Registry, error) {
	r := &Registry{index: make(map[*keyID]int, len(bindings))}
	names := make(map[string]bool, len(bindings))
	var errs []error
	for i, in := range bindings {
		if in == nil {
			errs = append(errs, errInvalid("", "Binding "+strconv.Itoa(i)+" is nil"))
			continue
		}
		b := in.spec()
		if err := check(&b, i); err != nil {
			errs = append(errs, err)
			continue
		}
		if names[b.id.name] {
			errs = append(errs, errDuplicate(b.id.name))
			continue
		}
		names[b.id.name] = true
		b.index = len(r.bindings)
		r.index[b.id] = b.index
		r.bindings = append(r.bindings, &b)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return r, nil
}

func check(b *binding, i int) error {
	if b.id == nil {
		return errInvalid("", "Binding "+strconv.Itoa(i)+" has a zero Key")
	}
	name := b.id.name
	if b.instance {
		return nil
	}
	switch {
	case b.provide == nil:
		return errInvalid(name, "Binding for "+name+" has no provider")
	case b.scope > Prototype:
		return errInvalid(name, "Binding for "+name+" has invalid scope "+strconv.Itoa(int(b.scope)))
	case b.eager && b.scope != Singleton:
		return errInvalid(name, "Eager binding for "+name+" must be singleton-scoped (scope is "+b.scope.String()+")")
	case b.close != nil && b.scope == Prototype:
		return errInvalid(name, "Close hook for "+name+" is never called: prototype resources are not closed")
	}
	return nil
}

// With returns a new registry where each override replaces the binding of
// the same key in place, and overrides of keys not yet bound are appended
// (WINK's per-request resource overrides). r is unchanged. Overrides are
// checked as by NewRegistry.
func (r *Registry) With(overrides ...Binding) (*Registry, error) {
	over, err := NewRegistry(overrides...)
	if err != nil {
		return nil, err
	}
	all := make([]Binding, 0, len(r.bindings)+len(over.bindings))
	for _, b := range r.bindings {
		if j, ok := over.index[b.id]; ok {
			all = append(all, instanceOrSpec{over.bindings[j]})
			continue
		}
		all = append(all, instanceOrSpec{b})
	}
	for _, b := range over.bindings {
		if _, ok := r.index[b.id]; !ok {
			all = append(all, instanceOrSpec{b})
		}
	}
	return NewRegistry(all...)
}

// instanceOrSpec re-presents an already checked binding to NewRegistry.
type instanceOrSpec struct{ b *binding }

func (s instanceOrSpec) spec() binding { return *s.b }

// Len returns the number of bindings.
func (r *Registry) Len() int { return len(r.bindings) }

// Has reports whether key is bound.
func (r *Registry) Has(key AnyKey) bool {
	_, ok := r.index[key.keyIdentity()]
	return ok
}
