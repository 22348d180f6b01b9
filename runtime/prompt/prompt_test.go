package prompt_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

var updatePromptGolden = flag.Bool("update-prompt", false, "rewrite testdata/prompt.golden.md")

// goldenTools are the tools of goldenPrompt.
var goldenTools = struct {
	ls, readFile, note, grep, plan, status *wink.Tool
}{
	ls: secTool("ls", "Lists a directory.", false, wink.Example{
		Description: "List the root", Input: []byte(`{"path":"/"}`), Output: []byte(`{"entries":["a.go","b.go"]}`),
	}),
	readFile: secTool("read_file", "Reads a file with numbered lines.", false,
		wink.Example{Description: "Read the first lines", Input: []byte(`{"path":"a.go","limit":2}`),
			Output: []byte(`{"lines":["1: package a","2: "]}`)},
		wink.Example{Input: []byte("{\"path\":\"`weird`.md\"}")},
	),
	note:   secTool("note", "Writes a note.", false),
	grep:   secTool("grep", "Searches file contents.", false),
	plan:   secTool("planning_setup_plan", "Creates or replaces the plan.", true),
	status: secTool("status", "Reports the status.", false),
}

// goldenPrompt builds a prompt with nested sections, a disabled section
// (with a tool and a child), params with defaults and tools with examples.
func goldenPrompt(t testing.TB) *prompt.Prompt {
	t.Helper()
	limits := mustSection(t, prompt.SectionSpec{
		Key: "limits", Title: "Limits",
		Template: "Files larger than ${max_size} are truncated.",
		Params:   []prompt.Param{{Name: "max_size", Default: "1 MiB"}},
	})
	files := mustSection(t, prompt.SectionSpec{
		Key: "files", Title: "Files",
		Template: `
			Read before you write. Paths are relative to ${root}.
			Shell variables such as $${HOME} are not expanded.
		`,
		Params:   []prompt.Param{{Name: "root", Required: true}},
		Tools:    []*wink.Tool{goldenTools.ls, goldenTools.readFile},
		Children: []*prompt.Section{limits},
	})
	notesChild := mustSection(t, prompt.SectionSpec{Key: "format", Title: "Format", Template: "Markdown only."})
	notes := mustSection(t, prompt.SectionSpec{
		Key: "notes", Title: "Notes",
		Template: "Keep notes about ${topic}.",
		Params:   []prompt.Param{{Name: "topic", Required: true}},
		Tools:    []*wink.Tool{goldenTools.note},
		Children: []*prompt.Section{notesChild},
		Enabled:  func(rc prompt.RenderContext) bool { return rc.Vars["notes"] == "on" },
	})
	search := mustSection(t, prompt.SectionSpec{Key: "search", Title: "Search", Tools: []*wink.Tool{goldenTools.grep}})
	workspace := mustSection(t, prompt.SectionSpec{
		Key: "workspace", Title: "Workspace",
		Template: "You work in the repository at ${root}.",
		Params:   []prompt.Param{{Name: "root", Required: true}, {Name: "notes"}},
		Children: []*prompt.Section{files, notes, search},
	})
	planning := mustSection(t, prompt.SectionSpec{
		Key: "planning", Title: "Planning",
		Template: "Strategy: ${strategy}.",
		Params:   []prompt.Param{{Name: "strategy", Default: "react"}},
		Tools:    []*wink.Tool{goldenTools.plan},
	})
	tools := mustSection(t, prompt.SectionSpec{Key: "tools", Title: "Other tools", Tools: []*wink.Tool{goldenTools.status}})
	p, err := prompt.New("agent", workspace, planning, tools)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPromptRenderMatchesGoldenMarkdown(t *testing.T) {
	p := goldenPrompt(t)
	p, err := p.WithOverrides(prompt.Overrides{"planning_setup_plan": {
		Description:  "Creates the plan before any work.",
		ContractHash: prompt.ContractHash(goldenTools.plan),
	}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Render(prompt.Vars{"root": "/repo"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "prompt.golden.md")
	if *updatePromptGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(r.Text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-prompt to create it)", err)
	}
	if diff := cmp.Diff(string(want), r.Text); diff != "" {
		t.Errorf("rendered markdown (-golden +got):\n%s", diff)
	}
	if r.Prompt != "agent" {
		t.Errorf("Prompt = %q", r.Prompt)
	}
}

func TestPromptRenderCollectsEnabledToolsInDeclarationOrder(t *testing.T) {
	p := goldenPrompt(t)
	tests := []struct {
		name string
		vars prompt.Vars
		want []string
	}{
		{"disabled section contributes no tools", prompt.Vars{"root": "/r"},
			[]string{"ls", "read_file", "grep", "planning_setup_plan", "status"}},
		{"enabled section's tools in place", prompt.Vars{"root": "/r", "notes": "on", "topic": "bugs"},
			[]string{"ls", "read_file", "note", "grep", "planning_setup_plan", "status"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := p.Render(tt.vars)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tool := range r.Tools {
				got = append(got, tool.Name())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Tools (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, r.Registry().Names()); diff != "" {
				t.Errorf("Registry().Names() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPromptRenderSkipsDisabledSectionTextAndChildren(t *testing.T) {
	p := goldenPrompt(t)
	off, err := p.Render(prompt.Vars{"root": "/r"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Notes", "Keep notes", "Format", "Markdown only", "`note`"} {
		if strings.Contains(off.Text, s) {
			t.Errorf("disabled section's %q rendered:\n%s", s, off.Text)
		}
	}
	on, err := p.Render(prompt.Vars{"root": "/r", "notes": "on", "topic": "bugs"})
	if err != nil {
		t.Fatal(err)
	}
	want := "### Notes\n\nKeep notes about bugs.\n\nTools:\n\n- `note`: Writes a note.\n\n#### Format\n\nMarkdown only.\n\n### Search"
	if !strings.Contains(on.Text, want) {
		t.Errorf("enabled section not rendered in place; want substring\n%s\ngot\n%s", want, on.Text)
	}
}

func TestPromptEnabledPredicateSeesRenderContext(t *testing.T) {
	var got []prompt.RenderContext
	s := session.New()
	child := mustSection(t, prompt.SectionSpec{Key: "child", Title: "Child",
		Enabled: func(rc prompt.RenderContext) bool { got = append(got, rc); return false }})
	never := mustSection(t, prompt.SectionSpec{Key: "never", Title: "Never",
		Enabled: func(rc prompt.RenderContext) bool {
			t.Error("predicate of a disabled section's child called")
			return true
		}})
	off := mustSection(t, prompt.SectionSpec{Key: "off", Title: "Off", Children: []*prompt.Section{never},
		Enabled: func(rc prompt.RenderContext) bool { return false }})
	top := mustSection(t, prompt.SectionSpec{Key: "top", Title: "Top", Params: []prompt.Param{{Name: "x"}},
		Children: []*prompt.Section{child, off}})
	r, err := prompt.Must("p", top).RenderWith(prompt.RenderOptions{Vars: prompt.Vars{"x": "1"}, Session: s})
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "## Top\n" {
		t.Errorf("text = %q", r.Text)
	}
	if len(got) != 1 || got[0].Prompt != "p" || got[0].Path != "top.child" || got[0].Vars["x"] != "1" || got[0].Session != s {
		t.Errorf("render contexts = %+v", got)
	}
}

func TestPromptRenderOfNothingIsEmpty(t *testing.T) {
	off := mustSection(t, prompt.SectionSpec{Key: "off", Title: "Off", Enabled: func(prompt.RenderContext) bool { return false }})
	for _, p := range []*prompt.Prompt{prompt.Must("empty"), prompt.Must("off", off)} {
		r, err := p.Render(nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Text != "" || len(r.Tools) != 0 || r.Registry().Len() != 0 {
			t.Errorf("prompt %q: text %q, %d tools", p.Key(), r.Text, len(r.Tools))
		}
	}
}

func TestNewPromptConstructionErrorsExactText(t *testing.T) {
	ls := secTool("ls", "Lists files.", false)
	files := mustSection(t, prompt.SectionSpec{Key: "files", Title: "Files", Tools: []*wink.Tool{ls}})
	workspace := mustSection(t, prompt.SectionSpec{Key: "workspace", Title: "Workspace", Children: []*prompt.Section{files}})
	tools := mustSection(t, prompt.SectionSpec{Key: "tools", Title: "Tools", Tools: []*wink.Tool{ls}})
	other := mustSection(t, prompt.SectionSpec{Key: "tools", Title: "Other"})
	// "a" > "b.c" and "a.b" > "c" both have the path "a.b.c".
	a := mustSection(t, prompt.SectionSpec{Key: "a", Title: "A", Children: []*prompt.Section{
		mustSection(t, prompt.SectionSpec{Key: "b.c", Title: "BC"})}})
	ab := mustSection(t, prompt.SectionSpec{Key: "a.b", Title: "AB", Children: []*prompt.Section{
		mustSection(t, prompt.SectionSpec{Key: "c", Title: "C"})}})
	deep := mustSection(t, prompt.SectionSpec{Key: "f", Title: "F"})
	for _, k := range []string{"e", "d", "c", "b", "a"} {
		deep = mustSection(t, prompt.SectionSpec{Key: k, Title: strings.ToUpper(k), Children: []*prompt.Section{deep}})
	}
	tests := []struct {
		name     string
		key      string
		sections []*prompt.Section
		want     string
	}{
		{"duplicate tool across sections", "p", []*prompt.Section{workspace, tools},
			`duplicate tool name "ls": in sections "workspace.files" and "tools"`},
		{"bad prompt key", "P", nil, `prompt key "P" must match ^[a-z0-9][a-z0-9._-]*$`},
		{"nil section", "p", []*prompt.Section{files, nil}, `section 1 of prompt "p" is nil`},
		{"duplicate top-level key", "p", []*prompt.Section{tools, other}, `duplicate section key "tools" in prompt "p"`},
		{"colliding dotted paths", "p", []*prompt.Section{a, ab}, `duplicate section path "a.b.c" in prompt "p"`},
		{"nested too deeply", "p", []*prompt.Section{deep},
			`section "a.b.c.d.e.f" is nested too deeply: at most 5 levels (headings stop at ######)`},
		{"all at once", "P", []*prompt.Section{workspace, nil, tools}, strings.Join([]string{
			`prompt key "P" must match ^[a-z0-9][a-z0-9._-]*$`,
			`section 1 of prompt "P" is nil`,
			`duplicate tool name "ls": in sections "workspace.files" and "tools"`,
		}, "\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := prompt.New(tt.key, tt.sections...)
			if err == nil {
				t.Fatalf("NewPrompt succeeded, want %q", tt.want)
			}
			if p != nil {
				t.Error("NewPrompt returned a prompt with an error")
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestNewPromptChecksToolsOfDisabledSectionsToo(t *testing.T) {
	ls := secTool("ls", "Lists files.", false)
	off := mustSection(t, prompt.SectionSpec{Key: "off", Title: "Off", Tools: []*wink.Tool{ls},
		Enabled: func(prompt.RenderContext) bool { return false }})
	on := mustSection(t, prompt.SectionSpec{Key: "on", Title: "On", Tools: []*wink.Tool{ls}})
	_, err := prompt.New("p", off, on)
	if want := `duplicate tool name "ls": in sections "off" and "on"`; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestMustPromptPanicsWithTheError(t *testing.T) {
	defer func() {
		if got, want := recover(), `prompt.Must: prompt key "" must match ^[a-z0-9][a-z0-9._-]*$`; got != want {
			t.Errorf("panic = %v, want %s", got, want)
		}
	}()
	prompt.Must("")
}

func TestPromptRenderErrorsExactText(t *testing.T) {
	p := goldenPrompt(t)
	tests := []struct {
		name string
		vars prompt.Vars
		want string
	}{
		{"missing required param in every section using it", nil, strings.Join([]string{
			`section "workspace": missing required param "root"`,
			`section "workspace.files": missing required param "root"`,
		}, "\n")},
		{"missing param of an enabled child", prompt.Vars{"root": "/r", "notes": "on"},
			`section "workspace.notes": missing required param "topic"`},
		{"unknown params sorted, before missing ones", prompt.Vars{"rooot": "/r", "Root": "/r"}, strings.Join([]string{
			`unknown param "Root": no section of prompt "agent" declares it`,
			`unknown param "rooot": no section of prompt "agent" declares it`,
			`section "workspace": missing required param "root"`,
			`section "workspace.files": missing required param "root"`,
		}, "\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := p.Render(tt.vars)
			if err == nil {
				t.Fatalf("Render succeeded, want %q", tt.want)
			}
			if r != nil {
				t.Error("Render returned a rendering with an error")
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %s\nwant %s", err, tt.want)
			}
		})
	}
	// A param declared only by a disabled section is known, and its
	// requiredness does not apply.
	if _, err := p.Render(prompt.Vars{"root": "/r", "notes": "off", "topic": "x"}); err != nil {
		t.Errorf("param of a disabled section refused: %v", err)
	}
}

func TestWithPoliciesCopiesThePrompt(t *testing.T) {
	p := goldenPrompt(t)
	a, b := &recPolicy{name: "a"}, &recPolicy{name: "b"}
	pa := p.WithPolicies(a)
	pab := pa.WithPolicies(b)
	pac := pa.WithPolicies(&recPolicy{name: "c"})
	names := func(ps []wink.Policy) (s []string) {
		for _, p := range ps {
			s = append(s, p.Name())
		}
		return s
	}
	if len(p.Policies()) != 0 || !slices.Equal(names(pa.Policies()), []string{"a"}) ||
		!slices.Equal(names(pab.Policies()), []string{"a", "b"}) || !slices.Equal(names(pac.Policies()), []string{"a", "c"}) {
		t.Errorf("policies: p %v, pa %v, pab %v, pac %v", names(p.Policies()), names(pa.Policies()),
			names(pab.Policies()), names(pac.Policies()))
	}
	r, err := pab.Render(prompt.Vars{"root": "/r"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names(r.Policies), []string{"a", "b"}) {
		t.Errorf("Rendered.Policies = %v", names(r.Policies))
	}
}

// recPolicy records its checks and results in log and denies when deny is
// set.
type recPolicy struct {
	name string
	deny bool
	log  *[]string
}

func (p *recPolicy) Name() string { return p.name }

func (p *recPolicy) Check(tc *wink.ToolContext, tool *wink.Tool, params any) wink.Decision {
	if p.log != nil {
		*p.log = append(*p.log, "check "+p.name+" "+tool.Name())
	}
	if p.deny {
		return wink.Deny(p.name+" denies "+tool.Name(), "ask "+p.name)
	}
	return wink.Allow()
}

func (p *recPolicy) OnResult(tc *wink.ToolContext, tool *wink.Tool, params any, out *wink.Outcome) {
	if p.log != nil {
		*p.log = append(*p.log, "result "+p.name+" "+tool.Name())
	}
}

func TestRenderedDispatcherAppliesSectionPoliciesThenPromptPolicies(t *testing.T) {
	var log []string
	pol := func(name string, deny bool) *recPolicy { return &recPolicy{name: name, deny: deny, log: &log} }
	build := func(secDeny, promptDeny bool) *prompt.Rendered {
		t.Helper()
		ls := secTool("ls", "Lists files.", true)
		child := mustSection(t, prompt.SectionSpec{Key: "child", Title: "Child", Tools: []*wink.Tool{secTool("stat", "Stats.", false)}})
		files := mustSection(t, prompt.SectionSpec{Key: "files", Title: "Files", Tools: []*wink.Tool{ls},
			Policies: []wink.Policy{pol("sec1", false), pol("sec2", secDeny)}, Children: []*prompt.Section{child}})
		other := mustSection(t, prompt.SectionSpec{Key: "other", Title: "Other", Tools: []*wink.Tool{secTool("status", "Status.", false)}})
		p := prompt.Must("p", files, other).WithPolicies(pol("prompt", promptDeny))
		p, err := p.WithOverrides(prompt.Overrides{"ls": {Description: "Lists.", ContractHash: prompt.ContractHash(ls)}})
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Render(nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	tests := []struct {
		name                string
		secDeny, promptDeny bool
		tool                string
		wantOutput          string
		wantLog             []string
	}{
		{"both allow: section policies, prompt, base; same order for results", false, false, "ls", "ran ls",
			[]string{"check sec1 ls", "check sec2 ls", "check prompt ls", "check base ls",
				"result sec1 ls", "result sec2 ls", "result prompt ls", "result base ls"}},
		{"section denial wins over prompt denial", true, true, "ls", "sec2 denies ls\n- ask sec2",
			[]string{"check sec1 ls", "check sec2 ls"}},
		{"prompt denial after section allows", false, true, "ls", "prompt denies ls\n- ask prompt",
			[]string{"check sec1 ls", "check sec2 ls", "check prompt ls"}},
		{"other section's tool: prompt policies only", true, false, "status", "ran status",
			[]string{"check prompt status", "check base status", "result prompt status", "result base status"}},
		{"child section's tool: not governed by its parent's policies", true, false, "stat", "ran stat",
			[]string{"check prompt stat", "check base stat", "result prompt stat", "result base stat"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log = nil
			r := build(tt.secDeny, tt.promptDeny)
			s := session.New()
			d := r.Dispatcher(wink.Dispatcher{Session: s, Policies: []wink.Policy{pol("base", false)}})
			out, err := d.Dispatch(context.Background(), wink.Call{ID: "c1", Name: tt.tool, Arguments: []byte(`{}`)})
			if err != nil {
				t.Fatal(err)
			}
			if out.Output != tt.wantOutput {
				t.Errorf("output = %q, want %q", out.Output, tt.wantOutput)
			}
			if diff := cmp.Diff(tt.wantLog, log); diff != "" {
				t.Errorf("policy calls (-want +got):\n%s", diff)
			}
			if d.Session != s {
				t.Error("Dispatcher did not keep the base's session")
			}
		})
	}
}

func TestRenderedSectionPoliciesMatchOriginalAndOverriddenTool(t *testing.T) {
	ls := secTool("ls", "Lists files.", true)
	sp := &recPolicy{name: "sec"}
	files := mustSection(t, prompt.SectionSpec{Key: "files", Title: "Files", Tools: []*wink.Tool{ls}, Policies: []wink.Policy{sp}})
	r, err := prompt.Must("p", files).RenderWith(prompt.RenderOptions{
		Overrides: prompt.Overrides{"ls": {Description: "Lists.", ContractHash: prompt.ContractHash(ls)}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Tools[0] == ls || r.Tools[0].Description() != "Lists." {
		t.Fatalf("tool not overridden: %q", r.Tools[0].Description())
	}
	for _, tool := range []*wink.Tool{ls, r.Tools[0]} {
		if got := r.SectionPolicies(tool); len(got) != 1 || got[0] != sp {
			t.Errorf("SectionPolicies(%q) = %v", tool.Description(), got)
		}
	}
	if got := r.SectionPolicies(secTool("ls", "A stranger.", false)); got != nil {
		t.Errorf("SectionPolicies of a tool outside the prompt = %v", got)
	}
	if got := r.SectionPolicies(nil); got != nil {
		t.Errorf("SectionPolicies(nil) = %v", got)
	}
}

func BenchmarkPromptRender(b *testing.B) {
	p := goldenPrompt(b)
	vars := prompt.Vars{"root": "/repo", "notes": "on", "topic": "bugs"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Render(vars); err != nil {
			b.Fatal(err)
		}
	}
}
