package digest

import (
	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/wink"
)

// Guidance is the markdown body of the suite's section; ${workspace_digest} is the current digest (Vars).
const Guidance = `The workspace digest below summarises the workspace. Call workspace_digest with a directory path to
see that directory's contents with their sizes, one directory at a time, instead of listing the whole tree;
call it without a path after large changes to recompute the summary.

${workspace_digest}`

// Section returns the suite as a prompt section: key "digest", the guidance with the current digest (give
// Vars(session, vars) to the render) and the workspace_digest tool.
func Section() (*prompt.Section, error) {
	return prompt.NewSection(prompt.SectionSpec{
		Key:      "digest",
		Title:    "Workspace digest",
		Template: Guidance,
		Params:   []prompt.Param{{Name: "workspace_digest", Default: "No digest yet: call workspace_digest to make one."}},
		Tools:    []*wink.Tool{WinkWorkspaceDigest},
	})
}
