package eval

import (
	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/wink"
)

// Guidance is the markdown body of the suite's section.
const Guidance = `You can run small programs with eval, in Starlark (a Python dialect without imports, classes or
exceptions). print() output and a top-level variable named result come back to you. The workspace is reachable
only through read_file(path) and write_file(path, content) (which creates new files only). Programs are
deterministic and bounded in steps, memory, time (one operation over huge values can take long: == or sorted
over nested lists built by [x] * n walk every element) and the bytes they read and write; a program that fails
has everything it wrote undone.`

// Section returns the suite as a prompt section: key "eval", the guidance and the eval tool.
func Section() (*prompt.Section, error) {
	return prompt.NewSection(prompt.SectionSpec{
		Key:      "eval",
		Title:    "Evaluator",
		Template: Guidance,
		Tools:    []*wink.Tool{WinkEval},
	})
}
