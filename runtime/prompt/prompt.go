package prompt

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/session"

	"github.com/winkgen/wink/runtime/wink"
)

// Prompt is an ordered tree of sections that renders to markdown and
// collects the tools of its enabled sections. Prompts are built by
// New and are immutable; WithPolicies and WithOverrides return
// changed copies. Render is safe for concurrent use when the sections'
// Enabled predicates are.
type Prompt struct {
	key       string
	sections  []*Section
	policies  []wink.Policy
	overrides map[string]*wink.Tool // validated construction overrides: name → clone
	tools     map[string]toolSite   // every tool of the tree by name
	declared  map[string]bool       // every param name declared in the tree
}

// toolSite is a tool of the tree and the path of its section.
type toolSite struct {
	tool *wink.Tool
	path string
}

// New validates the section tree and returns the prompt. The tree is
// checked whole, whatever the sections' Enabled predicates will say at
// render. Every problem is reported at once (joined with errors.Join):
//
//	prompt key "P" must match ^[a-z0-9][a-z0-9._-]*$
//	section 1 of prompt "p" is nil
//	duplicate section key "files" in prompt "p"
//	duplicate section path "a.b.c" in prompt "p"
//	section "a.b.c.d.e.f" is nested too deeply: at most 5 levels (headings stop at ######)
//	duplicate tool name "ls": in sections "workspace.files" and "tools"
func New(key string, sections ...*Section) (*Prompt, error) {
	var errs []error
	if !validSectionKey(key) {
		errs = append(errs, fmt.Errorf("prompt key %s must match ^[a-z0-9][a-z0-9._-]*$", strconv.Quote(key)))
	}
	p := &Prompt{
		key:      key,
		sections: append([]*Section(nil), sections...),
		tools:    map[string]toolSite{},
		declared: map[string]bool{},
	}
	paths := map[string]bool{}
	var walk func(s *Section, path string, depth int)
	walk = func(s *Section, path string, depth int) {
		if paths[path] {
			errs = append(errs, fmt.Errorf("duplicate section path %s in prompt %s", strconv.Quote(path), strconv.Quote(key)))
			return
		}
		paths[path] = true
		if depth >= maxHeadingDepth {
			errs = append(errs, fmt.Errorf("section %s is nested too deeply: at most %d levels (headings stop at ######)",
				strconv.Quote(path), maxHeadingDepth))
			return
		}
		for _, prm := range s.params {
			p.declared[prm.Name] = true
		}
		for _, t := range s.tools {
			if prev, dup := p.tools[t.Name()]; dup {
				errs = append(errs, fmt.Errorf("duplicate tool name %s: in sections %s and %s",
					strconv.Quote(t.Name()), strconv.Quote(prev.path), strconv.Quote(path)))
				continue
			}
			p.tools[t.Name()] = toolSite{tool: t, path: path}
		}
		for _, c := range s.children {
			walk(c, path+"."+c.key, depth+1)
		}
	}
	topKeys := map[string]bool{}
	for i, s := range sections {
		if s == nil {
			errs = append(errs, fmt.Errorf("section %d of prompt %s is nil", i, strconv.Quote(key)))
			continue
		}
		if topKeys[s.key] {
			errs = append(errs, fmt.Errorf("duplicate section key %s in prompt %s", strconv.Quote(s.key), strconv.Quote(key)))
			continue
		}
		topKeys[s.key] = true
		walk(s, s.key, 0)
	}
	if len(errs) > 0 {
		return nil, joinErrs(errs)
	}
	return p, nil
}

// Must is New that panics on error, for package-level prompts.
func Must(key string, sections ...*Section) *Prompt {
	p, err := New(key, sections...)
	if err != nil {
		panic("prompt.Must: " + err.Error())
	}
	return p
}

// Key returns the prompt's key.
func (p *Prompt) Key() string { return p.key }

// Sections returns the prompt's top-level sections in order, as a new slice.
func (p *Prompt) Sections() []*Section { return append([]*Section(nil), p.sections...) }

// Policies returns the prompt-level policies in order, as a new slice.
func (p *Prompt) Policies() []wink.Policy { return append([]wink.Policy(nil), p.policies...) }

// WithPolicies returns a copy of p whose prompt-level policies are p's
// followed by ps. They govern every tool of the prompt, after the policies
// of the tool's section. A nil policy panics (a programming error).
func (p *Prompt) WithPolicies(ps ...wink.Policy) *Prompt {
	for i, pol := range ps {
		if pol == nil {
			panic("prompt.Prompt.WithPolicies: policy " + strconv.Itoa(i) + " is nil")
		}
	}
	c := *p
	c.policies = append(slices.Clip(p.policies), ps...)
	return &c
}

// WithOverrides returns a copy of p whose tools' descriptions are replaced
// as o says (on top of p's own overrides). Every refused override is
// reported at once, in tool name order:
//
//	override for tool "x" refused: prompt "p" has no such tool
//	override for tool "x" refused: the tool does not accept overrides
//	override for tool "x" refused: written for contract <hash>, but the current contract is <hash>
//	override for tool "x" refused: the description must be 1 to 200 ASCII characters
func (p *Prompt) WithOverrides(o Overrides) (*Prompt, error) {
	clones, err := p.applyOverrides(o)
	if err != nil {
		return nil, err
	}
	c := *p
	c.overrides = make(map[string]*wink.Tool, len(p.overrides)+len(clones))
	for n, t := range p.overrides {
		c.overrides[n] = t
	}
	for n, t := range clones {
		c.overrides[n] = t
	}
	return &c, nil
}

// applyOverrides checks o against the tree's tools and returns the
// overridden copies by name.
func (p *Prompt) applyOverrides(o Overrides) (map[string]*wink.Tool, error) {
	if len(o) == 0 {
		return nil, nil
	}
	names := make([]string, 0, len(o))
	for n := range o {
		names = append(names, n)
	}
	slices.Sort(names)
	var errs []error
	clones := make(map[string]*wink.Tool, len(o))
	for _, n := range names {
		site, ok := p.tools[n]
		if !ok {
			errs = append(errs, fmt.Errorf("override for tool %s refused: prompt %s has no such tool",
				strconv.Quote(n), strconv.Quote(p.key)))
			continue
		}
		if err := checkOverride(site.tool, o[n]); err != nil {
			errs = append(errs, err)
			continue
		}
		clones[n] = site.tool.WithDescription(o[n].Description)
	}
	if len(errs) > 0 {
		return nil, joinErrs(errs)
	}
	return clones, nil
}

// RenderOptions are the inputs of Prompt.RenderWith.
type RenderOptions struct {
	// Vars are the params' values.
	Vars Vars
	// Session is passed to the sections' Enabled predicates.
	Session *session.Session
	// Overrides replace tool descriptions for this render, on top of (and
	// winning over) the prompt's own; they are checked as WithOverrides
	// checks them.
	Overrides Overrides
}

// Rendered is one rendering of a prompt: its markdown, the tools of its
// enabled sections and the policies governing them.
type Rendered struct {
	// Prompt is the prompt's key.
	Prompt string
	// Text is the markdown: per enabled section, depth-first, a heading
	// ("## Title", "### Child", ...), the template's text, then the tools
	// block; sections separated by a blank line; a final newline.
	Text string
	// Tools are the enabled sections' tools in declaration order, with
	// overridden descriptions applied.
	Tools []*wink.Tool
	// Policies are the prompt-level policies.
	Policies []wink.Policy

	registry        *wink.Registry
	sectionPolicies map[string]toolPolicies // by tool name
}

// Registry returns a registry of Tools, in order.
func (r *Rendered) Registry() *wink.Registry { return r.registry }

// SectionPolicies returns the policies of the section that declares t (nil
// for a tool the rendering does not contain). It fits
// wink.Dispatcher.SectionPolicies. A tool is matched by Tool.Same (the tool NewTool built), so the original
// and an overridden copy share their policies.
func (r *Rendered) SectionPolicies(t *wink.Tool) []wink.Policy {
	if t == nil {
		return nil
	}
	if tp, ok := r.sectionPolicies[t.Name()]; ok && tp.tool.Same(t) {
		return tp.policies
	}
	return nil
}

// Dispatcher returns a copy of base that dispatches to the rendering's
// tools: Registry is Registry(), SectionPolicies is r.SectionPolicies, and
// Policies are the prompt-level policies followed by base.Policies. So a
// call is checked by its section's policies, then the prompt's, then base's;
// the first denial wins.
func (r *Rendered) Dispatcher(base wink.Dispatcher) *wink.Dispatcher {
	d := base
	d.Registry = r.registry
	d.SectionPolicies = r.SectionPolicies
	if len(base.Policies) > 0 {
		d.Policies = append(append([]wink.Policy(nil), r.Policies...), base.Policies...)
	} else {
		d.Policies = r.Policies
	}
	return &d
}

// Render is RenderWith(RenderOptions{Vars: vars}).
func (p *Prompt) Render(vars Vars) (*Rendered, error) {
	return p.RenderWith(RenderOptions{Vars: vars})
}

// RenderWith renders the prompt: it walks the tree depth-first, skipping a
// section whose Enabled predicate says false together with its children,
// and substitutes the params (a given value, else the param's Default).
// Every problem is reported at once (joined with errors.Join), refused
// overrides first (see WithOverrides), then in this order:
//
//	unknown param "rooot": no section of prompt "p" declares it
//	section "workspace.files": missing required param "root"
//
// A var counts as given when present in Vars, even if empty. Required
// params of disabled sections are not needed.
func (p *Prompt) RenderWith(o RenderOptions) (*Rendered, error) {
	clones, err := p.applyOverrides(o.Overrides)
	if err != nil {
		return nil, err
	}
	var errs []error
	if len(o.Vars) > 0 {
		var unknown []string
		for n := range o.Vars {
			if !p.declared[n] {
				unknown = append(unknown, n)
			}
		}
		slices.Sort(unknown)
		for _, n := range unknown {
			errs = append(errs, fmt.Errorf("unknown param %s: no section of prompt %s declares it",
				strconv.Quote(n), strconv.Quote(p.key)))
		}
	}
	r := &Rendered{Prompt: p.key, Policies: slices.Clip(p.policies), sectionPolicies: map[string]toolPolicies{}}
	var b strings.Builder
	var walk func(s *Section, path string, depth int)
	walk = func(s *Section, path string, depth int) {
		if s.enabled != nil && !s.enabled(RenderContext{Prompt: p.key, Path: path, Vars: o.Vars, Session: o.Session}) {
			return
		}
		missing := false
		for _, prm := range s.params {
			if _, ok := o.Vars[prm.Name]; prm.Required && !ok {
				errs = append(errs, fmt.Errorf("section %s: missing required param %s",
					strconv.Quote(path), strconv.Quote(prm.Name)))
				missing = true
			}
		}
		if !missing {
			p.writeSection(&b, r, s, o.Vars, clones, depth)
		}
		for _, c := range s.children {
			walk(c, path+"."+c.key, depth+1)
		}
	}
	for _, s := range p.sections {
		walk(s, s.key, 0)
	}
	if len(errs) > 0 {
		return nil, joinErrs(errs)
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	r.Text = b.String()
	reg, err := wink.NewRegistry(r.Tools)
	if err != nil { // unreachable: New rejects duplicate names
		return nil, err
	}
	r.registry = reg
	return r, nil
}

// writeSection writes s's heading, text and tools block to b and records
// its tools in r.
func (p *Prompt) writeSection(b *strings.Builder, r *Rendered, s *Section, vars Vars, clones map[string]*wink.Tool, depth int) {
	if b.Len() > 0 {
		b.WriteString("\n\n")
	}
	b.WriteString("##")
	for range depth {
		b.WriteByte('#')
	}
	b.WriteByte(' ')
	b.WriteString(s.title)
	if !s.tmpl.empty() {
		b.WriteString("\n\n")
		s.tmpl.render(b, func(name string) string {
			if v, ok := vars[name]; ok {
				return v
			}
			for _, prm := range s.params {
				if prm.Name == name {
					return prm.Default
				}
			}
			return ""
		})
	}
	if len(s.tools) == 0 {
		return
	}
	b.WriteString("\n\nTools:\n")
	for _, t := range s.tools {
		if c, ok := clones[t.Name()]; ok {
			t = c
		} else if c, ok := p.overrides[t.Name()]; ok {
			t = c
		}
		r.Tools = append(r.Tools, t)
		if len(s.policies) > 0 {
			r.sectionPolicies[t.Name()] = toolPolicies{t, s.policies}
		}
		writeToolDoc(b, t)
	}
}

// writeToolDoc writes t's entry of a tools block: a list item with the name
// as a code span and the description, then a nested item per example with
// its description (or "Example"), the call "name(input)" as a code span and,
// when the example states one, "returns" and the output as a code span.
func writeToolDoc(b *strings.Builder, t *wink.Tool) {
	b.WriteString("\n- ")
	writeCode(b, t.Spec().Name)
	b.WriteString(": ")
	b.WriteString(t.Spec().Description)
	for _, ex := range t.Spec().Examples {
		b.WriteString("\n  - ")
		WriteExample(b, t.Spec().Name, ex)
	}
}

// WriteExample writes the example ex of the tool name as a tools block states it: its description (or
// "Example"), the call "name(input)" as a code span and, when the example states one, "returns" and the
// output as a code span. The MCP server writes a tool's examples into its description the same way.
func WriteExample(b *strings.Builder, name string, ex wink.Example) {
	if d := strings.TrimSpace(ex.Description); d != "" {
		b.WriteString(d)
	} else {
		b.WriteString("Example")
	}
	b.WriteString(": ")
	writeCode(b, name+"("+string(ex.Input)+")")
	if len(ex.Output) > 0 {
		b.WriteString(" returns ")
		writeCode(b, string(ex.Output))
	}
}

// writeCode writes s as a markdown code span, with a fence longer than any
// backtick run in s (CommonMark).
func writeCode(b *strings.Builder, s string) {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	pad := longest > 0 && (s[0] == '`' || s[len(s)-1] == '`')
	b.WriteString(fence)
	if pad {
		b.WriteByte(' ')
	}
	b.WriteString(s)
	if pad {
		b.WriteByte(' ')
	}
	b.WriteString(fence)
}

// toolPolicies are the policies of the section declaring tool.
type toolPolicies struct {
	tool     *wink.Tool
	policies []wink.Policy
}
