package durabletest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
)

// StoreContract checks the behaviour every durable.Store must have: idempotent creation, claims with
// leases and fencing tokens, checkpoints refused to a fenced-off claim, held runs woken, terminal runs
// never claimed.
func StoreContract(t *testing.T, st durable.Store) {
	ctx := context.Background()
	if created, err := st.Create(ctx, durable.Record{ID: "a", Session: "s", Input: []byte{1, 2}, MaxTurns: 3, Principal: []byte{7, 8}}); err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	if created, err := st.Create(ctx, durable.Record{ID: "a", Input: []byte{9}}); err != nil || created {
		t.Fatalf("create again: %v %v", created, err)
	}
	if _, _, err := st.Load(ctx, "zz"); !errors.Is(err, durable.ErrNotFound) {
		t.Fatalf("load unknown: %v", err)
	}
	r, ok, err := st.Claim(ctx, "w1", 200*time.Millisecond)
	if err != nil || !ok || r.ID != "a" || r.Owner != "w1" || r.State != durable.Running || r.Attempts != 1 ||
		r.Session != "s" || r.MaxTurns != 3 || string(r.Input) != "\x01\x02" || string(r.Principal) != "\x07\x08" {
		t.Fatalf("claim: %+v %v %v", r, ok, err)
	}
	if _, ok, _ := st.Claim(ctx, "w2", time.Second); ok {
		t.Fatal("a leased run was claimed again")
	}
	if err := st.Append(ctx, "a", r.Token, durable.Step{Kind: durable.StepModel, Turn: 1, Data: []byte("m1"), Worker: "w1"}); err != nil {
		t.Fatal(err)
	}
	if err := st.Append(ctx, "a", r.Token, durable.Step{Kind: durable.StepModel, Turn: 1, Data: []byte("again")}); !errors.Is(err, durable.ErrStepExists) {
		t.Fatalf("duplicate step: %v", err)
	}
	if err := st.Renew(ctx, "a", r.Token, 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the lease expires: w2 takes over
	r2, ok, err := st.Claim(ctx, "w2", time.Second)
	if err != nil || !ok || r2.Token <= r.Token || r2.Attempts != 2 {
		t.Fatalf("takeover: %+v %v %v", r2, ok, err)
	}
	if err := st.Append(ctx, "a", r.Token, durable.Step{Kind: durable.StepTool, Turn: 1, Data: []byte("late")}); !errors.Is(err, durable.ErrLeaseLost) {
		t.Fatalf("fenced append: %v", err)
	}
	if err := st.Renew(ctx, "a", r.Token, time.Second); !errors.Is(err, durable.ErrLeaseLost) {
		t.Fatalf("fenced renew: %v", err)
	}
	if err := st.Release(ctx, "a", r.Token, durable.Release{State: durable.Done}); !errors.Is(err, durable.ErrLeaseLost) {
		t.Fatalf("fenced release: %v", err)
	}
	if err := st.Append(ctx, "a", r2.Token, durable.Step{Kind: durable.StepTool, Turn: 1, Index: 1, Data: []byte("t11")}); err != nil {
		t.Fatal(err)
	}
	if err := st.Append(ctx, "a", r2.Token, durable.Step{Kind: durable.StepTool, Turn: 1, Index: 0, Data: []byte("t10")}); err != nil {
		t.Fatal(err)
	}
	if err := st.Append(ctx, "a", -1, durable.Step{Kind: durable.StepModel, Turn: 2, Data: []byte("m2")}); err != nil {
		t.Fatalf("unfenced append: %v", err)
	}
	_, steps, err := st.Load(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	var order string
	for _, s := range steps {
		order += string(s.Data) + " "
	}
	if order != "m1 t10 t11 m2 " || steps[0].Worker != "w1" || steps[0].Time.IsZero() {
		t.Fatalf("steps: %q %+v", order, steps[0])
	}
	// Held: not claimable before its wake time, claimable after Wake.
	if err := st.Release(ctx, "a", r2.Token, durable.Release{State: durable.Held, Held: []byte("h"), Delay: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := st.Claim(ctx, "w3", time.Second); ok {
		t.Fatal("a held run was claimed before its wake time")
	}
	rec, _, _ := st.Load(ctx, "a")
	if rec.State != durable.Held || string(rec.Held) != "h" {
		t.Fatalf("held: %+v", rec)
	}
	if err := st.Wake(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	r3, ok, err := st.Claim(ctx, "w3", time.Second)
	if err != nil || !ok || r3.Token <= r2.Token {
		t.Fatalf("claim after wake: %+v %v %v", r3, ok, err)
	}
	if err := st.Release(ctx, "a", r3.Token, durable.Release{State: durable.Done, Result: []byte("ok")}); err != nil {
		t.Fatal(err)
	}
	if err := st.Wake(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := st.Claim(ctx, "w4", time.Second); ok {
		t.Fatal("a finished run was claimed")
	}
	rec, _, _ = st.Load(ctx, "a")
	if rec.State != durable.Done || string(rec.Result) != "ok" {
		t.Fatalf("done: %+v", rec)
	}
	if err := st.Wake(ctx, "zz"); !errors.Is(err, durable.ErrNotFound) {
		t.Fatalf("wake unknown: %v", err)
	}
}
