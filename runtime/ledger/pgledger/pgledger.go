// Package pgledger is the idempotency ledger on PostgreSQL (through github.com/jackc/pgx/v5): the
// workers of a fleet share it, so an idempotent call's effect happens once whichever worker gets it,
// and recorded results survive restarts.
//
//	l, err := pgledger.New(ctx, pool)
//	d := &wink.Dispatcher{Registry: reg, Ledger: l}
//
// Do claims the key with one atomic statement (an INSERT that only a free or abandoned key accepts):
// the claimant runs the handler while the others wait, polling, and replay its recorded result. A claim
// carries a lease (Lease, 30 s by default) that the claimant renews while its handler runs; when a
// claimant dies, its lease runs out and the next caller takes the call over. Only successes are
// recorded; a failure releases the claim, and a waiter runs the handler in turn. TTLs are measured with
// the caller's clock (the now func Do is given), leases with the database's.
//
// Atomic with the session. Through the dispatcher (DoTx), a success is recorded in the transaction of
// the session's commit when the session is kept by pgstore on the same pool: one PostgreSQL transaction
// writes the session's changes and the record, so a replay can never stand for a change that was not
// kept. On another pool, the record is made right after the commit. No call holds one connection while
// waiting for another, so a small pool shared by the store and the ledger serves many concurrent
// calls. A claim's owner token, fresh for every claim, fences the record: a claimant that outlived its
// lease (paused past it) and lost the claim to another caller has its record refused
// (*ledger.LostClaimError), so its session commit does not happen and it is answered with the error.
// The guarantees per kind of effect are in the ledger package's documentation.
//
// What a replay from the database carries: the message and the rendered output (what the model sees);
// Entry.Value, the typed result, is nil, since the value's Go type is not stored. A negative TTL (share
// the result with waiters without recording it) cannot cross processes: the claim is released and a
// waiter runs the handler itself.
//
// The Ledger methods without an error result (Lookup, Invalidate, InvalidateTool, PruneExpired, Clear)
// treat a database error as a miss or as nothing done; their *Context forms return the error.
package pgledger

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/runtime/ledger"
)

//go:embed schema.sql
var schema string

const migrationLock = 0x776c6467 // "wldg"

// DefaultLease is how long a claim holds without renewal.
const DefaultLease = 30 * time.Second

// DefaultPoll is how often a waiting caller looks at the key again.
const DefaultPoll = 20 * time.Millisecond

// Ledger is a ledger.Doer on PostgreSQL. It is safe for concurrent use.
type Ledger struct {
	pool *pgxpool.Pool
	// Lease is how long a claim holds without renewal (DefaultLease when zero).
	Lease time.Duration
	// Poll is how often a waiting caller looks again (DefaultPoll when zero).
	Poll time.Duration
	// OpTimeout bounds the methods that take no context (5 s when zero).
	OpTimeout time.Duration
}

var _ ledger.TxDoer = (*Ledger)(nil)

// New applies the ledger's schema on pool's database (idempotent, under an advisory lock, so workers
// may start together) and returns the ledger.
func New(ctx context.Context, pool *pgxpool.Pool) (*Ledger, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, errors.New("pgledger: connecting to the database: " + err.Error())
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return nil, errors.New("pgledger: migrating: " + err.Error())
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	if _, err := conn.Exec(ctx, schema); err != nil {
		return nil, errors.New("pgledger: migrating: " + err.Error())
	}
	return &Ledger{pool: pool}, nil
}

func (l *Ledger) lease() time.Duration {
	if l.Lease > 0 {
		return l.Lease
	}
	return DefaultLease
}

func (l *Ledger) poll() time.Duration {
	if l.Poll > 0 {
		return l.Poll
	}
	return DefaultPoll
}

func (l *Ledger) opCtx() (context.Context, context.CancelFunc) {
	d := l.OpTimeout
	if d <= 0 {
		d = 5 * time.Second
	}
	return context.WithTimeout(context.Background(), d)
}

func millis(d time.Duration) int64 { return d.Milliseconds() }

// Do implements ledger.Doer across processes; see the package documentation.
func (l *Ledger) Do(ctx context.Context, key, tool string, ttl time.Duration, now func() time.Time,
	fn func() (ledger.Entry, bool)) (ledger.Entry, bool, error) {
	return l.DoTx(ctx, key, tool, ttl, now, func() (ledger.Entry, bool, ledger.Txn) {
		e, ok := fn()
		return e, ok, nil
	})
}

// DoTx implements ledger.TxDoer: a success whose transaction is a session's commit on this ledger's
// pool is recorded in that same PostgreSQL transaction; on another database, right after it commits.
func (l *Ledger) DoTx(ctx context.Context, key, tool string, ttl time.Duration, now func() time.Time,
	fn func() (ledger.Entry, bool, ledger.Txn)) (ledger.Entry, bool, error) {
	if now == nil {
		now = time.Now
	}
	if key == "" {
		e, _, _ := fn()
		return e, false, nil
	}
	owner := newOwner()
	for {
		e, found, err := l.lookup(ctx, key, now())
		if err != nil {
			return ledger.Entry{}, false, err
		}
		if found {
			return e, true, nil
		}
		claimed, err := l.claim(ctx, key, tool, owner)
		if err != nil {
			return ledger.Entry{}, false, err
		}
		if claimed {
			return l.run(ctx, key, tool, owner, ttl, now, fn)
		}
		select {
		case <-ctx.Done():
			return ledger.Entry{}, false, ctx.Err()
		case <-time.After(l.poll()):
		}
	}
}

// claim takes key for owner when it is free, or held by a claim whose lease has run out. owner, fresh
// for every claim, is the claim's fencing token: a record is made only under it (record).
func (l *Ledger) claim(ctx context.Context, key, tool, owner string) (bool, error) {
	tag, err := l.pool.Exec(ctx, `INSERT INTO wink_ledger (key, tool, state, owner, lease_until)
		VALUES ($1, $2, 'claimed', $3, clock_timestamp() + $4 * interval '1 millisecond')
		ON CONFLICT (key) DO UPDATE SET tool = EXCLUDED.tool, owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until
		WHERE wink_ledger.state = 'claimed' AND wink_ledger.lease_until < clock_timestamp()`,
		key, tool, owner, millis(l.lease()))
	if err != nil {
		return false, errors.New("pgledger: claiming " + strconv.Quote(key) + ": " + err.Error())
	}
	return tag.RowsAffected() == 1, nil
}

// renew renews owner's lease on key every third of the lease until stop is called.
func (l *Ledger) renew(key, owner string) (stop func()) {
	quit := make(chan struct{})
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		t := time.NewTicker(l.lease() / 3)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				rctx, cancel := context.WithTimeout(context.Background(), l.lease()/3)
				_, _ = l.pool.Exec(rctx, `UPDATE wink_ledger SET lease_until = clock_timestamp() + $3 * interval '1 millisecond'
					WHERE key = $1 AND owner = $2 AND state = 'claimed'`, key, owner, millis(l.lease()))
				cancel()
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(quit)
			<-renewed
		})
	}
}

// run runs fn under owner's claim, renewing its lease, and records a success: in fn's transaction
// when it returns one (pending), else at once.
func (l *Ledger) run(ctx context.Context, key, tool, owner string, ttl time.Duration, now func() time.Time,
	fn func() (ledger.Entry, bool, ledger.Txn)) (e ledger.Entry, replayed bool, err error) {
	stop := l.renew(key, owner)
	finished, handed := false, false
	defer func() {
		if handed {
			return // the pending record stops the renewal and releases the claim
		}
		stop()
		if !finished { // fn panicked: release the claim, then let the panic go on
			l.release(key, owner)
		}
	}()
	e, ok, txn := fn()
	finished = true
	if !ok || ttl < 0 {
		l.release(key, owner)
		return e, false, nil
	}
	e.Key, e.Tool, e.Recorded = key, tool, now()
	e.Expires = time.Time{}
	if ttl > 0 {
		e.Expires = e.Recorded.Add(ttl)
	}
	if txn != nil {
		txn.Join(&pending{l: l, key: key, owner: owner, e: e, stop: stop})
		handed = true
		return e, false, nil
	}
	stop()
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.lease())
	defer cancel()
	return e, false, l.record(wctx, l.pool, key, owner, e)
}

// execer is a pool or a transaction.
type execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// record makes owner's claim on key the recorded entry e. A claim another caller took over (after
// owner's lease ran out) is not owner's to record: the result is refused with a *ledger.LostClaimError.
// A key invalidated while the call ran is left free (the result is returned, not recorded).
func (l *Ledger) record(ctx context.Context, q execer, key, owner string, e ledger.Entry) error {
	tag, err := q.Exec(ctx, `UPDATE wink_ledger SET state = 'done', owner = NULL, lease_until = NULL,
		message = $3, rendered = $4, recorded = $5, expires = $6 WHERE key = $1 AND owner = $2 AND state = 'claimed'`,
		key, owner, e.Message, e.Rendered, e.Recorded, nullTime(e.Expires))
	if err != nil {
		return errors.New("pgledger: recording " + strconv.Quote(key) + ": " + err.Error())
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	tag, err = q.Exec(ctx, "SELECT 1 FROM wink_ledger WHERE key = $1", key)
	if err != nil {
		return errors.New("pgledger: recording " + strconv.Quote(key) + ": " + err.Error())
	}
	if tag.RowsAffected() == 0 {
		return nil // invalidated while running
	}
	return &ledger.LostClaimError{Key: key}
}

// pending is a success waiting for the transaction of the call's writes (a session's commit).
type pending struct {
	l          *Ledger
	key, owner string
	e          ledger.Entry
	stop       func()
	joined     bool // recorded in the transaction
}

// Prepare records the success in the session's transaction when the session is stored on this
// ledger's pool (one database, one transaction); otherwise Done records it after the commit.
func (p *pending) Prepare(ctx context.Context, storeTx any) error {
	t, ok := storeTx.(interface {
		PgxTx() pgx.Tx
		Pool() *pgxpool.Pool
	})
	if !ok || t.Pool() != p.l.pool {
		return nil
	}
	if err := p.l.record(ctx, t.PgxTx(), p.key, p.owner, p.e); err != nil {
		return err
	}
	p.joined = true
	return nil
}

// Done stops the renewal; it frees the key when the transaction did not commit, and records the
// success after a commit it did not join.
func (p *pending) Done(ctx context.Context, committed bool) {
	p.stop()
	if !committed {
		p.l.release(p.key, p.owner)
		return
	}
	if !p.joined {
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.l.lease())
		defer cancel()
		_ = p.l.record(wctx, p.l.pool, p.key, p.owner, p.e) // the writes are kept: at worst the call runs again
	}
}

// release drops owner's claim on key so that a waiter runs the call.
func (l *Ledger) release(key, owner string) {
	ctx, cancel := l.opCtx()
	defer cancel()
	_, _ = l.pool.Exec(ctx, "DELETE FROM wink_ledger WHERE key = $1 AND owner = $2 AND state = 'claimed'", key, owner)
}

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

func newOwner() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// lookup returns the recorded entry for key unless there is none or it has expired at now (an expired
// entry is deleted).
func (l *Ledger) lookup(ctx context.Context, key string, now time.Time) (ledger.Entry, bool, error) {
	var e ledger.Entry
	var expires *time.Time
	err := l.pool.QueryRow(ctx, `SELECT tool, message, rendered, recorded, expires FROM wink_ledger
		WHERE key = $1 AND state = 'done'`, key).Scan(&e.Tool, &e.Message, &e.Rendered, &e.Recorded, &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return ledger.Entry{}, false, nil
	}
	if err != nil {
		return ledger.Entry{}, false, errors.New("pgledger: looking up " + strconv.Quote(key) + ": " + err.Error())
	}
	e.Key = key
	if expires != nil {
		e.Expires = *expires
	}
	if e.Expired(now) {
		_, _ = l.pool.Exec(ctx, "DELETE FROM wink_ledger WHERE key = $1 AND state = 'done' AND expires <= $2", key, now)
		return ledger.Entry{}, false, nil
	}
	return e, true, nil
}

// Lookup returns the entry stored under key unless there is none, it has expired, or the database
// cannot be read (see LookupContext).
func (l *Ledger) Lookup(key string, now time.Time) (ledger.Entry, bool) {
	ctx, cancel := l.opCtx()
	defer cancel()
	e, ok, _ := l.lookup(ctx, key, now)
	return e, ok
}

// LookupContext is Lookup with a context and the database's error.
func (l *Ledger) LookupContext(ctx context.Context, key string, now time.Time) (ledger.Entry, bool, error) {
	return l.lookup(ctx, key, now)
}

// Record stores e under e.Key, replacing any entry or claim there.
func (l *Ledger) Record(e ledger.Entry) error {
	ctx, cancel := l.opCtx()
	defer cancel()
	_, err := l.pool.Exec(ctx, `INSERT INTO wink_ledger (key, tool, state, message, rendered, recorded, expires)
		VALUES ($1, $2, 'done', $3, $4, $5, $6)
		ON CONFLICT (key) DO UPDATE SET tool = EXCLUDED.tool, state = 'done', owner = NULL, lease_until = NULL,
		message = EXCLUDED.message, rendered = EXCLUDED.rendered, recorded = EXCLUDED.recorded, expires = EXCLUDED.expires`,
		e.Key, e.Tool, e.Message, e.Rendered, e.Recorded, nullTime(e.Expires))
	if err != nil {
		return errors.New("pgledger: recording " + strconv.Quote(e.Key) + ": " + err.Error())
	}
	return nil
}

// Invalidate removes the entry under key; a call in flight for key still returns its result but does
// not record it.
func (l *Ledger) Invalidate(key string) { _ = l.exec("DELETE FROM wink_ledger WHERE key = $1", key) }

// InvalidateTool removes every entry of tool (and its calls in flight, which then do not record).
func (l *Ledger) InvalidateTool(tool string) {
	_ = l.exec("DELETE FROM wink_ledger WHERE tool = $1", tool)
}

// Clear removes every entry and claim.
func (l *Ledger) Clear() { _ = l.exec("DELETE FROM wink_ledger") }

// ClearContext is Clear with a context and the database's error.
func (l *Ledger) ClearContext(ctx context.Context) error {
	_, err := l.pool.Exec(ctx, "DELETE FROM wink_ledger")
	return err
}

// PruneExpired removes the entries expired at now and returns how many it removed.
func (l *Ledger) PruneExpired(now time.Time) int {
	ctx, cancel := l.opCtx()
	defer cancel()
	tag, err := l.pool.Exec(ctx, "DELETE FROM wink_ledger WHERE state = 'done' AND expires <= $1", now)
	if err != nil {
		return 0
	}
	return int(tag.RowsAffected())
}

func (l *Ledger) exec(sql string, args ...any) error {
	ctx, cancel := l.opCtx()
	defer cancel()
	_, err := l.pool.Exec(ctx, sql, args...)
	return err
}
