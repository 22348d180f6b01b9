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
var CommitSlice = session.NewSlice[Commit]("durable.commits", session.State, session.WithCodec(session.Codec[Commit]{
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

// committed returns the commit recorded in s for the step, if any.
func committed(s *session.Session, run string, turn, index int) (wink.Outcome, bool) {
	for c := range session.Values(s, CommitSlice) {
		if c.Run == run && c.Turn == turn && c.Index == index {
			return c.Outcome, true
		}
	}
	return wink.Outcome{}, false
}

// record replaces the run's commit in s with this step's.
func record(s *session.Session, c Commit) {
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

// DispatchStep runs call index of turn of run through a copy of base whose hooks make the call's
// session transaction carry the step's commit: Begin refuses a step that committed before (it is then
// answered from the commit, without running the handler), OnResult records the step's outcome in
// CommitSlice, so the session's commit and the checkpoint are one write. The handler's context carries
// the step's IdempotencyKey. Engines call it for every tool step (the Temporal engine's tool activity
// too); a *wink.HeldError is returned as Dispatch returns it.
func DispatchStep(ctx context.Context, base *wink.Dispatcher, run string, attempt, turn, index int, c wink.Call) (wink.Outcome, error) {
	d := *base
	key := stepKey(run, turn, index)
	d.RunContext.RunID = run
	d.RunContext.RequestID = key
	d.RunContext.Attempt = attempt
	if s := d.Session; s != nil {
		userBegin, userResult := base.Hooks.Begin, base.Hooks.OnResult
		d.Hooks.Begin = func(tc *wink.ToolContext, t *wink.Tool) (func() error, error) {
			if o, ok := committed(s, run, turn, index); ok {
				return nil, &alreadyCommitted{out: o}
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
