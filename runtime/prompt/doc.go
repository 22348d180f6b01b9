// Package prompt assembles tools into what the model reads: sections of
// markdown with their tools and policies, arranged in a prompt that renders
// to text, a registry and the policies a dispatcher enforces.
//
//	files := prompt.MustSection(prompt.SectionSpec{Key: "files", Title: "Files",
//		Template: "Work in ${root}.", Params: []prompt.Param{{Name: "root", Required: true}},
//		Tools: files.WinkTools()})
//	p := prompt.Must("agent", files)
//	r, err := p.Render(prompt.Vars{"root": "/srv/work"})
//	// r.Text is the markdown; r.Dispatcher(base) dispatches to r.Tools.
//
// A Section (NewSection) has a key, a title, a markdown template, declared
// params, tools, policies, children and an Enabled predicate; a Prompt
// (New) is an ordered tree of them. Rendered (Prompt.Render) holds
// the markdown, the enabled sections' tools in declaration order, a
// Registry of them and the policies; Rendered.Dispatcher plugs all of it
// into a wink.Dispatcher (Registry, SectionPolicies, Policies). Decisions:
//
//   - Params are strings: a section declares Param{Name, Required,
//     Default}; Render takes one Vars map for the whole prompt (no
//     reflection, no per-section types). A placeholder must name a param of
//     its own section (children do not inherit); a var no section declares
//     is an error (typos); a var counts as given when present, even empty.
//   - Template syntax: "${name}", "$${" for a literal "${", any other "$"
//     literal; values are inserted verbatim and never expanded again. The
//     template is dedented and stripped of surrounding blank lines, so
//     indented raw strings read naturally.
//   - Markdown: per enabled section, depth-first, "## Title" ("###" for a
//     child, at most 5 levels), the template text, then "Tools:" and a list
//     item per tool ("- `name`: description") with a nested item per
//     example ("- desc: `name(input)` returns `output`", canonical JSON in
//     code spans); blocks separated by a blank line; a final newline.
//   - Validation: the whole tree at New (disabled sections included:
//     enablement is decided per render); required params at render, only
//     for enabled sections. All problems are reported at once.
//   - Policies: a section's policies govern its own tools, not its
//     children's; they are matched by Tool.Same (the tool NewTool built), so an overridden copy
//     shares them. Order: section, prompt (Prompt.WithPolicies), then the
//     base Dispatcher's; the first denial wins.
//   - Overrides: Prompt.WithOverrides and RenderOptions.Overrides (render
//     wins) replace the description of a tool with Spec.AcceptsOverrides,
//     given ContractHash of the section's tool (SHA-256 of the
//     length-prefixed name, description, ParamsSchema and ResultSchema); a
//     stale hash, a tool refusing overrides, an unknown tool or a
//     description that is not 1-200 ASCII characters is refused. The copy
//     keeps the Spec otherwise and dispatches through the original tool's functions.
package prompt
