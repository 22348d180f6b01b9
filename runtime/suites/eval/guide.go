package eval

import (
	"strings"

	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/wink"
)

// ProgramGuidance is the start of the program section's body; ProgramGuide adds the tools.
const ProgramGuidance = `You can run a Starlark program (a Python dialect without imports, classes or exceptions) with run_program
when a task needs many tool calls: loop, filter and combine their results in the program, and print or
return (a top-level variable named result) only what you need. Each tool below is a function taking keyword
arguments; it returns the tool's result as dicts, lists, strings and numbers. A call that fails stops the
program with the tool's error text, unless you make it through attempt(tool, name=value, ...), which returns
a struct with ok, value and error. Every call goes through the same checks as a direct call; a call that
needs a person's approval pauses the program until it is given. The calls a program made stand even when it
fails later.`

// ProgramGuide returns what the model reads about the tools a program may call: ProgramGuidance, then
// one generated signature per tool (wink.Spec.Signature, derived from the schemas by winkgen).
func ProgramGuide(tools []*wink.Tool) string {
	var b strings.Builder
	b.WriteString(ProgramGuidance)
	b.WriteString("\n\nTools callable in programs:\n")
	for _, t := range tools {
		sig := t.Spec().Signature
		if sig == "" {
			sig = t.Name() + "(...)  # " + t.Description()
		}
		b.WriteString("- ")
		b.WriteString(sig)
		b.WriteByte('\n')
	}
	return b.String()
}

// ProgramSection returns the program tool as a prompt section over the tools of reg that programs may
// call: key "programs", the guide (ProgramGuide) and the run_program tool (Program).
func ProgramSection(reg *wink.Registry) (*prompt.Section, error) {
	return prompt.NewSection(prompt.SectionSpec{
		Key:      "programs",
		Title:    "Programs",
		Template: ProgramGuide(CallableTools(reg)),
		Tools:    []*wink.Tool{Program},
	})
}
