// Package vfs provides the filesystems tools work on: Memory, an in-memory store with O(1) snapshots, and
// Host, a host directory confined to its root whose snapshots roll back every change under the root,
// including changes made by subprocesses. The dispatcher snapshots a filesystem before each tool call and
// restores it when the call fails; it sees only the structural methods
//
//	Snapshot() (any, error)
//	Restore(snap any) error
//
// Decisions where the design was silent:
//
//   - Paths: slash-separated, cleaned with path.Clean, root-relative; "", "." and "/" are the root. A path
//     whose cleaned form leaves the root is refused with ErrEscapesRoot, also when a leading "/" would let
//     path.Clean swallow the ".." ("/../x"). NUL bytes are ErrInvalid. Memory treats a leading "/" as the
//     root; Host treats absolute paths as host paths (inside the root: used relative to it; outside:
//     ErrEscapesRoot), so "/etc/passwd" never reaches the host's /etc.
//   - Errors are *PathError{Op, Path, Err}; Op is the tool-facing verb (read, write, edit, ls, glob, stat,
//     rm, mkdir, snapshot, restore) and Err wraps a sentinel, so errors.Is works and Error() is a sentence a
//     model can act on: `read "src/x.go": no such file (use ls to see what exists)`.
//   - Edit: an empty old text is ErrInvalid; zero matches ErrNoMatch; more than one without replaceAll
//     ErrAmbiguous with the count in the message; the result must fit MaxFileSize.
//   - Glob returns files and directories (like filepath.Glob), bytewise sorted; "**" as a whole segment
//     matches zero or more segments, so "src/**" includes "src" itself; "*" matches dot files. Host's Glob
//     does not descend into symlinked directories.
//   - Remove of the root is refused; MkdirAll over a file is ErrExists; a file in the middle of a path is
//     ErrNotDir; Write and Read of a directory are ErrIsDir.
//   - MaxFileSize (default 32 MiB) bounds Read, Write and Edit results: ErrTooLarge with both sizes.
//
// Memory stores every path in one persistent treap keyed by the full path (ptree.go): writes copy
// O(log n) nodes, file contents are copied in on Write and out on Read and never mutated, so Snapshot is
// the root pointer and Restore swaps it back, both O(1). List is O(children · log n) (seeks that skip
// subtrees), Remove of a directory O(log n) (split and merge), Glob walks only the literal prefix of the
// pattern. A mutex guards the root pointer; readers work on an immutable tree.
//
// Host goes through os.Root, which refuses ".." and symlinks resolving outside the root anywhere in the
// path (dangling ones included) and also absolute symlinks. Snapshots live in a store created with
// os.MkdirTemp under BackupDir (default os.TempDir(), refused when inside the root). A snapshot is a
// manifest of every path (kind, mode bits, mtime, symlink target, content blob). Files are copied into the
// store only when their stat signature (device, inode, size, mtime ns, ctime ns, mode) differs from the
// previous Snapshot's or Restore's record, like git's index; files whose ctime lies within 100 ms (2 s on
// whole-second filesystems) of the signature's stat are "racy" and compared by content instead of trusted.
// Cost: Snapshot = lstat walk O(files) + O(changed bytes) copied; Restore = lstat walk + O(changed bytes)
// written (new paths removed, changed files recreated from the store with mode and mtime, deleted paths
// recreated, directory modes and mtimes put back). Limits: ownership, hard-link identity and atime are not
// restored; fifos, sockets and devices are left alone (never removed, never recreated); a change that
// keeps size, mtime and ctime identical (clock set back, other tools that forge ctime) is not seen; Snapshot
// and Restore are not atomic against writers running at the same time. Outside Linux no signature is
// available and every file is compared by content.
//
// Storage: a blob is reference-counted by the snapshots (and the latest index) that use it. Release(snap)
// frees a snapshot's share at once; a snapshot that becomes unreachable is released by runtime.AddCleanup;
// Close deletes the whole store. Memory has a Release that does nothing, for symmetry.
package vfs
