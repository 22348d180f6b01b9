package otelwink_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/otelwink"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// Sentinels: one in the arguments, one in what the handler outputs (results, failure messages, panic
// values), one in error texts (handler errors, denials, holds, transaction and validation errors).
const (
	argSecret = "ARG-SENTINEL-7f3a"
	outSecret = "OUT-SENTINEL-91c2"
	errSecret = "ERR-SENTINEL-5d08"
)

type leakParams struct{ Mode, Text string }

// leakResult fails Validate when it holds "invalid".
type leakResult struct{ Text string }

func (r *leakResult) Validate() error {
	if strings.Contains(r.Text, "invalid") {
		return errors.New("result check failed: " + errSecret)
	}
	return nil
}

// leakTool behaves by its mode: every path puts a sentinel in what it returns.
func leakTool() *wink.Tool {
	spec := wink.Spec{Name: "leak", Description: "Fails in every way.", ParamsSchema: []byte(`{"type":"object"}`)}
	return wink.NewTool(spec, &wink.Funcs[leakParams, leakResult]{
		Decode: func(d *strictjson.Decoder, p *leakParams) {
			if !d.ObjectStart() {
				return
			}
			for d.NextKey() {
				switch d.KeyString() {
				case "mode":
					p.Mode, _ = d.String()
				case "text":
					p.Text, _ = d.String()
				default:
					d.Unknown([]string{"mode", "text"})
				}
			}
			d.ObjectEnd()
		},
		EncodeResult: func(dst []byte, v *leakResult) []byte { return strictjson.AppendString(dst, v.Text) },
		Handler: func(tc *wink.ToolContext, p leakParams) (wink.ToolResult[leakResult], error) {
			out := leakResult{Text: outSecret + " file contents " + p.Text}
			switch p.Mode {
			case "failure":
				r := wink.Failure[leakResult]("printed: " + outSecret + " " + p.Text)
				r.Value, r.HasValue = out, true
				return r, nil
			case "error":
				return wink.ToolResult[leakResult]{}, errors.New("open " + errSecret + " " + p.Text)
			case "panic":
				panic("boom " + errSecret + " " + p.Text)
			case "deadline":
				<-tc.Done()
				return wink.ToolResult[leakResult]{}, errors.Join(errors.New(errSecret+" "+p.Text), tc.Err())
			case "elicit":
				form := &wink.Form[leakParams]{Name: "Answer", Schema: []byte(`{"type":"object","properties":{}}`),
					Decode: func(d *strictjson.Decoder, v *leakParams) { d.Skip() }}
				if _, _, err := wink.Elicit(tc, "Which file? "+outSecret+" "+p.Text, form); err != nil {
					return wink.ToolResult[leakResult]{}, err
				}
				return wink.OK(out, ""), nil
			case "invalid":
				return wink.OK(leakResult{Text: "invalid " + outSecret + " " + p.Text}, outSecret), nil
			}
			return wink.OK(out, "done: "+outSecret), nil
		},
	})
}

type leakPolicy struct{}

func (leakPolicy) Name() string { return "leak-policy" }
func (leakPolicy) Check(_ *wink.ToolContext, _ *wink.Tool, params any) wink.Decision {
	switch params.(leakParams).Mode {
	case "deny":
		return wink.Deny("not allowed: "+errSecret, "try "+errSecret)
	case "hold":
		return wink.Hold("a person must approve: " + errSecret)
	}
	return wink.Allow()
}
func (leakPolicy) OnResult(_ *wink.ToolContext, _ *wink.Tool, params any, out *wink.Outcome) {
	if params.(leakParams).Mode == "onresult" {
		out.Success, out.Output = false, "refused after the fact: "+errSecret
	}
}

// TestNoContentReachesTelemetryWithoutOptIn dispatches a call down every error path with sentinels in the
// arguments, in the handler's output and in every error text, and reads back every span (name,
// attributes, events, links, status) and every metric data point: none may hold a sentinel unless content
// recording is on. With it on, the same calls do record them (the test sees what it looks for).
func TestNoContentReachesTelemetryWithoutOptIn(t *testing.T) {
	type path struct {
		name, mode, errType string
		args                string // raw arguments when not the default
		ctx                 func() (context.Context, context.CancelFunc)
		begin, rollback     bool // the Begin hook fails; the rollback fails
		check               bool // the Check hook denies
	}
	paths := []path{
		{name: "success", mode: "ok"},
		{name: "invalid arguments", args: `{"mode":"ok","text":"` + argSecret + `","` + argSecret + `":1}`, errType: "invalid_arguments"},
		{name: "failure result", mode: "failure", errType: "tool_failure"},
		{name: "handler error", mode: "error", errType: "tool_error"},
		{name: "panic", mode: "panic", errType: "panic"},
		{name: "policy denial", mode: "deny", errType: "denied"},
		{name: "check hook denial", mode: "ok", check: true, errType: "denied"},
		{name: "held call", mode: "hold", errType: "held"},
		{name: "held for an elicitation", mode: "elicit", errType: "held"},
		{name: "deadline", mode: "deadline", errType: "timeout", ctx: func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 20*time.Millisecond)
		}},
		{name: "canceled", mode: "deadline", errType: "canceled", ctx: func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(20*time.Millisecond, cancel)
			return ctx, cancel
		}},
		{name: "invalid result", mode: "invalid", errType: "invalid_result"},
		{name: "policy OnResult failure", mode: "onresult", errType: "tool_failure"},
		{name: "transaction cannot start", mode: "ok", begin: true, errType: "internal"},
		{name: "rollback fails", mode: "error", rollback: true, errType: "internal"},
	}
	for _, content := range []bool{false, true} {
		for _, c := range paths {
			t.Run(c.name+map[bool]string{false: "", true: " with content"}[content], func(t *testing.T) {
				exp := tracetest.NewInMemoryExporter()
				tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
				reader := sdkmetric.NewManualReader()
				mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
				d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{leakTool()}), Policies: []wink.Policy{leakPolicy{}}, Session: session.New()}
				if c.check {
					d.Hooks.Check = func(*wink.ToolContext, *wink.Tool, any) *wink.Denial {
						return &wink.Denial{Policy: "hook", Reason: "hook says no: " + errSecret}
					}
				}
				if c.begin || c.rollback {
					d.Hooks.Begin = func(*wink.ToolContext, *wink.Tool) (func() error, error) {
						if c.begin {
							return nil, errors.New("snapshot failed: " + errSecret)
						}
						return func() error { return errors.New("restore failed: " + errSecret) }, nil
					}
				}
				if err := otelwink.Instrument(d, otelwink.WithTracerProvider(tp), otelwink.WithMeterProvider(mp), otelwink.WithContent(content)); err != nil {
					t.Fatal(err)
				}
				args := c.args
				if args == "" {
					args = `{"mode":"` + c.mode + `","text":"` + argSecret + `"}`
				}
				ctx, cancel := context.Background(), context.CancelFunc(func() {})
				if c.ctx != nil {
					ctx, cancel = c.ctx()
				}
				defer cancel()
				out, err := d.Dispatch(ctx, wink.Call{ID: "call-1", Name: "leak", Arguments: []byte(args)})
				// The sentinels did reach the dispatcher's answer (or its error): the test would see a leak.
				seen := out.Output
				if err != nil {
					seen += err.Error()
				}
				if c.name != "success" && !strings.Contains(seen, argSecret) && !strings.Contains(seen, outSecret) && !strings.Contains(seen, errSecret) {
					t.Fatalf("no sentinel in the call's answer %q: this path tests nothing", seen)
				}
				spans := exp.GetSpans()
				s := spanNamed(t, spans, "execute_tool leak")
				if got := attrs(s)["error.type"]; got != c.errType {
					t.Errorf("error.type = %q, want %q", got, c.errType)
				}
				if (c.errType != "") != (s.Status.Code == codes.Error) {
					t.Errorf("status %v", s.Status)
				}
				recorded := telemetryText(t, spans, reader)
				leaked := strings.Contains(recorded, argSecret) || strings.Contains(recorded, outSecret) || strings.Contains(recorded, errSecret)
				if !content && leaked {
					t.Errorf("content reached the telemetry without WithContent:\n%s", recorded)
				}
				if !content && c.errType != "" && s.Status.Description != "tool call failed: "+c.errType {
					t.Errorf("status description %q", s.Status.Description)
				}
				if content && !leaked {
					t.Errorf("with WithContent(true), nothing of the call was recorded:\n%s", recorded)
				}
			})
		}
	}
}

// TestProviderErrorsCarryNoContent: a model call's error text (which may quote the request) reaches the
// span only with WithContent(true).
func TestProviderErrorsCarryNoContent(t *testing.T) {
	for _, content := range []bool{false, true} {
		exp := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		p := otelwink.Provider(fakeProvider{err: errors.New("400: bad request: " + argSecret)}, "openai", "gpt-5",
			otelwink.WithTracerProvider(tp), otelwink.WithContent(content))
		if _, err := p.Complete(context.Background(), loop.Request{}); err == nil {
			t.Fatal("no error")
		}
		recorded := telemetryText(t, exp.GetSpans(), nil)
		if leaked := strings.Contains(recorded, argSecret); leaked != content {
			t.Errorf("content %v: leaked %v:\n%s", content, leaked, recorded)
		}
		if s := spanNamed(t, exp.GetSpans(), "chat gpt-5"); !content && s.Status.Description != "model call failed: provider_error" {
			t.Errorf("status %v", s.Status)
		}
	}
}

// telemetryText is every text the exporters hold: span names, attributes, events and their attributes,
// links, statuses, and the metrics' names and attributes.
func telemetryText(t *testing.T, spans tracetest.SpanStubs, reader *sdkmetric.ManualReader) string {
	t.Helper()
	var b strings.Builder
	kvs := func(set []attribute.KeyValue) {
		for _, kv := range set {
			b.WriteString(string(kv.Key) + "=" + kv.Value.Emit() + "\n")
		}
	}
	for _, s := range spans {
		b.WriteString("span " + s.Name + " status " + s.Status.Description + "\n")
		kvs(s.Attributes)
		for _, e := range s.Events {
			b.WriteString("event " + e.Name + "\n")
			kvs(e.Attributes)
		}
		for _, l := range s.Links {
			kvs(l.Attributes)
		}
	}
	if reader != nil {
		var rm metricdata.ResourceMetrics
		if err := reader.Collect(context.Background(), &rm); err != nil {
			t.Fatal(err)
		}
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				b.WriteString("metric " + m.Name + "\n")
				switch data := m.Data.(type) {
				case metricdata.Sum[int64]:
					for _, dp := range data.DataPoints {
						kvs(dp.Attributes.ToSlice())
					}
				case metricdata.Histogram[float64]:
					for _, dp := range data.DataPoints {
						kvs(dp.Attributes.ToSlice())
					}
				}
			}
		}
	}
	return b.String()
}
