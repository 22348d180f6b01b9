package policy

import (
	"slices"
	"strings"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// SequentialDependency requires tools to have succeeded before others may
// run: with {"deploy": {"test", "build"}}, a call to deploy is denied with
// `Tool 'deploy' requires: build, test` until both have succeeded (the text
// names every missing prerequisite, sorted). A prerequisite counts once a
// call to it succeeded and was not rolled back.
type SequentialDependency struct {
	name  string
	deps  map[string][]string // sorted, deduplicated
	needs map[string]bool     // tools that are someone's prerequisite
	done  session.Slice[string]
}

// NewSequentialDependency returns the policy for deps (tool -> the tools
// that must succeed first). It declares the policy's own session STATE slice,
// so construct policies once (at startup), not per call.
func NewSequentialDependency(deps map[string][]string) *SequentialDependency {
	p := &SequentialDependency{name: "sequential_dependency", deps: make(map[string][]string), needs: make(map[string]bool)}
	for tool, reqs := range deps {
		r := slices.Clone(reqs)
		slices.Sort(r)
		r = slices.Compact(r)
		p.deps[tool] = r
		for _, x := range r {
			p.needs[x] = true
		}
	}
	p.done = session.NewSlice[string]("policy.sequential_dependency", session.Rollback)
	return p
}

// Name returns "sequential_dependency".
func (p *SequentialDependency) Name() string { return p.name }

// Completed returns the prerequisites recorded as succeeded in s, in order of
// first success.
func (p *SequentialDependency) Completed(s *session.Session) []string {
	return session.All(s, p.done)
}

// Check denies a call whose prerequisites have not all succeeded. Without a
// session nothing has succeeded.
func (p *SequentialDependency) Check(tc *wink.ToolContext, tool *wink.Tool, _ any) wink.Decision {
	reqs := p.deps[tool.Name()]
	if len(reqs) == 0 {
		return wink.Allow()
	}
	var done session.View[string]
	if s := tc.Session(); s != nil {
		done = session.ViewOf(s, p.done)
	}
	var missing []string
	for _, r := range reqs {
		if !contains(done, r) {
			missing = append(missing, r)
		}
	}
	if len(missing) == 0 {
		return wink.Allow()
	}
	return wink.Deny("Tool '" + tool.Name() + "' requires: " + strings.Join(missing, ", "))
}

// OnResult records a successful prerequisite.
func (p *SequentialDependency) OnResult(tc *wink.ToolContext, tool *wink.Tool, _ any, out *wink.Outcome) {
	s := tc.Session()
	if s == nil || !out.Success || !p.needs[tool.Name()] {
		return
	}
	if !contains(session.ViewOf(s, p.done), tool.Name()) {
		session.Append(s, p.done, tool.Name())
	}
}

// contains reports whether v holds x (newest first: a prerequisite is checked right after it is
// recorded; indexing, not an iterator, since this runs on every call to a prerequisite).
func contains(v session.View[string], x string) bool {
	for i := v.Len() - 1; i >= 0; i-- {
		if v.At(i) == x {
			return true
		}
	}
	return false
}
