// Package vfs provides the filesystems tools work on: Memory, an in-memory store with O(1) snapshots, and
// Host, a host directory confined to its root whose snapshots roll back every change under the root,
// including changes made by subprocesses. Give one to a dispatcher and the files suite's tools (and your
// own) use it through ToolContext.Filesystem; the dispatcher snapshots it before each call that may change
// it and restores it when the call fails:
//
//	ws, err := vfs.NewHost("/srv/agent/workspace")        // or vfs.NewMemory()
//	d := &wink.Dispatcher{Registry: reg, Filesystem: ws}
//
// The dispatcher sees only the structural methods
//
//	Snapshot() (any, error)
//	Restore(snap any) error
//
// and hands tools declared //wink:tool readonly a ReadOnly view. Host.Warnings lists what snapshots had to
// leave alone.
//
// Decisions where the design was silent:
//
//   - Paths: slash-separated, cleaned with path.Clean, root-relative; "", "." and "/" are the root. A path
//     whose cleaned form leaves the root is refused with ErrEscapesRoot, also when a leading "/" would let
//     path.Clean swallow the ".." ("/../x"). NUL bytes are ErrInvalid. Memory treats a leading "/" as the
//     root; Host treats absolute paths as host paths (inside the root: used relative to it; outside:
//     ErrEscapesRoot), so "/etc/passwd" never reaches the host's /etc.
//
//   - Errors are *PathError{Op, Path, Err}; Op is the tool-facing verb (read, write, edit, ls, glob, stat,
//     rm, mkdir, snapshot, restore) and Err wraps a sentinel, so errors.Is works and Error() is a sentence a
//     model can act on: `read "src/x.go": no such file (use ls to see what exists)`.
//
//   - Edit: an empty old text is ErrInvalid; zero matches ErrNoMatch; more than one without replaceAll
//     ErrAmbiguous with the count in the message; the result must fit MaxFileSize.
//
//   - Glob returns files and directories (like filepath.Glob), bytewise sorted; "**" as a whole segment
//     matches zero or more segments, so "src/**" includes "src" itself; "*" matches dot files. Host's Glob
//     does not descend into symlinked directories.
//
//   - Remove of the root is refused; MkdirAll over a file is ErrExists; a file in the middle of a path is
//     ErrNotDir; Write and Read of a directory are ErrIsDir.
//
//   - MaxFileSize (default 32 MiB) bounds Read, Write and Edit results: ErrTooLarge with both sizes.
//
//   - Host writes never reach an inode outside the root: a file with other hard links is written as a new
//     file renamed over its path (its mode kept), so the other links keep their content.
//
//   - Host snapshots copy sparse files sparsely (their holes cost nothing) and copy at most
//     MaxSnapshotBytes of file content each (1 GiB by default); a snapshot over the cap fails naming the
//     file. An entry this user can neither read nor change (another user's file or directory without read
//     permission) is recorded but not copied, left alone by rollbacks and listed by Host.Warnings; one
//     this user cannot read but could change fails the snapshot, naming it, since its changes could not
//     be undone.
//
//   - Entry.Link marks a symbolic link (Host); walks such as grep's do not descend into linked
//     directories.
//
//   - Host snapshots cost what changed (Linux): the Host watches its tree with inotify, so a Snapshot or
//     a Restore to the latest snapshot examines only the paths changed since the previous one, whoever
//     changed them (tools, subprocesses, renames, deletes, permission changes); on a copy of Go's source
//     tree (11,500 files) a snapshot, a one-file change and a restore take about 1 ms, the same with ten
//     times the files. When tracking is impossible (not Linux, the watch limit reached, the kernel's event
//     queue overflowed, a Restore to an older snapshot) that Snapshot or Restore walks the whole tree, as
//     every one does with TrackChanges(false), and the walk re-arms tracking. Tracking watches every
//     directory and every file (one inotify watch each): a file's own watch reports a name added to or
//     removed from it anywhere, so a write through a hard link made since the file was examined is seen
//     too. The walk that arms tracking therefore adds a watch per file (each added before the walk's
//     look at the file, so no second look is needed): on the Go source tree, medians of 545 ms against
//     444 ms before, interleaved runs on a busy 2-core machine; tracked snapshots are unchanged. What
//     tracking cannot see: writes through a shared memory mapping that is never closed; turn
//     tracking off if tools make them.
//
//   - Host.Growth measures what was added under the root since the last Snapshot (bytes of data, new
//     entries) and Host.ScrubPrivileges takes away from what changed since then everything that could
//     grant privileges on the host (setuid/setgid bits, file capabilities, fifos, sockets, device nodes;
//     Host.ClearPrivilegeBits only the bits and capabilities, safe while a subprocess still runs); they
//     cost what changed when changes are tracked. The sandbox suite uses them during and after every
//     command.
//
//   - Hard links: every name of an inode is rolled back together. A rollback puts back the content of an
//     inode in place when it still holds a name it had at the snapshot (so every other name of it, under
//     the root or not, reads the snapshot's content again), gives names that shared an inode at the
//     snapshot one inode again (relinking the ones that were removed or replaced), and gives a name that
//     came to share another file's inode since (ln -f, mv) an inode of its own. A name outside the root
//     cannot be relinked from inside it: when every name of such an inode under the root was removed,
//     the rollback brings them back as a new inode with the snapshot's content.
package vfs
