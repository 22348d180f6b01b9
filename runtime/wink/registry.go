package wink

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Registry is an immutable set of tools with unique names, merged from one or
// more packages' WinkTools(). Its order is the order of the groups and, within
// a group, the order of the tools (generated groups are in source order).
// A Registry is safe for concurrent use.
type Registry struct {
	tools  []*Tool
	names  []string
	byName map[string]*Tool
}

// NewRegistry merges groups of tools into a registry. Two tools with the
// same name are an error naming both declarations, for example
//
//	duplicate tool name "search_docs": declared by example.com/agent/tools.SearchDocs (search.go) and by example.com/agent/docs.Search (search.go)
//
// All problems are reported at once (joined with errors.Join).
func NewRegistry(groups ...[]*Tool) (*Registry, error) {
	r := &Registry{byName: make(map[string]*Tool)}
	var errs []error
	for gi, g := range groups {
		for ti, t := range g {
			if t == nil {
				errs = append(errs, fmt.Errorf("tool %d of group %d is nil", ti, gi))
				continue
			}
			name := t.spec.Name
			if prev, dup := r.byName[name]; dup {
				errs = append(errs, fmt.Errorf("duplicate tool name %q: declared by %s and by %s",
					name, posOrUnknown(prev), posOrUnknown(t)))
				continue
			}
			r.byName[name] = t
			r.tools = append(r.tools, t)
			r.names = append(r.names, name)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return r, nil
}

// posOrUnknown returns t's position, or "an unknown handler".
func posOrUnknown(t *Tool) string {
	if t.spec.Position == "" {
		return "an unknown handler"
	}
	return t.spec.Position
}

// MustRegistry is NewRegistry that panics on error, for package-level
// registries.
func MustRegistry(groups ...[]*Tool) *Registry {
	r, err := NewRegistry(groups...)
	if err != nil {
		panic("wink.MustRegistry: " + err.Error())
	}
	return r
}

// Lookup returns the tool named name. Names match exactly (case-sensitive).
func (r *Registry) Lookup(name string) (*Tool, bool) {
	if r == nil {
		return nil, false
	}
	t, ok := r.byName[name]
	return t, ok
}

// Tools returns the registry's tools in order, as a new slice.
func (r *Registry) Tools() []*Tool {
	if r == nil {
		return nil
	}
	return append([]*Tool(nil), r.tools...)
}

// Names returns the registry's tool names in order, as a new slice.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	return append([]string(nil), r.names...)
}

// Len returns the number of tools.
func (r *Registry) Len() int {
	if r == nil {
		return 0
	}
	return len(r.tools)
}

// maxEchoedName bounds how much of an unknown tool name is repeated back.
const maxEchoedName = 64

// unknownToolMessage is the failure text for a call to an unknown tool:
//
//	Unknown tool "serch". Available tools: search_docs, read_file.
//
// For a caller with a principal (p not nil) it lists only the tools p may
// call (every scope they declare granted), as tools/list shows them: the
// text never names a tool the caller may not call.
func (r *Registry) unknownToolMessage(name string, p *Principal) string {
	if utf8.RuneCountInString(name) > maxEchoedName {
		i, n := 0, 0
		for i = range name {
			if n == maxEchoedName {
				break
			}
			n++
		}
		name = name[:i] + "…"
	}
	var b strings.Builder
	b.WriteString("Unknown tool ")
	b.WriteString(strconv.Quote(name))
	listed := 0
	var names []string
	if r != nil {
		names = r.names
	}
	for i, n := range names {
		if p != nil && len(p.Missing(r.tools[i].spec.Scopes)) > 0 {
			continue
		}
		if listed == 0 {
			b.WriteString(". Available tools: ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(n)
		listed++
	}
	if listed == 0 {
		b.WriteString(". No tools are available.")
		return b.String()
	}
	b.WriteByte('.')
	return b.String()
}
