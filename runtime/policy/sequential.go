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
	name string
	// tools holds what the policy knows of each tool it names (a key of deps or a prerequisite);
	// index finds one by name when there are more than maxScan of them (see lookup).
	tools []depTool
	index map[string]*depTool
	done  session.Slice[string]
}

// depTool is what SequentialDependency knows of one tool it names.
type depTool struct {
	name   string
	reqs   []string // its prerequisites: sorted, deduplicated (nil when none)
	needed bool     // it is someone's prerequisite
}

// maxScan is how many tools lookup compares by name before it uses a map: comparing a few names
// (most differ in length, which is compared first) costs less than hashing the name, and a policy
// names a handful of tools. Both run on every call, to any tool, through Check and OnResult.
const maxScan = 8

// NewSequentialDependency returns the policy for deps (tool -> the tools
// that must succeed first). It declares the policy's own session STATE slice,
// so construct policies once (at startup), not per call.
func NewSequentialDependency(deps map[string][]string) *SequentialDependency {
	p := &SequentialDependency{name: "sequential_dependency"}
	at := make(map[string]int) // tool name -> index in p.tools
	get := func(name string) *depTool {
		i, ok := at[name]
		if !ok {
			i = len(p.tools)
			at[name] = i
			p.tools = append(p.tools, depTool{name: name})
		}
		return &p.tools[i]
	}
	for tool, reqs := range deps {
		r := slices.Clone(reqs)
		slices.Sort(r)
		r = slices.Compact(r)
		get(tool).reqs = r
	}
	for tool := range deps {
		for _, x := range p.tools[at[tool]].reqs {
			get(x).needed = true
		}
	}
	// p.tools grows no more: the index's pointers into it stay valid.
	if len(p.tools) > maxScan {
		p.index = make(map[string]*depTool, len(p.tools))
		for i := range p.tools {
			p.index[p.tools[i].name] = &p.tools[i]
		}
	}
	p.done = session.NewSlice[string]("policy.sequential_dependency", session.Rollback)
	return p
}

// lookup returns what the policy knows of the tool named name; nil when nothing (the tool neither has
// nor is a prerequisite).
func (p *SequentialDependency) lookup(name string) *depTool {
	if p.index != nil {
		return p.index[name]
	}
	for i := range p.tools {
		if p.tools[i].name == name {
			return &p.tools[i]
		}
	}
	return nil
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
	dt := p.lookup(tool.Name())
	if dt == nil || len(dt.reqs) == 0 {
		return wink.Allow()
	}
	reqs := dt.reqs
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
	if s == nil || !out.Success {
		return
	}
	if dt := p.lookup(tool.Name()); dt == nil || !dt.needed {
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
