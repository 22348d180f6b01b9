package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/gen/schema"
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
	ParamsSchema []byte
	StrictSchema []byte // the OpenAI strict-mode variant (maps as key/value pairs)
	StrictOK     bool
	GeminiSchema []byte // the Gemini function declaration form of ParamsSchema
	ResultSchema []byte // nil when the tool returns wink.NoValue
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
			info := ToolInfo{Package: mp.Path, Name: t.Name, Description: t.Description, StrictOK: true}
			pos := t.Pos.File
			if rel, err := filepath.Rel(cfg.Dir, pos); err == nil && !strings.HasPrefix(rel, "..") {
				pos = rel
			}
			info.Position = fmt.Sprintf("%s:%d:%d", filepath.ToSlash(pos), t.Pos.Line, t.Pos.Col)
			if t.Params == nil {
				info.ParamsSchema, info.StrictSchema = schema.Empty(), schema.Empty()
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
				if info.StrictSchema, info.StrictOK, err = schema.Strict(t.Params); err != nil {
					return nil, nil, err
				}
			}
			if info.GeminiSchema, err = schema.Gemini(info.ParamsSchema); err != nil {
				return nil, nil, err
			}
			if t.Result != nil {
				if info.ResultSchema, err = schema.Plain(t.Result); err != nil {
					return nil, nil, err
				}
			}
			info.Idempotency = idemSummary(t.Idempotency)
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

// Payload renders the tools as the request payload a provider receives: "openai" (chat completions
// function tools, strict when possible), "anthropic" (messages tools) or "mcp" (tools/list entries). The
// schemas are embedded verbatim.
func Payload(tools []ToolInfo, format string) ([]byte, error) {
	var items []any
	for _, t := range tools {
		switch format {
		case "openai":
			params, strict := t.StrictSchema, true
			if !t.StrictOK {
				params, strict = t.ParamsSchema, false
			}
			items = append(items, map[string]any{"type": "function", "function": ordered{
				{"name", t.Name}, {"description", t.Description}, {"parameters", json.RawMessage(params)}, {"strict", strict}}})
		case "anthropic":
			items = append(items, ordered{{"name", t.Name}, {"description", t.Description}, {"input_schema", json.RawMessage(t.ParamsSchema)}})
		case "gemini":
			items = append(items, ordered{{"name", t.Name}, {"description", t.Description}, {"parameters", json.RawMessage(t.GeminiSchema)}})
		case "mcp":
			o := ordered{{"name", t.Name}, {"description", t.Description}, {"inputSchema", json.RawMessage(t.ParamsSchema)}}
			if t.ResultSchema != nil {
				// MCP 2026-07-28 takes any JSON Schema as outputSchema; a NoValue result has none.
				o = append(o, struct {
					k string
					v any
				}{"outputSchema", json.RawMessage(t.ResultSchema)})
			}
			items = append(items, o)
		default:
			return nil, fmt.Errorf("unknown format %q; use openai, anthropic, gemini or mcp", format)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if items == nil {
		items = []any{}
	}
	if err := enc.Encode(items); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ordered is a JSON object that keeps its keys in order.
type ordered []struct {
	k string
	v any
}

// MarshalJSON writes the object's keys in order.
func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.k)
		b.Write(k)
		b.WriteByte(':')
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(kv.v); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
