package policy

import (
	"errors"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// PathParams is implemented by params types that name the file they act on;
// ReadBeforeWrite uses it before falling back to the "path" and "file_path"
// fields of the params' canonical JSON.
type PathParams interface {
	PolicyPath() string
}

// ReadBeforeWriteConfig configures NewReadBeforeWrite.
type ReadBeforeWriteConfig struct {
	// ReadTools are the tools that read a file; default read_file.
	ReadTools []string
	// WriteTools are the tools that overwrite a file; default write_file and
	// edit_file.
	WriteTools []string
}

// ReadBeforeWrite denies overwriting an existing file that was not read (or
// written) earlier in the session: `File '<path>' must be read before
// overwriting.`, with the suggestion `Call <read tool> on '<path>' first.`.
// New files are allowed (the call's filesystem says whether the path
// exists). Paths are cleaned with vfs.Clean, so "a", "./a", "/a" and "b/../a"
// are one file and aliases cannot bypass the policy.
type ReadBeforeWrite struct {
	reads  map[string]bool
	writes map[string]bool
	first  string // the read tool named in suggestions
	seen   session.Slice[string]
}

// NewReadBeforeWrite returns the policy. It declares the policy's own session
// STATE slice, so construct policies once (at startup), not per call.
func NewReadBeforeWrite(cfg ReadBeforeWriteConfig) *ReadBeforeWrite {
	if len(cfg.ReadTools) == 0 {
		cfg.ReadTools = []string{"read_file"}
	}
	if len(cfg.WriteTools) == 0 {
		cfg.WriteTools = []string{"write_file", "edit_file"}
	}
	p := &ReadBeforeWrite{reads: set(cfg.ReadTools), writes: set(cfg.WriteTools), first: cfg.ReadTools[0]}
	p.seen = session.NewSlice[string]("policy.read_before_write", session.Rollback)
	return p
}

// set returns the set of names.
func set(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Name returns "read_before_write".
func (p *ReadBeforeWrite) Name() string { return "read_before_write" }

// Known returns the cleaned paths recorded as read or written in s.
func (p *ReadBeforeWrite) Known(s *session.Session) []string { return session.All(s, p.seen) }

// Check denies a write tool's call on an existing file that is not known.
// A call whose path cannot be found in the params, or does not clean (it
// escapes the root: the filesystem refuses it anyway), is allowed. Without a
// filesystem every file is taken to exist.
func (p *ReadBeforeWrite) Check(tc *wink.ToolContext, tool *wink.Tool, params any) wink.Decision {
	if !p.writes[tool.Name()] {
		return wink.Allow()
	}
	path, ok := filePath(tool, params)
	if !ok {
		return wink.Allow()
	}
	if fs := tc.Filesystem(); fs != nil {
		if _, err := fs.Stat(path); errors.Is(err, vfs.ErrNotFound) {
			return wink.Allow()
		}
	}
	if s := tc.Session(); s != nil && contains(session.ViewOf(s, p.seen), path) {
		return wink.Allow()
	}
	return wink.Deny("File '"+path+"' must be read before overwriting.",
		"Call "+p.first+" on '"+path+"' first.")
}

// OnResult records the path of a successful read or write.
func (p *ReadBeforeWrite) OnResult(tc *wink.ToolContext, tool *wink.Tool, params any, out *wink.Outcome) {
	s := tc.Session()
	name := tool.Name()
	if s == nil || !out.Success || !(p.reads[name] || p.writes[name]) {
		return
	}
	path, ok := filePath(tool, params)
	if !ok || contains(session.ViewOf(s, p.seen), path) {
		return
	}
	session.Append(s, p.seen, path)
}

// filePath returns the cleaned path a call acts on.
func filePath(tool *wink.Tool, params any) (string, bool) {
	var raw string
	if pp, ok := params.(PathParams); ok {
		raw = pp.PolicyPath()
	} else if s, ok := tool.ParamString(params, "path", "file_path"); ok {
		raw = s
	} else {
		return "", false
	}
	clean, err := vfs.Clean(raw)
	if err != nil {
		return "", false
	}
	return clean, true
}
