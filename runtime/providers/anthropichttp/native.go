package anthropichttp

import (
	"github.com/winkgen/wink/runtime/providers/httpcall"
	"github.com/winkgen/wink/runtime/strictjson"
)

// Programmatic tool calling keeps three things the neutral transcript has no place for, and sends them
// back exactly:
//   - the container a program ran in: message_start's message.container or message_delta's
//     delta.container ({"id":...,"expires_at":...}); its id becomes loop.Response.Container, and every
//     later request sends the latest one as "container";
//   - a tool_use's caller ({"type":"code_execution_20250825","tool_id":...}): wink.Call.Caller, written
//     back on that tool_use;
//   - the turn's server blocks (server_tool_use, the code execution results): when a turn has any, or
//     a call made by a program, the whole content array is kept as loop.Response.Native and sent back in
//     place of the text and calls, blocks in their order, each as the stream gave it (a server_tool_use's
//     or tool_use's input assembled from its deltas, a text block from its text).
// Thinking blocks are not kept (as before): requests with extended thinking are not supported.

// programCaller reports whether a tool_use's caller names a program (not {"type":"direct"}).
func programCaller(c []byte) bool {
	t := httpcall.String(c, "type")
	return t != "" && t != "direct"
}

func (a *assembler) readContainer(obj []byte) {
	if c, ok := strictjson.Member(obj, "container"); ok {
		if id := httpcall.String(c, "id"); id != "" {
			a.container = id
		}
	}
}

// arguments is a tool_use's or server_tool_use's input: the deltas, or the start's input without any.
func (b *block) arguments() []byte {
	if b.deltas {
		return b.args
	}
	return b.input
}

// nativeContent writes the turn's content array as the API wants it back.
func (a *assembler) nativeContent() []byte {
	out := []byte{'['}
	n := 0
	for i := range a.blocks {
		b := &a.blocks[i]
		var one []byte
		switch b.kind {
		case "", "thinking", "redacted_thinking":
			continue
		case "text":
			if len(b.text) == 0 {
				continue
			}
			one = append([]byte(`{"type":"text","text":`), strictjson.AppendString(nil, string(b.text))...)
			one = append(one, '}')
		case "tool_use", "server_tool_use":
			one = append([]byte(`{"type":`), strictjson.AppendString(nil, b.kind)...)
			one = append(one, `,"id":`...)
			one = strictjson.AppendString(one, b.id)
			one = append(one, `,"name":`...)
			one = strictjson.AppendString(one, b.name)
			one = append(one, `,"input":`...)
			if args := b.arguments(); isObject(args) {
				one = append(one, args...)
			} else {
				one = append(one, "{}"...)
			}
			if b.caller != nil {
				one = append(one, `,"caller":`...)
				one = append(one, b.caller...)
			}
			one = append(one, '}')
		default:
			one = b.raw
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, one...)
		n++
	}
	return append(out, ']')
}
