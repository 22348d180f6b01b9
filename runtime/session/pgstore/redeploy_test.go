package pgstore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/internal/pgtest"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/session/internal/storetest"
	"github.com/winkgen/wink/runtime/session/pgstore"
	"github.com/winkgen/wink/runtime/suites/planning"
)

// TestRedeployWithAChangedTypeIsRecoveredByWithUpgrade: release 1 stored plans in a form release 2's
// generated decoder refuses (a status release 2 dropped from the enum). Release 2 without an upgrade
// fails the load naming the slice and the reason; release 2 with WithUpgrade loads the migrated plans,
// leaves the rest of the session untouched and writes the new form at the next change, after which a
// worker without the upgrade loads the session too. Every release is its own pgstore.Store on one
// database, as workers of successive deploys are.
func TestRedeployWithAChangedTypeIsRecoveredByWithUpgrade(t *testing.T) {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	deploy := func(slices ...session.Persistent) session.Store {
		st, err := pgstore.New(ctx, pool, append(slices, storetest.Plan, storetest.Events)...)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	const id = "conv-redeploy"
	// Release 1: plans kept as JSON with a status "paused".
	v1 := session.NewSlice[storetest.Doc]("planning.plan", session.Rollback, session.WithCodec(storetest.DocCodec))
	s1 := session.New(session.WithID(id), session.WithStore(deploy(v1)))
	storetest.InTx(t, s1, func() {
		session.Seed(s1, v1, `{"objective":"ship","status":"paused","steps":[{"step_id":1,"title":"build","status":"pending"}]}`)
		session.Seed(s1, storetest.Plan, "kept")
		session.Append(s1, storetest.Events, "e1")
	})

	// Release 2, no upgrade: the load fails, naming the slice and the reason.
	plain := deploy(planning.PlanSlice)
	_, err = session.New(session.WithID(id), session.WithStore(plain)).Begin(ctx, session.ReadWrite)
	if ce, ok := errors.AsType[*session.CorruptError](err); !ok || ce.Slice != "planning.plan" || !strings.Contains(err.Error(), "status") {
		t.Fatalf("release 2 without an upgrade: Begin = %v", err)
	}

	// Release 2 with the upgrade: "paused" plans become active ones.
	upgraded := session.NewSlice[planning.Plan]("planning.plan", session.Rollback, session.WithCodec(planning.WinkPlanCodec),
		session.WithUpgrade(func(stored []byte, err error) (planning.Plan, error) {
			fixed := strings.Replace(string(stored), `"status":"paused"`, `"status":"active"`, 1)
			if p, derr := planning.WinkPlanCodec.Decode([]byte(fixed)); derr == nil {
				return p, nil
			}
			return planning.Plan{}, err
		}))
	s2 := session.New(session.WithID(id), session.WithStore(deploy(upgraded)))
	storetest.InTx(t, s2, func() {
		got := session.All(s2, upgraded)
		if len(got) != 1 || got[0].Objective != "ship" || got[0].Status != planning.PlanActive || len(got[0].Steps) != 1 {
			t.Fatalf("upgraded plans %+v", got)
		}
		if got := session.All(s2, storetest.Plan); len(got) != 1 || got[0] != "kept" {
			t.Fatalf("other slice %q", got)
		}
		if n := session.Len(s2, storetest.Events); n != 1 {
			t.Fatalf("%d events", n)
		}
		p := got[0]
		p.Objective = "ship it"
		session.Seed(s2, upgraded, p) // the next change writes the new form
	})

	// Now a worker of release 2 without the upgrade reads the session.
	s3 := session.New(session.WithID(id), session.WithStore(plain))
	storetest.InTx(t, s3, func() {
		if got := session.All(s3, planning.PlanSlice); len(got) != 1 || got[0].Objective != "ship it" || got[0].Status != planning.PlanActive {
			t.Fatalf("plans after the rewrite %+v", got)
		}
	})
}
