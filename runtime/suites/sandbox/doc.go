// Package sandbox is WINK's sandboxed shell suite written with winkgen: one tool, shell, that runs a
// command in bubblewrap (bwrap, Debian's package bubblewrap) over the call's vfs.Host workspace. The
// workspace is the only writable tree; the system is read-only; there is no network; the command gets a
// process limit, a time limit and an output cap; and because the workspace is a vfs.Host covered by the
// dispatcher's transaction, a command that fails has its writes rolled back with the call.
//
//	host, _ := vfs.NewHost(dir)
//	sec, _ := sandbox.Section()             // disabled, with the reason in its text, when bwrap cannot run
//	d := &wink.Dispatcher{Registry: reg, Filesystem: host}
//
// # Decisions where the spec was silent
//
//   - The command is an argv (command plus args), never a shell string: a model that wants pipes or
//     redirections calls sh -c itself, and then the quoting is visibly its own.
//   - A non-zero exit, a timeout, a kill or output beyond the hard cap is a failure (the call rolls back)
//     unless the call sets allow_failure, which makes a non-zero exit a success that reports the status
//     (a test run that is expected to fail, a grep that finds nothing). A timeout or a kill always fails.
//   - Inside the sandbox: the workspace at /workspace (the working directory is workdir below it, which must
//     exist), /usr and the usual /bin, /lib links read-only, a minimal /etc (passwd, group, hosts,
//     nsswitch.conf, ld.so.cache and alternatives; no shadow, no keys), a fresh /tmp (the only other writable place, gone with the call), /proc and /dev, a read-only root, no
//     network, new PID, IPC and UTS namespaces, a new session (no terminal), and the sandbox dies with the
//     dispatcher. The environment is cleared: PATH, HOME=/workspace, LANG=C.UTF-8 and TERM=dumb, plus the
//     variables the call sets whose names Config.EnvAllow lists.
//   - Processes: when the pids cgroup controller is writable (cgroup v1 or v2, as root in a container or
//     under a delegated cgroup), each call runs in a cgroup of its own with pids.max = Config.MaxProcs;
//     otherwise RLIMIT_NPROC is set before bubblewrap starts (through util-linux's prlimit), which the
//     kernel enforces for every user but root, counting every process and thread of the user: it is
//     Config.MaxProcs above what the user runs when the command starts (the agent's own threads
//     included); so as root without a
//     writable pids cgroup the shell is unavailable (the section says so) rather than unlimited. In both
//     cases the call's timeout kills the whole PID namespace, so a fork bomb ends with the call.
//   - Output: stdout and stderr are interleaved as written. The first Config.MaxOutputBytes are shown; the
//     rest is counted and dropped, with a hint to redirect the output to a file and read it with the files
//     suite. Past Config.HardOutputBytes the command is killed (a command that writes gigabytes).
//   - Nothing a command leaves may grant privileges on the host, whatever user runs the agent. Run as
//     root, the sandbox's user is the host's root outside it, so `cp /bin/sh x; chmod 6755 x` would leave
//     a root shell for any local user. Two layers: inside, bubblewrap mounts the workspace nosuid and
//     nodev and sets no_new_privs, so nothing there gains a privilege while the command runs (a test
//     asserts the mount flags); after the command, before the call returns (and whether it is then kept
//     or rolled back), vfs.Host.ScrubPrivileges takes from every path the command created or changed the
//     setuid and setgid bits (files and directories), file capabilities (security.capability), and
//     removes fifos, sockets and device nodes; the model is told what was taken. While the command runs,
//     the bits and capabilities are taken as well, with each measure of the workspace bound below
//     (vfs.Host.ClearPrivilegeBits; fifos stay until it ends, as a running script may use them). The
//     command cannot be stopped from setting the bits (chmod and open's mode are its right on its own
//     files; a seccomp filter for every syscall that takes a mode would be architecture-specific and
//     still miss some), so the change set is scrubbed instead, at the cost of what changed. Between two
//     measures (100 ms or more) a host process could still run what the command made: when the agent
//     runs as root, keep the workspace in a directory other users cannot enter (mode 0700 on it or a
//     parent).
//   - What one command may add to the workspace is bounded (Config.MaxWorkspaceBytes, 1 GiB of file data,
//     and Config.MaxWorkspaceEntries, 100,000 new files, directories and links, by default), measured with
//     vfs.Host.Growth against the call's snapshot: while the command runs (every 100 ms, or ten times as
//     long as a measure takes, so at most a tenth of a core; a command can overshoot by what it writes in
//     one such pause before it is stopped) and once more when it ends. A measure that fails (a race
//     with the command) is retried at the next pause; five failing in a row stop the command, and the
//     call fails, rolled back, with the reason: a command cannot turn the bound off. A single file is also capped at
//     the byte bound as it is written (RLIMIT_FSIZE, through prlimit), so a file cannot overshoot. Past a
//     bound the command is stopped and the call fails, rolled back, with a text that names both bounds
//     and says to put scratch files in /tmp; the section states the bounds. A workspace file already
//     larger than the byte bound cannot be appended to by a command. Data counts as the disk space it
//     takes: a sparse file's holes count nothing, a hard link adds an entry but not its file's data
//     again. Reserving space past a file's end (fallocate --keep-size), which RLIMIT_FSIZE does not
//     bound, fails inside the sandbox with EOPNOTSUPP (a seccomp filter on that one call, on amd64
//     and arm64; elsewhere only the measures bound it).
//   - Read-before-write: the shell cannot know which files a command will touch, so the files suite's
//     policy does not apply to it; its writes are covered by the transaction instead. Its limits (path
//     rules for workdir, the workspace as the only tree) do.
//   - Configuration: a resources binding of ConfigKey overrides DefaultConfig for a dispatcher; without one
//     the defaults apply. Without bubblewrap (or where it cannot create namespaces) the section renders the
//     reason and offers no tool, and a direct call fails with the same reason: a command never runs
//     unsandboxed.
package sandbox

//go:generate go run github.com/winkgen/wink/cmd/winkgen
