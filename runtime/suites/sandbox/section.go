package sandbox

import (
	"strconv"

	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/wink"
)

// Guidance is the markdown body of the suite's section when the shell is available.
const Guidance = `You can run commands with shell, in a sandbox over the workspace: the workspace (at /workspace,
the working directory) is the only place you can write; the system is read-only; there is no network.
Pass the program and its arguments separately; for pipes or redirections call sh with -c.
A command that exits with a non-zero status fails and everything it wrote is undone; set allow_failure
when such a status is expected (a failing test you want to read). Long output is cut: redirect it to a
file and read it with read_file.`

// Section returns the suite as a prompt section (key "sandbox") with the shell tool when bubblewrap can
// create a sandbox with cfg (the zero Config: DefaultConfig); otherwise the section says why the shell is
// unavailable and offers no tool.
func Section(cfg ...Config) (*prompt.Section, error) {
	c := Config{}
	if len(cfg) > 0 {
		c = cfg[0]
	}
	c = c.withDefaults()
	if _, reason := available(c); reason != "" {
		return prompt.NewSection(prompt.SectionSpec{
			Key:      "sandbox",
			Title:    "Shell",
			Template: "The shell is not available: " + reason + ". Do not try to run commands.",
		})
	}
	return prompt.NewSection(prompt.SectionSpec{
		Key:      "sandbox",
		Title:    "Shell",
		Template: Guidance + "\n" + limitsNote(c),
		Tools:    []*wink.Tool{WinkShell},
	})
}

// limitsNote tells the model what one command may add to the workspace.
func limitsNote(c Config) string {
	return "One command may add at most " + strconv.FormatInt(c.MaxWorkspaceBytes, 10) + " bytes of file data and " +
		strconv.FormatInt(c.MaxWorkspaceEntries, 10) + " files and directories to the workspace; past that it is stopped " +
		"and undone (scratch files belong in /tmp). Setuid/setgid bits, file capabilities, fifos, sockets and device " +
		"nodes are removed from what a command leaves."
}
