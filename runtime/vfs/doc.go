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
// Memory is a persistent tree of directories (ptree.go): each directory record holds its entries in a
// small persistent B+tree (at most 32 entries a node) keyed by name. A change copies the directories on
// its path and, in each, the O(log₃₂ entries) B-tree nodes down to the entry; everything else is shared.
// So the cost of a write depends on the path's depth and the sizes of the directories on it, not on how
// many files the filesystem holds. (The treap this replaced copied O(log n) nodes over all n paths: one
// Snapshot+Write+Restore took ~1.7x as many instructions at 10,000 files as at 10; now ~1.1x. What remains
// is the second B-tree level of a 100-entry directory and the cache misses of allocating in a 100 MB heap.)
// Overwriting an entry copies only the node's pointer slice (names are shared), each node copy is one
// allocation sized to a runtime size class, names compare as 8-byte integers first, and a file record is
// 32 bytes (contents are a string: copied in on Write and out on Read, never mutated). Snapshot is the root
// pointer (the same value again while the tree is unchanged) and Restore swaps it back, both O(1). List is
// an in-order walk of one directory's B-tree, O(entries); Remove of a directory with everything below it
// is one B-tree delete in its parent; Glob walks only the subtree of the pattern's literal prefix. A mutex
// guards the root pointer; readers work on an immutable tree.

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
