package pgstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/internal/pgtest"
	"github.com/winkgen/wink/runtime/session"
)

// TestLockTimeoutBoundsTheSessionLockWait: a call holds a session's row lock and never commits (its
// worker stopped); a call on the same session from another process (another Session on the store)
// fails once LockTimeout has passed, saying why, instead of waiting for ever; once the first call
// commits, the session is open again.
func TestLockTimeoutBoundsTheSessionLockWait(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st := newStore(t, pgtest.DSN(t))
	st.LockTimeout = 200 * time.Millisecond
	holder := session.New(session.WithID("locked"), session.WithStore(st))
	tx, err := holder.Begin(ctx, session.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.End(ctx); err != nil {
		t.Fatal(err)
	}
	tx, err = holder.Begin(ctx, session.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.End(context.Background()) // the pool closes only once its connections are back
	other := session.New(session.WithID("locked"), session.WithStore(st))
	start := time.Now()
	_, err = other.Begin(ctx, session.ReadWrite)
	waited := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "LockTimeout") {
		t.Fatalf("want the lock wait to fail with its bound, got %v after %v", err, waited)
	}
	if waited > 5*time.Second {
		t.Fatalf("the lock wait took %v with a bound of 200ms", waited)
	}
	if err := tx.End(ctx); err != nil {
		t.Fatal(err)
	}
	tx2, err := other.Begin(ctx, session.ReadWrite)
	if err != nil {
		t.Fatalf("after the holder committed: %v", err)
	}
	if err := tx2.End(ctx); err != nil {
		t.Fatal(err)
	}
}
