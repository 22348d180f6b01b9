// Package pgdurable keeps durable runs (runtime/durable) in PostgreSQL, so that the workers of a fleet
// share them: any worker takes a run whose worker died once its lease expires, and reads any run's status.
//
//	pool, err := pgxpool.New(ctx, dsn)
//	st, err := pgdurable.New(ctx, pool)
//	eng := &durable.Engine{Store: st, Agent: wire}
//	go eng.Work(ctx)
//
// The schema (two tables prefixed wink_durable_) is created by New, idempotently and under an advisory
// lock. Leases use the database's clock, so the workers' clocks need not agree. A claim takes the oldest
// due run with FOR UPDATE SKIP LOCKED (workers never wait for each other); every checkpoint is fenced by
// the claim's token in the statement that writes it (the run's row locked FOR SHARE), so a worker whose
// lease was taken over can no longer write.
package pgdurable

import (
	"context"
	_ "embed"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/runtime/durable"
)

//go:embed schema.sql
var schema string

// migrationLock is the advisory lock key that serialises schema creation across workers.
const migrationLock = 0x77696e6b64 // "winkd"

// Store is a durable.Store (and a durable.TxRenewer) on PostgreSQL. It is safe for concurrent use.
type Store struct {
	pool *pgxpool.Pool
}

// New applies the schema on pool's database and returns the store.
func New(ctx context.Context, pool *pgxpool.Pool) (*Store, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, errors.New("pgdurable: connecting to the database: " + err.Error())
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return nil, errors.New("pgdurable: migrating: " + err.Error())
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	if _, err := conn.Exec(ctx, schema); err != nil {
		return nil, errors.New("pgdurable: migrating: " + err.Error())
	}
	return &Store{pool: pool}, nil
}

func wrap(op string, err error) error { return errors.New("pgdurable: " + op + ": " + err.Error()) }

// Create implements durable.Store.
func (s *Store) Create(ctx context.Context, r durable.Record) (bool, error) {
	tag, err := s.pool.Exec(ctx, `INSERT INTO wink_durable_runs (id, session, input, max_turns, principal) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (id) DO NOTHING`, r.ID, r.Session, r.Input, r.MaxTurns, r.Principal)
	if err != nil {
		return false, wrap("starting run "+r.ID, err)
	}
	return tag.RowsAffected() == 1, nil
}

const recordCols = `id, session, input, max_turns, state, owner, token, due, attempts, held, result, last_err, created, updated, principal`

func scanRecord(row pgx.Row) (durable.Record, error) {
	var r durable.Record
	var state int16
	var due time.Time
	err := row.Scan(&r.ID, &r.Session, &r.Input, &r.MaxTurns, &state, &r.Owner, &r.Token, &due, &r.Attempts,
		&r.Held, &r.Result, &r.LastErr, &r.Created, &r.Updated, &r.Principal)
	r.State = durable.State(state)
	r.LeaseUntil, r.WakeAt = due, due
	return r, err
}

func seconds(d time.Duration) float64 { return d.Seconds() }

// Claim implements durable.Store.
func (s *Store) Claim(ctx context.Context, worker string, lease time.Duration) (durable.Record, bool, error) {
	row := s.pool.QueryRow(ctx, `UPDATE wink_durable_runs SET state = 1, owner = $1, token = token + 1,
			due = clock_timestamp() + make_interval(secs => $2), attempts = attempts + 1, updated = clock_timestamp()
		WHERE id = (SELECT id FROM wink_durable_runs WHERE state < 3 AND due <= clock_timestamp()
			ORDER BY due LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING `+recordCols, worker, seconds(lease))
	r, err := scanRecord(row)
	if errors.Is(err, pgx.ErrNoRows) {
		return durable.Record{}, false, nil
	}
	if err != nil {
		return durable.Record{}, false, wrap("claiming a run", err)
	}
	return r, true, nil
}

// owned tells ErrLeaseLost from ErrNotFound after a fenced write changed nothing.
func (s *Store) owned(ctx context.Context, id string) error {
	var one int
	err := s.pool.QueryRow(ctx, "SELECT 1 FROM wink_durable_runs WHERE id = $1", id).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return durable.ErrNotFound
	}
	if err != nil {
		return wrap("run "+id, err)
	}
	return durable.ErrLeaseLost
}

// Renew implements durable.Store.
func (s *Store) Renew(ctx context.Context, id string, token int64, lease time.Duration) error {
	tag, err := s.pool.Exec(ctx, `UPDATE wink_durable_runs SET due = clock_timestamp() + make_interval(secs => $3)
		WHERE id = $1 AND token = $2 AND state = 1`, id, token, seconds(lease))
	if err != nil {
		return wrap("renewing run "+id, err)
	}
	if tag.RowsAffected() == 0 {
		return s.owned(ctx, id)
	}
	return nil
}

// RenewTx implements durable.TxRenewer: storeTx is a transaction of runtime/session/pgstore on this
// store's pool (a tool call's session transaction), and the claim is renewed in it, on the connection
// the call holds already.
func (s *Store) RenewTx(ctx context.Context, storeTx any, id string, token int64, lease time.Duration) (bool, error) {
	t, ok := storeTx.(interface {
		PgxTx() pgx.Tx
		Pool() *pgxpool.Pool
	})
	if !ok || t.Pool() != s.pool {
		return false, nil
	}
	tx := t.PgxTx()
	tag, err := tx.Exec(ctx, `UPDATE wink_durable_runs SET due = clock_timestamp() + make_interval(secs => $3)
		WHERE id = $1 AND token = $2 AND state = 1`, id, token, seconds(lease))
	if err != nil {
		return true, wrap("renewing run "+id, err)
	}
	if tag.RowsAffected() == 1 {
		return true, nil
	}
	tag, err = tx.Exec(ctx, "SELECT 1 FROM wink_durable_runs WHERE id = $1", id)
	switch {
	case err != nil:
		return true, wrap("renewing run "+id, err)
	case tag.RowsAffected() == 0:
		return true, durable.ErrNotFound
	}
	return true, durable.ErrLeaseLost
}

// Append implements durable.Store.
func (s *Store) Append(ctx context.Context, id string, token int64, st durable.Step) error {
	var q string
	args := []any{id, st.Turn, int16(st.Kind), st.Index, st.Data, st.Worker}
	if token >= 0 {
		q = `WITH r AS (SELECT 1 FROM wink_durable_runs WHERE id = $1 AND token = $7 AND state = 1 FOR SHARE)
			INSERT INTO wink_durable_steps (run_id, turn, kind, idx, data, worker)
			SELECT $1, $2, $3, $4, $5, $6 FROM r ON CONFLICT DO NOTHING RETURNING 1`
		args = append(args, token)
	} else {
		q = `INSERT INTO wink_durable_steps (run_id, turn, kind, idx, data, worker) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT DO NOTHING RETURNING 1`
	}
	var one int
	err := s.pool.QueryRow(ctx, q, args...).Scan(&one)
	if err == nil {
		return nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return wrap("checkpointing run "+id, err)
	}
	if token >= 0 {
		// A writer whose claim is no longer current hears that first (the step it finds may be the new
		// worker's): it must stop, not retry.
		var held bool
		err := s.pool.QueryRow(ctx, "SELECT token = $2 AND state = 1 FROM wink_durable_runs WHERE id = $1", id, token).Scan(&held)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return durable.ErrNotFound
		case err != nil:
			return wrap("checkpointing run "+id, err)
		case !held:
			return durable.ErrLeaseLost
		}
	}
	var exists bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM wink_durable_steps WHERE run_id = $1 AND turn = $2 AND kind = $3 AND idx = $4)`,
		id, st.Turn, int16(st.Kind), st.Index).Scan(&exists); err != nil {
		return wrap("checkpointing run "+id, err)
	}
	if exists {
		return durable.ErrStepExists
	}
	return s.owned(ctx, id)
}

// Release implements durable.Store.
func (s *Store) Release(ctx context.Context, id string, token int64, rel durable.Release) error {
	// The due time is computed on the database's clock, as the claims that compare it are: a worker
	// whose clock is off neither delays nor hurries the runs it gives back. Terminal runs are never due.
	delay := seconds(max(rel.Delay, 0))
	if rel.State.Terminal() {
		delay = -1
	}
	tag, err := s.pool.Exec(ctx, `UPDATE wink_durable_runs SET state = $3, held = $4,
			due = CASE WHEN $5::float8 < 0 THEN 'epoch'::timestamptz ELSE clock_timestamp() + make_interval(secs => $5) END,
			result = $6, last_err = $7, updated = clock_timestamp()
		WHERE id = $1 AND token = $2 AND state = 1`, id, token, int16(rel.State), rel.Held, delay, rel.Result, rel.Err)
	if err != nil {
		return wrap("releasing run "+id, err)
	}
	if tag.RowsAffected() == 0 {
		return s.owned(ctx, id)
	}
	return nil
}

// Wake implements durable.Store.
func (s *Store) Wake(ctx context.Context, id string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE wink_durable_runs SET due = 'epoch' WHERE id = $1 AND state = 2`, id)
	if err != nil {
		return wrap("waking run "+id, err)
	}
	if tag.RowsAffected() == 0 {
		if err := s.owned(ctx, id); errors.Is(err, durable.ErrNotFound) {
			return err
		}
	}
	return nil
}

// Load implements durable.Store: the run and its checkpoints, read in one snapshot.
func (s *Store) Load(ctx context.Context, id string) (durable.Record, []durable.Step, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return durable.Record{}, nil, wrap("loading run "+id, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	r, err := scanRecord(tx.QueryRow(ctx, "SELECT "+recordCols+" FROM wink_durable_runs WHERE id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return durable.Record{}, nil, durable.ErrNotFound
	}
	if err != nil {
		return durable.Record{}, nil, wrap("loading run "+id, err)
	}
	rows, err := tx.Query(ctx, `SELECT turn, kind, idx, data, worker, at FROM wink_durable_steps WHERE run_id = $1
		ORDER BY turn, kind, idx`, id)
	if err != nil {
		return durable.Record{}, nil, wrap("loading run "+id, err)
	}
	defer rows.Close()
	var steps []durable.Step
	for rows.Next() {
		var st durable.Step
		var kind int16
		if err := rows.Scan(&st.Turn, &kind, &st.Index, &st.Data, &st.Worker, &st.Time); err != nil {
			return durable.Record{}, nil, wrap("loading run "+id, err)
		}
		st.Kind = durable.StepKind(kind)
		steps = append(steps, st)
	}
	if err := rows.Err(); err != nil {
		return durable.Record{}, nil, wrap("loading run "+id, err)
	}
	return r, steps, nil
}
