// Package session holds an agent run's state: typed slices of values, each
// with a Retention (Rollback or NoRollback), updated directly or by events dispatched to
// reducers, with O(1) snapshots that the tool dispatcher restores when a tool
// call fails.
//
// It implements WINK's Session semantics (session[Plan].latest(), reducers,
// STATE and LOG slices, snapshot/restore around every tool call) with
// generics instead of reflection:
//
//	var Plans = session.NewSlice[Plan]("plan", session.Rollback)
//	var SetupPlan = session.NewEvent[SetupPlanParams]("setup_plan")
//
//	s := session.New()
//	session.On(s, SetupPlan, Plans, func(_ session.View[Plan], e SetupPlanParams) (session.Op[Plan], error) {
//		return session.Appended(Plan{Objective: e.Objective}), nil
//	})
//	err := session.Apply(s, SetupPlan, SetupPlanParams{Objective: "ship"})
//	plan, ok := session.Latest(s, Plans)
//
// # Design decisions (where the spec was silent)
//
// Storage. Each slice's items live in an immutable persistent vector: a
// 32-way trie of full 32-item leaves plus a tail leaf (Clojure's layout).
// Append is O(1) amortised (O(log32 n) when the tail is full); At is
// O(log32 n); Latest is O(1). Tail appends write in place into the tail leaf
// when no other version has claimed the slot (an atomic per-leaf count of
// claimed slots), so a version held by a snapshot or a View never sees a
// later write. When a version whose tail is full is extended more than once
// (the rollback pattern: restore, then append again), the trie built by its
// first extension is reused.
//
// Snapshots. A session keeps a table of slice heads indexed by slice id.
// Snapshot shares the table (O(1)) and marks it copy-on-write; the next
// mutation copies the table, Restore builds a new one: both O(number of
// slices declared in the process), independent of the number of items.
// Slice ids are process-wide, so declare slices once as package variables,
// not per request. A snapshot can be restored any number of times, in any
// order (nested transactions work). Restore rolls back STATE slices only;
// LOG slices keep everything, including what was appended after the
// snapshot. Restoring a snapshot from another session, or the zero Snapshot,
// panics; Transactional adapts a session to the dispatcher's
// Snapshot() (any, error) / Restore(any) error interface and returns a
// *SnapshotError instead.
//
// Identity. A slice is identified by its handle, not its name or type: two
// NewSlice calls declare two slices even with the same name and type, so two
// packages can both own a "state" slice. Names are for messages and telemetry.
//
// Reducers. A reducer gets an immutable View of its slice (as left by the
// reducers before it in the same Apply) and the typed payload, and returns
// an Op (Appended, Replaced, Cleared, Unchanged) plus an error. Reducers for
// one event run in registration order. Apply is atomic: if a reducer
// returns an error or panics, the session is left exactly as before (LOG
// slices included: the event never happened) and an *ApplyError (with the
// panic's stack, for telemetry) is returned. Applying an event with no
// reducers is a no-op, as in WINK. Reducers cannot be unregistered, and they
// are not part of snapshots. Atomicity uses the same copy-on-write table as
// snapshots, so an Apply that changes something copies the table of heads
// once (O(number of slices)).
//
// Cheap logs. A dispatcher snapshots the session before every call and then
// appends to LOG slices (ToolInvoked, PolicyChecked), so Append on a LOG slice
// must not pay for the snapshot. It grows the slice's head in place instead of
// publishing a new head and copying the shared table: snapshots never read a
// LOG head (Restore keeps the current one) and Apply never grows a head in
// place, so nothing can observe the change. Once a View of the head is taken
// (ViewOf, queries, a reducer's view) the head is marked published and the next
// Append makes a new one, as for STATE slices, so Views stay immutable. A LOG
// append therefore allocates only the storage of its items (a 32-item chunk,
// and the trie path every 32 items).
//
// Bounded logs. AppendBounded appends to a LOG slice within a Bound (items and
// bytes, as the appender counts them): past either, the oldest items are
// dropped until half of each remains, the newest always kept. The append, the
// count (kept beside the slice's head, never rolled back) and the trim are one
// step under the session's lock; a trim copies no item (it drops whole leaves
// of the trie in a path copy), so a session of millions of appends costs what
// its newest items' storage costs. The tool dispatcher bounds ToolLog and
// PolicyLog this way.
//
// Packed slices. A slice declared WithPacking keeps each full group of 32 items
// as the bytes its Packing makes of them (no pointers: the garbage collector
// does not scan them) and reads them back with the Packing's Unpack; the newest
// 1 to 32 items stay values. A packed LOG slice grown in place reuses its tail's
// storage for the next 32 items once the group is packed, unless a View or
// another version of the slice can still read it, so it allocates only the
// packed bytes. A group the Packing refuses stays values. Order, bounds, Views,
// snapshots and stores behave as for any slice. The dispatcher's PolicyLog is
// packed.
//
// Transactions. Begin returns a new *Tx; BeginIn begins one in a zero Tx the
// caller provides (three words; the dispatcher keeps it in the call's own
// allocation), so that a transaction allocates nothing of its own.
//
// Keeping a Tx. A Tx's methods are safe for concurrent use, so a goroutine a
// call started may keep the call's Tx while the dispatcher ends it. End marks
// the transaction ending before it commits: a Join that returned nil before
// that is part of the commit (its participant's Prepare and Done run), and
// every Join from then on, during the commit or after it, changes nothing and
// returns an error matching ErrTxEnded. A transaction never commits part of
// what was joined to it, and no participant runs in no transaction. StoreTx
// returns nil once End has begun; the store's transaction it gave earlier is
// the call's, for one goroutine at a time and only while the call runs
// (pgstore's then fails with pgx.ErrTxClosed). Session and Access keep
// answering after End; writes to the session are then in no transaction.
//
// Concurrency. A Session is safe for concurrent use. Queries grab an
// immutable head under the session's mutex (a plain sync.Mutex: the critical
// section is a load, cheaper than a read-write lock's bookkeeping) and copy
// outside it; All and Where return
// fresh slices the caller owns. Mutations, Apply, Snapshot and Restore are
// serialised. Reducers and Replace's function run under the session's lock
// and must not call back into the same session (that deadlocks).
//
// Values. The session copies T values, it does not deep-copy them: store
// values that are not mutated afterwards (no shared maps or slices you keep
// writing to), as WINK stores frozen dataclasses.
//
// Stores. A stored session commits only what a load reads back: every item
// a commit writes is first decoded with its slice's codec, under the limits
// the generated state decoders apply (MaxItemBytes, MaxItemDepth), and an
// item that does not read back fails the commit with an *UnstorableError
// naming the slice and the item (nothing is written; the STATE slices go back
// to their content at Begin). A stored item that no longer decodes (a type
// changed in a redeploy) makes Begin fail with a *CorruptError naming the
// slice and the reason; WithUpgrade recovers the slice (migrate or drop its
// items) and leaves the rest of the session as it is.
//
// Empty results are nil: All and Where return nil, not an empty slice, when
// there is nothing to return.
package session
