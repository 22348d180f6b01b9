// Package pgstore keeps sessions in PostgreSQL (through github.com/jackc/pgx/v5), so that a session
// survives a restart and the workers of a fleet share it.
//
//	pool, err := pgxpool.New(ctx, dsn)
//	st, err := pgstore.New(ctx, pool, planning.PlanSlice) // slices with codecs (//wink:state)
//	sess := session.New(session.WithID(conversationID), session.WithStore(st))
//	d := &wink.Dispatcher{Registry: reg, Session: sess}
//
// Every call the dispatcher runs on sess is then a database transaction: Begin locks the session's row
// (SELECT ... FOR UPDATE, so two workers calling one session serialise exactly as two goroutines do),
// loads what other workers committed since this one last saw the session (the STATE slices whose
// version moved, the LOG entries after the ones it holds), and End writes what the call changed (the
// STATE slices whose content changed, the LOG entries appended: a commit costs what changed, not the
// size of the session) and commits. A failed call's STATE changes are rolled back before End, so only
// its LOG entries are written.
//
// Every wait of Begin is bounded: a connection from the pool (Store.AcquireTimeout, default 30s) and the
// session's row lock (Store.LockTimeout, default 5 minutes: a worker stopped inside a call keeps its
// transaction, and the lock, open); past either, Begin fails saying which, and the call is not run.
//
// The schema (three tables prefixed wink_) is created by New, idempotently and under an advisory lock,
// so workers may start together. A database that is down makes Begin fail: the dispatcher returns the
// error and the handler does not run. A stored item that does not decode is reported as a
// *session.CorruptError naming the session and the slice; declaring the slice with session.WithUpgrade
// recovers it (migrating or dropping the items) without touching the rest of the session. A commit
// never writes an item a load could not read: every item is read back with its slice's codec first
// (session.MaxItemBytes, session.MaxItemDepth), and one that does not read back fails the commit with a
// *session.UnstorableError.
package pgstore

import (
	"context"
	_ "embed"
	"errors"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
)

//go:embed schema.sql
var schema string

// migrationLock is the advisory lock key that serialises schema creation across workers.
const migrationLock = 0x77696e6b // "wink"

// DefaultAcquireTimeout is how long a transaction waits for a connection from the pool by default.
const DefaultAcquireTimeout = 30 * time.Second

// DefaultLockTimeout is how long a transaction waits for its session's row lock (held by another
// call on the session, in this process or another) by default.
const DefaultLockTimeout = 5 * time.Minute

// Store is a session.Store on PostgreSQL. It is safe for concurrent use.
type Store struct {
	// AcquireTimeout bounds how long Begin waits for a connection from the pool (every connection
	// held by other calls): past it, Begin fails and the call is not executed (a durable run is given
	// back and retried), instead of waiting for ever. Zero: DefaultAcquireTimeout. Set it before use.
	AcquireTimeout time.Duration
	// LockTimeout bounds how long a transaction waits for a lock in the database (PostgreSQL's
	// lock_timeout for the transaction): above all its session's row lock, held by another call on the
	// session until that call commits. A call whose holder never commits (its worker stopped by a
	// signal or a frozen VM keeps its connection, and the lock, open) fails past it, saying so, instead
	// of waiting for ever. Zero: DefaultLockTimeout; negative: no bound. Set it before use.
	LockTimeout time.Duration

	pool   *pgxpool.Pool
	slices []session.Persistent
	specs  map[string]session.Retention
}

// New applies the schema on pool's database and returns a store keeping the given slices (each needs a
// codec: see session.WithCodec; a slice without one is an error here, not at its first write).
func New(ctx context.Context, pool *pgxpool.Pool, slices ...session.Persistent) (*Store, error) {
	specs, err := session.Specs(slices...)
	if err != nil {
		return nil, err
	}
	if err := Migrate(ctx, pool); err != nil {
		return nil, err
	}
	st := &Store{pool: pool, slices: slices, specs: map[string]session.Retention{}}
	for _, s := range specs {
		st.specs[s.Name] = s.Retention
	}
	return st, nil
}

// Migrate creates the store's tables if they do not exist, under an advisory lock.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return errors.New("pgstore: connecting to the database: " + err.Error())
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return errors.New("pgstore: migrating: " + err.Error())
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	if _, err := conn.Exec(ctx, schema); err != nil {
		return errors.New("pgstore: migrating: " + err.Error())
	}
	return nil
}

// Slices returns the slices the store keeps.
func (st *Store) Slices() []session.Persistent { return st.slices }

// Begin implements session.Store: it opens a transaction, locks the session's row (creating it) and
// loads what changed since known.
func (st *Store) Begin(ctx context.Context, id string, access session.Access, known session.Known) (session.StoreTx, session.Loaded, error) {
	wait := st.AcquireTimeout
	if wait <= 0 {
		wait = DefaultAcquireTimeout
	}
	actx, cancel := context.WithTimeout(ctx, wait)
	conn, err := st.pool.Acquire(actx)
	cancel()
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			err = errors.New("no connection from the pool within " + wait.String() + " (every one is held by other calls)")
		}
		return nil, session.Loaded{}, errors.New("pgstore: session " + strconv.Quote(id) + ": " + err.Error())
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		conn.Release()
		return nil, session.Loaded{}, errors.New("pgstore: session " + strconv.Quote(id) + ": " + err.Error())
	}
	lockWait := st.LockTimeout
	if lockWait == 0 {
		lockWait = DefaultLockTimeout
	}
	fail := func(err error) (session.StoreTx, session.Loaded, error) {
		_ = tx.Rollback(context.WithoutCancel(ctx))
		conn.Release()
		if pe, ok := errors.AsType[*pgconn.PgError](err); ok && pe.Code == "55P03" { // lock_not_available
			err = errors.New("another call has held the session for longer than " + lockWait.String() +
				" (LockTimeout): its worker may be stopped; try again later")
		}
		return nil, session.Loaded{}, errors.New("pgstore: session " + strconv.Quote(id) + ": " + err.Error())
	}
	lock := "FOR UPDATE"
	if access == session.ReadOnly {
		lock = "FOR SHARE"
	}
	// The lock bound is set in the same round trip as the row's creation (set_config local to the
	// transaction), before the row lock is waited for.
	lockMillis := "0"
	if lockWait > 0 {
		lockMillis = strconv.FormatInt(max(lockWait.Milliseconds(), 1), 10)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO wink_sessions (id) SELECT $1 FROM (SELECT set_config('lock_timeout', $2, true)) AS bound
		ON CONFLICT (id) DO NOTHING`, id, lockMillis); err != nil {
		return fail(err)
	}
	l := session.Loaded{State: map[string][][]byte{}, Logs: map[string][][]byte{}}
	if err := tx.QueryRow(ctx, "SELECT version FROM wink_sessions WHERE id = $1 "+lock, id).Scan(&l.Version); err != nil {
		return fail(err)
	}
	if known.Version >= 0 && l.Version == known.Version {
		return &storeTx{tx: tx, conn: conn, pool: st.pool, id: id, version: l.Version}, l, nil
	}
	rows, err := tx.Query(ctx, "SELECT slice, items FROM wink_state WHERE session_id = $1 AND version > $2", id, known.Version)
	if err != nil {
		return fail(err)
	}
	for rows.Next() {
		var name string
		var data []byte
		if err := rows.Scan(&name, &data); err != nil {
			rows.Close()
			return fail(err)
		}
		if _, kept := st.specs[name]; !kept {
			continue
		}
		items, err := splitArray(data)
		if err != nil {
			rows.Close()
			_ = tx.Rollback(context.WithoutCancel(ctx))
			return nil, session.Loaded{}, &session.CorruptError{Session: id, Slice: name, Err: err}
		}
		l.State[name] = items
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	for name, pol := range st.specs {
		if pol != session.NoRollback {
			continue
		}
		from := known.Logs[name]
		if known.Version < 0 {
			from = 0
		}
		rows, err := tx.Query(ctx, "SELECT seq, item FROM wink_log WHERE session_id = $1 AND slice = $2 AND seq >= $3 ORDER BY seq", id, name, from)
		if err != nil {
			return fail(err)
		}
		next := int64(from)
		for rows.Next() {
			var seq int64
			var item []byte
			if err := rows.Scan(&seq, &item); err != nil {
				rows.Close()
				return fail(err)
			}
			if seq != next {
				rows.Close()
				_ = tx.Rollback(context.WithoutCancel(ctx))
				return nil, session.Loaded{}, &session.CorruptError{Session: id, Slice: name,
					Err: errors.New("log entry " + strconv.FormatInt(next, 10) + " is missing")}
			}
			next++
			l.Logs[name] = append(l.Logs[name], item)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fail(err)
		}
	}
	return &storeTx{tx: tx, conn: conn, pool: st.pool, id: id, version: l.Version}, l, nil
}

// splitArray splits a stored JSON array into its items' texts.
func splitArray(data []byte) ([][]byte, error) {
	var d strictjson.Decoder
	// No depth bound here (Skip keeps its open containers in a bit stack, not on the Go stack): each item's
	// depth is its codec's to judge, so that an item an earlier release stored past today's
	// session.MaxItemDepth reaches the slice's WithUpgrade (or is reported with its index) instead of
	// making the whole slice unsplittable. Commits never write such an item (they enforce the limits).
	d.Reset(data, strictjson.Limits{MaxBytes: len(data) + 1, MaxDepth: len(data) + 1})
	items := [][]byte{}
	if d.ArrayStart() {
		for d.NextElem() {
			raw, ok := d.Raw()
			if !ok {
				break
			}
			items = append(items, append([]byte(nil), raw...))
		}
		d.ArrayEnd()
	}
	if errs := d.Finish(); errs != nil {
		return nil, errs
	}
	return items, nil
}

type storeTx struct {
	tx      pgx.Tx
	conn    *pgxpool.Conn // released when the transaction ends
	pool    *pgxpool.Pool
	id      string
	version int64
}

// Tx is what the store's transactions (the StoreTx a session.Participant's Prepare receives) offer to
// a participant sharing the database: the PostgreSQL transaction the session commits in, and the pool
// it came from (a participant writes in the transaction only when the database is its own: pgledger
// compares the pools).
type Tx interface {
	PgxTx() pgx.Tx
	Pool() *pgxpool.Pool
}

var _ Tx = (*storeTx)(nil)

// PgxTx returns the transaction the session commits in.
func (t *storeTx) PgxTx() pgx.Tx { return t.tx }

// Pool returns the store's pool.
func (t *storeTx) Pool() *pgxpool.Pool { return t.pool }

// Commit writes w in one round trip (a batch) and commits.
func (t *storeTx) Commit(ctx context.Context, w session.Write) (int64, error) {
	newVersion := t.version + 1
	b := &pgx.Batch{}
	for name, items := range w.State {
		b.Queue(`INSERT INTO wink_state (session_id, slice, version, items) VALUES ($1, $2, $3, $4)
			ON CONFLICT (session_id, slice) DO UPDATE SET version = EXCLUDED.version, items = EXCLUDED.items`,
			t.id, name, newVersion, joinArray(items))
	}
	for name, items := range w.Logs {
		from := int64(w.LogFrom[name])
		seqs := make([]int64, len(items))
		for i := range items {
			seqs[i] = from + int64(i)
		}
		b.Queue(`INSERT INTO wink_log (session_id, slice, seq, item) SELECT $1, $2, s, i FROM unnest($3::bigint[], $4::bytea[]) AS u(s, i)`,
			t.id, name, seqs, items)
	}
	b.Queue("UPDATE wink_sessions SET version = $2 WHERE id = $1", t.id, newVersion)
	defer t.conn.Release()
	if err := t.tx.SendBatch(ctx, b).Close(); err != nil {
		_ = t.tx.Rollback(context.WithoutCancel(ctx))
		return 0, errors.New("pgstore: committing session " + strconv.Quote(t.id) + ": " + err.Error())
	}
	if err := t.tx.Commit(ctx); err != nil {
		return 0, errors.New("pgstore: committing session " + strconv.Quote(t.id) + ": " + err.Error())
	}
	return newVersion, nil
}

// Abort rolls the transaction back, releasing the row lock.
func (t *storeTx) Abort(ctx context.Context) error {
	defer t.conn.Release()
	return t.tx.Rollback(ctx)
}

// joinArray writes items (each one JSON value) as one JSON array.
func joinArray(items [][]byte) []byte {
	n := 2
	for _, it := range items {
		n += len(it) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
	}
	return append(b, ']')
}
