package files

import (
	"errors"
	"slices"

	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// Option configures Policies (and the suite's section).
type Option func(*config)

type config struct {
	readBeforeWrite bool
}

// ReadBeforeWrite turns the read-before-write policy on (the default) or off.
func ReadBeforeWrite(on bool) Option { return func(c *config) { c.readBeforeWrite = on } }

// newConfig applies opts to the defaults.
func newConfig(opts []Option) config {
	c := config{readBeforeWrite: true}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// Policies returns the policies the suite's tools are governed by: the read-before-write policy unless
// ReadBeforeWrite(false) is given. Attach them to the suite's section, or to a dispatcher
// (Dispatcher.Policies or Dispatcher.SectionPolicies for the tools of WinkTools). Every call returns the same
// policy value, so its state is one session slice however often Policies is called.
func Policies(opts ...Option) []wink.Policy {
	if !newConfig(opts).readBeforeWrite {
		return nil
	}
	return []wink.Policy{readFirst}
}

// readFirst is the suite's read-before-write policy, declared once (it owns a session slice).
var readFirst = &readBeforeWrite{inner: policy.NewReadBeforeWrite(policy.ReadBeforeWriteConfig{
	ReadTools:  []string{"read_file", "ls"},
	WriteTools: []string{"edit_file", "write_file"},
})}

// readBeforeWrite adapts policy.ReadBeforeWrite to the suite: write_file is not checked (it never
// overwrites) but its successes are recorded; rm needs a read_file of a file and an ls of a directory.
type readBeforeWrite struct {
	inner *policy.ReadBeforeWrite
}

// Name returns "read_before_write".
func (p *readBeforeWrite) Name() string { return p.inner.Name() }

// Check allows write_file, checks rm itself and leaves edit_file (and anything else) to the inner policy.
func (p *readBeforeWrite) Check(tc *wink.ToolContext, tool *wink.Tool, params any) wink.Decision {
	switch tool.Name() {
	case "write_file":
		return wink.Allow()
	case "rm":
		return p.checkRm(tc, tool, params)
	}
	return p.inner.Check(tc, tool, params)
}

// checkRm denies removing an existing file that was not read, or directory that was not listed.
func (p *readBeforeWrite) checkRm(tc *wink.ToolContext, tool *wink.Tool, params any) wink.Decision {
	raw, ok := tool.ParamString(params, "path")
	if !ok {
		return wink.Allow()
	}
	name, err := vfs.Clean(raw)
	if err != nil {
		return wink.Allow() // the filesystem refuses it with a better message
	}
	isDir := false
	if fs := tc.Filesystem(); fs != nil {
		st, err := fs.Stat(name)
		if errors.Is(err, vfs.ErrNotFound) {
			return wink.Allow()
		}
		isDir = err == nil && st.IsDir
	}
	if s := tc.Session(); s != nil && slices.Contains(p.inner.Known(s), name) {
		return wink.Allow()
	}
	if isDir {
		return wink.Deny("Directory '"+name+"' must be listed before removing it.", "Call ls on '"+name+"' first.")
	}
	return wink.Deny("File '"+name+"' must be read before removing it.", "Call read_file on '"+name+"' first.")
}

// OnResult records the path of a successful read_file, ls, write_file or edit_file.
func (p *readBeforeWrite) OnResult(tc *wink.ToolContext, tool *wink.Tool, params any, out *wink.Outcome) {
	p.inner.OnResult(tc, tool, params, out)
}
