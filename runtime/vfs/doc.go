// Package vfs provides the filesystems tools work on: [Memory], an in-memory store with O(1) snapshots,
// and [Host], a host directory confined to its root whose snapshots roll back every change under the
// root, including changes made by subprocesses. Give one to a dispatcher and the files suite's tools (and
// your own) use it through ToolContext.Filesystem; the dispatcher snapshots it before each call that may
// change it and restores it when the call fails:
//
//	ws, err := vfs.NewHost("/srv/agent/workspace") // or vfs.NewMemory()
//	d := &wink.Dispatcher{Registry: reg, Filesystem: ws}
//
// # Interfaces
//
// As in io/fs, the core interface is small and the rest is optional. A [Filesystem] reads (Read, Stat,
// List); a [WriteFS] can also be changed (Write, Remove, MkdirAll); a [GlobFS] has its own Glob. Call the
// functions [Write], [Remove], [MkdirAll] and [Glob] with any Filesystem: they use the optional interface
// when it is there, refuse a change to a filesystem that is not a WriteFS with [ErrReadOnly], and glob
// by walking with List otherwise. Memory and Host implement all of them. The dispatcher sees only the
// structural methods
//
//	Snapshot() (any, error)
//	Restore(snap any) error
//
// (resources.Snapshotable) and hands tools declared //wink:tool readonly a [ReadOnly] view, which is not
// a WriteFS.
//
// # Paths and errors
//
// Paths are slash-separated and relative to the root; "", "." and "/" are the root; [Clean] gives the
// canonical form. A path that leaves the root is refused with [ErrEscapesRoot]. Memory reads a leading
// "/" as the root; Host reads an absolute path as a host path (inside the root: used relative to it;
// outside: refused), so "/etc/passwd" never reaches the host's /etc.
//
// Every error is a [*PathError] whose Err wraps one of the sentinels ([ErrNotFound], [ErrIsDir],
// [ErrNotDir], [ErrExists], [ErrTooLarge], [ErrInvalid], [ErrReadOnly], [ErrClosed], [ErrEscapesRoot]),
// so errors.Is works: `read "src/x.go": no such file or directory`. The texts say what is wrong; what a
// model should do about it is worded by the files suite (runtime/suites/files).
//
// # Limits and the host
//
// [MaxFileSize] (default 32 MiB) bounds Read and Write. A Host snapshot copies at most [MaxSnapshotBytes]
// of file content (1 GiB by default) and costs what changed since the previous one on Linux (see
// [TrackChanges]); [Host.Warnings] lists what snapshots had to leave alone; [Host.Growth],
// [Host.ScrubPrivileges] and [Host.ClearPrivilegeBits] serve the sandbox suite. Host writes never reach an
// inode outside the root, and rollbacks restore every name of a hard-linked file together.
//
// Host never waits on a fifo, socket or device, even one put in place of a file or directory at any
// moment (between any check and any open): every open is non-blocking and what was opened is checked
// with fstat, not by its path. Read and Write of one fail at once with ErrInvalid ("not a regular file"),
// List with ErrNotDir; a Snapshot or Restore that meets one where it had just seen a file fails with an
// error naming the path, and no lock is held by a blocked open.
//
// How the package is built and why (snapshots, change tracking, hard links, the figures measured) is in
// DESIGN.md beside this file.
package vfs
