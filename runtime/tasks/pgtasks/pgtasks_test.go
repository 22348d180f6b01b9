package pgtasks_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/internal/pgtest"
	"github.com/winkgen/wink/runtime/tasks"
	"github.com/winkgen/wink/runtime/tasks/pgtasks"
	"github.com/winkgen/wink/runtime/wink"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// stores are the two Store implementations, each fresh.
func stores(t *testing.T) map[string]tasks.Store {
	pool, err := pgxpool.New(context.Background(), pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	pg, err := pgtasks.New(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]tasks.Store{"memory": tasks.NewMemoryStore(), "postgres": pg}
}

// TestStoreFencesAWorkerWhoseLeaseWasTakenOver: a claim whose lease ran out is taken by another worker;
// the first worker's writes are refused (ErrLost); input requests keep their answers across the
// takeover, and so do who the task acts for and its client's session; a cancelled task refuses an
// outcome.
func TestStoreFencesAWorkerWhoseLeaseWasTakenOver(t *testing.T) {
	ctx := context.Background()
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			exp := time.Unix(1900000000, 0)
			tok1, err := st.Create(ctx, tasks.Task{ID: "t1", Tool: "slow", Arguments: []byte(`{}`), TTL: time.Hour, Session: "mcp-session-1",
				Principal: &wink.Principal{Subject: "alice", Issuer: "https://issuer.test", ClientID: "app", Scopes: []string{"a", "b"}, Expires: exp,
					Claims: map[string]any{"secret": "never stored"}}}, "a", time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Create(ctx, tasks.Task{ID: "t1", Tool: "slow", Arguments: []byte(`{}`)}, "a", time.Second); !errors.Is(err, tasks.ErrExists) {
				t.Fatalf("second Create of t1: %v, want ErrExists", err)
			}
			if _, ok, _ := st.Ask(ctx, "t1", tok1, "k0", []byte(`{"method":"elicitation/create"}`)); ok {
				t.Fatal("k0 answered before it was asked")
			}
			if err := st.Answer(ctx, "t1", map[string][]byte{"k0": []byte(`{"action":"accept"}`), "unknown": []byte(`{}`)}); err != nil {
				t.Fatal(err)
			}
			if _, ok, err := st.Claim(ctx, "b", time.Second); ok || err != nil {
				t.Fatalf("claimed a task whose lease runs: %v %v", ok, err)
			}
			if _, err := st.Renew(ctx, "t1", tok1, time.Millisecond); err != nil { // a's lease runs out
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond)
			got, ok, err := st.Claim(ctx, "b", time.Minute)
			if !ok || err != nil || got.ID != "t1" || got.Owner != "b" || got.Attempts != 2 || got.Status != tasks.Working {
				t.Fatalf("takeover: %+v %v %v", got, ok, err)
			}
			// Who the task acts for and its client's session reach the worker that took it over; the
			// principal's claims are not kept.
			if p := got.Principal; got.Session != "mcp-session-1" || p == nil || p.Subject != "alice" || p.Issuer != "https://issuer.test" ||
				p.ClientID != "app" || len(p.Scopes) != 2 || p.Scopes[1] != "b" || !p.Expires.Equal(exp) || p.Claims != nil {
				t.Fatalf("the taken-over task's session %q and principal %+v", got.Session, got.Principal)
			}
			if ans, ok, err := st.Ask(ctx, "t1", got.Token, "k0", []byte(`{}`)); !ok || err != nil || string(ans) != `{"action":"accept"}` {
				t.Fatalf("asking k0 again after the takeover: %q %v %v", ans, ok, err)
			}
			if _, err := st.Finish(ctx, "t1", tok1, tasks.Completed, []byte(`{}`)); !errors.Is(err, tasks.ErrLost) {
				t.Fatalf("the old worker's Finish: %v, want ErrLost", err)
			}
			if _, err := st.Renew(ctx, "t1", tok1, time.Second); !errors.Is(err, tasks.ErrLost) {
				t.Fatalf("the old worker's Renew: %v, want ErrLost", err)
			}
			if err := st.Cancel(ctx, "t1"); err != nil {
				t.Fatal(err)
			}
			if s, err := st.Renew(ctx, "t1", got.Token, time.Second); err != nil || s != tasks.Cancelled {
				t.Fatalf("Renew after cancel: %v %v", s, err)
			}
			if done, err := st.Finish(ctx, "t1", got.Token, tasks.Completed, []byte(`{}`)); done || err != nil {
				t.Fatalf("Finish of a cancelled task: %v %v", done, err)
			}
			if _, err := st.Get(ctx, "nope"); !errors.Is(err, tasks.ErrNotFound) {
				t.Fatalf("Get of an unknown task: %v", err)
			}
		})
	}
}
