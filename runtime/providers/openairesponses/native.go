package openairesponses

import (
	"bytes"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// Programmatic tool calling and tool search keep what the neutral transcript has no place for, and send
// it back exactly (requests are stateless, "store":false, so every item the API must see again is in
// the next request's input):
//   - a function_call's caller ({"type":"program","caller_id":...}): wink.Call.Caller, written back on the
//     call and on its function_call_output;
//   - the turn's items when it has a program item (with its fingerprint), a program's output, a hosted
//     search's items or a call made by a program: every output item, in output_index order, exactly as
//     response.output_item.done gave it, as loop.Response.Native; the next requests send them in place
//     of the turn's text and calls;
//   - a client tool_search_call: a call named toolsearch.Name whose Arguments are its arguments object,
//     replayed as a tool_search_call item and answered by a tool_search_output item carrying the found
//     tools' definitions (openai.ToolSearchOutput).

// programCaller reports whether a caller names a program (not {"type":"direct"}).
func programCaller(c []byte) bool {
	t := httpcall.String(c, "type")
	return t != "" && t != "direct"
}

// keep records an output item at its index.
func (a *assembler) keep(index int, item []byte) {
	if index < 0 || index > 1<<16 || item == nil {
		return
	}
	for len(a.items) <= index {
		a.items = append(a.items, nil)
	}
	a.items[index] = bytes.Clone(item)
}

// searchCall records a tool_search_call: a client one becomes a call of the search; a hosted one is an
// item sent back as it came.
func (a *assembler) searchCall(index int, item []byte) {
	if httpcall.String(item, "execution") != "client" {
		a.native = true
		return
	}
	id := httpcall.String(item, "id")
	c := a.find(id, index)
	if c == nil {
		a.calls = append(a.calls, call{index: index, itemID: id})
		c = &a.calls[len(a.calls)-1]
	}
	c.callID, c.name, c.done = httpcall.String(item, "call_id"), toolsearch.Name, true
	if args, ok := strictjson.Member(item, "arguments"); ok {
		c.args = bytes.Clone(args)
	}
}

// nativeItems returns the turn's output items as a JSON array.
func (a *assembler) nativeItems() []byte {
	out := []byte{'['}
	for _, it := range a.items {
		if it == nil {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, it...)
	}
	return append(out, ']')
}

// inner returns the items of a JSON array without its brackets.
func inner(arr []byte) []byte {
	t := bytes.TrimSpace(arr)
	if len(t) < 2 {
		return nil
	}
	return bytes.TrimSpace(t[1 : len(t)-1])
}

// pick returns the request's tools named in names, in that order.
func pick(req loop.Request, names []string) []*wink.Tool {
	var out []*wink.Tool
	for _, n := range names {
		for _, t := range append(req.Tools[:len(req.Tools):len(req.Tools)], req.Deferred...) {
			if t.Name() == n {
				out = append(out, t)
				break
			}
		}
	}
	return out
}
