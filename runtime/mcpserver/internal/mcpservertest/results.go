package mcpservertest

import (
	"strings"

	"github.com/winkgen/wink/runtime/wink"
)

// Tools whose results are not objects: MCP 2026-07-28 lets outputSchema be any JSON Schema, so their
// values reach the client as structuredContent arrays, numbers, strings and nulls.

// Words splits the text into words: an array result.
//
//wink:tool readonly
func Words(tc *wink.ToolContext, p EchoParams) (wink.ToolResult[[]string], error) {
	return wink.OK(strings.Fields(p.Text), "Split."), nil
}

// Measure counts the text's bytes: a number result.
//
//wink:tool readonly
func Measure(tc *wink.ToolContext, p EchoParams) (wink.ToolResult[int], error) {
	return wink.OK(len(p.Text), "Measured."), nil
}

// Lookup finds the text among the known ones: a nullable object result, null when unknown.
//
//wink:tool readonly
func Lookup(tc *wink.ToolContext, p EchoParams) (wink.ToolResult[*Echoed], error) {
	if p.Text != "known" {
		return wink.OK[*Echoed](nil, "Not found."), nil
	}
	return wink.OK(&Echoed{Text: p.Text, Length: len(p.Text)}, "Found."), nil
}
