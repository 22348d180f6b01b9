package wink_test

import (
	"context"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
	tt "github.com/winkgen/wink/runtime/wink/internal/winktest"
)

// Session-scoped custom keys stay private to their session whatever the session's id holds: a session
// whose id contains the key separator is never answered with another session's recorded result.
func TestSessionScopedCustomKeysAreNotSharedAcrossSessionsWithSeparatorsInTheirIDs(t *testing.T) {
	reg := wink.MustRegistry(tt.WinkTools())
	l := ledger.NewMemory()
	tt.Counters.Ping.Store(0)
	// "a" calling ping with id "b:ping:c" and "a:ping:b" calling ping with id "c" joined without
	// escaping to the same "session.a:ping:b:ping:c".
	pairs := []struct{ session, id string }{
		{"a", "b:ping:c"}, {"a:ping:b", "c"},
		{"x", "ping:%3A"}, {"x:ping", "%3A"}, {"x%3Aping", "%3A"}, {"x%", "3A:ping:y"},
	}
	seen := map[string]bool{}
	for i, p := range pairs {
		d := &wink.Dispatcher{Registry: reg, Ledger: l, Session: session.New(session.WithID(p.session))}
		out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "ping", Arguments: []byte(`{"id":` + quote(p.id) + `,"n":1}`)})
		if err != nil || !out.Success {
			t.Fatalf("pair %d: %+v %v", i, out, err)
		}
		if out.Replayed {
			t.Errorf("session %q, ping %q: replayed another session's result %q", p.session, p.id, out.Output)
		}
		if seen[out.Output] {
			t.Errorf("session %q: output %q given twice", p.session, out.Output)
		}
		seen[out.Output] = true
	}
}

func quote(s string) string {
	b := []byte{'"'}
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return string(append(b, '"'))
}

// TestFreeFormSpellingsShareOneIdempotencyKey: a wink.RawJSON field is part of the automatic key by its
// canonical form (RFC 8785), so the same value reordered, re-indented, escaped or with numbers written
// otherwise replays the first call instead of running the effect again, while a different value runs,
// and a value with a member given twice never runs at all.
func TestFreeFormSpellingsShareOneIdempotencyKey(t *testing.T) {
	reg := wink.MustRegistry(tt.WinkTools())
	d := &wink.Dispatcher{Registry: reg, Ledger: ledger.NewMemory(), Session: session.New(session.WithID("s"))}
	tt.Counters.Transfer.Store(0)
	call := func(args string) wink.Outcome {
		t.Helper()
		out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "transfer", Arguments: []byte(args)})
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		return out
	}
	first := call(`{"to":"bob","amount":100,"meta":{"ref":"inv-7","tags":["a","b"],"n":100}}`)
	if !first.Success || first.Replayed {
		t.Fatalf("first call: %+v", first)
	}
	for _, args := range []string{
		`{"to":"bob","amount":100,"meta":{"n":100,"tags":["a","b"],"ref":"inv-7"}}`,
		"{\"meta\":{ \"ref\" :\n \"inv\\u002d7\", \"tags\":[\"\\u0061\",\"b\"], \"n\":1e2 },\"amount\":100,\"to\":\"bob\"}",
		`{"to":"bob","amount":100,"meta":{"ref":"inv-7","tags":["a","b"],"n":100.0}}`,
	} {
		if out := call(args); !out.Success || !out.Replayed {
			t.Errorf("%s: ran again (%+v)", args, out)
		}
	}
	if n := tt.Counters.Transfer.Load(); n != 1 {
		t.Errorf("the transfer ran %d times, want once", n)
	}
	if out := call(`{"to":"bob","amount":100,"meta":{"ref":"inv-8","tags":["a","b"],"n":100}}`); !out.Success || out.Replayed {
		t.Errorf("another value was replayed: %+v", out)
	}
	out := call(`{"to":"bob","amount":100,"meta":{"ref":"inv-9","ref":"inv-7"}}`)
	if out.Success || !strings.Contains(out.Output, "duplicate member") || tt.Counters.Transfer.Load() != 2 {
		t.Errorf("a repeated member: %+v (runs %d)", out, tt.Counters.Transfer.Load())
	}
}
