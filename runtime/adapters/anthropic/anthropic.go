package anthropic

import (
	"encoding/json"
	"errors"

	"github.com/winkgen/wink/runtime/adapters/internal/toolset"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

func plainSchema(s *wink.Spec) []byte { return s.ParamsSchema }

// toolFormat is a Messages API tool entry; strictFormat the same sized for strict schemas (StrictTools).
var (
	toolFormat = toolset.Format{Pkg: "anthropic", Open: `{"name":`, SchemaKey: `,"input_schema":`, Close: "}",
		PerEntry: 48, Checked: plainSchema, Usable: keysUsable}
	strictFormat = toolset.Format{Pkg: "anthropic", Open: `{"name":`, SchemaKey: `,"input_schema":`, Close: "}",
		PerEntry: 64, Checked: plainSchema, Sized: strictOrPlain, Usable: keysUsable}
)

// Tools returns the `tools` array of a Messages API request, one entry per tool in order:
//
//	{"name":N,"description":D,"input_schema":S}
//
// where S is the tool's plain ParamsSchema, embedded byte for byte. The error reports (all at once) nil
// tools, duplicate names, schemas that are not JSON objects and top-level property keys the API refuses
// (KeyOK).
func Tools(tools []*wink.Tool) ([]byte, error) {
	return toolset.Write(&toolFormat, tools, func(s *wink.Spec) ([]byte, string) { return s.ParamsSchema, "" })
}

// block is the part of a content block that a tool_use needs. Its Go type name appears in
// encoding/json's type errors, which the reader returns as they are.
type block struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// The containers the reader descends into (toolset.Unmarshal's UTF-8 check names the place of a fault
// as the strict reader walking them would): the content array, or the message holding it.
var (
	blocksShape  = toolset.Array(toolset.Object())
	messageShape = toolset.Object(toolset.Field{Name: "content", Shape: blocksShape})
)

// ParseToolUses reads the tool calls of a Messages API response: data is the message object (its
// `content` array is read; an error body `{"type":"error","error":{...}}` is an error) or the `content`
// array itself. Every `tool_use` block becomes a Call, in order: ID from `id`, Name from `name`, and
// Arguments the raw bytes of the `input` object exactly as they appear in data (never re-encoded; a
// missing input gives empty Arguments). Other blocks (text, thinking, server tool use and results) are
// skipped.
func ParseToolUses(data []byte) ([]wink.Call, error) {
	var blocks []block
	switch toolset.FirstByte(data) {
	case '[':
		if err := toolset.Unmarshal(data, &blocks, blocksShape); err != "" {
			return nil, errors.New("anthropic: reading content: " + err)
		}
	default:
		var m struct {
			Content []block         `json:"content"`
			Error   json.RawMessage `json:"error"`
		}
		if err := toolset.Unmarshal(data, &m, messageShape); err != "" {
			return nil, errors.New("anthropic: reading message: " + err)
		}
		if msg := toolset.ErrorBody(m.Error); msg != "" {
			return nil, errors.New("anthropic: message error: " + msg)
		}
		blocks = m.Content
	}
	var calls []wink.Call
	for _, bl := range blocks {
		if bl.Type != "tool_use" {
			continue
		}
		args := []byte(bl.Input) // encoding/json copied it out of data
		if args == nil {
			args = []byte{}
		}
		calls = append(calls, wink.Call{ID: bl.ID, Name: bl.Name, Arguments: args})
	}
	return calls, nil
}

// ToolResult returns the content block answering the tool_use block toolUseID:
//
//	{"type":"tool_result","tool_use_id":ID,"content":OUT}                  on success
//	{"type":"tool_result","tool_use_id":ID,"content":OUT,"is_error":true}  on failure
//
// where OUT is out.Output as a string; `content` is left out when the output is empty (it is optional).
// An outcome with content blocks (Outcome.Content) has an array of blocks as its content instead: see
// appendContent for how each kind is sent, and stated in text where the API takes no such block.
func ToolResult(toolUseID string, out wink.Outcome) []byte {
	return appendToolResult(make([]byte, 0, 80+len(toolUseID)+len(out.Output)+len(out.Output)/8), toolUseID, out)
}

// ToolResults returns the content array of the user message answering a whole turn: one ToolResult per
// outcome, in order, each answering its Outcome.CallID. The API wants every tool_use of a turn answered
// in the next user message, results first.
func ToolResults(outs []wink.Outcome) []byte {
	n := 2
	for _, o := range outs {
		n += 81 + len(o.CallID) + len(o.Output) + len(o.Output)/8
	}
	b := append(make([]byte, 0, n), '[')
	for i, o := range outs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendToolResult(b, o.CallID, o)
	}
	return append(b, ']')
}

func appendToolResult(b []byte, id string, out wink.Outcome) []byte {
	b = append(b, `{"type":"tool_result","tool_use_id":`...)
	b = strictjson.AppendString(b, id)
	if out.Content.Len() > 0 {
		b = appendContent(b, out) // blocks besides the text (content.go)
	} else if out.Output != "" {
		b = append(b, `,"content":`...)
		b = strictjson.AppendString(b, out.Output)
	}
	if !out.Success {
		b = append(b, `,"is_error":true`...)
	}
	return append(b, '}')
}
