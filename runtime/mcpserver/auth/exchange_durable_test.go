package auth_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/wink"
)

// exchangeModel calls call_orders once, then stops.
type exchangeModel struct{}

func (exchangeModel) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	for _, m := range req.Messages {
		if m.Role == loop.RoleTool {
			return loop.Response{Text: "done", Stop: "stop"}, nil
		}
	}
	return loop.Response{ToolCalls: []wink.Call{{ID: "c1", Name: "call_orders", Arguments: []byte(`{}`)}}, Stop: "tool_calls"}, nil
}

// TestExchangeInADurableRunOnAWorker: a durable run started in a request the resource server accepted
// keeps its caller's principal but never the token. Driven with the request's context, its step
// exchanges the caller's token; on a worker driving it later (a bare context, as Work and a takeover
// have), the step acts for the same caller and the exchange fails with ErrNoInboundToken saying what to
// do, and nothing reaches the token endpoint.
func TestExchangeInADurableRunOnAWorker(t *testing.T) {
	as := startGoAS(t)
	k := as.key(t, "k1", true)
	te := startTokenEndpoint(t, 3600)
	srv, err := auth.New(auth.Config{Issuer: as.hs.URL, Resource: "https://mcp.example.com/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	tok := as.tokenFor(t, k, "k1", "https://mcp.example.com/mcp")
	te.allow(tok)
	ex, err := auth.NewExchanger(auth.ExchangeConfig{Issuer: as.hs.URL, TokenURL: te.hs.URL, ClientID: exchangeClient,
		ClientSecret: exchangeSecret, Audience: upstreamAudience, Resource: upstreamAudience + "/api"})
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		who string
		err error
	}
	var mu sync.Mutex
	var got []seen
	tool := wink.NewTool(*callOrdersTool.Spec(), &wink.Funcs[wink.NoParams, upstreamResult]{
		Decode: wink.DecodeNoParams, EncodeParams: wink.EncodeNoParams,
		EncodeResult: func(dst []byte, v *upstreamResult) []byte { return append(dst, `{"token":"","err":""}`...) },
		Handler: func(tc *wink.ToolContext, _ wink.NoParams) (wink.ToolResult[upstreamResult], error) {
			_, err := ex.Token(tc, "orders:read")
			s := seen{err: err}
			if p := tc.Principal(); p != nil {
				s.who = p.Subject
			}
			mu.Lock()
			got = append(got, s)
			mu.Unlock()
			return wink.OK(upstreamResult{}, "ok"), nil
		},
	})
	reg := wink.MustRegistry([]*wink.Tool{tool})
	store := durable.NewMemoryStore()
	engine := func(worker string) *durable.Engine {
		return &durable.Engine{Store: store, Worker: worker, Agent: func(context.Context, durable.Run) (loop.Config, error) {
			return loop.Config{Provider: exchangeModel{}, Dispatcher: &wink.Dispatcher{Registry: reg}}, nil
		}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	drive := func(ctx context.Context, e *durable.Engine, id string) {
		t.Helper()
		if ran, err := e.RunOne(ctx); err != nil || !ran {
			t.Fatalf("%s: ran %v, %v", id, ran, err)
		}
		if s, err := e.Status(ctx, id); err != nil || s.State != durable.Done {
			t.Fatalf("%s: %+v %v", id, s, err)
		}
	}
	inRequest(t, srv, tok, func(req context.Context) {
		for _, id := range []string{"live", "later"} {
			if _, err := engine("api").Start(req, id, []loop.Message{loop.UserMessage("List my orders.")}, durable.StartOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		drive(context.WithoutCancel(req), engine("api"), "live") // while the request is live, with its context
	})
	drive(ctx, engine("worker-b"), "later") // on a worker, later
	if len(got) != 2 {
		t.Fatalf("%d tool calls, want 2", len(got))
	}
	if got[0].err != nil || got[0].who != "erin" {
		t.Fatalf("the step driven with the request's context: %+v", got[0])
	}
	if got[1].who != "erin" || !errors.Is(got[1].err, auth.ErrNoInboundToken) || te.calls.Load() != 1 {
		t.Fatalf("the step on a worker: %+v (%d exchanges); want the caller restored and ErrNoInboundToken", got[1], te.calls.Load())
	}
	for _, want := range []string{`acts for subject "erin"`, "never stored", "durable run resumed on another worker",
		"before starting the run", "client-credentials"} {
		if !strings.Contains(got[1].err.Error(), want) {
			t.Errorf("the error %q does not say %q", got[1].err, want)
		}
	}
}
