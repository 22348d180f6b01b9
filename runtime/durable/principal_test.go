package durable_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/scopetest"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/wink"
)

// TestExpiredPrincipal: a run whose principal's token has expired takes no further step unless
// Engine.Reauthorize renews it: without one (or when it refuses, or answers for another subject) the
// run ends Failed saying so, before any model call; a renewed principal's scopes apply from then on.
func TestExpiredPrincipal(t *testing.T) {
	expired := &wink.Principal{Subject: "alice", Issuer: "https://as.example", Scopes: []string{"tickets:read"},
		Expires: time.Now().Add(-time.Second)}
	run := func(t *testing.T, reauth durable.Reauthorize) (durable.Status, *scopetest.Model) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		m := &scopetest.Model{}
		eng := &durable.Engine{Store: durable.NewMemoryStore(), Agent: scopetest.Agent(m, nil), Reauthorize: reauth}
		if _, err := eng.Start(ctx, "r", []loop.Message{loop.UserMessage("Close ticket 7.")}, durable.StartOptions{Principal: expired}); err != nil {
			t.Fatal(err)
		}
		for {
			if ran, err := eng.RunOne(ctx); err != nil || !ran {
				break
			}
		}
		s, err := eng.Status(ctx, "r")
		if err != nil {
			t.Fatal(err)
		}
		return s, m
	}
	failed := func(t *testing.T, s durable.Status, m *scopetest.Model, want string) {
		t.Helper()
		if s.State != durable.Failed || !strings.Contains(s.Err, want) || len(m.Offered) != 0 {
			t.Fatalf("state %s, err %q, %d model calls; want failed with %q and no model call", s.State, s.Err, len(m.Offered), want)
		}
	}
	t.Run("no reauthorize", func(t *testing.T) {
		s, m := run(t, nil)
		failed(t, s, m, "acts for subject alice of https://as.example, whose token expired at")
	})
	t.Run("refused", func(t *testing.T) {
		s, m := run(t, func(context.Context, durable.Run, *wink.Principal) (*wink.Principal, error) { return nil, nil })
		failed(t, s, m, "whose token expired at")
	})
	t.Run("another subject", func(t *testing.T) {
		s, m := run(t, func(context.Context, durable.Run, *wink.Principal) (*wink.Principal, error) {
			return &wink.Principal{Subject: "mallory", Issuer: "https://as.example", Scopes: []string{"tickets:write"}}, nil
		})
		failed(t, s, m, "the run acts for one caller")
	})
	t.Run("renewed", func(t *testing.T) {
		var asked []*wink.Principal
		before := scopetest.Closed.Load()
		s, m := run(t, func(_ context.Context, r durable.Run, p *wink.Principal) (*wink.Principal, error) {
			asked = append(asked, p)
			return &wink.Principal{Subject: p.Subject, Issuer: p.Issuer, Scopes: []string{"tickets:read", "tickets:write"},
				Expires: time.Now().Add(time.Hour)}, nil
		})
		if s.State != durable.Done || !s.Messages[2].Result.Success || scopetest.Closed.Load() != before+1 {
			t.Fatalf("renewed: %s %q %+v", s.State, s.Err, s.Messages)
		}
		if len(asked) != 1 || asked[0].Subject != "alice" {
			t.Fatalf("Reauthorize asked %d times (%v), want once per claim", len(asked), asked)
		}
		if got := strings.Join(m.Offered[0], ","); got != "close_ticket,read_ticket" {
			t.Fatalf("offered %s with the renewed scopes", got)
		}
	})
	t.Run("transient", func(t *testing.T) {
		ctx := context.Background()
		eng := &durable.Engine{Store: durable.NewMemoryStore(), Agent: scopetest.Agent(&scopetest.Model{}, nil),
			Reauthorize: func(context.Context, durable.Run, *wink.Principal) (*wink.Principal, error) {
				return nil, errors.New("directory down")
			}}
		if _, err := eng.Start(ctx, "r", []loop.Message{loop.UserMessage("Close ticket 7.")}, durable.StartOptions{Principal: expired}); err != nil {
			t.Fatal(err)
		}
		if _, err := eng.RunOne(ctx); err != nil {
			t.Fatal(err)
		}
		if s, _ := eng.Status(ctx, "r"); s.State != durable.Running || !strings.Contains(s.Err, "directory down") {
			t.Fatalf("a failing Reauthorize: %s %q, want the run given back to retry", s.State, s.Err)
		}
	})
}

// TestPrincipalCodec: the stored form keeps the subject, client, issuer, scopes and expiry, and no
// claims; a truncated form is corrupt.
func TestPrincipalCodec(t *testing.T) {
	p := &wink.Principal{Subject: "s", ClientID: "c", Issuer: "i", Scopes: []string{"a", "b:c"}, Expires: time.Unix(1700000000, 5),
		Claims: map[string]any{"x": 1}}
	b := durable.EncodePrincipal(p)
	q, err := durable.DecodePrincipal(b)
	if err != nil || q.Subject != "s" || q.ClientID != "c" || q.Issuer != "i" || strings.Join(q.Scopes, " ") != "a b:c" ||
		!q.Expires.Equal(p.Expires) || q.Claims != nil {
		t.Fatalf("round trip: %+v %v", q, err)
	}
	if durable.EncodePrincipal(nil) != nil {
		t.Fatal("nil principal encoded")
	}
	if q, err := durable.DecodePrincipal(nil); q != nil || err != nil {
		t.Fatalf("empty: %v %v", q, err)
	}
	if _, err := durable.DecodePrincipal(b[:len(b)-3]); err == nil {
		t.Fatal("a truncated principal decoded")
	}
}
