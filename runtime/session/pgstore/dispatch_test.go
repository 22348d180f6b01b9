package pgstore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/winkgen/wink/internal/pgcluster"
	"github.com/winkgen/wink/internal/pgtest"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/session/internal/storetest"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

type stepParams struct{ Title string }

func decodeStep(d *strictjson.Decoder, v *stepParams) {
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

// addStep appends a plan step; a title "fail" fails after changing the plan, "boom" panics.
func addStep(ran *int) *wink.Registry {
	def := wink.NewTool(wink.Spec{Name: "add_step"}, &wink.Funcs[stepParams, wink.NoValue]{
		Decode:       decodeStep,
		EncodeResult: func(b []byte, _ *wink.NoValue) []byte { return append(b, "null"...) },
		Handler: func(tc *wink.ToolContext, p stepParams) (wink.ToolResult[wink.NoValue], error) {
			*ran++
			session.Append(tc.Session(), storetest.Plan, p.Title)
			session.Append(tc.Session(), storetest.Events, "added "+p.Title)
			switch p.Title {
			case "fail":
				return wink.Failure[wink.NoValue]("cannot add it"), nil
			case "boom":
				panic("boom")
			}
			return wink.Done[wink.NoValue]("added"), nil
		},
	})
	return wink.MustRegistry([]*wink.Tool{def})
}

func dispatch(t testing.TB, d *wink.Dispatcher, title string) (wink.Outcome, error) {
	t.Helper()
	return d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "add_step", Arguments: []byte(`{"title":"` + title + `"}`)})
}

// TestDispatchCommitsAcknowledgedCallsOnly: through the dispatcher, a successful call's changes are in
// the database when Dispatch returns; a failed or panicking call leaves only its LOG entries.
func TestDispatchCommitsAcknowledgedCallsOnly(t *testing.T) {
	st := newStore(t, pgtest.DSN(t))
	var ran int
	d := &wink.Dispatcher{Registry: addStep(&ran), Session: session.New(session.WithID("conv-d1"), session.WithStore(st))}
	for _, title := range []string{"one", "fail", "boom", "two"} {
		out, err := dispatch(t, d, title)
		if err != nil {
			t.Fatal(err)
		}
		if want := title == "one" || title == "two"; out.Success != want {
			t.Fatalf("%s: %+v", title, out)
		}
	}
	other := session.New(session.WithID("conv-d1"), session.WithStore(st)) // another worker
	storetest.InTx(t, other, func() {
		if got := session.All(other, storetest.Plan); strings.Join(got, ",") != "one,two" {
			t.Fatalf("stored plan %v, want the acknowledged [one two]", got)
		}
		// Events is a LOG slice the handler writes: LOG is never rolled back, so the failed calls' entries
		// stay, as they do in memory.
		if got := session.All(other, storetest.Events); strings.Join(got, ",") != "added one,added fail,added boom,added two" {
			t.Fatalf("stored events %v", got)
		}
	})
}

// TestDispatchOnADatabaseThatIsDownReturnsAnErrorAndDoesNotRunTheHandler.
func TestDispatchOnADatabaseThatIsDownReturnsAnErrorAndDoesNotRunTheHandler(t *testing.T) {
	c, err := pgcluster.Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	dsn, err := c.CreateDB(context.Background(), "down2")
	if err != nil {
		t.Fatal(err)
	}
	st := newStore(t, dsn)
	var ran int
	d := &wink.Dispatcher{Registry: addStep(&ran), Session: session.New(session.WithID("conv-d2"), session.WithStore(st))}
	if out, err := dispatch(t, d, "one"); err != nil || !out.Success || ran != 1 {
		t.Fatalf("%v %+v", err, out)
	}
	c.Kill()
	out, err := dispatch(t, d, "two")
	if err == nil || out.Success || out.Output != "" || out.Message != "" || !strings.Contains(err.Error(), `tool "add_step" not executed: pgstore: session "conv-d2"`) {
		t.Fatalf("err = %v, outcome %+v", err, out)
	}
	if ran != 1 {
		t.Fatalf("the handler ran %d times; it must not run when the store is down", ran)
	}
	var ce *session.CorruptError
	if errors.As(err, &ce) {
		t.Fatal("a down database is not corruption")
	}
}

// setTitle replaces the plan with one step: a call that changes one small STATE slice.
func setTitle() *wink.Registry {
	def := wink.NewTool(wink.Spec{Name: "set_title"}, &wink.Funcs[stepParams, wink.NoValue]{
		Decode:       decodeStep,
		EncodeResult: func(b []byte, _ *wink.NoValue) []byte { return append(b, "null"...) },
		Handler: func(tc *wink.ToolContext, p stepParams) (wink.ToolResult[wink.NoValue], error) {
			session.Seed(tc.Session(), storetest.Plan, p.Title)
			return wink.Done[wink.NoValue]("set"), nil
		},
	})
	return wink.MustRegistry([]*wink.Tool{def})
}

// BenchmarkDispatch compares a dispatch that changes one STATE slice of a session in the memory store
// with the same dispatch on a session in PostgreSQL, and with no store.
func BenchmarkDispatch(b *testing.B) {
	mem, _ := session.NewMemoryStore(storetest.Slices()...)
	call := wink.Call{ID: "c", Name: "set_title", Arguments: []byte(`{"title":"x"}`)}
	for _, sc := range []struct {
		name string
		st   session.Store
	}{{"none", nil}, {"memory", mem}, {"postgres", newStore(b, pgtest.DSN(b))}} {
		b.Run("store="+sc.name, func(b *testing.B) {
			s := session.New(session.WithID("bench"))
			if sc.st != nil {
				s = session.New(session.WithID("bench"), session.WithStore(sc.st))
			}
			d := &wink.Dispatcher{Registry: setTitle(), Session: s}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.Dispatch(context.Background(), call); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDispatchOfACallStoringAnUnreadableValueFails: a call whose handler leaves a value the store could
// not read back (nested past session.MaxItemDepth) is not acknowledged: Dispatch returns the error
// naming the slice, the store keeps what it had, and the session goes on (the next call works and a
// restarted worker loads it).
func TestDispatchOfACallStoringAnUnreadableValueFails(t *testing.T) {
	st := newStore(t, pgtest.DSN(t))
	def := wink.NewTool(wink.Spec{Name: "set_doc"}, &wink.Funcs[stepParams, wink.NoValue]{
		Decode:       decodeStep,
		EncodeResult: func(b []byte, _ *wink.NoValue) []byte { return append(b, "null"...) },
		Handler: func(tc *wink.ToolContext, p stepParams) (wink.ToolResult[wink.NoValue], error) {
			doc := storetest.Doc(`"` + p.Title + `"`)
			if p.Title == "deep" {
				doc = storetest.Nested(session.MaxItemDepth + 1)
			}
			session.Append(tc.Session(), storetest.Docs, doc)
			return wink.Done[wink.NoValue]("set"), nil
		},
	})
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{def}), Session: session.New(session.WithID("conv-d3"), session.WithStore(st))}
	call := func(title string) (wink.Outcome, error) {
		return d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "set_doc", Arguments: []byte(`{"title":"` + title + `"}`)})
	}
	if out, err := call("a"); err != nil || !out.Success {
		t.Fatalf("%+v %v", out, err)
	}
	out, err := call("deep")
	if _, ok := errors.AsType[*session.UnstorableError](err); !ok || out.Success ||
		!strings.Contains(err.Error(), `session "conv-d3": slice "test.docs" item 1 cannot be stored (it would not read back)`) {
		t.Fatalf("deep: %+v %v", out, err)
	}
	if got := session.All(d.Session, storetest.Docs); len(got) != 1 || got[0] != `"a"` {
		t.Fatalf("docs in memory after the refused call: %q", got)
	}
	if out, err := call("b"); err != nil || !out.Success {
		t.Fatalf("%+v %v", out, err)
	}
	other := session.New(session.WithID("conv-d3"), session.WithStore(st))
	storetest.InTx(t, other, func() {
		if got := session.All(other, storetest.Docs); len(got) != 2 || got[0] != `"a"` || got[1] != `"b"` {
			t.Fatalf("stored docs %q", got)
		}
	})
}
