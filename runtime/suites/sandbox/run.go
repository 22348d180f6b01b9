package sandbox

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/winkgen/wink/runtime/vfs"
)

// command is one sandboxed run.
type command struct {
	argv    []string
	root    string // the workspace on the host
	workdir string // relative to the workspace; "" for its root
	env     map[string]string
	timeout time.Duration
	// growth measures what the run added to the workspace so far (vfs.Host.Growth); nil for none.
	growth func() (vfs.Growth, error)
	// clearBits takes the privilege bits from what the run made so far (vfs.Host.ClearPrivilegeBits);
	// nil for none. It runs with each measure.
	clearBits func() ([]string, error)
}

// outcome is how a run ended.
type outcome struct {
	exitCode  int    // -1 when killed
	signal    string // the signal that ended it, if any
	timedOut  bool
	overflow  bool // killed for writing more than HardOutputBytes
	output    []byte
	total     int64
	truncated bool
	elapsed   time.Duration
	// grown is what the run added to the workspace, measured after it ended; tooBig reports that it was
	// over the bound (Config.MaxWorkspaceBytes/Entries), then or while it ran (it was stopped).
	grown  vfs.Growth
	tooBig bool
	// unmeasured is why the run was stopped when its growth could not be measured, poll after poll.
	unmeasured error
	// cleared is what clearBits took while the run was going, in order, each once.
	cleared []string
}

// bwrapArgs builds the bubblewrap command line of c.
func bwrapArgs(c *command) []string {
	args := []string{
		"--die-with-parent", "--new-session", "--unshare-all", "--unshare-user",
		"--uid", "1000", "--gid", "1000",
		"--hostname", "sandbox",
		"--ro-bind", "/usr", "/usr",
	}
	for _, d := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		if target, err := os.Readlink(d); err == nil {
			args = append(args, "--symlink", target, d)
		} else if st, err := os.Stat(d); err == nil && st.IsDir() {
			args = append(args, "--ro-bind", d, d)
		}
	}
	for _, f := range []string{"/etc/passwd", "/etc/group", "/etc/hosts", "/etc/nsswitch.conf", "/etc/ld.so.cache",
		"/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/localtime"} {
		args = append(args, "--ro-bind-try", f, f)
	}
	args = append(args,
		"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
		"--bind", c.root, "/workspace",
		"--remount-ro", "/",
		"--chdir", filepath.Join("/workspace", c.workdir),
		"--clearenv",
		"--setenv", "PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"--setenv", "HOME", "/workspace",
		"--setenv", "LANG", "C.UTF-8",
		"--setenv", "TERM", "dumb",
	)
	names := make([]string, 0, len(c.env))
	for k := range c.env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		args = append(args, "--setenv", k, c.env[k])
	}
	return append(append(args, "--"), c.argv...)
}

// run runs c in bubblewrap at path bwrap with cfg's limits.
func run(ctx context.Context, bwrap string, cfg Config, c *command) (*outcome, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	limit, err := newProcLimit(cfg.MaxProcs)
	if err != nil {
		return nil, err
	}
	defer limit.close()
	if c.growth != nil {
		// A file one byte past the bound is over it, as the measure after the run then finds.
		limit.fsize = cfg.MaxWorkspaceBytes + 1
	}
	args := bwrapArgs(c)
	filter, err := seccompFile()
	if err != nil {
		return nil, errors.New("preparing the seccomp filter: " + err.Error())
	}
	if filter != nil {
		defer filter.Close()
		args = append([]string{"--seccomp", "3"}, args...) // ExtraFiles[0] is descriptor 3
	}
	cmd := limit.command(bwrap, args)
	if filter != nil {
		cmd.ExtraFiles = []*os.File{filter}
	}
	cmd.Env = []string{}
	cmd.Stdin = nil
	var killOnce sync.Once
	kill := func() { killOnce.Do(func() { killTree(cmd) }) }
	out := &capture{max: cfg.MaxOutputBytes, hard: cfg.HardOutputBytes, stop: kill}
	cmd.Stdout, cmd.Stderr = out, out
	limit.prepare(cmd)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, errors.New("starting bubblewrap: " + err.Error())
	}
	limit.started(cmd)
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			kill()
		case <-done:
		}
	}()
	var over atomic.Bool
	var cleared []string
	var unmeasured error
	watched := make(chan struct{})
	if c.growth != nil {
		go func() {
			defer close(watched)
			cleared, unmeasured = watchGrowth(cfg, c, done, func() { over.Store(true); kill() }, kill)
		}()
	} else {
		close(watched)
	}
	werr := cmd.Wait()
	close(done)
	<-watched
	o := &outcome{elapsed: time.Since(start), timedOut: ctx.Err() != nil, tooBig: over.Load(), cleared: cleared,
		unmeasured: unmeasured}
	if c.growth != nil {
		g, err := c.growth()
		if err != nil {
			return nil, errors.New("measuring what the command added to the workspace: " + err.Error())
		}
		o.grown = g
		o.tooBig = o.tooBig || overGrowth(cfg, g)
	}
	o.output, o.total, o.overflow = out.result()
	o.truncated = o.total > int64(len(o.output))
	o.exitCode = cmd.ProcessState.ExitCode()
	if sig := signalOf(cmd.ProcessState); sig != "" {
		o.signal = sig
	}
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) {
		return nil, errors.New("running bubblewrap: " + werr.Error())
	}
	return o, nil
}

// growthPoll is how often a run's growth is measured at least (more rarely when a measure takes long:
// see watchGrowth).
const growthPoll = 100 * time.Millisecond

// maxMeasureErrors is how many measures in a row may fail before the run is stopped: a failure can be
// a race with the command (a directory removed while it was read), but a command must not be able to
// turn the bound off by making every measure fail.
const maxMeasureErrors = 5

// watchGrowth measures what the run added to the workspace until done is closed, and calls over once it
// is over the bound; with each measure it takes the privilege bits from what the run made so far, and
// returns what it took. When maxMeasureErrors measures in a row fail, it calls unmeasurable and returns
// the last error. A measure costs what changed (with change tracking) or a walk of the workspace; the
// pause between two is ten times the last one's duration, at least growthPoll, so measuring takes at
// most a tenth of one core.
func watchGrowth(cfg Config, c *command, done <-chan struct{}, over, unmeasurable func()) (cleared []string, measureErr error) {
	wait := growthPoll
	seen := map[string]bool{}
	failures := 0
	for {
		select {
		case <-done:
			return cleared, nil
		case <-time.After(wait):
		}
		t := time.Now()
		if c.clearBits != nil {
			took, _ := c.clearBits() // an error here is met again by the scrub after the run
			for _, s := range took {
				if !seen[s] {
					seen[s] = true
					cleared = append(cleared, s)
				}
			}
		}
		g, err := c.growth()
		if err != nil {
			if failures++; failures >= maxMeasureErrors {
				unmeasurable()
				return cleared, err
			}
			wait = max(growthPoll, 10*time.Since(t))
			continue
		}
		failures = 0
		if overGrowth(cfg, g) {
			over()
			return cleared, nil
		}
		wait = max(growthPoll, 10*time.Since(t))
	}
}

func overGrowth(cfg Config, g vfs.Growth) bool {
	return g.Bytes > cfg.MaxWorkspaceBytes || g.Entries > cfg.MaxWorkspaceEntries
}

// probe reports why bubblewrap cannot run a sandbox here, or "".
func probe(bwrap string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	dir, err := os.MkdirTemp("", "wink-sandbox-probe-")
	if err != nil {
		return "no temporary directory: " + err.Error()
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, bwrap, bwrapArgs(&command{argv: []string{"true"}, root: dir})...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if msg == "" {
			msg = err.Error()
		}
		return "bubblewrap cannot create a sandbox here (" + firstLine(msg) + ")"
	}
	return ""
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

var (
	probeMu    sync.Mutex
	probeCache = map[string]string{} // bwrap path → unavailability reason
)

// available resolves the bubblewrap binary of cfg and checks once per path that it can create a sandbox.
// It returns the path, or "" and the reason the shell is unavailable.
func available(cfg Config) (string, string) {
	if !supported {
		return "", "the sandbox needs Linux (bubblewrap)"
	}
	path := cfg.Bwrap
	if path == "" {
		p, err := exec.LookPath("bwrap")
		if err != nil {
			return "", "bubblewrap (bwrap) is not installed; install the bubblewrap package to enable it"
		}
		path = p
	}
	probeMu.Lock()
	defer probeMu.Unlock()
	reason, ok := probeCache[path]
	if !ok {
		reason = probe(path)
		if reason == "" {
			if l, err := newProcLimit(cfg.MaxProcs); err != nil {
				reason = err.Error()
			} else {
				l.close()
			}
		}
		probeCache[path] = reason
	}
	if reason != "" {
		return "", reason
	}
	return path, ""
}
