// Package resources is winkgen's dependency injection for tools: bindings with
// providers, three scopes, lazy resolution with dependencies, deterministic
// cycle detection, post-construct and close hooks, and typed access without
// reflection. It implements WINK's resources (ResourceRegistry, Binding,
// Scope, ctx.tool_scope()) minus WINK's bugs: the cycle path is deterministic,
// and the tool-call scope is a real scope the dispatcher opens and closes
// around every handler (BeginToolCall / EndToolCall).
//
// # Use
//
//	var (
//		ConfigKey = resources.NewKey[*Config]("Config")
//		HTTPKey   = resources.NewKey[*HTTPClient]("HTTPClient")
//		TracerKey = resources.NewKey[*Tracer]("Tracer")
//	)
//	reg, err := resources.NewRegistry(
//		resources.Instance(ConfigKey, cfg),
//		resources.Bind(HTTPKey, func(r *resources.Resolver) (*HTTPClient, error) {
//			cfg, err := resources.Get(r, ConfigKey)
//			if err != nil {
//				return nil, err
//			}
//			return NewHTTPClient(cfg.URL), nil
//		}).Eager(),
//		resources.Bind(TracerKey, newTracer).Scope(resources.ToolCall),
//	)
//	ctx, err := reg.Open()       // one Context per session or run
//	defer ctx.Close()
//	ctx.BeginToolCall()          // the dispatcher, around each handler
//	tr, err := resources.Get(ctx, TracerKey)
//	err = ctx.EndToolCall()
//
// # Decisions where the spec was silent
//
// Typed access. A Key[T] carries T; Bind and Instance tie the provider's or
// value's type to it; instances are stored as any and recovered with a type
// assertion to T (never reflect). Key identity is the NewKey call: copies
// are the same key, two NewKey calls are two keys. Because messages name
// resources by name, a Registry also refuses two keys with the same name
// ("Duplicate binding for X"). NewKey panics on an empty name.
//
// Builders. Bind returns a *BindingBuilder with chainable Scope, Eager,
// PostConstruct and OnClose; a builder and the result of Instance are both a
// Binding (a sealed interface), so NewRegistry takes them directly. Invalid
// bindings are refused by NewRegistry, all errors joined: zero Key, nil
// provider, unknown scope, Eager on a non-singleton, OnClose on a prototype.
//
// Get. Get(g, key) takes a Getter: the *Context at the top level, or the
// *Resolver a provider receives. Providers must resolve their dependencies
// through their Resolver — it carries the resolution path that detects
// cycles; a provider that calls Get on the Context itself bypasses cycle
// detection and can deadlock on its own construction. A Resolver is valid
// until its provider returns; later use fails with an ErrScope error.
//
// Hooks. An explicit PostConstruct or OnClose hook replaces the instance's
// own PostConstruct() error (PostConstructor) or Close() error (io.Closer)
// method; OnClose(func(T) error { return nil }) opts out of closing. When
// post-construct fails, the instance is closed at once and Get fails with
// "Post-construct for X failed: <err>" (joined with the close error, if
// any). A panicking close hook is reported as "Close for X failed: panic:
// <v>" so that the remaining instances are still closed. Post-construct
// runs for every constructed instance, prototypes included.
//
// Ownership. The Context closes what it constructed, singletons and
// tool-call instances, in reverse order of construction (the order in which
// constructions completed, so dependents close before their dependencies).
// Instance values belong to the caller: never post-constructed, never closed
// (they are Snapshotable, though, from Open on). Prototypes are constructed
// afresh by every Get, never cached, and closed by nobody: the getter owns
// each one. Close closes open tool-call scopes first (innermost first), then
// the singletons; errors are joined; it is idempotent. Gets after Close fail
// with "Cannot get X: resource context is closed".
//
// Errors. Every error is an *Error with a Kind sentinel (ErrUnbound,
// ErrDuplicate, ErrCycle, ErrProvider, ErrPostConstruct, ErrClose, ErrScope,
// ErrClosed, ErrInvalidBinding) for errors.Is, and the cause in Unwrap. A
// provider's own error is wrapped ("Provider for X failed: <err>"); a
// resources error a provider returns (its dependency's failure, a cycle)
// passes through as that *Error, unwrapped, so the message names the real
// culprit once rather than "Provider for A failed: Provider for B failed:
// ...". A panicking provider releases its waiters with "Provider for X
// panicked" and the panic continues to the caller (the dispatcher contains
// it). Failures are not cached: the next Get tries again; Gets waiting on
// the failed construction receive its error.
//
// Scopes. ToolCall resources are only available inside BeginToolCall /
// EndToolCall ("Tool-call resource X requested outside a tool call").
// Scopes nest (a stack; the innermost is current), one scope per Context at
// a time for dispatch. A singleton that depends, directly or through
// prototypes, on a tool-call resource is refused ("Singleton A cannot depend
// on tool-call resource B"): the singleton would keep a closed instance
// (scope widening). Tool-call and prototype resources may depend on
// anything. Eager singletons are constructed by Open in binding order; if
// one fails, Open closes what it built and returns the error. A construction
// that completes after its tool call ended (or after Close) is closed at
// once and its Get fails ("Tool call ended while X was being constructed").
//
// Cycles. The path starts at the first resource of the cycle as first
// requested and follows resolution order: Get(X) with X -> A -> B -> A
// reports "Circular dependency: A -> B -> A", every time. Prototypes are
// checked too (a prototype needing itself would recurse forever).
//
// Concurrency. A Context is safe for concurrent use. One mutex guards its
// tables and is never held while a provider or hook runs. Each construction
// is a slot that concurrent Gets of the same singleton wait on, so the
// provider runs once (single flight). Each Get carries its own resolution
// path (the chain of constructions in progress on that path), so a provider
// resolving its dependencies never waits on a lock it holds. Waits between
// goroutines are recorded as edges; a wait that would close a cycle (two
// goroutines building A and B where A needs B and B needs A) fails with the
// cycle error instead of deadlocking.
//
// Call handles. A Context's tool-call scopes form one stack, and a Get through
// the Context resolves a ToolCall resource in the innermost: whichever call is
// innermost at that moment. A handle kept past its call, or used by a call that
// is not innermost, would get another call's instance, so the dispatcher gives
// each call its own handle instead (ForCall): its BeginToolCall opens the
// call's scope, a ToolCall Get through it resolves in that scope wherever it
// is in the stack, fails with "requested outside a tool call" before the scope
// opens and with "requested after its tool call ended" once it closed (both
// ErrScope), and never gives another call's instance. Singletons and
// prototypes resolve through a handle as through its Context. A handle may be
// kept and used from any goroutine.
//
// Snapshotables returns the constructed singletons (Instance values
// included) and the current tool-call scope's instances that implement
// Snapshotable, in construction order; the transaction layer snapshots and
// restores them around each tool call.
package resources
