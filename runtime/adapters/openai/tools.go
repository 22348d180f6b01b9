package openai

import (
	"github.com/winkgen/wink/runtime/adapters/internal/toolset"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

func schemaOnly(s *wink.Spec) []byte {
	b, _ := Schema(s)
	return b
}

// ChatTools returns the `tools` array of a chat completions request, one entry per tool in order:
//
//	{"type":"function","function":{"name":N,"description":D,"parameters":S,"strict":B}}
//
// where S and B come from Schema; S is the generated schema, embedded byte for byte. The error reports
// (all at once) nil tools, duplicate names and schemas that are not JSON objects. An empty list gives
// `[]`; leave `tools` out of the request instead, as the API rejects an empty array.
func ChatTools(tools []*wink.Tool) ([]byte, error) {
	if err := toolset.Check("openai", tools, schemaOnly); err != nil {
		return nil, err
	}
	b := toolset.Grow(tools, 96, schemaOnly)
	b = append(b, '[')
	for i, t := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		s := t.Spec()
		schema, strict := Schema(s)
		b = append(b, `{"type":"function","function":{"name":`...)
		b = strictjson.AppendString(b, s.Name)
		b = append(b, `,"description":`...)
		b = strictjson.AppendString(b, s.Description)
		b = append(b, `,"parameters":`...)
		b = append(b, schema...)
		b = append(b, `,"strict":`...)
		b = strictjson.AppendBool(b, strict)
		b = append(b, "}}"...)
	}
	return append(b, ']'), nil
}

// ResponsesTools returns the `tools` array of a Responses API request, one entry per tool in order:
//
//	{"type":"function","name":N,"description":D,"parameters":S,"strict":B}
//
// with S and B as in ChatTools and the same errors.
func ResponsesTools(tools []*wink.Tool) ([]byte, error) {
	if err := toolset.Check("openai", tools, schemaOnly); err != nil {
		return nil, err
	}
	b := toolset.Grow(tools, 80, schemaOnly)
	b = append(b, '[')
	for i, t := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		s := t.Spec()
		schema, strict := Schema(s)
		b = append(b, `{"type":"function","name":`...)
		b = strictjson.AppendString(b, s.Name)
		b = append(b, `,"description":`...)
		b = strictjson.AppendString(b, s.Description)
		b = append(b, `,"parameters":`...)
		b = append(b, schema...)
		b = append(b, `,"strict":`...)
		b = strictjson.AppendBool(b, strict)
		b = append(b, '}')
	}
	return append(b, ']'), nil
}
