// Package linetest holds what runtime/mcpserver's line transport tests share with the fuzz target in
// runtime/mcpserver/internal/stdiofuzz: the malformed lines they send, with the exact answer each must get
// (the fuzz target seeds its corpus with them), and Client, which speaks raw lines to a server over pipes.
package linetest

import (
	"strconv"
	"strings"
)

// ErrLine is the JSON-RPC error line answering id (a JSON value) with code and msg.
func ErrLine(id string, code int, msg string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":` + strconv.Itoa(code) + `,"message":` + strconv.Quote(msg) + `}}`
}

// Deep is n nested empty arrays.
func Deep(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// BadLine is a line that is not a JSON-RPC 2.0 message (Why says how), with the exact answer it must get.
type BadLine struct{ Why, Line, Want string }

// BadLines are lines that are not JSON-RPC 2.0 messages, with the exact answer each must get.
var BadLines = []BadLine{
	{"truncated JSON", `{"jsonrpc":"2.0","id":1,"method":"ping"`,
		ErrLine("null", -32700, "Parse error: invalid JSON at byte 39: unexpected end of input")},
	{"not JSON", `hello`, ErrLine("null", -32700, "Parse error: invalid JSON at byte 0: unexpected character 'h'; expected a value")},
	{"binary bytes", "\x00\x01\xfe\xff", ErrLine("null", -32700, "Parse error: invalid JSON at byte 0: unexpected byte 0x00; expected a value")},
	{"invalid UTF-8 in a string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\xffng\"}",
		ErrLine("null", -32700, "Parse error: method: invalid UTF-8 in string (byte 36)")},
	{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"ping"} x`,
		ErrLine("null", -32700, "Parse error: invalid JSON at byte 41: unexpected data after the message")},
	{"very deep nesting", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":` + Deep(100000) + `}}`,
		ErrLine("null", -32700, "Parse error: invalid JSON at byte 180: nesting deeper than 128 levels")},
	{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		ErrLine("null", -32600, "Invalid Request: batches are not supported; send one JSON-RPC message per line")},
	{"an empty batch", `[]`, ErrLine("null", -32600, "Invalid Request: batches are not supported; send one JSON-RPC message per line")},
	{"a number", `42`, ErrLine("null", -32600, "Invalid Request: a message must be a JSON object")},
	{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, ErrLine("7", -32600, `Invalid Request: "jsonrpc" must be "2.0"`)},
	{"jsonrpc a number", `{"jsonrpc":2.0,"id":"s","method":"ping"}`, ErrLine(`"s"`, -32600, `Invalid Request: "jsonrpc" must be "2.0"`)},
	{"no jsonrpc", `{"id":8,"method":"ping"}`, ErrLine("8", -32600, `Invalid Request: "jsonrpc" must be "2.0"`)},
	{"an object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		ErrLine("null", -32600, `Invalid Request: "id" must be a string, an integer (at most 2^53-1 in magnitude) or null`)},
	{"an array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`,
		ErrLine("null", -32600, `Invalid Request: "id" must be a string, an integer (at most 2^53-1 in magnitude) or null`)},
	{"a fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		ErrLine("null", -32600, `Invalid Request: "id" must be a string, an integer (at most 2^53-1 in magnitude) or null`)},
	{"a huge id", `{"jsonrpc":"2.0","id":1e300,"method":"ping"}`,
		ErrLine("null", -32600, `Invalid Request: "id" must be a string, an integer (at most 2^53-1 in magnitude) or null`)},
	{"an id given twice", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
		ErrLine("null", -32600, `Invalid Request: member "id" is given twice`)},
	{"a method that is not a string", `{"jsonrpc":"2.0","id":4,"method":5}`, ErrLine("4", -32600, `Invalid Request: "method" must be a string`)},
	{"params that are a string", `{"jsonrpc":"2.0","id":"p","method":"ping","params":"x"}`,
		ErrLine(`"p"`, -32600, `Invalid Request: "params" must be an object or an array`)},
	{"neither request nor response", `{"jsonrpc":"2.0","id":9}`,
		ErrLine("9", -32600, `Invalid Request: a message needs "method" (a request) or "result" or "error" (a response)`)},
	{"a response without id", `{"jsonrpc":"2.0","result":{}}`,
		ErrLine("null", -32600, `Invalid Request: a response needs the "id" of its request`)},
	{"a response with result and error", `{"jsonrpc":"2.0","id":10,"result":{},"error":{"code":1,"message":"x"}}`,
		ErrLine("10", -32600, `Invalid Request: a response carries "result" or "error", not both`)},
	{"a request with a result", `{"jsonrpc":"2.0","id":11,"method":"ping","result":{}}`,
		ErrLine("11", -32600, `Invalid Request: a request must not carry "result" or "error"`)},
}
