package gen

import (
	"encoding/json"
	"time"

	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// MCPTools renders the tools as the tools array a runtime/mcpserver server made by mcpserver.New
// without options sends in its tools/list result at protocol revision revision ("" is the newest of
// mcpserver.Revisions): name, title, description (with the examples), inputSchema (with the examples
// and any x-mcp-header), outputSchema (the {"result": ...} envelope from 2025-06-18 on, none before),
// annotations (all four hints) and _meta (the examples). It calls mcpserver.ListedTools, the code the
// server lists with, on tools built from the source. The output is followed by a newline.
func MCPTools(tools []ToolInfo, revision string) ([]byte, error) {
	ts := make([]*wink.Tool, 0, len(tools))
	for _, t := range tools {
		ts = append(ts, wink.NewTool(t.Spec, &inspectFuncs))
	}
	reg, err := wink.NewRegistry(ts)
	if err != nil {
		return nil, err
	}
	listed, err := mcpserver.ListedTools(reg, revision)
	if err != nil {
		return nil, err
	}
	if listed == nil {
		return []byte("[]\n"), nil
	}
	out, err := json.Marshal(listed)
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// inspectSpec is the wink.Spec the generated code states for t (see emitter's spec), from the source.
func inspectSpec(t *model.Tool, info ToolInfo) wink.Spec {
	sp := wink.Spec{Name: t.Name, Description: t.Description, ParamsSchema: info.ParamsSchema,
		ResultSchema: info.ResultSchema, AcceptsOverrides: t.Overrides, ReadOnly: t.ReadOnly, Title: t.Title,
		Scopes: t.Scopes, Deferred: t.Defer}
	hint := func(b *bool) wink.Hint {
		switch {
		case b == nil:
			return wink.HintUnset
		case *b:
			return wink.HintYes
		}
		return wink.HintNo
	}
	sp.Destructive, sp.OpenWorld = hint(t.Destructive), hint(t.OpenWorld)
	switch t.Task {
	case "optional":
		sp.Task = wink.TaskOptional
	case "required":
		sp.Task = wink.TaskRequired
	}
	for _, h := range t.Headers {
		sp.Headers = append(sp.Headers, wink.ParamHeader{Param: h.Param, Header: h.Header})
	}
	for _, ex := range t.Examples {
		e := wink.Example{Description: ex.Description, Input: []byte(ex.Input)}
		if ex.Output != "" {
			e.Output = []byte(ex.Output)
		}
		sp.Examples = append(sp.Examples, e)
	}
	if id := t.Idempotency; id != nil {
		strat := map[string]wink.IdemStrategy{"auto": wink.IdemAuto, "params": wink.IdemParams, "custom": wink.IdemCustom, "none": wink.IdemNone}[id.Strategy]
		sp.Idempotency = wink.Idempotency{Strategy: strat, Scope: id.Scope, Keys: id.Keys, TTL: time.Duration(id.TTLNanos)}
	}
	return sp
}
