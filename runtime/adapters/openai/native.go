package openai

import (
	"errors"
	"strings"

	"github.com/winkgen/wink/runtime/adapters/internal/toolset"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// The tool search choices of ResponsesOptions.Search.
const (
	// SearchClient offers the client-side search (package toolsearch) as {"type":"tool_search",
	// "execution":"client",...}: its calls arrive as tool_search_call items and are answered by
	// ToolSearchOutput.
	SearchClient = "client"
	// SearchHosted adds the hosted search, {"type":"tool_search"}, run by OpenAI over the deferred tools.
	SearchHosted = "hosted"
)

// ResponsesOptions says what a Responses API tools array carries besides each function.
type ResponsesOptions struct {
	// Deferred are functions the model finds with a tool search: sent after the others, each with
	// "defer_loading":true.
	Deferred []*wink.Tool
	// Search adds a tool search: SearchClient or SearchHosted; "" for none.
	Search string
	// Programs adds {"type":"programmatic_tool_calling"} and sends each function's "allowed_callers"
	// from its declaration: "direct", and "programmatic" for a tool programs may call (by default
	// read-only or idempotent tools not declared destructive).
	Programs bool
	// OutputSchema sends each function's result schema (wink.Spec.ResultSchema, the generated one) as
	// "output_schema" when its output is that JSON (HasOutputSchema): tools without a value (wink.NoValue)
	// and tools whose value has a Render method (the model reads the rendering, not JSON) have none. Answer
	// such a function's calls with SchemaOutput, whose text is the value the schema describes.
	OutputSchema bool
}

// ResponsesToolsWith returns the tools array of a Responses API request with what o asks for:
//
//	{"type":"function","name":N,"description":D,"parameters":S,"strict":B[,"defer_loading":true]
//	 [,"allowed_callers":["direct","programmatic"]][,"output_schema":R]}
//
// for tools, then for o.Deferred, then {"type":"tool_search","execution":"client","description":...,
// "parameters":toolsearch.ParamsSchema} or {"type":"tool_search"}, then
// {"type":"programmatic_tool_calling"}. The errors are ResponsesTools'.
func ResponsesToolsWith(tools []*wink.Tool, o ResponsesOptions) ([]byte, error) {
	return responsesToolsWith(tools, o, true)
}

// responsesToolsWith writes the functions, and the server tools too with server.
func responsesToolsWith(tools []*wink.Tool, o ResponsesOptions, server bool) ([]byte, error) {
	all := append(append(make([]*wink.Tool, 0, len(tools)+len(o.Deferred)), tools...), o.Deferred...)
	deferred := map[string]bool{}
	for _, t := range o.Deferred {
		if t != nil {
			deferred[t.Name()] = true
		}
	}
	renders := map[string]bool{} // the tools whose output is not their value's JSON
	if o.OutputSchema {
		for _, t := range all {
			if t != nil && !t.ValueIsOutput() {
				renders[t.Name()] = true
			}
		}
	}
	write := toolset.Write // the model is offered only what it may call itself
	if o.Programs {
		write = toolset.WritePrograms // and, with the programs' callers, what only programs may call
	}
	b, err := write(&responsesFormat, all, func(s *wink.Spec) ([]byte, string) {
		schema, extra := entry(s)
		var x strings.Builder
		x.WriteString(extra)
		if deferred[s.Name] {
			x.WriteString(`,"defer_loading":true`)
		}
		if o.Programs {
			direct, program := toolset.Callable(s)
			x.WriteString(`,"allowed_callers":[`)
			if direct {
				x.WriteString(`"direct"`)
			}
			if program {
				if direct {
					x.WriteByte(',')
				}
				x.WriteString(`"programmatic"`)
			}
			x.WriteByte(']')
		}
		if o.OutputSchema && hasValue(s) && !renders[s.Name] {
			x.WriteString(`,"output_schema":`)
			x.Write(s.ResultSchema)
		}
		return schema, x.String()
	})
	if err != nil {
		return nil, err
	}
	if !server {
		return b, nil
	}
	var more []string
	switch o.Search {
	case "":
	case SearchClient:
		s := append([]byte(`{"type":"tool_search","execution":"client","description":`), strictjson.AppendString(nil, toolsearch.Description)...)
		s = append(s, `,"parameters":`...)
		s = append(s, toolsearch.ParamsSchema...)
		more = append(more, string(append(s, '}')))
	case SearchHosted:
		more = append(more, `{"type":"tool_search"}`)
	default:
		return nil, errors.New("openai: unknown tool search " + o.Search + "; use client or hosted")
	}
	if o.Programs {
		more = append(more, `{"type":"programmatic_tool_calling"}`)
	}
	if len(more) == 0 {
		return b, nil
	}
	b = b[:len(b)-1]
	for _, m := range more {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(b, m...)
	}
	return append(b, ']'), nil
}

// hasValue reports whether a tool's result has a value (its schema is not the no-value {"type":"null"}).
// HasOutputSchema reports whether ResponsesToolsWith sends t's "output_schema" (with OutputSchema): t
// returns a value (not wink.NoValue) whose JSON encoding is what the model reads (no Render method).
func HasOutputSchema(t *wink.Tool) bool { return t != nil && hasValue(t.Spec()) && t.ValueIsOutput() }

// SchemaOutput returns out as a call of t is answered when t's output_schema was sent (HasOutputSchema
// and ResponsesOptions.OutputSchema): a success whose output carries the value is answered with the
// value's JSON alone, the text the schema describes, without the message before it (a program parses
// the output by the schema; the message is still in out.Message for the transcript). Every other
// outcome is returned as it is: a failure's text (what went wrong and how to fix the call, never a value),
// a success whose value the tool kept out of the context (wink.ToolResult.ExcludeValueFromContext: its
// message alone), and any outcome of a tool without an output schema.
func SchemaOutput(t *wink.Tool, out wink.Outcome) wink.Outcome {
	if !out.Success || !HasOutputSchema(t) || out.Output == out.Message {
		return out
	}
	if out.Message != "" {
		if p := out.Message + "\n\n"; len(out.Output) > len(p) && out.Output[:len(p)] == p {
			out.Output = out.Output[len(p):]
		}
	}
	return out
}

func hasValue(s *wink.Spec) bool {
	r := strings.TrimSpace(string(s.ResultSchema))
	return r != "" && r != `{"type":"null"}`
}

// ToolSearchCall returns the input item that replays a client tool search call (c.ID is its call_id,
// c.Arguments its arguments object):
//
//	{"type":"tool_search_call","call_id":ID,"execution":"client","status":"completed","arguments":{...}}
func ToolSearchCall(c wink.Call) []byte {
	b := append(make([]byte, 0, 96+len(c.ID)+len(c.Arguments)), `{"type":"tool_search_call","call_id":`...)
	b = strictjson.AppendString(b, c.ID)
	b = append(b, `,"execution":"client","status":"completed","arguments":`...)
	if toolset.FirstByte(c.Arguments) == '{' {
		b = append(b, c.Arguments...)
	} else {
		b = append(b, "{}"...)
	}
	return append(b, '}')
}

// ToolSearchOutput returns the input item answering the client tool search callID with the definitions
// of the tools found, written as ResponsesToolsWith writes them (o says how; found tools are not
// deferred there):
//
//	{"type":"tool_search_output","call_id":ID,"execution":"client","status":"completed","tools":[...]}
func ToolSearchOutput(callID string, found []*wink.Tool, o ResponsesOptions) ([]byte, error) {
	o.Deferred = nil
	tools, err := responsesToolsWith(found, o, false)
	if err != nil {
		return nil, err
	}
	b := append(make([]byte, 0, 128+len(callID)+len(tools)), `{"type":"tool_search_output","call_id":`...)
	b = strictjson.AppendString(b, callID)
	b = append(b, `,"execution":"client","status":"completed","tools":`...)
	b = append(b, tools...)
	return append(b, '}'), nil
}
