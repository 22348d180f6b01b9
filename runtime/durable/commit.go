package durable

import (
	"context"
	"encoding/base64"
	"errors"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// Commit is the checkpoint a tool call writes into the session itself, in the transaction that commits
// the call's changes: the run, the step and the call's outcome. A worker that takes over a run whose
// previous worker died between that commit and the engine's own checkpoint finds it there and does not
// run the call again.
type Commit struct {
	Run     string
	Turn    int
	Index   int
	Outcome wink.Outcome
}

// CommitSlice keeps the latest Commit of each run in a session (a STATE slice with a codec). Give it to
// the session store of the sessions the runs dispatch on (session.NewMemoryStore(durable.CommitSlice,
// ...), pgstore.New(ctx, pool, durable.CommitSlice, ...)): without it the commit is not stored and a
// call interrupted after its commit runs again (still once per idempotency key when the tool declares
// one).
var CommitSlice = session.NewSlice[Commit]("durable.commits", session.Rollback, session.WithCodec(session.Codec[Commit]{
	Encode: encodeCommitJSON,
	Decode: decodeCommitJSON,
}))

// The stored item is a JSON string holding the base64 of the binary payload.
func encodeCommitJSON(dst []byte, c *Commit) []byte {
	e := enc{b: make([]byte, 0, 64+len(c.Outcome.Output))}
	e.b = append(e.b, codecVersion)
	e.str(c.Run)
	e.varint(int64(c.Turn))
	e.varint(int64(c.Index))
	e.outcome(c.Outcome)
	return strictjson.AppendString(dst, base64.RawStdEncoding.EncodeToString(e.b))
}

func decodeCommitJSON(data []byte) (Commit, error) {
	var sd strictjson.Decoder
	sd.Reset(data, strictjson.Limits{MaxBytes: len(data) + 1, MaxDepth: 2})
	s, _ := sd.String()
	if errs := sd.Finish(); errs != nil {
		return Commit{}, errs
	}
	raw, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return Commit{}, errors.New("durable: commit record: " + err.Error())
	}
	d := dec{b: raw}
	d.version()
	c := Commit{Run: d.str(), Turn: int(d.varint()), Index: int(d.varint())}
	c.Outcome = d.outcome()
	return c, d.finish("session commit")
}

// latest returns the run's latest commit recorded in s, if any.
func latest(s *session.Session, run string) (Commit, bool) {
	for c := range session.Values(s, CommitSlice) {
		if c.Run == run {
			return c, true
		}
	}
	return Commit{}, false
}

// after reports whether step (turn, index) of c comes after (turn, index).
func after(c Commit, turn, index int) bool {
	return c.Turn > turn || (c.Turn == turn && c.Index > index)
}

// record makes c the run's commit in s, unless a later step of the run committed already (a stale
// attempt cannot take the latest commit's place).
func record(s *session.Session, c Commit) {
	if l, ok := latest(s, c.Run); ok && after(l, c.Turn, c.Index) {
		return
	}
	session.Replace(s, CommitSlice, func(items []Commit) []Commit {
		out := items[:0]
		for _, it := range items {
			if it.Run != c.Run {
				out = append(out, it)
			}
		}
		return append(out, c)
	})
}

// Forget removes the commits of run from the session s, in a transaction of its own, once the run has
// ended: no attempt of it may run any more, so no commit of it can be needed. Engines call it when a run
// ends (Done or Failed), before they record the end; an engine that dies in between calls it again when
// the run is driven to its end once more. A session serving many runs then keeps only the commits of the
// runs still going, and the write of each tool call's transaction (which rewrites the whole CommitSlice)
// depends on the runs in flight on the session, not on how many it has served. A stale attempt of an
// ended run is refused by its engine's fence (the embedded engine's claim) or its deadline (a Temporal
// activity's start-to-close timeout), not by a commit. Forget writes nothing when the run has no commit.
func Forget(ctx context.Context, s *session.Session, run string) error {
	tx, err := s.Begin(ctx, session.ReadWrite)
	if err != nil {
		return err
	}
	has := false
	for c := range session.Values(s, CommitSlice) {
		if c.Run == run {
			has = true
			break
		}
	}
	if has {
		session.Replace(s, CommitSlice, func(items []Commit) []Commit {
			out := items[:0]
			for _, it := range items {
				if it.Run != run {
					out = append(out, it)
				}
			}
			return out
		})
	}
	return tx.End(ctx)
}

// ErrStaleStep refuses a tool call of a run whose later step has committed already: the attempt is
// stale (its worker was paused past its lease, or it is an attempt a retry has overtaken) and must not
// run.
var ErrStaleStep = errors.New("durable: a later step of the run has committed; this attempt is stale")

// alreadyCommitted is the error the Begin hook returns when the step's call committed before.
type alreadyCommitted struct{ out wink.Outcome }

func (e *alreadyCommitted) Error() string { return "durable: the call committed before (replayed)" }

type keyCtx struct{}

// IdempotencyKey returns the stable key of the durable tool call running with ctx (a handler passes its
// *wink.ToolContext): the same on every attempt of the call, on any worker, and different for every
// other call. Handlers give it to the outside services they change (a payment API's Idempotency-Key
// header, a unique column) so that a call interrupted after its effect and run again on another worker
// has that effect once. "" outside a durable run.
func IdempotencyKey(ctx context.Context) string {
	if ctx == nil {
		return ""
	}
	k, _ := ctx.Value(keyCtx{}).(string)
	return k
}

// ToolStep names the tool call DispatchStep runs: call Index of turn Turn of run Run.
type ToolStep struct {
	Run   string
	Turn  int
	Index int
	// Attempt is copied into the call's wink.RunContext.
	Attempt int
	// Fence, when set, is called inside the call's transaction (under the session's lock) before the
	// handler runs; an error refuses the call. The embedded engine renews its claim there, so a worker
	// whose claim was taken over runs nothing.
	Fence func(ctx context.Context) error
}

// DispatchStep runs the call st through a copy of base whose hooks make the call's session transaction
// carry the step's commit. In the transaction, before the handler: a step that committed before is
// answered from its commit (the handler does not run); a step older than the run's latest commit is
// refused with ErrStaleStep; Fence is called. On success OnResult records the outcome in CommitSlice, so
// the session's commit and the checkpoint are one write. The handler's context carries the step's
// IdempotencyKey. Engines call it for every tool step (the Temporal engine's tool activity too); a
// *wink.HeldError is returned as Dispatch returns it.
func DispatchStep(ctx context.Context, base *wink.Dispatcher, st ToolStep, c wink.Call) (wink.Outcome, error) {
	run, turn, index := st.Run, st.Turn, st.Index
	d := *base
	key := stepKey(run, turn, index)
	d.RunContext.RunID = run
	d.RunContext.RequestID = key
	d.RunContext.Attempt = st.Attempt
	if s := d.Session; s != nil {
		userBegin, userResult := base.Hooks.Begin, base.Hooks.OnResult
		d.Hooks.Begin = func(tc *wink.ToolContext, t *wink.Tool) (func() error, error) {
			if l, ok := latest(s, run); ok {
				if l.Turn == turn && l.Index == index {
					return nil, &alreadyCommitted{out: l.Outcome}
				}
				if after(l, turn, index) {
					return nil, ErrStaleStep
				}
			}
			if st.Fence != nil {
				if err := st.Fence(tc); err != nil {
					return nil, err
				}
			}
			if userBegin != nil {
				return userBegin(tc, t)
			}
			return nil, nil
		}
		d.Hooks.OnResult = func(tc *wink.ToolContext, t *wink.Tool, params any, out *wink.Outcome) {
			if userResult != nil {
				userResult(tc, t, params, out)
			}
			if out.Success && !t.Spec().ReadOnly {
				record(s, Commit{Run: run, Turn: turn, Index: index, Outcome: *out})
			}
		}
	}
	o, err := d.Dispatch(context.WithValue(ctx, keyCtx{}, key), c)
	if ac, ok := errors.AsType[*alreadyCommitted](err); ok {
		return ac.out, nil
	}
	return o, err
}
