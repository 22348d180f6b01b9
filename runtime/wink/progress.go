package wink

import "context"

// ProgressFunc receives a call's progress: how far it is, the total when known (0 otherwise) and a short
// message.
type ProgressFunc func(progress, total float64, message string)

type progressKey struct{}

// WithProgress returns a copy of ctx that carries f: a handler dispatched with it reports progress through
// ToolContext.Progress. The MCP server sets it for calls whose client asked for progress.
func WithProgress(ctx context.Context, f ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// Progress reports the call's progress to whoever asked for it (an MCP client that sent a progress token);
// without a listener it does nothing. progress should grow with every report; total is 0 when unknown. A
// listener that panics is contained: progress is advice, never the call's outcome. Once the call has
// ended it does nothing (a progress token names a request in progress).
func (tc *ToolContext) Progress(progress, total float64, message string) {
	if tc == nil || tc.ctx == nil || tc.ended() {
		return
	}
	f, _ := tc.ctx.Value(progressKey{}).(ProgressFunc)
	if f == nil {
		return
	}
	defer func() { _ = recover() }()
	f(progress, total, message)
}
