// Package pgratelimit keeps the rate limiter's token buckets (package runtime/ratelimit) in PostgreSQL
// (through github.com/jackc/pgx/v5), so that the limits hold across a fleet: every worker on the same
// database takes from the same buckets.
//
//	store, err := pgratelimit.New(ctx, pool)
//	lim, err := ratelimit.New(ratelimit.Limits{PerPrincipal: wink.Rate{Count: 60, Per: time.Minute}}, store)
//	d := &wink.Dispatcher{Registry: reg, RateLimit: lim}
//
// One clock. Every time is the database's (clock_timestamp() when the statement starts); no worker's
// clock is read, so workers whose clocks disagree still share one bucket exactly.
//
// Atomic. A call's buckets (server, principal, principal and tool) are taken in one statement: the rows
// are locked in key order (so two statements never wait for each other in a cycle), every bucket is
// judged, and all are moved on only when all have a token. One round trip per call; a caller's first call
// inserts its rows first (one more). Each bucket is one row holding its theoretical arrival time (the
// generic cell rate algorithm: a token bucket in one value). A statement that waited for a lock judges
// with the time it started, which can only refuse a call a token would have admitted a moment later,
// never admit one too many.
//
// Rows. A row whose bucket has refilled is the same as no row; Prune deletes such rows, and nothing else
// does: call it from time to time (every few minutes) on a busy fleet.
//
// The database down. Take returns an error naming the database's failure, and the dispatcher fails closed:
// Dispatch returns the error and the call does not run (an MCP client gets a JSON-RPC internal error). A
// fleet that would rather serve unlimited than not at all sets FailOpen: the call is then admitted and
// OnError told. Connections cut by a restart are replaced by the pool; the buckets' state, being committed
// rows, survives the restart.
package pgratelimit

import (
	"context"
	_ "embed"
	"errors"
	"math"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/runtime/ratelimit"
	"github.com/winkgen/wink/runtime/wink"
)

//go:embed schema.sql
var schema string

const migrationLock = 0x77726c74 // "wrlt"

// Store is a ratelimit.Store on PostgreSQL. It is safe for concurrent use.
type Store struct {
	pool *pgxpool.Pool
	// FailOpen admits a call when the database cannot be asked (the default refuses it: fail closed).
	FailOpen bool
	// OnError, when set, is told of every database error (whether the call was then refused or, with
	// FailOpen, admitted).
	OnError func(error)
}

var _ ratelimit.Store = (*Store)(nil)

// New applies the schema on pool's database (idempotent, under an advisory lock, so workers may start
// together) and returns the store.
func New(ctx context.Context, pool *pgxpool.Pool) (*Store, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, errors.New("pgratelimit: connecting to the database: " + err.Error())
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return nil, errors.New("pgratelimit: migrating: " + err.Error())
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	if _, err := conn.Exec(ctx, schema); err != nil {
		return nil, errors.New("pgratelimit: migrating: " + err.Error())
	}
	return &Store{pool: pool}, nil
}

// micros returns r's interval in microseconds, rounded up (so that a bucket never admits more than r),
// and its tolerance, the interval times Burst-1.
func micros(r wink.Rate) (t, tau int64) {
	t = int64((r.Per + time.Duration(r.Count)*time.Microsecond - 1) / (time.Duration(r.Count) * time.Microsecond))
	t = max(t, 1)
	n := int64(r.Size() - 1)
	const most = 100 * 365 * 24 * int64(time.Hour/time.Microsecond) // a century: beyond it, the same
	if n > 0 && t > most/n {
		return t, most
	}
	return t, t * n
}

// take is the statement that judges and moves on a call's buckets, all or none.
const take = `WITH now AS MATERIALIZED (SELECT clock_timestamp() AS t),
want AS (
	SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[])
		WITH ORDINALITY AS w(bound, tool, issuer, subject, t_us, tau_us, ord)
),
cur AS MATERIALIZED (
	SELECT w.ord, r.bound, r.tool, r.issuer, r.subject, w.t_us, w.tau_us, GREATEST(r.tat, now.t) AS at, now.t AS now
	FROM want w
	JOIN wink_ratelimit r ON (r.bound, r.tool, r.issuer, r.subject) = (w.bound, w.tool, w.issuer, w.subject)
	CROSS JOIN now
	ORDER BY r.bound, r.tool, r.issuer, r.subject
	FOR UPDATE OF r
),
verdict AS (
	SELECT count(*) AS found, count(*) = cardinality($1::text[])
		AND coalesce(bool_and(at - now <= tau_us * interval '1 microsecond'), true) AS ok
	FROM cur
),
moved AS (
	UPDATE wink_ratelimit r SET tat = cur.at + cur.t_us * interval '1 microsecond'
	FROM cur, verdict
	WHERE verdict.ok AND (r.bound, r.tool, r.issuer, r.subject) = (cur.bound, cur.tool, cur.issuer, cur.subject)
	RETURNING 1
)
SELECT verdict.found, verdict.ok, coalesce(w.ord, 0),
	coalesce(w.wait_us, 0)
FROM verdict LEFT JOIN LATERAL (
	SELECT ord, GREATEST(ceil(EXTRACT(EPOCH FROM (at - now)) * 1000000) - tau_us, 0)::bigint AS wait_us
	FROM cur WHERE at - now > tau_us * interval '1 microsecond'
	ORDER BY wait_us DESC, ord LIMIT 1
) w ON true`

// insert adds the rows of buckets not seen before, full.
const insert = `INSERT INTO wink_ratelimit (bound, tool, issuer, subject, tat)
SELECT *, '-infinity'::timestamptz FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
ON CONFLICT DO NOTHING`

// Take implements ratelimit.Store; see the package documentation.
func (s *Store) Take(ctx context.Context, bs []ratelimit.Bucket) (int, time.Duration, error) {
	n := len(bs)
	bound, tool, iss, sub := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	ts, taus := make([]int64, n), make([]int64, n)
	for i, b := range bs {
		bound[i], tool[i], iss[i], sub[i] = b.Key.Bound, b.Key.Tool, b.Key.Issuer, b.Key.Subject
		ts[i], taus[i] = micros(b.Rate)
	}
	for attempt := 0; ; attempt++ {
		var found int
		var ok bool
		var ord, waitUs int64
		err := s.pool.QueryRow(ctx, take, bound, tool, iss, sub, ts, taus).Scan(&found, &ok, &ord, &waitUs)
		if err != nil {
			return s.failed(ctx, err)
		}
		if ok {
			return -1, 0, nil
		}
		if found < n && attempt < 3 {
			// Buckets not seen before (or pruned since): add them, full, and judge again.
			if _, err := s.pool.Exec(ctx, insert, bound, tool, iss, sub); err != nil {
				return s.failed(ctx, err)
			}
			continue
		}
		if found < n {
			return s.failed(ctx, errors.New("the buckets' rows keep disappearing (pruned by a concurrent Prune?)"))
		}
		return int(ord - 1), time.Duration(min(waitUs, math.MaxInt64/1000)) * time.Microsecond, nil
	}
}

// failed answers a Take the database could not: an error (fail closed), or an admission with FailOpen.
func (s *Store) failed(ctx context.Context, err error) (int, time.Duration, error) {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return 0, 0, err
	}
	err = errors.New("pgratelimit: the database could not be asked: " + err.Error())
	if s.OnError != nil {
		s.OnError(err)
	}
	if s.FailOpen {
		return -1, 0, nil
	}
	return 0, 0, err
}

// Peek implements ratelimit.Store.
func (s *Store) Peek(ctx context.Context, b ratelimit.Bucket) (time.Duration, error) {
	_, tau := micros(b.Rate)
	var waitUs int64
	err := s.pool.QueryRow(ctx, `SELECT coalesce(max(GREATEST(ceil(EXTRACT(EPOCH FROM (tat - clock_timestamp())) * 1000000) - $5, 0)::bigint), 0)
		FROM wink_ratelimit WHERE (bound, tool, issuer, subject) = ($1, $2, $3, $4)`,
		b.Key.Bound, b.Key.Tool, b.Key.Issuer, b.Key.Subject, tau).Scan(&waitUs)
	if err != nil {
		_, _, err = s.failed(ctx, err)
		return 0, err
	}
	return time.Duration(waitUs) * time.Microsecond, nil
}

// Prune deletes the rows of buckets that have refilled (the same as no row) and returns how many.
func (s *Store) Prune(ctx context.Context) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM wink_ratelimit WHERE tat <= clock_timestamp()`)
	if err != nil {
		return 0, errors.New("pgratelimit: pruning: " + err.Error())
	}
	return tag.RowsAffected(), nil
}
