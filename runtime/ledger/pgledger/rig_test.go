package pgledger_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/runtime/ledger/pgledger"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/session/pgstore"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// The fleet rig: a session store and a ledger on one pool, and an idempotent tool "add" (its custom
// key is the title) whose handler appends the title to a stored STATE slice (the session effect) and
// inserts a row into the effects table through a pool of its own (the external effect: another system).

var stringCodec = session.Codec[string]{
	Encode: func(dst []byte, v *string) []byte { return strictjson.AppendString(dst, *v) },
	Decode: func(data []byte) (string, error) {
		var d strictjson.Decoder
		d.Reset(data, strictjson.Limits{MaxBytes: session.MaxItemBytes, MaxDepth: session.MaxItemDepth})
		s, _ := d.String()
		if errs := d.Finish(); errs != nil {
			return "", errs
		}
		return s, nil
	},
}

// Steps is the session effect of "add".
var Steps = session.NewSlice[string]("test.steps", session.Rollback, session.WithCodec(stringCodec))

type addParams struct{ Title string }

func decodeAdd(d *strictjson.Decoder, v *addParams) {
	if !d.ObjectStart() {
		return
	}
	for d.NextKey() {
		if string(d.Key()) == "title" {
			v.Title, _ = d.String()
			continue
		}
		d.Unknown([]string{"title"})
	}
	d.ObjectEnd()
}

// rig is one worker's view of the fleet.
type rig struct {
	pool   *pgxpool.Pool
	store  *pgstore.Store
	ledger *pgledger.Ledger
	reg    *wink.Registry
	runs   atomic.Int64
	// during, when set, runs in the handler after the effects (a test pauses the call there).
	during func(title string)
}

func newRig(ctx context.Context, pool, external *pgxpool.Pool) (*rig, error) {
	if _, err := pool.Exec(ctx, "CREATE TABLE IF NOT EXISTS effects (title text, who text)"); err != nil {
		return nil, err
	}
	st, err := pgstore.New(ctx, pool, Steps)
	if err != nil {
		return nil, err
	}
	l, err := pgledger.New(ctx, pool)
	if err != nil {
		return nil, err
	}
	r := &rig{pool: pool, store: st, ledger: l}
	def := wink.NewTool(wink.Spec{Name: "add", Idempotency: wink.Idempotency{Strategy: wink.IdemCustom, Scope: "session"}},
		&wink.Funcs[addParams, wink.NoValue]{
			Decode:         decodeAdd,
			EncodeResult:   func(b []byte, _ *wink.NoValue) []byte { return append(b, "null"...) },
			IdempotencyKey: func(p *addParams) string { return p.Title },
			Handler: func(tc *wink.ToolContext, p addParams) (wink.ToolResult[wink.NoValue], error) {
				n := r.runs.Add(1)
				if _, err := external.Exec(context.Background(), "INSERT INTO effects (title, who) VALUES ($1, $2)", p.Title, strconv.FormatInt(n, 10)); err != nil {
					return wink.Failure[wink.NoValue]("effect failed: " + err.Error()), nil
				}
				session.Append(tc.Session(), Steps, p.Title)
				if r.during != nil {
					r.during(p.Title)
				}
				return wink.Done[wink.NoValue]("added " + p.Title + " (run " + strconv.FormatInt(n, 10) + ")"), nil
			},
		})
	r.reg = wink.MustRegistry([]*wink.Tool{def})
	return r, nil
}

func mustRig(t testing.TB, pool *pgxpool.Pool) *rig {
	t.Helper()
	external, err := pgxpool.New(context.Background(), pool.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(external.Close)
	r, err := newRig(context.Background(), pool, external)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// dispatcher returns a dispatcher on the stored session id.
func (r *rig) dispatcher(id string) *wink.Dispatcher {
	return &wink.Dispatcher{Registry: r.reg, Ledger: r.ledger, Session: session.New(session.WithID(id), session.WithStore(r.store))}
}

func (r *rig) add(ctx context.Context, d *wink.Dispatcher, title string) (wink.Outcome, error) {
	return d.Dispatch(ctx, wink.Call{ID: "c-" + title, Name: "add", Arguments: []byte(`{"title":"` + title + `"}`)})
}

// steps returns the session's stored steps, as a fresh worker loads them.
func (r *rig) steps(t testing.TB, id string) []string {
	t.Helper()
	s := session.New(session.WithID(id), session.WithStore(r.store))
	tx, err := s.Begin(context.Background(), session.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.End(context.Background())
	return session.All(s, Steps)
}

// ledgerState returns the key's row state ("" when absent).
func ledgerState(t testing.TB, pool *pgxpool.Pool, key string) string {
	t.Helper()
	var state string
	_ = pool.QueryRow(context.Background(), "SELECT state FROM wink_ledger WHERE key = $1", key).Scan(&state)
	return state
}
