package fleet

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/runtime/ledger/pgledger"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/session/pgstore"
)

// shared is what a worker shares with the others through the database.
type shared struct {
	pool   *pgxpool.Pool
	store  *pgstore.Store
	ledger *pgledger.Ledger
}

// openShared connects to the database at dsn and opens the session store (keeping Notes) and the
// idempotency ledger; each creates its tables if needed.
func openShared(ctx context.Context, dsn string) (*shared, error) {
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, errors.New("connecting to the database: " + err.Error())
	}
	st, err := pgstore.New(ctx, pool, Notes)
	if err != nil {
		pool.Close()
		return nil, err
	}
	l, err := pgledger.New(ctx, pool)
	if err != nil {
		pool.Close()
		return nil, err
	}
	return &shared{pool: pool, store: st, ledger: l}, nil
}

// open returns the stored session id: every call on it is a database transaction that loads what
// other workers committed and commits what the call changed.
func (s *shared) open(_ context.Context, id string) (*session.Session, func(), error) {
	return session.New(session.WithID(id), session.WithStore(s.store)), nil, nil
}

func (s *shared) close() { s.pool.Close() }
