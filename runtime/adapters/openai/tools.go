package openai

import (
	"github.com/winkgen/wink/runtime/adapters/internal/toolset"
	"github.com/winkgen/wink/runtime/wink"
)

func schemaOnly(s *wink.Spec) []byte {
	b, _ := Schema(s)
	return b
}

// The two APIs' tool entries: the same members, nested in a "function" object for chat completions.
var (
	chatFormat = toolset.Format{Pkg: "openai", Open: `{"type":"function","function":{"name":`, SchemaKey: `,"parameters":`,
		Close: "}}", PerEntry: 96, Checked: schemaOnly}
	responsesFormat = toolset.Format{Pkg: "openai", Open: `{"type":"function","name":`, SchemaKey: `,"parameters":`,
		Close: "}", PerEntry: 80, Checked: schemaOnly}
)

// entry gives a tool's schema and strict flag as both APIs write them.
func entry(s *wink.Spec) ([]byte, string) {
	schema, strict := Schema(s)
	if strict {
		return schema, `,"strict":true`
	}
	return schema, `,"strict":false`
}

// ChatTools returns the `tools` array of a chat completions request, one entry per tool in order:
//
//	{"type":"function","function":{"name":N,"description":D,"parameters":S,"strict":B}}
//
// where S and B come from Schema; S is the generated schema, embedded byte for byte. The error reports
// (all at once) nil tools, duplicate names and schemas that are not JSON objects. An empty list gives
// `[]`; leave `tools` out of the request instead, as the API rejects an empty array.
func ChatTools(tools []*wink.Tool) ([]byte, error) {
	return toolset.Write(&chatFormat, tools, entry)
}

// ResponsesTools returns the `tools` array of a Responses API request, one entry per tool in order:
//
//	{"type":"function","name":N,"description":D,"parameters":S,"strict":B}
//
// with S and B as in ChatTools and the same errors.
func ResponsesTools(tools []*wink.Tool) ([]byte, error) {
	return toolset.Write(&responsesFormat, tools, entry)
}
