package sandbox

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// ShellParams are the arguments of shell.
type ShellParams struct {
	// Command is the program to run: a name looked up on PATH (ls, go, python3, sh) or a path.
	Command string `json:"command" wink:"minLength=1,maxLength=4096"`
	// Args are the program's arguments, each passed as is (no shell interpretation; use sh -c for pipes).
	Args []string `json:"args,omitempty" wink:"maxItems=1024,maxLength=65536"`
	// Workdir is the directory to run in, relative to the workspace root (default: the root).
	Workdir files.PathOrRoot `json:"workdir,omitempty"`
	// TimeoutSeconds stops the command after this many seconds.
	TimeoutSeconds int `json:"timeout_seconds,omitempty" wink:"min=1,max=3600,default=60"`
	// Env sets environment variables (only the names the sandbox allows).
	Env map[string]string `json:"env,omitempty"`
	// AllowFailure reports a non-zero exit status as a result instead of failing the call (which rolls back
	// what the command wrote).
	AllowFailure bool `json:"allow_failure,omitempty"`
}

// ShellResult is how a command ended and what it printed.
type ShellResult struct {
	// ExitCode is the command's exit status.
	ExitCode int `json:"exit_code"`
	// Output is stdout and stderr as written, up to the sandbox's output limit.
	Output string `json:"output"`
	// OutputBytes is the size of the whole output.
	OutputBytes int64 `json:"output_bytes"`
	// Truncated says that Output is only the start of the output.
	Truncated bool `json:"truncated"`
}

// Render shows the output and, after it, the exit status.
func (r ShellResult) Render() string {
	var b strings.Builder
	b.WriteString(r.Output)
	if r.Output != "" && !strings.HasSuffix(r.Output, "\n") {
		b.WriteByte('\n')
	}
	if r.Truncated {
		b.WriteString(truncationNote(int64(len(r.Output)), r.OutputBytes))
		b.WriteByte('\n')
	}
	b.WriteString("exit status ")
	b.WriteString(strconv.Itoa(r.ExitCode))
	return b.String()
}

func truncationNote(shown, total int64) string {
	return "[output truncated: " + strconv.FormatInt(shown, 10) + " of " + strconv.FormatInt(total, 10) +
		" bytes shown; to see the rest, redirect it to a file (sh -c 'cmd > out.txt 2>&1') and read it with read_file]"
}

// Shell runs a command in a sandbox: only the workspace is writable, and there is no network. A non-zero
// exit status fails the call and undoes its writes, unless allow_failure is set.
//
//wink:tool
//wink:example desc="Run the tests of a Go module" input={"command":"go","args":["test","./..."],"timeout_seconds":300}
//wink:example desc="Use a shell for a pipeline" input={"command":"sh","args":["-c","ls -1 | wc -l"]}
func Shell(tc *wink.ToolContext, p ShellParams) (wink.ToolResult[ShellResult], error) {
	cfg := config(tc)
	bwrap, reason := available(cfg)
	if bwrap == "" {
		return wink.Failure[ShellResult]("The shell is not available: " + reason + "."), nil
	}
	host, ok := tc.Filesystem().(*vfs.Host)
	if !ok {
		return wink.Failure[ShellResult]("The shell needs a workspace on the host filesystem (vfs.Host); this one is not."), nil
	}
	workdir := strings.Trim(string(p.Workdir), "/")
	if workdir != "" {
		e, err := host.Stat(workdir)
		if err != nil || !e.IsDir {
			return wink.Failure[ShellResult]("Directory '" + workdir + "' does not exist in the workspace; create it or pick another workdir."), nil
		}
	}
	timeout := time.Duration(p.TimeoutSeconds) * time.Second
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	if timeout > cfg.MaxTimeout {
		return wink.Failure[ShellResult]("timeout_seconds must be at most " + strconv.Itoa(int(cfg.MaxTimeout/time.Second)) + " here."), nil
	}
	if dl, ok := tc.Deadline(); ok {
		if left := time.Until(dl); left < timeout {
			timeout = left
		}
	}
	for name := range p.Env {
		if !allowed(cfg.EnvAllow, name) {
			msg := "Environment variable " + strconv.Quote(name) + " may not be set."
			if len(cfg.EnvAllow) == 0 {
				msg += " This sandbox allows none."
			} else {
				msg += " Allowed: " + strings.Join(cfg.EnvAllow, ", ") + "."
			}
			return wink.Failure[ShellResult](msg), nil
		}
	}
	o, err := run(tc, bwrap, cfg, &command{argv: append([]string{p.Command}, p.Args...), root: host.Root(),
		workdir: workdir, env: p.Env, timeout: timeout, growth: host.Growth, clearBits: host.ClearPrivilegeBits})
	if err != nil {
		return wink.ToolResult[ShellResult]{}, err
	}
	// Whatever happens to the call next (kept, or rolled back), nothing the command left may grant
	// privileges on the host from now on.
	last, err := host.ScrubPrivileges()
	if err != nil {
		return wink.ToolResult[ShellResult]{}, err
	}
	scrubbed := o.cleared
	for _, s := range last {
		if !slices.Contains(scrubbed, s) {
			scrubbed = append(scrubbed, s)
		}
	}
	res := ShellResult{ExitCode: o.exitCode, Output: string(o.output), OutputBytes: o.total, Truncated: o.truncated}
	switch {
	case o.tooBig:
		return failed(res, workspaceNote(cfg, o.grown)), nil
	case o.unmeasured != nil:
		return failed(res, "The sandbox could not measure what the command added to the workspace ("+o.unmeasured.Error()+
			") and stopped it; everything it wrote was undone. Run it again; if it fails the same way, make and remove "+
			"fewer files and directories at once, or put scratch files under /tmp."), nil
	case o.timedOut:
		secs := strconv.FormatFloat(timeout.Seconds(), 'f', -1, 64)
		return failed(res, "The command did not finish within "+secs+" s and was stopped; everything it wrote was undone. "+
			"Raise timeout_seconds or run less at once."), nil
	case o.overflow:
		return failed(res, "The command wrote more than "+strconv.FormatInt(cfg.HardOutputBytes, 10)+
			" bytes of output and was stopped; everything it wrote was undone. Redirect its output to a file "+
			"(sh -c 'cmd > out.txt 2>&1') and read the part you need with read_file."), nil
	case o.signal != "":
		return failed(res, "The command was killed by signal "+o.signal+"; everything it wrote was undone."), nil
	case o.exitCode != 0 && !p.AllowFailure:
		return failed(res, "The command exited with status "+strconv.Itoa(o.exitCode)+"; everything it wrote was undone. "+
			"Set allow_failure to keep its effects when a non-zero status is expected."), nil
	}
	msg := "The command exited with status " + strconv.Itoa(o.exitCode) + "."
	if len(scrubbed) > 0 {
		msg += " The sandbox may not leave anything that grants privileges on the host, so it " +
			strings.Join(scrubbed, "; ") + "."
	}
	return wink.OK(res, msg), nil
}

// workspaceNote is the failure of a command that added more to the workspace than one call may.
func workspaceNote(cfg Config, g vfs.Growth) string {
	return "The command added more to the workspace than one command may (" + strconv.FormatInt(cfg.MaxWorkspaceBytes, 10) +
		" bytes of file data and " + strconv.FormatInt(cfg.MaxWorkspaceEntries, 10) + " new files and directories; it had added " +
		strconv.FormatInt(g.Bytes, 10) + " bytes and " + strconv.FormatInt(g.Entries, 10) + " entries when measured) and was stopped; " +
		"everything it wrote was undone. Write large or numerous scratch files under /tmp (gone after the command), " +
		"or split the work into smaller commands."
}

// failed is a failure that still shows the output and the status.
func failed(res ShellResult, msg string) wink.ToolResult[ShellResult] {
	r := wink.Failure[ShellResult](msg)
	r.Value, r.HasValue = res, true
	return r
}

func allowed(list []string, name string) bool {
	for _, n := range list {
		if n == name {
			return true
		}
	}
	return false
}

// config is the dispatcher's ConfigKey binding, else DefaultConfig.
func config(tc *wink.ToolContext) Config {
	if rc := tc.Resources(); rc != nil {
		if c, err := resources.Get(rc, ConfigKey); err == nil && c != nil {
			return c.withDefaults()
		}
	}
	return Config{}.withDefaults()
}
