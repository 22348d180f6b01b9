package wink

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/winkgen/wink/runtime/vfs"
)

// A ToolContext outlives its call: the handler may keep it, and goroutines it starts may use it at any
// time, before, during and after the end of the call. What the ToolContext reaches of the call's pooled
// state (the frame: decoded params, result, outcome) and of the caller's memory (the arguments as sent)
// is valid only until the call ends, when the frame goes back to the tool's pool for another call. So:
//
//   - The end of the call (ToolContext.end, on the dispatcher's goroutine, before the frame is released)
//     marks the ToolContext ended: one compare-and-swap of its rare pointer from nil to endedRare when no
//     method needed rare during the call (the common case), else a store of tcEnded into rare.st under
//     its lock. Either way it then waits until no reader of the frame is left (frame.readers).
//   - A method that reads the frame or the arguments either holds rare's lock while it sees the call
//     not ended (the end takes that lock, so it waits for it: CanonicalArguments), or counts itself in
//     frame.readers before it checks that the call has not ended (the end marks first and counts after:
//     with sequentially consistent atomics one of the two sees the other: AppendResultJSON, which thus
//     costs no allocation on the dispatcher's goroutine).
//   - What a method writes lazily (the canonical arguments, the hold id, the lazily resolved filesystem,
//     the count of Elicit calls) is in rare, under its lock, so concurrent calls of the methods are no
//     data race either. Policies and the Check hook get the ToolContext before the dispatcher has set the
//     call up, and goroutines they start may use it at once, so nothing they can read is written plainly
//     after step 3: the transaction's Tx lives in the ToolContext's allocation from step 3 on and says
//     when it is begun with its own atomic state (session.Tx); the resource handle (tc.res, the call's
//     own: resources.Context.ForCall) is set at step 3 and guards its scope itself; the filesystem the
//     dispatcher sets at step 6 (resolved in the call's scope, or a read-only call's view) goes into rare,
//     under its lock, when policies or Check saw the ToolContext (setCallFS), and into the plain field
//     only when nothing but the handler and what runs after step 6 can (no goroutine reads it earlier).
//     The session, which the dispatcher changes once more after the handler (a read-only call's policies
//     write their bookkeeping in the whole session), is an atomic pointer.
//
// The hot path pays one uncontended compare-and-swap per call (the end); nothing is allocated for it.

// tcRare is the part of a ToolContext that few calls set. Its fields are read and written under its lock
// (st), except that a freshly made tcRare is filled before the ToolContext is published.
type tcRare struct {
	st      atomic.Uint32  // tcLocked | tcEnded
	hold    string         // the call's hold id (Call.Hold, or the one heldError gave it), for Binding
	args    []byte         // the arguments as sent (the caller's memory), when the tool has no params encoder; nil once ended
	canon   []byte         // CanonicalArguments, once computed
	fs      vfs.Filesystem // the filesystem Filesystem resolved lazily (FilesystemKey)
	fsErr   error          // resolving FilesystemKey failed
	fsSet   bool           // fs is the dispatcher's step 6 value (setCallFS), which Filesystem returns
	elicits int            // the Elicit calls the handler made
}

const (
	tcLocked = 1 << iota
	tcEnded
)

// endedRare is the rare of every ToolContext whose call ended without needing one: it is never locked
// or written, and reads as a zero tcRare whose call has ended.
var endedRare tcRare

func init() { endedRare.st.Store(tcEnded) }

func (r *tcRare) lock() {
	for {
		if s := r.st.Load(); s&tcLocked == 0 && r.st.CompareAndSwap(s, s|tcLocked) {
			return
		}
		runtime.Gosched() // held for a short computation (CanonicalArguments) only
	}
}

func (r *tcRare) unlock() { r.st.Store(r.st.Load() &^ tcLocked) }

// ended reports whether the call has ended; r is locked.
func (r *tcRare) ended() bool { return r.st.Load()&tcEnded != 0 }

// lockRare returns tc's rare, locked, allocating it when the call has not ended; nil when the call ended
// without one (nothing to read or write then).
func (tc *ToolContext) lockRare() *tcRare {
	r := tc.rare.Load()
	if r == nil {
		n := new(tcRare)
		if tc.rare.CompareAndSwap(nil, n) {
			r = n
		} else {
			r = tc.rare.Load()
		}
	}
	if r == &endedRare {
		return nil
	}
	r.lock()
	return r
}

// peekRare returns tc's rare, locked, when it has one; nil otherwise (a zero tcRare).
func (tc *ToolContext) peekRare() *tcRare {
	r := tc.rare.Load()
	if r == nil || r == &endedRare {
		return nil
	}
	r.lock()
	return r
}

// setRare gives a ToolContext not yet published (the dispatcher's step 3) its rare, filled.
func (tc *ToolContext) setRare(r *tcRare) { tc.rare.Store(r) }

// ended reports whether tc's call has ended.
func (tc *ToolContext) ended() bool {
	r := tc.rare.Load()
	return r != nil && r.st.Load()&tcEnded != 0 // endedRare's st is tcEnded
}

// end marks the end of tc's call, whose frame is fr, before fr is released: after it, no method of tc
// reads fr or the arguments as sent. It waits for the methods reading them now, which are short. Its
// common case (no rare, no reader, no OnResult) is one compare-and-swap and two loads.
func (tc *ToolContext) end(fr *frame) {
	// tc.rare from nil to &endedRare, without the write barrier of atomic.Pointer's CompareAndSwap (a
	// call): the old value is nil and the new one a global, neither of which the collector needs to see.
	if !atomic.CompareAndSwapUintptr((*uintptr)(unsafe.Pointer(&tc.rare)), 0, uintptr(unsafe.Pointer(&endedRare))) {
		tc.rare.Load().end()
	}
	if fr.readers.Load() != 0 || fr.result.Load() {
		fr.endReaders()
	}
}

// end marks the end of the call of the ToolContext r belongs to (out of line: ToolContext.end is inlined).
//
//go:noinline
func (r *tcRare) end() {
	r.lock() // waits for a CanonicalArguments reading the frame
	r.args = nil
	r.st.Store(tcEnded) // and unlocked
}

// endReaders waits for the AppendResultJSON calls reading fr, and closes its result for the next call.
func (fr *frame) endReaders() {
	for fr.readers.Load() != 0 {
		runtime.Gosched()
	}
	if fr.result.Load() {
		fr.result.Store(false)
	}
}

// enterFrame counts the caller among the readers of tc's frame and reports whether the call has not
// ended: then the frame is the call's until exitFrame. A false return needs no exitFrame.
func (tc *ToolContext) enterFrame() (*frame, bool) {
	fr := tc.fr
	if fr == nil || tc.ended() {
		return nil, false
	}
	fr.readers.Add(1)
	if tc.ended() {
		fr.readers.Add(-1)
		return nil, false
	}
	return fr, true
}

func exitFrame(fr *frame) { fr.readers.Add(-1) }
