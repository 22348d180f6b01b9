// Package otelwink traces and measures tool calls and model calls with OpenTelemetry, following the
// GenAI semantic conventions. It plugs into a dispatcher through wink.Hooks.Start (runtime/wink imports
// no OpenTelemetry, and a dispatcher without it pays nothing), into the agent loop by wrapping its
// provider, and into the MCP server through mcpserver.WithCallContext.
//
//	otelwink.Instrument(d)                             // execute_tool spans and metrics, global providers
//	cfg.Provider = otelwink.Provider(p, "openai", "gpt-5") // chat spans around each model call
//	mcpserver.New(d, mcpserver.WithCallContext(otelwink.MCPCallContext)) // continue the client's trace
//
// Every dispatch of a registered tool is a span "execute_tool {name}" (kind internal) with
// gen_ai.operation.name "execute_tool", gen_ai.tool.name, gen_ai.tool.call.id, gen_ai.tool.description
// and gen_ai.tool.type "function"; a failure sets error.type and the span's status. The arguments
// (gen_ai.tool.call.arguments) and the output the model reads (gen_ai.tool.call.result) are recorded only
// with WithContent(true), and never a result excluded from the context. Its context is the call's, so
// spans the handler starts are its children.
//
// error.type is one of: invalid_arguments, denied, held (held for approval or for the user's answer),
// tool_failure (the handler returned a failure result), tool_error (the handler returned an error),
// invalid_result, panic, timeout, canceled, internal (the dispatcher could not run or roll back the
// call). The span's status description is then a fixed text naming the type ("tool call failed:
// tool_error"): what the model reads (a failure's message, an error's text, a denial's reason, a
// program's output) is content, and reaches a span, as the status description or the result attribute,
// only with WithContent(true). No events are recorded.
//
// Metrics (meter ScopeName): wink.tool.calls (counter, by gen_ai.tool.name), wink.tool.failures
// (counter, by gen_ai.tool.name and error.type) and wink.tool.duration (histogram, seconds, by
// gen_ai.tool.name). The GenAI conventions define no tool metrics yet, hence the wink. prefix.
package otelwink

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/wink"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/winkgen/wink/runtime/otelwink"

// Option configures Instrument and Provider.
type Option func(*config)

type config struct {
	tp      trace.TracerProvider
	mp      metric.MeterProvider
	content bool
}

// WithTracerProvider sets the tracer provider (default otel.GetTracerProvider()).
func WithTracerProvider(tp trace.TracerProvider) Option { return func(c *config) { c.tp = tp } }

// WithMeterProvider sets the meter provider (default otel.GetMeterProvider()).
func WithMeterProvider(mp metric.MeterProvider) Option { return func(c *config) { c.mp = mp } }

// WithContent records tool arguments and results on the spans, and a failure's text (what the model reads,
// or the error's) as the status description (off by default: they may hold personal data, file contents,
// secrets). Results excluded from the context are never recorded.
func WithContent(on bool) Option { return func(c *config) { c.content = on } }

func newConfig(opts []Option) config {
	c := config{}
	for _, o := range opts {
		o(&c)
	}
	if c.tp == nil {
		c.tp = otel.GetTracerProvider()
	}
	if c.mp == nil {
		c.mp = otel.GetMeterProvider()
	}
	return c
}

// instruments are the tool metrics.
type instruments struct {
	calls, failures metric.Int64Counter
	duration        metric.Float64Histogram
}

// Instrument makes d trace and measure its calls, keeping a Hooks.Start already set (it runs first, and
// its end after this package's). Instrument d before it serves calls.
func Instrument(d *wink.Dispatcher, opts ...Option) error {
	c := newConfig(opts)
	tracer := c.tp.Tracer(ScopeName)
	meter := c.mp.Meter(ScopeName)
	var ins instruments
	var err, e error
	ins.calls, e = meter.Int64Counter("wink.tool.calls", metric.WithDescription("Tool calls dispatched."), metric.WithUnit("{call}"))
	err = errors.Join(err, e)
	ins.failures, e = meter.Int64Counter("wink.tool.failures", metric.WithDescription("Tool calls that failed, by error.type."), metric.WithUnit("{call}"))
	err = errors.Join(err, e)
	ins.duration, e = meter.Float64Histogram("wink.tool.duration", metric.WithDescription("Duration of tool calls."), metric.WithUnit("s"))
	err = errors.Join(err, e)
	if err != nil {
		return err
	}
	prev := d.Hooks.Start
	var perTool sync.Map // *wink.Tool -> *toolAttrs
	var calls sync.Pool  // of *callSpan
	d.Hooks.Start = func(ctx context.Context, t *wink.Tool, call wink.Call) (context.Context, func(*wink.ToolInvoked)) {
		var prevEnd func(*wink.ToolInvoked)
		if prev != nil {
			var pc context.Context
			pc, prevEnd = prev(ctx, t, call)
			if pc != nil {
				ctx = pc
			}
		}
		ta := attrsOf(&perTool, t)
		opts := ta.start
		if c.content {
			opts = append(opts[:len(opts):len(opts)], trace.WithAttributes(attribute.String("gen_ai.tool.call.arguments", string(call.Arguments))))
		}
		ctx, span := tracer.Start(ctx, ta.spanName, opts...)
		span.SetAttributes(attribute.String("gen_ai.tool.call.id", call.ID))
		cs := calls.Get().(*callSpan)
		cs.span, cs.ta, cs.prevEnd = span, ta, prevEnd
		return ctx, cs.endFn
	}
	calls.New = func() any {
		cs := &callSpan{content: c.content, ins: &ins, pool: &calls}
		cs.endFn = cs.end // bound once per pooled value: no allocation per call
		return cs
	}
	return nil
}

// callSpan is one call's span and what its end needs; pooled.
type callSpan struct {
	span    trace.Span
	ta      *toolAttrs
	prevEnd func(*wink.ToolInvoked)
	content bool
	ins     *instruments
	pool    *sync.Pool
	endFn   func(*wink.ToolInvoked)
}

func (cs *callSpan) end(ev *wink.ToolInvoked) {
	span, ta, prevEnd := cs.span, cs.ta, cs.prevEnd
	cs.span, cs.ta, cs.prevEnd = nil, nil, nil
	cs.pool.Put(cs)
	if typ := ErrorType(ev); typ != "" {
		span.SetAttributes(attribute.String("error.type", typ))
		if cs.content {
			span.SetStatus(codes.Error, statusText(ev))
		} else {
			span.SetStatus(codes.Error, "tool call failed: "+typ)
		}
		cs.ins.failures.Add(context.Background(), 1, ta.failure(typ))
	}
	if cs.content && !ev.Excluded && ev.Output != "" {
		span.SetAttributes(attribute.String("gen_ai.tool.call.result", ev.Output))
	}
	span.End()
	cs.ins.calls.Add(context.Background(), 1, ta.add...)
	cs.ins.duration.Record(context.Background(), ev.Duration.Seconds(), ta.record...)
	if prevEnd != nil {
		prevEnd(ev)
	}
}

// toolAttrs are one tool's attributes, built once: the span's name and start options, and the metrics'
// attribute sets.
type toolAttrs struct {
	spanName string
	start    []trace.SpanStartOption
	add      []metric.AddOption    // the tool's attribute set, for the counters
	record   []metric.RecordOption // and for the histogram
	nameAttr attribute.KeyValue
	failures sync.Map // error.type -> metric.MeasurementOption
}

func attrsOf(cache *sync.Map, t *wink.Tool) *toolAttrs {
	if v, ok := cache.Load(t); ok {
		return v.(*toolAttrs)
	}
	name := t.Name()
	ta := &toolAttrs{spanName: "execute_tool " + name, nameAttr: attribute.String("gen_ai.tool.name", name)}
	ta.start = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "execute_tool"),
		ta.nameAttr,
		attribute.String("gen_ai.tool.description", t.Description()),
		attribute.String("gen_ai.tool.type", "function"),
	)}
	measure := metric.WithAttributeSet(attribute.NewSet(ta.nameAttr))
	ta.add, ta.record = []metric.AddOption{measure}, []metric.RecordOption{measure}
	v, _ := cache.LoadOrStore(t, ta)
	return v.(*toolAttrs)
}

func (ta *toolAttrs) failure(typ string) metric.MeasurementOption {
	if v, ok := ta.failures.Load(typ); ok {
		return v.(metric.MeasurementOption)
	}
	o := metric.WithAttributeSet(attribute.NewSet(ta.nameAttr, attribute.String("error.type", typ)))
	ta.failures.Store(typ, o)
	return o
}

// ErrorType classifies a call's failure for error.type ("" for a success).
func ErrorType(ev *wink.ToolInvoked) string {
	err := ev.Err
	switch {
	case ev.Panic != nil:
		return "panic"
	case ev.Success:
		return ""
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, wink.ErrUnknownTool):
		return "unknown_tool"
	}
	if _, ok := errors.AsType[*wink.HeldError](err); ok {
		return "held"
	}
	var ae *wink.ArgumentsError
	var den *wink.Denial
	var tx *wink.TransactionError
	var ir *wink.InvalidResultError
	switch {
	case errors.As(err, &ae):
		return "invalid_arguments"
	case errors.As(err, &den):
		return "denied"
	case err == nil:
		return "tool_failure"
	case errors.As(err, &tx):
		return "internal"
	case errors.As(err, &ir):
		return "invalid_result"
	}
	return "tool_error"
}

func statusText(ev *wink.ToolInvoked) string {
	if ev.Output != "" {
		return ev.Output
	}
	if ev.Err != nil {
		return ev.Err.Error()
	}
	return "failed"
}

// Provider wraps p so that each model call is a span "chat {model}" (kind client) with
// gen_ai.operation.name "chat", gen_ai.provider.name (system), gen_ai.request.model and, on success,
// gen_ai.usage.input_tokens, gen_ai.usage.output_tokens and gen_ai.response.finish_reasons. A failed call
// sets error.type (timeout, canceled, provider_error) and the status, whose description is the error's
// text only with WithContent(true) (a provider's error may quote the request).
func Provider(p loop.Provider, system, model string, opts ...Option) loop.Provider {
	c := newConfig(opts)
	return &provider{p: p, system: system, model: model, tracer: c.tp.Tracer(ScopeName), content: c.content}
}

type provider struct {
	p             loop.Provider
	system, model string
	tracer        trace.Tracer
	content       bool
}

func (p *provider) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	ctx, span := p.tracer.Start(ctx, "chat "+p.model, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "chat"),
		attribute.String("gen_ai.provider.name", p.system),
		attribute.String("gen_ai.request.model", p.model),
	))
	defer span.End()
	start := time.Now()
	resp, err := p.p.Complete(ctx, req)
	if err != nil {
		typ := errorTypeOf(err)
		span.SetAttributes(attribute.String("error.type", typ))
		if p.content {
			span.SetStatus(codes.Error, err.Error())
		} else {
			span.SetStatus(codes.Error, "model call failed: "+typ)
		}
		return resp, err
	}
	span.SetAttributes(
		attribute.Int("gen_ai.usage.input_tokens", resp.Usage.Input),
		attribute.Int("gen_ai.usage.output_tokens", resp.Usage.Output),
		attribute.StringSlice("gen_ai.response.finish_reasons", []string{resp.Stop}),
		attribute.Float64("wink.provider.duration_seconds", time.Since(start).Seconds()),
	)
	return resp, nil
}

func errorTypeOf(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	return "provider_error"
}

// MCPCallContext continues the trace an MCP client sent in params._meta (traceparent and tracestate,
// W3C Trace Context): pass it to mcpserver.WithCallContext.
func MCPCallContext(ctx context.Context, meta map[string]any) context.Context {
	if meta == nil {
		return ctx
	}
	carrier := propagation.MapCarrier{}
	for _, k := range []string{"traceparent", "tracestate"} {
		if v, ok := meta[k].(string); ok {
			carrier[k] = v
		}
	}
	return propagation.TraceContext{}.Extract(ctx, carrier)
}
