// Package txn is the transaction layer of winkgen's tool runtime: it captures
// a session's STATE slices, a resource context's snapshotable instances and
// any other [resources.Snapshotable] (filesystems) and restores them when a tool call
// fails. The dispatcher (runtime/wink) uses it around every handler; code
// outside the dispatcher uses it directly:
//
//	// a scoped transaction: rolled back when fn fails or panics
//	err := txn.Run(txn.Parts{Session: s, Others: []resources.Snapshotable{fs}}, fn)
//
//	// manual snapshot and restore
//	snap, err := txn.Take(parts)
//	...
//	err = snap.Restore()
//	snap.Release()
//
//	// tools run natively by a provider
//	tr := txn.NewPendingToolTracker(parts)
//	tr.Begin("toolu_1"); ...; tr.End("toolu_1", false) // rolls back
//
// # Decisions where the design was silent
//
//   - LOG slices are never rolled back (session.Restore keeps them).
//   - Parts are captured in order (Resources' Snapshotables, then Others) and
//     restored in reverse order, the session last. A part listed twice (the
//     dispatcher's filesystem also bound as a resource) is captured once;
//     identity is interface equality, and parts of non-comparable dynamic
//     types are never merged.
//   - Restore restores every part even when one fails and joins the errors
//     (*Error names the part's position): a half-restored state is worse than
//     a reported one.
//   - A capture that fails releases the snapshots already taken and reports
//     the failing part; nothing runs.
//   - Snapshots that hold storage (vfs.Host) are released on commit and after
//     a restore (the Releaser interface), so a committed call leaves no
//     backup behind.
//   - Resources constructed during the transaction are not in its snapshot:
//     their state from construction on is not rolled back. Bind resources
//     that must roll back as Eager, or resolve them before the transaction.
//   - Transactions do not isolate concurrent calls on the same parts: a
//     rollback also undoes changes another call made meanwhile. Serialise the
//     calls of one session (an agent loop does).
//   - Locks (Lock): a part that carries its own lock (Lockable, as vfs.Memory
//     and vfs.Host do) is locked without the process-wide table of other
//     parts' locks, so locking it takes no global lock and no map update.
//   - PendingToolTracker: End and Abort of an unknown id do nothing; a second
//     Begin of a pending id keeps the first capture.
package txn
