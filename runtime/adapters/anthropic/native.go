package anthropic

import (
	"errors"
	"strings"

	"github.com/winkgen/wink/runtime/adapters/internal/toolset"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// The tool search choices of Options.Search.
const (
	// SearchClient offers the client-side search (package toolsearch) as a custom tool: its calls are
	// answered with tool_reference blocks (ToolReferences).
	SearchClient = "client"
	// SearchBM25 and SearchRegex add Anthropic's server tool search of that kind.
	SearchBM25  = "bm25"
	SearchRegex = "regex"
)

// The server tools Options adds, as the Messages API names them.
const (
	// CodeExecutionType is the code execution tool's type: the version whose programs call the client's
	// tools (allowed_callers) and that callers name.
	CodeExecutionType = "code_execution_20250825"
	bm25Tool          = `{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}`
	regexTool         = `{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"}`
	codeExecutionTool = `{"type":"` + CodeExecutionType + `","name":"code_execution"}`
)

// Options says what a tools array carries besides each tool's name, description and schema.
type Options struct {
	// Deferred are tools the model finds with a tool search: sent after the others, each with
	// "defer_loading":true.
	Deferred []*wink.Tool
	// Search adds a tool search: SearchClient, SearchBM25 or SearchRegex; "" for none.
	Search string
	// Examples sends each tool's validated examples (wink.Spec.Examples) as "input_examples", the
	// examples' canonical inputs in declaration order.
	Examples bool
	// CodeExecution adds the code execution tool and sends each tool's "allowed_callers" from its
	// declaration: "direct" when the model may call it directly, CodeExecutionType when a program may.
	CodeExecution bool
	// Strict sends strict schemas where StrictTools would.
	Strict bool
}

// ToolsWith returns the tools array of a request with what o asks for:
//
//	{"name":N,"description":D,"input_schema":S[,"strict":true][,"defer_loading":true]
//	 [,"allowed_callers":["direct","code_execution_20250825"]][,"input_examples":[{...},...]]}
//
// for tools, then for o.Deferred, then the server tools asked for: {"name":"tool_search",...} (the
// client search, toolsearch.ParamsSchema), {"type":"tool_search_tool_bm25_20251119",
// "name":"tool_search_tool_bm25"} or the regex twin, {"type":"code_execution_20250825",
// "name":"code_execution"}. The errors are Tools'; a tool named like the client search is one of them.
func ToolsWith(tools []*wink.Tool, o Options) ([]byte, error) {
	all := append(append(make([]*wink.Tool, 0, len(tools)+len(o.Deferred)), tools...), o.Deferred...)
	deferred := map[*wink.Tool]bool{}
	for _, t := range o.Deferred {
		deferred[t] = true
	}
	var strict, optional, unions int
	byName := map[string]*wink.Tool{}
	for _, t := range all {
		if t != nil {
			byName[t.Name()] = t
		}
	}
	f := &toolFormat
	if o.Strict {
		f = &strictFormat
	}
	write := toolset.Write // the model is offered only what it may call itself
	if o.CodeExecution {
		write = toolset.WritePrograms // and, with the programs' callers, what only programs may call
	}
	b, err := write(f, all, func(s *wink.Spec) ([]byte, string) {
		schema, extra := s.ParamsSchema, ""
		if o.Strict {
			if st := strictSchema(s.ParamsSchema); st != nil {
				ob, u := countStrict(st)
				if strict+1 <= MaxStrictTools && optional+ob <= MaxStrictOptional && unions+u <= MaxStrictUnions {
					strict, optional, unions = strict+1, optional+ob, unions+u
					schema, extra = st, `,"strict":true`
				}
			}
		}
		var x strings.Builder
		x.WriteString(extra)
		if deferred[byName[s.Name]] {
			x.WriteString(`,"defer_loading":true`)
		}
		if o.CodeExecution {
			direct, program := toolset.Callable(s)
			x.WriteString(`,"allowed_callers":[`)
			if direct {
				x.WriteString(`"direct"`)
			}
			if program {
				if direct {
					x.WriteByte(',')
				}
				x.WriteString(`"` + CodeExecutionType + `"`)
			}
			x.WriteByte(']')
		}
		if o.Examples && len(s.Examples) > 0 {
			x.WriteString(`,"input_examples":[`)
			for i, ex := range s.Examples {
				if i > 0 {
					x.WriteByte(',')
				}
				x.Write(ex.Input)
			}
			x.WriteByte(']')
		}
		return schema, x.String()
	})
	if err != nil {
		return nil, err
	}
	var server []string
	switch o.Search {
	case "":
	case SearchClient:
		if _, clash := byName[toolsearch.Name]; clash {
			return nil, errors.New("anthropic: a tool is named " + toolsearch.Name + ", the client tool search's name")
		}
		s := append([]byte(`{"name":`), strictjson.AppendString(nil, toolsearch.Name)...)
		s = append(s, `,"description":`...)
		s = strictjson.AppendString(s, toolsearch.Description)
		s = append(s, `,"input_schema":`...)
		s = append(s, toolsearch.ParamsSchema...)
		server = append(server, string(append(s, '}')))
	case SearchBM25:
		server = append(server, bm25Tool)
	case SearchRegex:
		server = append(server, regexTool)
	default:
		return nil, errors.New("anthropic: unknown tool search " + o.Search + "; use client, bm25 or regex")
	}
	if o.CodeExecution {
		server = append(server, codeExecutionTool)
	}
	if len(server) == 0 {
		return b, nil
	}
	b = b[:len(b)-1] // the closing ']'
	for _, s := range server {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(b, s...)
	}
	return append(b, ']'), nil
}

// ToolReferences returns the tool_result block answering a client tool search (the call toolUseID):
// one {"type":"tool_reference","tool_name":N} block per name found, best first, which makes the API load
// those deferred tools; when nothing was found (or the search failed), the outcome's text instead, so
// the model reads why.
//
//	{"type":"tool_result","tool_use_id":ID,"content":[{"type":"tool_reference","tool_name":N},...]}
func ToolReferences(toolUseID string, found []string, out wink.Outcome) []byte {
	if len(found) == 0 || !out.Success {
		return ToolResult(toolUseID, out)
	}
	b := append(make([]byte, 0, 64+len(toolUseID)+48*len(found)), `{"type":"tool_result","tool_use_id":`...)
	b = strictjson.AppendString(b, toolUseID)
	b = append(b, `,"content":[`...)
	for i, n := range found {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"tool_reference","tool_name":`...)
		b = strictjson.AppendString(b, n)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}
