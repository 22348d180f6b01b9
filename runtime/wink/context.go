package wink

import (
	"context"
	"time"
)

// RunContext carries the correlation ids of the run a call belongs to; the
// dispatcher copies it into every ToolContext.
type RunContext struct {
	// RunID identifies the agent run.
	RunID string
	// RequestID identifies the provider request that produced the call.
	RequestID string
	// TraceID links the call to a distributed trace.
	TraceID string
	// Attempt counts retries of the run, from 1.
	Attempt int
}

// ToolContext is what a handler receives besides its params. It implements
// context.Context by delegating to the context of the call, so the handler
// passes it straight to any context-taking API and sees the call's deadline
// and cancellation.
//
// A ToolContext belongs to one call; the dispatcher never reuses it.
type ToolContext struct {
	// CallID is the provider's id of the tool call.
	CallID string
	// ToolName is the name of the tool being called.
	ToolName string
	// Run holds the correlation ids of the run.
	Run RunContext

	ctx  context.Context
	tool *Tool
	beat func(*ToolContext)
}

// NewToolContext returns a ToolContext for calling a handler directly, as
// tests of handlers do. A nil ctx means context.Background().
func NewToolContext(ctx context.Context, name, callID string) *ToolContext {
	if ctx == nil {
		ctx = context.Background()
	}
	return &ToolContext{CallID: callID, ToolName: name, ctx: ctx}
}

// parent returns the delegate, context.Background() for a zero ToolContext.
func (tc *ToolContext) parent() context.Context {
	if tc.ctx == nil {
		return context.Background()
	}
	return tc.ctx
}

// Deadline returns the call's deadline, if any.
func (tc *ToolContext) Deadline() (time.Time, bool) { return tc.parent().Deadline() }

// Done returns a channel closed when the call is cancelled or its deadline
// passes.
func (tc *ToolContext) Done() <-chan struct{} { return tc.parent().Done() }

// Err reports why Done was closed, or nil.
func (tc *ToolContext) Err() error { return tc.parent().Err() }

// Value returns the value the call's context associates with key.
func (tc *ToolContext) Value(key any) any { return tc.parent().Value(key) }

// Context returns the call's underlying context.
func (tc *ToolContext) Context() context.Context { return tc.parent() }

// Tool returns the descriptor of the tool being called; nil for a
// ToolContext made by NewToolContext.
func (tc *ToolContext) Tool() *Tool { return tc.tool }

// Beat records a heartbeat for a long-running handler (lease extension). It
// calls the dispatcher's Heartbeat function and is a cheap no-op when there is
// none.
func (tc *ToolContext) Beat() {
	if tc.beat != nil {
		tc.beat(tc)
	}
}
