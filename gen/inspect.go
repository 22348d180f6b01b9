package gen

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/gen/schema"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/gemini"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/wink"
)

// ToolInfo is what `winkgen list` and `winkgen schema` show of one tool, computed from the source alone
// (no generated code needed).
type ToolInfo struct {
	Package      string
	Name         string
	Description  string
	Position     string // relative to the working directory when under it
	Params       []string
	Idempotency  string // "" when not idempotent
	ParamsSchema []byte // the plain schema; each adapter derives its dialect's form from it
	ResultSchema []byte // nil when the tool returns wink.NoValue
	// Spec is the tool's wink.Spec as the generated code states it, without what needs the generated
	// code (Signature, Rate, Callers, Position); what MCPTools lists is read from it.
	Spec wink.Spec
}

// Inspect analyzes the packages of cfg and describes their tools in package, then source, order.
func Inspect(cfg Config) ([]ToolInfo, []Diagnostic, error) {
	models, ds, err := Analyze(cfg)
	if err != nil || len(ds) > 0 {
		return nil, ds, err
	}
	var out []ToolInfo
	for _, mp := range models {
		for _, t := range mp.Tools {
			info := ToolInfo{Package: mp.Path, Name: t.Name, Description: t.Description}
			pos := t.Pos.File
			if rel, err := filepath.Rel(cfg.Dir, pos); err == nil && !strings.HasPrefix(rel, "..") {
				pos = rel
			}
			info.Position = fmt.Sprintf("%s:%d:%d", filepath.ToSlash(pos), t.Pos.Line, t.Pos.Col)
			if t.Params == nil {
				info.ParamsSchema = schema.Empty()
			} else {
				for _, f := range t.Params.Fields {
					s := f.JSONName
					if !f.Required {
						s += "?"
					}
					info.Params = append(info.Params, s)
				}
				if info.ParamsSchema, err = schema.Plain(t.Params); err != nil {
					return nil, nil, err
				}
			}
			if t.Result != nil {
				if info.ResultSchema, err = schema.Plain(t.Result); err != nil {
					return nil, nil, err
				}
			}
			info.Idempotency = idemSummary(t.Idempotency)
			info.Spec = inspectSpec(t, info)
			out = append(out, info)
		}
	}
	return out, nil, nil
}

func idemSummary(id *model.Idempotency) string {
	if id == nil || id.Strategy == "none" {
		return ""
	}
	s := id.Strategy
	switch id.Strategy {
	case "params":
		s += "(" + strings.Join(id.Keys, ",") + ")"
	case "custom":
		s += "(" + id.Func.Name + ")"
	}
	if id.TTLNanos > 0 {
		s += " ttl=" + time.Duration(id.TTLNanos).String()
	}
	return s + " scope=" + id.Scope
}

// Formats are the payload formats of Payload, one per dialect an adapter sends.
var Formats = []string{"openai", "openai-responses", "anthropic", "anthropic-strict", "gemini", "mcp"}

// Payload renders the tools as the request payload a provider receives, byte for byte what the runtime
// adapter writes for the same tools (the adapters are called on tools built from the source), except mcp:
//
//	openai            openai.ChatTools (chat completions; strict mode, the strict form derived from the plain schema)
//	openai-responses  openai.ResponsesTools (Responses API)
//	anthropic         anthropic.Tools (the plain schema)
//	anthropic-strict  anthropic.StrictTools (strict tool use where the params allow it)
//	gemini            gemini.FunctionDeclarations (Gemini's OpenAPI subset; no "parameters" without params)
//	mcp               the tools array of a runtime/mcpserver server's tools/list result at the newest
//	                  protocol revision (MCPTools; mcpserver.ListedTools builds it), as JSON
//
// The output is followed by a newline.
func Payload(tools []ToolInfo, format string) ([]byte, error) {
	ts := inspectTools(tools)
	var out []byte
	var err error
	switch format {
	case "openai":
		out, err = openai.ChatTools(ts)
	case "openai-responses":
		out, err = openai.ResponsesTools(ts)
	case "anthropic":
		out, err = anthropic.Tools(ts)
	case "anthropic-strict":
		out, _, err = anthropic.StrictTools(ts)
	case "gemini":
		out, err = gemini.FunctionDeclarations(ts)
	case "mcp":
		return MCPTools(tools, "")
	default:
		return nil, fmt.Errorf("unknown format %q; use %s", format, strings.Join(Formats, ", "))
	}
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// Notices are what the developer should know about a payload that Payload does not show: for
// anthropic-strict, each tool sent without strict and why (anthropic.WhyNotStrict), in the tools' order.
func Notices(tools []ToolInfo, format string) []string {
	if format != "anthropic-strict" {
		return nil
	}
	ts := inspectTools(tools)
	_, fellBack, err := anthropic.StrictTools(ts)
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(fellBack))
	for _, name := range fellBack {
		out = append(out, "tool "+strconv.Quote(name)+" is sent without strict: "+anthropic.WhyNotStrict(ts, name))
	}
	return out
}

// inspectTools builds tools from the source's specs for the adapters, which only read the Specs.
func inspectTools(tools []ToolInfo) []*wink.Tool {
	ts := make([]*wink.Tool, 0, len(tools))
	for _, t := range tools {
		ts = append(ts, wink.NewTool(wink.Spec{Name: t.Name, Description: t.Description, ParamsSchema: t.ParamsSchema,
			ResultSchema: t.ResultSchema}, &inspectFuncs))
	}
	return ts
}

// inspectFuncs are the functions of the tools Payload builds: never called, as the adapters only read
// the tools' Specs.
var inspectFuncs = wink.Funcs[wink.NoParams, wink.NoValue]{
	Decode:       wink.DecodeNoParams,
	EncodeResult: wink.EncodeNoValue,
	Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
		return wink.ToolResult[wink.NoValue]{}, nil
	},
}
