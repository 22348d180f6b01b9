package prompt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/session"

	"github.com/winkgen/wink/runtime/wink"
)

// Vars are the values of template params given to Prompt.Render, by param
// name. One namespace serves the whole prompt: every section that declares a
// param of that name receives the same value.
type Vars map[string]string

// Param declares one template param of a section.
type Param struct {
	// Name is the param's name as written in ${Name}; it matches
	// ^[A-Za-z_][A-Za-z0-9_]*$.
	Name string
	// Required makes rendering an enabled section without a value for the
	// param an error. A required param has no Default.
	Required bool
	// Default is the value of an optional param given no value.
	Default string
}

// RenderContext is what a section's Enabled predicate sees.
type RenderContext struct {
	// Prompt is the key of the prompt being rendered.
	Prompt string
	// Path is the dotted key path of the section being decided
	// ("workspace.files").
	Path string
	// Vars are the values given to the render (possibly nil; read only).
	Vars Vars
	// Session is RenderOptions.Session (possibly nil).
	Session *session.Session
}

// SectionSpec describes a section for NewSection.
type SectionSpec struct {
	// Key identifies the section among its siblings; it matches
	// ^[a-z0-9][a-z0-9._-]*$. A section's path is its ancestors' keys and
	// its own joined by ".".
	Key string
	// Title is the section's heading text: one non-empty line.
	Title string
	// Template is the section's markdown body. "${name}" is replaced by the
	// value of the param name, which the section must declare; "$${" is a
	// literal "${"; any other "$" is literal. The whitespace common to the
	// lines' starts and surrounding blank lines are removed, so indented raw
	// strings read naturally.
	Template string
	// Params declares the params the template and Enabled use.
	Params []Param
	// Tools are the tools the section contributes, in order; their
	// examples are rendered after the template.
	Tools []*wink.Tool
	// Policies govern calls to the section's own tools (not its
	// children's), checked before the prompt's policies.
	Policies []wink.Policy
	// Children are rendered after the section's own text, in order, one
	// heading level deeper.
	Children []*Section
	// Enabled, when set, decides at every render whether the section is
	// rendered; a disabled section contributes neither text nor tools, and
	// its children are not visited.
	Enabled func(RenderContext) bool
}

// Section is a node of a prompt's section tree: a heading, a markdown
// template, the tools it documents and the policies governing them, and
// child sections. Sections are built by NewSection and are immutable; one
// section may appear in several prompts.
type Section struct {
	key      string
	title    string
	tmpl     template
	params   []Param
	tools    []*wink.Tool
	policies []wink.Policy
	children []*Section
	enabled  func(RenderContext) bool
}

// maxHeadingDepth is the deepest section nesting: top-level sections are
// "##" headings and markdown stops at "######".
const maxHeadingDepth = 5

// NewSection validates s and returns the section. Every problem is reported
// at once (joined with errors.Join), each naming the section key:
//
//	section key "Files" must match ^[a-z0-9][a-z0-9._-]*$
//	section "files": the title must be one non-empty line
//	section "files": placeholder "${root}" on line 3 has no matching param
//	section "files": unterminated placeholder "${root" on line 3: no closing "}"
//	section "files": placeholder "${1x}" on line 3: the name must match ^[A-Za-z_][A-Za-z0-9_]*$
//	section "files": param name "1x" must match ^[A-Za-z_][A-Za-z0-9_]*$
//	section "files": duplicate param "root"
//	section "files": required param "root" has a default
//	section "files": tool 0 is nil
//	section "files": duplicate tool name "ls"
//	section "files": policy 0 is nil
//	section "files": child 0 is nil
//	section "files": duplicate child key "docs"
func NewSection(s SectionSpec) (*Section, error) {
	var errs []error
	key := s.Key
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("section %s: "+format, append([]any{strconv.Quote(key)}, args...)...))
	}
	if !validSectionKey(key) {
		errs = append(errs, fmt.Errorf("section key %s must match ^[a-z0-9][a-z0-9._-]*$", strconv.Quote(key)))
	}
	if strings.TrimSpace(s.Title) == "" || strings.ContainsAny(s.Title, "\r\n") {
		fail("the title must be one non-empty line")
	}
	declared := make(map[string]bool, len(s.Params))
	for _, p := range s.Params {
		switch {
		case !validIdent(p.Name):
			fail("param name %s must match ^[A-Za-z_][A-Za-z0-9_]*$", strconv.Quote(p.Name))
		case declared[p.Name]:
			fail("duplicate param %s", strconv.Quote(p.Name))
		}
		if p.Required && p.Default != "" {
			fail("required param %s has a default", strconv.Quote(p.Name))
		}
		declared[p.Name] = true
	}
	_, uses, terrs := parseTemplate(s.Template)
	for _, err := range terrs {
		fail("%v", err)
	}
	for _, u := range uses {
		if !declared[u.name] {
			fail("placeholder %s on line %d has no matching param", strconv.Quote("${"+u.name+"}"), u.line)
		}
	}
	toolNames := make(map[string]bool, len(s.Tools))
	for i, t := range s.Tools {
		if t == nil {
			fail("tool %d is nil", i)
			continue
		}
		if toolNames[t.Name()] {
			fail("duplicate tool name %s", strconv.Quote(t.Name()))
		}
		toolNames[t.Name()] = true
	}
	for i, p := range s.Policies {
		if p == nil {
			fail("policy %d is nil", i)
		}
	}
	childKeys := make(map[string]bool, len(s.Children))
	for i, c := range s.Children {
		if c == nil {
			fail("child %d is nil", i)
			continue
		}
		if childKeys[c.key] {
			fail("duplicate child key %s", strconv.Quote(c.key))
		}
		childKeys[c.key] = true
	}
	if len(errs) > 0 {
		return nil, joinErrs(errs)
	}
	tmpl, _, _ := parseTemplate(dedent(s.Template))
	return &Section{
		key:      key,
		title:    strings.TrimSpace(s.Title),
		tmpl:     tmpl,
		params:   append([]Param(nil), s.Params...),
		tools:    append([]*wink.Tool(nil), s.Tools...),
		policies: append([]wink.Policy(nil), s.Policies...),
		children: append([]*Section(nil), s.Children...),
		enabled:  s.Enabled,
	}, nil
}

// MustSection is NewSection that panics on error, for package-level
// sections.
func MustSection(s SectionSpec) *Section {
	sec, err := NewSection(s)
	if err != nil {
		panic("prompt.MustSection: " + err.Error())
	}
	return sec
}

// Key returns the section's key.
func (s *Section) Key() string { return s.key }

// Title returns the section's heading text.
func (s *Section) Title() string { return s.title }

// Params returns the section's declared params, as a new slice.
func (s *Section) Params() []Param { return append([]Param(nil), s.params...) }

// Tools returns the section's own tools in order, as a new slice.
func (s *Section) Tools() []*wink.Tool { return append([]*wink.Tool(nil), s.tools...) }

// Policies returns the section's policies in order, as a new slice.
func (s *Section) Policies() []wink.Policy { return append([]wink.Policy(nil), s.policies...) }

// Children returns the section's children in order, as a new slice.
func (s *Section) Children() []*Section { return append([]*Section(nil), s.children...) }

// validSectionKey reports whether key matches ^[a-z0-9][a-z0-9._-]*$.
func validSectionKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || i > 0 && (c == '.' || c == '_' || c == '-')) {
			return false
		}
	}
	return true
}
