package agent

import (
	_ "embed"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/digest"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/suites/planning"
	"github.com/winkgen/wink/runtime/suites/sandbox"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// Transcript is the scripted model's side of the demo run (runtime/providers/scripted format).
//
//go:embed transcript.txt
var Transcript []byte

// TranscriptName is the name Transcript is reported under.
const TranscriptName = "example/agent/transcript.txt"

// Task is the user's request the demo run starts from.
const Task = "The guide still has a TODO about snapshots. Fix it, publish the guide and the policies page, " +
	"and schedule a review of the published docs for 1 December 2026 at 10:00 UTC."

// Documents are the workspace's files at the start of a run.
var Documents = map[string]string{
	"docs/guide.md": "# Guide\n\nAgents call tools; winkgen checks every argument before a handler runs.\n\n" +
		"## Snapshots\n\nTODO: explain snapshots.\n",
	"docs/policies.md": "# Policies\n\nRead a file before you change it.\n",
}

const role = `
	You maintain the project's documentation in the workspace. Plan the work with the planning tools,
	get an overview with workspace_digest, find facts with search_docs, change files with the file tools
	(read a file before editing it), check things with eval or shell, and publish with publish_docs. When
	a tool reports an error, fix the arguments or the cause and try again. Finish with a short summary of
	what changed.`

// Agent is one run's wiring: the prompt rendered, its workspace and session, and the dispatcher the loop
// uses.
type Agent struct {
	// Rendered is the prompt as the model sees it (Text is the system prompt, Tools the tools offered).
	Rendered *prompt.Rendered
	// Workspace is the host directory (a temporary one) the file tools, the shell, eval and publish_docs
	// work on; Close removes it.
	Workspace *vfs.Host
	// Session holds the plan, the policies' state and the tool log.
	Session *session.Session
	// Dispatcher runs the calls: the prompt's tools and policies, the workspace, the session, an
	// idempotency ledger and a token budget.
	Dispatcher *wink.Dispatcher
}

// New wires a fresh agent: a new workspace (a temporary directory) holding Documents, a new session, a new
// ledger and a budget of maxTokens total tokens (0: unlimited). The shell needs bubblewrap: without it New
// fails, saying how to install it. Close the agent to remove the workspace.
func New(maxTokens int64) (*Agent, error) {
	shellSec, err := sandbox.Section()
	if err != nil {
		return nil, err
	}
	if len(shellSec.Tools()) == 0 {
		return nil, errors.New("the demo's shell needs bubblewrap, which cannot run here: install it " +
			"(apt-get install bubblewrap) and run the demo again")
	}
	evalSec, err := eval.Section()
	if err != nil {
		return nil, err
	}
	digestSec, err := digest.Section()
	if err != nil {
		return nil, err
	}
	planSec, err := planning.Section(planning.ReAct)
	if err != nil {
		return nil, err
	}
	fileSec, err := files.Section()
	if err != nil {
		return nil, err
	}
	docSec, err := prompt.NewSection(prompt.SectionSpec{
		Key:      "docs",
		Title:    "Documentation tools",
		Template: "Search the documentation index, schedule follow-ups, and publish pages from the workspace.",
		Tools:    append(tools.WinkTools(), WinkTools()...),
	})
	if err != nil {
		return nil, err
	}
	roleSec, err := prompt.NewSection(prompt.SectionSpec{Key: "role", Title: "Role", Template: role})
	if err != nil {
		return nil, err
	}
	prompt, err := prompt.New("docs-maintainer", roleSec, planSec, digestSec, fileSec, shellSec, evalSec, docSec)
	if err != nil {
		return nil, err
	}
	r, err := prompt.Render(nil)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "wink-demo-")
	if err != nil {
		return nil, err
	}
	ws, err := vfs.NewHost(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	for _, p := range slices.Sorted(maps.Keys(Documents)) {
		if err := ws.MkdirAll(filepath.Dir(p)); err != nil {
			return nil, err
		}
		if err := ws.Write(p, []byte(Documents[p])); err != nil {
			return nil, err
		}
	}
	sess := session.New(session.WithID("demo"))
	d := r.Dispatcher(wink.Dispatcher{
		Session:    sess,
		Filesystem: ws,
		Ledger:     ledger.NewMemory(),
		Budget:     wink.NewBudget(wink.BudgetLimits{MaxTotalTokens: maxTokens}),
		RunContext: wink.RunContext{RunID: "demo", Attempt: 1},
	})
	return &Agent{Rendered: r, Workspace: ws, Session: sess, Dispatcher: d}, nil
}

// Close removes the agent's workspace.
func (a *Agent) Close() error {
	err := a.Workspace.Close()
	return errors.Join(err, os.RemoveAll(a.Workspace.Root()))
}
