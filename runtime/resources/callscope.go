package resources

import (
	"errors"
	"slices"
)

// A call's handle on a Context (ForCall) exists because a tool call's Context outlives the call: a
// handler may keep it, and goroutines it starts may call Get during the call and after it, while other
// calls open their own scopes on the same Context. The root's tool-call scopes form one stack whose
// innermost scope is current, so a Get through the root resolves a ToolCall resource in whichever call
// is innermost at that moment: after the call, or from a goroutine of a call that is not innermost,
// that is another call's instance.
//
// A handle is bound to one scope instead: its own, made with it (toolScope.h, one allocation) and
// pushed on the root's stack by the handle's BeginToolCall. A ToolCall Get through the handle resolves
// in that scope wherever it is in the stack, fails with "requested outside a tool call" before it is
// begun, and with "requested after its tool call ended" once the handle's EndToolCall (or the root's
// Close) ended it. Singletons and prototypes resolve as through the root. Every state change of the
// scope is under the root's mutex, which every resolution takes, so a Get racing with the end either
// finds the scope open (and a construction finishing after the end is closed at once, as for the
// root) or fails.

// ForCall returns a handle on c for one tool call: a *Context whose
// BeginToolCall opens the call's own scope and whose EndToolCall closes it
// (wherever it is among the open scopes), and through which a ToolCall
// resource resolves in that scope only: before BeginToolCall it fails with
// "Tool-call resource X requested outside a tool call", after EndToolCall with
// "Tool-call resource X requested after its tool call ended" (both match
// ErrScope), and never gives another call's instance. Singletons and
// prototypes resolve as through c. A second BeginToolCall on the handle does
// nothing; Close closes c. The tool dispatcher gives each call's handler such
// a handle (ToolContext.Resources), which it may keep.
func (c *Context) ForCall() *Context {
	if c.root != nil {
		c = c.root
	}
	ts := &toolScope{}
	ts.h.root, ts.h.call = c, ts
	return &ts.h
}

// beginCall begins a call handle's scope ts (once).
func (c *Context) beginCall(ts *toolScope) {
	c.mu.Lock()
	if !ts.begun && !ts.ended && !c.closed {
		ts.slots = make([]*slot, len(c.reg.bindings))
		ts.begun = true
		c.tools = append(c.tools, ts)
	}
	c.mu.Unlock()
}

// endCall ends a call handle's scope ts and closes its instances, as EndToolCall does for the innermost.
func (c *Context) endCall(ts *toolScope) error {
	c.mu.Lock()
	if !ts.begun || ts.ended {
		c.mu.Unlock()
		return errNoToolCall()
	}
	if i := slices.Index(c.tools, ts); i >= 0 {
		c.tools = slices.Delete(c.tools, i, i+1) // innermost in the dispatcher's use
	}
	ts.ended = true
	owned := ts.owned
	ts.owned = nil
	c.mu.Unlock()
	return errors.Join(closeAll(owned)...)
}
