package wink

import (
	"context"
	"errors"
	"strconv"
)

// Programs: tools whose handler runs a program that calls other tools (code mode, runtime/suites/eval's
// run_program).
//
// A program's inner calls are full dispatches: each is looked up, checked for its caller and scopes,
// decoded by its generated decoder, checked by the policies, run in a transaction of its own, recorded in
// the ledger and the events, exactly as a call the model makes directly. So the program call itself takes
// no transaction: the session's, the resources' and the filesystem's locks are not reentrant, and an
// inner call holds them in turn. What a program call does have: the lookup, the scopes, the decoding, the
// policies' and Hooks.Check's decisions on the program call, its ToolInvoked event and Hooks.Start. It
// has no Hooks.Begin, no snapshot, no ledger entry and no OnResult (of the policies or the hooks): those
// are about a transaction, and run for each inner call instead. A program that stops halfway keeps what
// its completed inner calls did, as the same calls made one by one would.

// Callers says who may call a tool (Spec.Callers, //wink:tool callers=...).
type Callers uint8

// The Callers values.
const (
	// CallersDefault: not declared. Direct calls are allowed; calls from programs are allowed for a tool
	// that is read-only or idempotent, unless it is declared destructive (Spec.Callable).
	CallersDefault Callers = iota
	// CallersDirect: only the model's direct calls (callers=direct).
	CallersDirect
	// CallersProgram: only calls from a program (callers=program).
	CallersProgram
	// CallersBoth: both (callers=both).
	CallersBoth
)

// String returns the directive's spelling: "direct", "program", "both", or "default".
func (c Callers) String() string {
	switch c {
	case CallersDefault:
		return "default"
	case CallersDirect:
		return "direct"
	case CallersProgram:
		return "program"
	case CallersBoth:
		return "both"
	}
	return "Callers(" + strconv.Itoa(int(c)) + ")"
}

// Callable reports who may call the tool: the model directly, and a program (an inner call). A declared
// Callers says it; without one, direct calls are allowed, and calls from programs when the tool is
// read-only or idempotent and not declared destructive (a program runs many calls without the model
// seeing each: what it may repeat or that changes nothing is safe there, a destructive tool is not).
func (s *Spec) Callable() (direct, program bool) {
	switch s.Callers {
	case CallersDirect:
		return true, false
	case CallersProgram:
		return false, true
	case CallersBoth:
		return true, true
	}
	return true, s.Destructive != HintYes && (s.ReadOnly || s.Idempotency.Strategy != IdemNone)
}

// ErrCaller is ToolInvoked.Err for a call its tool's Callers does not allow (a direct call of a
// program-only tool, an inner call of a direct-only tool, a program started from a program).
var ErrCaller = errors.New("the tool may not be called this way")

// InnerCall names a program's inner call: the program (its id, stable across the program's runs, see
// runtime/suites/eval) and the call's ordinal in it, from 0. A program tool dispatches its inner calls
// with a context carrying it (WithInnerCall); durable engines derive the inner call's step from it.
//
// A call a provider's program made (Call.Caller set: Anthropic's code execution, OpenAI's programmatic
// tool calling) is an inner call too: Dispatch marks it itself, with Program the provider's id of the
// program (the caller's "tool_id" or "caller_id"), Ordinal -1 (the provider numbers its calls, not
// winkgen) and Caller the caller object. Its tool's Callers apply as to any inner call, and hooks, events
// (ToolInvoked.Program) and traces see it as one; but it is a call of its own turn, answered by its own
// step: durable engines checkpoint it as a direct call.
type InnerCall struct {
	// Program is the program's id.
	Program string
	// Ordinal is the inner call's place among the program's calls, from 0; -1 for a provider's program.
	Ordinal int
	// Caller is the provider's caller object (Call.Caller) of a call a provider's program made; nil for
	// a program winkgen runs.
	Caller []byte
}

// Provider reports whether the inner call was made by a program the provider ran (Caller is set).
func (ic InnerCall) Provider() bool { return ic.Caller != nil }

// providerCall returns ctx marking call, which a provider's program made, as an inner call; ctx itself
// when it already marks one.
func providerCall(ctx context.Context, call Call) context.Context {
	if _, inner := InnerCallOf(ctx); inner {
		return ctx
	}
	return WithInnerCall(ctx, InnerCall{Program: callerProgram(call.Caller), Ordinal: -1, Caller: call.Caller})
}

// callerProgram is the program id a provider's caller object names: its "tool_id" (Anthropic) or
// "caller_id" (OpenAI), else the object's text.
func callerProgram(caller []byte) string {
	for _, k := range [...]string{"tool_id", "caller_id"} {
		if raw, ok := JSONField(caller, k); ok {
			if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' {
				if s, err := strconv.Unquote(string(raw)); err == nil {
					return s
				}
				return string(raw[1 : n-1])
			}
			return string(raw)
		}
	}
	return string(caller)
}

type innerKey struct{}

// WithInnerCall returns ctx marking the calls dispatched with it as inner call ic of a program.
func WithInnerCall(ctx context.Context, ic InnerCall) context.Context {
	return context.WithValue(ctx, innerKey{}, ic)
}

// InnerCallOf returns the inner call ctx marks (WithInnerCall), and false for a direct call.
func InnerCallOf(ctx context.Context) (InnerCall, bool) {
	if ctx == nil {
		return InnerCall{}, false
	}
	ic, ok := ctx.Value(innerKey{}).(InnerCall)
	return ic, ok
}

// AsProgram returns a new tool, t's handler and Spec, whose calls run programs (it is not Same as t): the dispatcher gives its handler itself
// (ToolContext.Dispatcher), to dispatch the program's inner calls with, and runs the call without a
// transaction of its own (see the notes at the top of this file). A *HeldError the handler returns (an
// inner call was held) holds the program call: its Call becomes the program call, with the inner call's
// hold id, so that whoever dispatches the held call again (loop.Resume, a durable engine) dispatches the
// program, which finds its completed inner calls and dispatches the held one with that id.
func (t *Tool) AsProgram() *Tool {
	// A descriptor of its own (Dispatch runs a tool's canonical descriptor): the same typed operations,
	// a pool of frames of its own.
	o := &ops{funcs: t.impl.funcs, op: t.impl.op, has: t.impl.has}
	c := &Tool{spec: t.spec, impl: o, noValue: t.noValue, program: true}
	o.tool = c
	return c
}

// IsProgram reports whether t runs programs (AsProgram).
func (t *Tool) IsProgram() bool { return t.program }

// Dispatcher returns the dispatcher running the call of a program tool (AsProgram), for its inner calls;
// nil for other tools.
func (tc *ToolContext) Dispatcher() *Dispatcher {
	if t := tc.Tool(); t == nil || !t.program {
		return nil
	}
	d, _ := tc.ctx.Value(programDispatcherKey{}).(*Dispatcher)
	return d
}

// programDispatcherKey holds a program tool's dispatcher in its call's context: a context value, not a
// ToolContext field, so that every other call's ToolContext keeps fitting its 256-byte size class
// (TestToolContextFitsItsSizeClass).
type programDispatcherKey struct{}

// checkCaller returns the failure text of a call t's callers do not allow, "" when allowed, and the id
// of the program making the call ("" for a direct call).
func (t *Tool) checkCaller(ctx context.Context) (msg, prog string) {
	direct, program := t.spec.Callable()
	// The name is quoted only for a refusal: quoting costs an allocation every call otherwise.
	if ic, inner := InnerCallOf(ctx); inner {
		prog = ic.Program
		switch {
		case t.program:
			return "Tool " + strconv.Quote(t.spec.Name) + " runs programs and cannot be called from a program; call the tools directly in this program.", prog
		case !program:
			name := strconv.Quote(t.spec.Name)
			return "Tool " + name + " cannot be called from a program (it is not declared callable by programs); " +
				"finish the program, and call " + name + " directly with its result.", prog
		}
		return "", prog
	}
	if !direct {
		return "Tool " + strconv.Quote(t.spec.Name) + " can only be called from a program; call it inside a program you run with the program tool.", ""
	}
	return "", ""
}

// executeProgram runs a program tool's handler (steps 7 and 8 without the transaction of step 6, see
// the notes at the top of this file).
func (t *Tool) executeProgram(ctx context.Context, disp *Dispatcher, tc *ToolContext, fr *frame, call Call) {
	cs := &fr.cs
	name := t.spec.Name
	res, herr := fr.handle(tc)
	if herr != nil {
		if he, ok := errors.AsType[*HeldError](herr); ok {
			// An inner call is held: so is the program, under the inner call's hold id.
			held := *he
			held.Call = call
			held.Call.Hold = he.Binding.Hold
			cs.err, cs.cause = &held, &held
			return
		}
		cs.handlerFailed(ctx, name, herr)
		return
	}
	if !t.takeResult(disp, fr, res) {
		return
	}
}

// AppendResultJSON appends the generated JSON encoding of the call's result value, during the call's
// OnResult (a policy's or Hooks.OnResult): the value the handler returned, or the one a ledger replayed.
// It returns dst and false when there is none to encode: a result without a value, a value excluded
// from the context, a replay from a ledger that keeps no typed values (pgledger); and before OnResult
// (the handler's goroutines cannot read the result while the dispatcher writes it) and once the call
// has ended (the result belongs to the call). It is safe to call from any goroutine.
func (tc *ToolContext) AppendResultJSON(dst []byte) ([]byte, bool) {
	t := tc.Tool()
	if t == nil {
		return dst, false
	}
	fr, ok := tc.enterFrame()
	if !ok {
		return dst, false
	}
	defer exitFrame(fr)
	cs := &fr.cs
	if !fr.result.Load() || !cs.hasValue || cs.excluded {
		return dst, false
	}
	if cs.replayed {
		if cs.value == nil {
			return dst, false
		}
		return t.impl.appendValueJSON(dst, cs.value)
	}
	return fr.appendValue(dst), true
}
