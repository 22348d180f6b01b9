// Package pgtasks keeps the tasks of MCP's tasks extension (runtime/tasks) in PostgreSQL, so that every
// worker of a fleet answers tasks/get for any task and takes over a task whose worker died.
//
//	pool, err := pgxpool.New(ctx, dsn)
//	st, err := pgtasks.New(ctx, pool)
//	h, err := mcpserver.HTTPHandler(d, mcpserver.WithTasks(mcpserver.TaskOptions{Store: st, Worker: name}))
//
// The schema (tables prefixed wink_tasks) is created by New, idempotently and under an advisory lock; it
// may share a database with pgdurable and pgledger. Create commits before it returns, so a task whose id
// a client was given is found by every worker. Leases use the database's clock, so the workers' clocks
// need not agree; a claim takes the task whose lease ran out longest ago with FOR UPDATE SKIP LOCKED, and
// every write of a worker is fenced by its claim's token in the statement that makes it.
package pgtasks

import (
	"context"
	_ "embed"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/tasks"
)

//go:embed schema.sql
var schema string

const migrationLock = 0x77696e6b74 // "winkt"

// Store is a tasks.Store on PostgreSQL. It is safe for concurrent use.
type Store struct{ pool *pgxpool.Pool }

// New applies the schema on pool's database and returns the store.
func New(ctx context.Context, pool *pgxpool.Pool) (*Store, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, errors.New("pgtasks: connecting to the database: " + err.Error())
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return nil, errors.New("pgtasks: migrating: " + err.Error())
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	if _, err := conn.Exec(ctx, schema); err != nil {
		return nil, errors.New("pgtasks: migrating: " + err.Error())
	}
	return &Store{pool: pool}, nil
}

func wrap(op string, err error) error { return errors.New("pgtasks: " + op + ": " + err.Error()) }

func ms(d time.Duration) int64 { return d.Milliseconds() }

// Create implements tasks.Store.
func (s *Store) Create(ctx context.Context, t tasks.Task, worker string, lease time.Duration) (int64, error) {
	var token int64
	err := s.pool.QueryRow(ctx, `INSERT INTO wink_tasks (id, tool, arguments, carried, ttl_ms, owner, token, lease, attempts, principal, session)
		VALUES ($1, $2, $3, $4, $5, $6, nextval('wink_tasks_token'), now() + $7 * interval '1 millisecond', 1, $8, $9)
		ON CONFLICT (id) DO NOTHING RETURNING token`,
		t.ID, t.Tool, t.Arguments, t.Carried, ms(t.TTL), worker, ms(lease), durable.EncodePrincipal(t.Principal), t.Session).Scan(&token)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, tasks.ErrExists
	}
	if err != nil {
		return 0, wrap("creating task "+t.ID, err)
	}
	return token, nil
}

const live = `(ttl_ms = 0 OR created + ttl_ms * interval '1 millisecond' > now())`

// Get implements tasks.Store.
func (s *Store) Get(ctx context.Context, id string) (tasks.Task, error) {
	var t tasks.Task
	var ttl int64
	var status string
	var principal []byte
	err := s.pool.QueryRow(ctx, `SELECT id, tool, arguments, carried, status, ttl_ms, result, owner, token, lease, attempts,
		created, updated, principal, session FROM wink_tasks WHERE id = $1 AND `+live, id).Scan(&t.ID, &t.Tool, &t.Arguments, &t.Carried,
		&status, &ttl, &t.Result, &t.Owner, &t.Token, &t.LeaseUntil, &t.Attempts, &t.Created, &t.Updated, &principal, &t.Session)
	if errors.Is(err, pgx.ErrNoRows) {
		return tasks.Task{}, tasks.ErrNotFound
	}
	if err != nil {
		return tasks.Task{}, wrap("reading task "+id, err)
	}
	t.Status, t.TTL = tasks.Status(status), time.Duration(ttl)*time.Millisecond
	if t.Principal, err = durable.DecodePrincipal(principal); err != nil {
		return tasks.Task{}, wrap("reading task "+id, err)
	}
	rows, err := s.pool.Query(ctx, `SELECT key, request, answer FROM wink_tasks_inputs WHERE task_id = $1`, id)
	if err != nil {
		return tasks.Task{}, wrap("reading task "+id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var req, ans []byte
		if err := rows.Scan(&key, &req, &ans); err != nil {
			return tasks.Task{}, wrap("reading task "+id, err)
		}
		if ans != nil {
			if t.Answers == nil {
				t.Answers = map[string][]byte{}
			}
			t.Answers[key] = ans
		} else if !t.Status.Terminal() {
			if t.Pending == nil {
				t.Pending = map[string][]byte{}
			}
			t.Pending[key] = req
		}
	}
	if err := rows.Err(); err != nil {
		return tasks.Task{}, wrap("reading task "+id, err)
	}
	return t, nil
}

// Claim implements tasks.Store.
func (s *Store) Claim(ctx context.Context, worker string, lease time.Duration) (tasks.Task, bool, error) {
	var id string
	err := s.pool.QueryRow(ctx, `UPDATE wink_tasks SET owner = $1, token = nextval('wink_tasks_token'),
		lease = now() + $2 * interval '1 millisecond', attempts = attempts + 1
		WHERE id = (SELECT id FROM wink_tasks WHERE status IN ('working', 'input_required') AND lease <= now() AND `+live+`
			ORDER BY lease LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING id`, worker, ms(lease)).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return tasks.Task{}, false, nil
	}
	if err != nil {
		return tasks.Task{}, false, wrap("claiming a task", err)
	}
	t, err := s.Get(ctx, id)
	if err != nil {
		return tasks.Task{}, false, err
	}
	return t, true, nil
}

// owned reads the status of a task whose claim token is token, or the error saying why not.
func (s *Store) owned(ctx context.Context, tx pgx.Tx, id string, token int64) (tasks.Status, error) {
	var status string
	var have int64
	err := tx.QueryRow(ctx, `SELECT status, token FROM wink_tasks WHERE id = $1 FOR UPDATE`, id).Scan(&status, &have)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", tasks.ErrNotFound
	}
	if err != nil {
		return "", err
	}
	if have != token {
		return "", tasks.ErrLost
	}
	return tasks.Status(status), nil
}

// Renew implements tasks.Store.
func (s *Store) Renew(ctx context.Context, id string, token int64, lease time.Duration) (tasks.Status, error) {
	var status string
	err := s.pool.QueryRow(ctx, `UPDATE wink_tasks SET lease = CASE WHEN status IN ('working', 'input_required')
		THEN now() + $3 * interval '1 millisecond' ELSE lease END WHERE id = $1 AND token = $2 RETURNING status`,
		id, token, ms(lease)).Scan(&status)
	if errors.Is(err, pgx.ErrNoRows) {
		if _, gerr := s.Get(ctx, id); gerr != nil {
			return "", gerr
		}
		return "", tasks.ErrLost
	}
	if err != nil {
		return "", wrap("renewing task "+id, err)
	}
	return tasks.Status(status), nil
}

// Ask implements tasks.Store.
func (s *Store) Ask(ctx context.Context, id string, token int64, key string, request []byte) ([]byte, bool, error) {
	var answer []byte
	answered := false
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		status, err := s.owned(ctx, tx, id, token)
		if err != nil {
			return err
		}
		err = tx.QueryRow(ctx, `SELECT answer FROM wink_tasks_inputs WHERE task_id = $1 AND key = $2 AND answer IS NOT NULL`, id, key).Scan(&answer)
		if err == nil {
			answered = true
			return nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if status.Terminal() {
			return nil
		}
		if _, err := tx.Exec(ctx, `INSERT INTO wink_tasks_inputs (task_id, key, request) VALUES ($1, $2, $3)
			ON CONFLICT (task_id, key) DO UPDATE SET request = EXCLUDED.request`, id, key, request); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE wink_tasks SET status = 'input_required', updated = now() WHERE id = $1`, id)
		return err
	})
	if errors.Is(err, tasks.ErrLost) || errors.Is(err, tasks.ErrNotFound) {
		return nil, false, err
	}
	if err != nil {
		return nil, false, wrap("asking for input in task "+id, err)
	}
	return answer, answered, nil
}

// Answer implements tasks.Store.
func (s *Store) Answer(ctx context.Context, id string, answers map[string][]byte) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var status string
		err := tx.QueryRow(ctx, `SELECT status FROM wink_tasks WHERE id = $1 AND `+live+` FOR UPDATE`, id).Scan(&status)
		if errors.Is(err, pgx.ErrNoRows) {
			return tasks.ErrNotFound
		}
		if err != nil {
			return err
		}
		if tasks.Status(status).Terminal() {
			return nil
		}
		changed := int64(0)
		for k, a := range answers {
			tag, err := tx.Exec(ctx, `UPDATE wink_tasks_inputs SET answer = $3 WHERE task_id = $1 AND key = $2 AND answer IS NULL`, id, k, a)
			if err != nil {
				return err
			}
			changed += tag.RowsAffected()
		}
		if changed == 0 {
			return nil
		}
		_, err = tx.Exec(ctx, `UPDATE wink_tasks SET updated = now(), status = CASE WHEN EXISTS
			(SELECT 1 FROM wink_tasks_inputs WHERE task_id = $1 AND answer IS NULL) THEN 'input_required' ELSE 'working' END
			WHERE id = $1`, id)
		return err
	})
	if errors.Is(err, tasks.ErrNotFound) {
		return err
	}
	if err != nil {
		return wrap("answering task "+id, err)
	}
	return nil
}

// Finish implements tasks.Store.
func (s *Store) Finish(ctx context.Context, id string, token int64, status tasks.Status, payload []byte) (bool, error) {
	done := false
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		st, err := s.owned(ctx, tx, id, token)
		if err != nil {
			return err
		}
		if st.Terminal() {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE wink_tasks SET status = $2, result = $3, updated = now() WHERE id = $1`, id, string(status), payload); err != nil {
			return err
		}
		done = true
		return nil
	})
	if errors.Is(err, tasks.ErrLost) || errors.Is(err, tasks.ErrNotFound) {
		return false, err
	}
	if err != nil {
		return false, wrap("finishing task "+id, err)
	}
	return done, nil
}

// Cancel implements tasks.Store.
func (s *Store) Cancel(ctx context.Context, id string) error {
	var status string
	err := s.pool.QueryRow(ctx, `WITH c AS (UPDATE wink_tasks SET status = 'cancelled', updated = now()
		WHERE id = $1 AND status IN ('working', 'input_required') RETURNING status)
		SELECT status FROM c UNION ALL SELECT status FROM wink_tasks WHERE id = $1 AND `+live+` LIMIT 1`, id).Scan(&status)
	if errors.Is(err, pgx.ErrNoRows) {
		return tasks.ErrNotFound
	}
	if err != nil {
		return wrap("cancelling task "+id, err)
	}
	return nil
}

// Prune implements tasks.Store.
func (s *Store) Prune(ctx context.Context) (int, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM wink_tasks WHERE NOT `+live)
	if err != nil {
		return 0, wrap("pruning tasks", err)
	}
	return int(tag.RowsAffected()), nil
}

var _ tasks.Store = (*Store)(nil)
