package otelwink_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/otelwink"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

type echoParams struct{ Text string }

// echoTool answers its text; "fail" makes it return a failure result, "secret" a value excluded from
// the context. Its handler starts a span of its own, which must be a child of the call's.
func echoTool(tp trace.TracerProvider) *wink.Tool {
	spec := wink.Spec{Name: "echo", Description: "Echoes its text.", ParamsSchema: []byte(`{"type":"object"}`)}
	return wink.NewTool(spec, &wink.Funcs[echoParams, string]{
		Decode: func(d *strictjson.Decoder, p *echoParams) {
			if !d.ObjectStart() {
				return
			}
			seen := false
			for d.NextKey() {
				if d.KeyString() == "text" {
					p.Text, _ = d.String()
					seen = true
				} else {
					d.Unknown([]string{"text"})
				}
			}
			if !seen {
				d.Missing("text")
			}
			d.ObjectEnd()
		},
		EncodeResult: func(dst []byte, v *string) []byte { return strictjson.AppendString(dst, *v) },
		Handler: func(tc *wink.ToolContext, p echoParams) (wink.ToolResult[string], error) {
			_, span := tp.Tracer("handler").Start(tc.Context(), "inside echo")
			span.End()
			switch p.Text {
			case "fail":
				return wink.Failure[string]("echo refuses to fail"), nil
			case "secret":
				return wink.WithoutValueInContext(wink.OK("s3cr3t", "kept")), nil
			}
			return wink.OK(p.Text, ""), nil
		},
	})
}

func setup(t *testing.T, opts ...otelwink.Option) (*wink.Dispatcher, *tracetest.InMemoryExporter, *sdkmetric.ManualReader, *sdktrace.TracerProvider) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	reg, err := wink.NewRegistry([]*wink.Tool{echoTool(tp)})
	if err != nil {
		t.Fatal(err)
	}
	d := &wink.Dispatcher{Registry: reg}
	if err := otelwink.Instrument(d, append([]otelwink.Option{otelwink.WithTracerProvider(tp), otelwink.WithMeterProvider(mp)}, opts...)...); err != nil {
		t.Fatal(err)
	}
	return d, exp, reader, tp
}

func attrs(s tracetest.SpanStub) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

func spanNamed(t *testing.T, spans tracetest.SpanStubs, name string) tracetest.SpanStub {
	t.Helper()
	for _, s := range spans {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no span %q among %d", name, len(spans))
	return tracetest.SpanStub{}
}

func TestExecuteToolSpans(t *testing.T) {
	d, exp, _, tp := setup(t)
	ctx, parent := tp.Tracer("caller").Start(context.Background(), "agent turn")
	if out, err := d.Dispatch(ctx, wink.Call{ID: "c1", Name: "echo", Arguments: []byte(`{"text":"hi"}`)}); err != nil || !out.Success {
		t.Fatalf("%+v, %v", out, err)
	}
	parent.End()
	spans := exp.GetSpans()
	call := spanNamed(t, spans, "execute_tool echo")
	inner := spanNamed(t, spans, "inside echo")
	if call.Parent.SpanID() != parent.SpanContext().SpanID() {
		t.Error("the execute_tool span is not a child of the caller's span")
	}
	if inner.Parent.SpanID() != call.SpanContext.SpanID() {
		t.Error("the handler's span is not a child of the execute_tool span")
	}
	want := map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "echo", "gen_ai.tool.call.id": "c1",
		"gen_ai.tool.description": "Echoes its text.", "gen_ai.tool.type": "function"}
	got := attrs(call)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	for _, k := range []string{"error.type", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s recorded on a successful call without content recording", k)
		}
	}
	if call.SpanKind != trace.SpanKindInternal || call.Status.Code == codes.Error {
		t.Errorf("kind %v, status %v", call.SpanKind, call.Status)
	}
}

func TestFailuresSetErrorType(t *testing.T) {
	d, exp, reader, _ := setup(t)
	for _, c := range []struct{ args, want string }{
		{`{"text":1}`, "invalid_arguments"},
		{`{"text":"fail"}`, "tool_failure"},
		{`{"text":"ok"}`, ""},
	} {
		exp.Reset()
		if _, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "echo", Arguments: []byte(c.args)}); err != nil {
			t.Fatal(err)
		}
		s := spanNamed(t, exp.GetSpans(), "execute_tool echo")
		if got := attrs(s)["error.type"]; got != c.want {
			t.Errorf("%s: error.type = %q, want %q", c.args, got, c.want)
		}
		if (c.want != "") != (s.Status.Code == codes.Error) {
			t.Errorf("%s: status %v", c.args, s.Status)
		}
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	sums := map[string]int64{}
	var hist uint64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch data := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, dp := range data.DataPoints {
					typ, _ := dp.Attributes.Value(attribute.Key("error.type"))
					sums[m.Name+"/"+typ.Emit()] += dp.Value
				}
			case metricdata.Histogram[float64]:
				for _, dp := range data.DataPoints {
					hist += dp.Count
				}
			}
		}
	}
	if sums["wink.tool.calls/"] != 3 || sums["wink.tool.failures/invalid_arguments"] != 1 || sums["wink.tool.failures/tool_failure"] != 1 || hist != 3 {
		t.Errorf("metrics = %v, %d durations", sums, hist)
	}
}

func TestContentOnlyWhenOptedIn(t *testing.T) {
	d, exp, _, _ := setup(t, otelwink.WithContent(true))
	d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "echo", Arguments: []byte(`{"text":"hello"}`)})
	got := attrs(spanNamed(t, exp.GetSpans(), "execute_tool echo"))
	if got["gen_ai.tool.call.arguments"] != `{"text":"hello"}` || !strings.Contains(got["gen_ai.tool.call.result"], "hello") {
		t.Errorf("content attributes = %v", got)
	}
	exp.Reset()
	d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "echo", Arguments: []byte(`{"text":"secret"}`)})
	got = attrs(spanNamed(t, exp.GetSpans(), "execute_tool echo"))
	if r, ok := got["gen_ai.tool.call.result"]; ok && strings.Contains(r, "s3cr3t") {
		t.Errorf("a value excluded from the context was recorded: %q", r)
	}
}

type fakeProvider struct{ err error }

func (p fakeProvider) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	if p.err != nil {
		return loop.Response{}, p.err
	}
	return loop.Response{Text: "hi", Usage: loop.Usage{Input: 10, Output: 3}, Stop: "stop"}, nil
}

func TestProviderSpans(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	p := otelwink.Provider(fakeProvider{}, "openai", "gpt-5", otelwink.WithTracerProvider(tp))
	if _, err := p.Complete(context.Background(), loop.Request{}); err != nil {
		t.Fatal(err)
	}
	s := spanNamed(t, exp.GetSpans(), "chat gpt-5")
	got := attrs(s)
	if got["gen_ai.operation.name"] != "chat" || got["gen_ai.usage.input_tokens"] != "10" || got["gen_ai.usage.output_tokens"] != "3" || s.SpanKind != trace.SpanKindClient {
		t.Errorf("attributes %v, kind %v", got, s.SpanKind)
	}
	exp.Reset()
	p = otelwink.Provider(fakeProvider{err: context.DeadlineExceeded}, "openai", "gpt-5", otelwink.WithTracerProvider(tp))
	if _, err := p.Complete(context.Background(), loop.Request{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatal(err)
	}
	if got := attrs(spanNamed(t, exp.GetSpans(), "chat gpt-5"))["error.type"]; got != "timeout" {
		t.Errorf("error.type = %q", got)
	}
}

func TestMCPCallContextContinuesTheTrace(t *testing.T) {
	d, exp, _, _ := setup(t)
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	ctx := otelwink.MCPCallContext(context.Background(), map[string]any{"traceparent": "00-" + traceID + "-00f067aa0ba902b7-01"})
	d.Dispatch(ctx, wink.Call{ID: "c", Name: "echo", Arguments: []byte(`{"text":"x"}`)})
	s := spanNamed(t, exp.GetSpans(), "execute_tool echo")
	if s.SpanContext.TraceID().String() != traceID || s.Parent.SpanID().String() != "00f067aa0ba902b7" {
		t.Errorf("trace %s parent %s: the client's trace was not continued", s.SpanContext.TraceID(), s.Parent.SpanID())
	}
	if got := otelwink.MCPCallContext(context.Background(), nil); got != context.Background() {
		t.Error("a nil meta changed the context")
	}
}

// BenchmarkDispatch: a dispatch without instrumentation; with Instrument over no-op providers; over the
// SDK's providers with spans not sampled (the metrics recorded); and sampling every span (a batching
// processor with a discarding exporter).
func BenchmarkDispatch(b *testing.B) {
	call := wink.Call{ID: "c", Name: "echo", Arguments: []byte(`{"text":"hello"}`)}
	noop := tracenoop.NewTracerProvider()
	reg, _ := wink.NewRegistry([]*wink.Tool{echoTool(noop)})
	b.Run("plain", func(b *testing.B) {
		d := &wink.Dispatcher{Registry: reg}
		b.ReportAllocs()
		for b.Loop() {
			d.Dispatch(context.Background(), call)
		}
	})
	b.Run("otel_noop", func(b *testing.B) {
		d := &wink.Dispatcher{Registry: reg}
		if err := otelwink.Instrument(d, otelwink.WithTracerProvider(noop), otelwink.WithMeterProvider(metricnoop.NewMeterProvider())); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			d.Dispatch(context.Background(), call)
		}
	})
	b.Run("otel_sdk_unsampled", func(b *testing.B) {
		tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample()))
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		d := &wink.Dispatcher{Registry: reg}
		if err := otelwink.Instrument(d, otelwink.WithTracerProvider(tp), otelwink.WithMeterProvider(mp)); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			d.Dispatch(context.Background(), call)
		}
	})
	b.Run("otel_sdk", func(b *testing.B) {
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discard{}))
		defer tp.Shutdown(context.Background())
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		d := &wink.Dispatcher{Registry: reg}
		if err := otelwink.Instrument(d, otelwink.WithTracerProvider(tp), otelwink.WithMeterProvider(mp)); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			d.Dispatch(context.Background(), call)
		}
	})
}

type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }

// TestMCPServerContinuesTheClientsTrace: through the official MCP client, a tools/call whose
// params._meta carries a traceparent is traced as a child of the client's span.
func TestMCPServerContinuesTheClientsTrace(t *testing.T) {
	d, exp, _, _ := setup(t)
	srv, err := mcpserver.New(d, mcpserver.WithCallContext(otelwink.MCPCallContext))
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	const traceID, parentID = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"
	params := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"},
		Meta: mcp.Meta{"traceparent": "00-" + traceID + "-" + parentID + "-01"}}
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	s := spanNamed(t, exp.GetSpans(), "execute_tool echo")
	if s.SpanContext.TraceID().String() != traceID || s.Parent.SpanID().String() != parentID {
		t.Errorf("trace %s parent %s, want %s %s", s.SpanContext.TraceID(), s.Parent.SpanID(), traceID, parentID)
	}
}

// TestConcurrentCallsGetTheirOwnSpans: calls dispatched from many goroutines (pooled span records) each
// end their own span, with their own call id.
func TestConcurrentCallsGetTheirOwnSpans(t *testing.T) {
	d, exp, _, _ := setup(t)
	const workers, per = 8, 50
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range per {
				args := `{"text":"hi"}`
				if i%5 == 0 {
					args = `{"text":"fail"}`
				}
				d.Dispatch(context.Background(), wink.Call{ID: "w" + strconv.Itoa(w) + "-" + strconv.Itoa(i), Name: "echo", Arguments: []byte(args)})
			}
		}()
	}
	for range workers {
		<-done
	}
	ids := map[string]bool{}
	failed := 0
	for _, s := range exp.GetSpans() {
		if s.Name != "execute_tool echo" {
			continue
		}
		a := attrs(s)
		ids[a["gen_ai.tool.call.id"]] = true
		if a["error.type"] == "tool_failure" {
			failed++
		}
	}
	if len(ids) != workers*per || failed != workers*per/5 {
		t.Fatalf("%d distinct call ids (want %d), %d failures (want %d)", len(ids), workers*per, failed, workers*per/5)
	}
}

// ErrorType classifies every kind of failure by its typed cause, not by text.
func TestErrorTypeClassifiesEveryFailure(t *testing.T) {
	for _, c := range []struct {
		ev   wink.ToolInvoked
		want string
	}{
		{wink.ToolInvoked{Success: true}, ""},
		{wink.ToolInvoked{Panic: "boom"}, "panic"},
		{wink.ToolInvoked{Err: context.DeadlineExceeded}, "timeout"},
		{wink.ToolInvoked{Err: context.Canceled}, "canceled"},
		{wink.ToolInvoked{Err: wink.ErrUnknownTool}, "unknown_tool"},
		{wink.ToolInvoked{Err: &wink.ArgumentsError{Tool: "t", Errors: &strictjson.Errors{}}}, "invalid_arguments"},
		{wink.ToolInvoked{Err: &wink.Denial{Reason: "no"}}, "denied"},
		{wink.ToolInvoked{Output: "Nothing found."}, "tool_failure"},
		{wink.ToolInvoked{Err: &wink.TransactionError{Tool: "t", Op: "rolling back", Err: errors.New("disk")}}, "internal"},
		{wink.ToolInvoked{Err: &wink.InvalidResultError{Tool: "t", Err: errors.New("total mismatch")},
			Output: "an output that says nothing of it"}, "invalid_result"},
		{wink.ToolInvoked{Err: errors.New("open index: no such file")}, "tool_error"},
	} {
		if got := otelwink.ErrorType(&c.ev); got != c.want {
			t.Errorf("ErrorType(%+v) = %q, want %q", c.ev, got, c.want)
		}
	}
}
