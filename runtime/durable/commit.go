package durable

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strconv"

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

// find looks step (turn, index) of run up in s's commits: c is its commit when committed is true;
// stale reports that the run has commits of a later turn (the step belongs to a turn the run has
// left, so its attempt is stale).
func find(s *session.Session, run string, turn, index int) (c Commit, committed, stale bool) {
	for it := range session.Values(s, CommitSlice) {
		if it.Run != run {
			continue
		}
		switch {
		case it.Turn > turn:
			stale = true
		case it.Turn == turn && it.Index == index:
			c, committed = it, true
		}
	}
	return c, committed, stale
}

// record adds c to the run's commits in s. A run keeps the commits of the latest turn it committed in,
// every one of them: a turn's calls do not commit in index order when one is held (its later siblings
// commit while it waits for a decision, and it commits once approved), so each call of the turn must
// find its own commit, whichever committed last. A commit of a later turn drops the earlier turns'
// (no attempt of them may run any more: they are stale); a commit of an earlier turn than the run's
// latest changes nothing (its attempt is stale, and Begin refused it already).
func record(s *session.Session, c Commit) {
	if _, _, stale := find(s, c.Run, c.Turn, c.Index); stale {
		return
	}
	session.Replace(s, CommitSlice, func(items []Commit) []Commit {
		out := items[:0]
		for _, it := range items {
			if it.Run != c.Run || (it.Turn == c.Turn && it.Index != c.Index) {
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

// ErrStaleStep refuses a tool call of a run that has committed a call of a later turn already: the
// attempt is stale (its worker was paused past its lease, or it is an attempt a retry has overtaken)
// and must not run. The calls of one turn are not stale for each other: a held call runs after its
// later siblings committed, once approved.
var ErrStaleStep = errors.New("durable: the run has committed a call of a later turn; this attempt is stale")

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
	if ic, inner := wink.InnerCallOf(ctx); inner && !ic.Provider() && k != "" {
		// An inner call of a program the step runs: the program's step key and the call's ordinal.
		k += "/" + strconv.Itoa(ic.Ordinal)
	}
	return k
}

// HoldID returns the hold id (wink.Call.Hold) of call index of turn turn of run run: the id a decision
// on that call, if it is held, is bound to. It is derived from the step, not drawn at random, so that
// every worker, every takeover and every replay of the step (on either engine) dispatches the call
// under the same id without storing it; it is unique because the step is (run ids are never reused:
// Start of an existing id changes nothing), and it is never the provider's call id, so a decision on
// one turn's "gemini-0" cannot apply to another turn's.
func HoldID(run string, turn, index int) string {
	sum := sha256.Sum256([]byte("wink.durable.hold\x00" + run + "\x00" + strconv.Itoa(turn) + "\x00" + strconv.Itoa(index)))
	return "hold-" + hex.EncodeToString(sum[:16])
}

// ToolStep names the tool call DispatchStep runs: call Index of turn Turn of run Run.
type ToolStep struct {
	Run   string
	Turn  int
	Index int
	// Attempt is copied into the call's wink.RunContext.
	Attempt int
	// Fence, when set, is called inside the call's transaction (under the session's lock) before the
	// handler runs, and again just before a call that changed the session commits; an error refuses
	// the call (before) or its commit (after: nothing the call changed is kept). storeTx is the session
	// store's transaction (session.Tx.StoreTx; nil for a session without a store): a fence on the same
	// database checks in it rather than taking a second connection while the call holds this one. The
	// embedded engine renews its claim there, so a worker whose claim was taken over runs nothing and
	// commits nothing.
	Fence func(ctx context.Context, storeTx any) error
}

// DispatchStep runs the call st through a copy of base whose hooks make the call's session transaction
// carry the step's commit. In the transaction, before the handler: a step that committed before is
// answered from its commit (the handler does not run); a step older than the run's latest commit is
// refused with ErrStaleStep; Fence is called. On success OnResult records the outcome in CommitSlice, so
// the session's commit and the checkpoint are one write. The handler's context carries the step's
// IdempotencyKey. Engines call it for every tool step (the Temporal engine's tool activity too); a
// *wink.HeldError is returned as Dispatch returns it. A call without a hold id is dispatched under the
// step's (HoldID), so a decision recorded for the step's held call (policy.Approve with the HeldError)
// applies when any worker dispatches it again, and to no other call.
func DispatchStep(ctx context.Context, base *wink.Dispatcher, st ToolStep, c wink.Call) (wink.Outcome, error) {
	run, turn, index := st.Run, st.Turn, st.Index
	d := *base
	key := stepKey(run, turn, index)
	if c.Hold == "" {
		c.Hold = HoldID(run, turn, index)
	}
	d.RunContext.RunID = run
	d.RunContext.RequestID = key
	d.RunContext.Attempt = st.Attempt
	if s := d.Session; s != nil {
		userBegin, userResult := base.Hooks.Begin, base.Hooks.OnResult
		d.Hooks.Begin = func(tc *wink.ToolContext, t *wink.Tool) (func() error, error) {
			c, committed, stale := find(s, run, turn, index)
			if ownProgram(tc) {
				// An inner call of the step's program: the step's commit is not its answer (the program
				// keeps its inner calls' checkpoints itself); the fence and the staleness still apply.
				committed = false
			}
			if committed {
				return nil, &alreadyCommitted{out: c.Outcome}
			}
			if stale {
				return nil, ErrStaleStep
			}
			if st.Fence != nil {
				if err := st.Fence(tc, storeTx(tc)); err != nil {
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
			if out.Success && !t.Spec().ReadOnly && !ownProgram(tc) {
				record(s, Commit{Run: run, Turn: turn, Index: index, Outcome: *out})
				if tx := tc.Tx(); st.Fence != nil && tx != nil {
					_ = tx.Join(commitFence{fence: st.Fence}) // OnResult runs before the commit: Join accepts it
				}
			}
		}
	}
	o, err := d.Dispatch(context.WithValue(ctx, keyCtx{}, key), c)
	if ac, ok := errors.AsType[*alreadyCommitted](err); ok {
		return ac.out, nil
	}
	return o, err
}

// ownProgram reports whether the call is an inner call of a program the step runs (eval's run_program),
// which keeps its inner calls' checkpoints itself. A call a provider's program made (wink.Call.Caller) is
// the step's own call, committed and replayed as a direct one.
func ownProgram(ctx context.Context) bool {
	ic, inner := wink.InnerCallOf(ctx)
	return inner && !ic.Provider()
}

func storeTx(tc *wink.ToolContext) any {
	if tx := tc.Tx(); tx != nil {
		return tx.StoreTx()
	}
	return nil
}

// commitFence calls the step's fence in the session's transaction just before it commits: a claim
// lost while the handler ran keeps nothing of the call.
type commitFence struct {
	fence func(ctx context.Context, storeTx any) error
}

func (f commitFence) Prepare(ctx context.Context, storeTx any) error { return f.fence(ctx, storeTx) }
func (f commitFence) Done(context.Context, bool)                     {}
