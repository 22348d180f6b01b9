package codemode

import (
	_ "embed"
	"strings"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/wink"
)

// Task is the user's question: a dozen lookups, each depending on the one before.
const Task = "Follow the route from Lisbon for twelve legs: where does it end, how long is it in all, and which leg is the longest?"

// ProgramTranscript is the scripted model answering with one program (runtime/providers/scripted
// format); CallsTranscript the same task done one tool call per turn.
var (
	//go:embed program.txt
	ProgramTranscript []byte
	//go:embed calls.txt
	CallsTranscript []byte
)

// Transcript names, for the scripted provider's messages.
const (
	ProgramTranscriptName = "example/codemode/program.txt"
	CallsTranscriptName   = "example/codemode/calls.txt"
)

// Registry holds route_leg and the program tool (eval.Program).
func Registry() *wink.Registry { return wink.MustRegistry([]*wink.Tool{WinkRouteLeg, eval.Program}) }

// System is the system prompt of each mode: the program mode's carries the program guide (the
// generated signatures of the tools programs may call).
func System(program bool) string {
	s := "You answer questions about the route with its tools."
	if program {
		s += "\n\n" + eval.ProgramGuide(eval.CallableTools(Registry()))
	}
	return s
}

// Config is the loop configuration of a mode over d: by program, the model is offered run_program
// alone and reads the guide; call by call, it is offered route_leg.
func Config(p loop.Provider, d *wink.Dispatcher, program bool) loop.Config {
	tools := []*wink.Tool{WinkRouteLeg}
	if program {
		tools = []*wink.Tool{eval.Program}
	}
	return loop.Config{Provider: p, Dispatcher: d, System: System(program), Tools: tools}
}

// DefinitionBytes is what the tool definitions of a request weigh: each tool's name, description and
// params schema, and the program guide where the system prompt carries one (it describes tools too).
func DefinitionBytes(req loop.Request) int {
	n := 0
	for _, t := range req.Tools {
		n += len(t.Name()) + len(t.Description()) + len(t.Spec().ParamsSchema)
	}
	if i := indexGuide(req.System); i >= 0 {
		n += len(req.System) - i
	}
	return n
}

func indexGuide(s string) int { return strings.Index(s, "You can run a Starlark program") }
