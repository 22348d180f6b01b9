package wink_test

import (
	"context"
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
