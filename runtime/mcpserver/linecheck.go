package mcpserver

import (
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/strictjson"
)

// The checks a line of the stdio transport passes before the SDK reads it.
// The SDK's own reader ends the connection on the first line it cannot
// decode; these checks answer such a line with the JSON-RPC 2.0 error the
// specification names instead, and the connection goes on:
//
//   - not JSON (syntax, invalid UTF-8, binary bytes, nesting deeper than
//     lineMaxDepth): -32700 "Parse error", id null;
//   - JSON but not a message: not an object (a batch array included: MCP
//     has had no batches since 2025-06-18), "jsonrpc" other than "2.0", an
//     id that is not a string, an integer or null, a member given twice in
//     any object of the message (unique.go; inside a tools/call's arguments
//     the tool's strict decoder refuses it), a method that is not a string, params that are neither an object nor an
//     array, a response without exactly one of result and error: -32600
//     "Invalid Request", with the message's id when it could be read, else
//     null.
//
// Members JSON-RPC does not define are left for the SDK (which ignores them).

const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	// lineMaxDepth bounds the nesting of a message: tool arguments sit two
	// levels down and the dispatcher allows them 64 levels; the SDK's own
	// decoder stops at 1000.
	lineMaxDepth = 128
	// maxSafeID is the largest integer id the SDK keeps exactly (it reads
	// ids as float64).
	maxSafeID = 1<<53 - 1
)

// checkLine returns nil when line is a JSON-RPC 2.0 message the SDK can
// read, and otherwise the error response to write back (without newline).
func checkLine(line []byte) []byte {
	var d strictjson.Decoder
	d.Reset(line, strictjson.Limits{MaxBytes: len(line) + 1, MaxDepth: lineMaxDepth, MaxErrors: 1})
	var (
		id       []byte // the raw id, when it is valid
		problem  string // the first reason the message is not a valid request
		seen     uint8
		hasID    bool
		method   bool
		result   bool
		errorSet bool
	)
	fail := func(p string) {
		if problem == "" {
			problem = p
		}
	}
	switch d.Peek() {
	case strictjson.KindObject:
	case strictjson.KindArray:
		d.Skip()
		fail("batches are not supported; send one JSON-RPC message per line")
	case strictjson.KindInvalid:
		d.Skip() // records the syntax error
	default:
		d.Skip()
		fail("a message must be a JSON object")
	}
	u := uniquePool.Get().(*uniqueKeys)
	defer u.release()
	var (
		toolsCall bool   // the method is tools/call
		argsTwice string // a member given twice inside params.arguments, for the tools/call decoder
	)
	if problem == "" && d.ObjectStart() {
		u.open()
		for d.NextKey() {
			var bit uint8
			key := string(d.Key())
			if !u.add(d.Key()) {
				fail("member " + strconv.Quote(key) + " is given twice")
			}
			switch key {
			case "jsonrpc":
				bit = 1
			case "id":
				bit = 2
			case "method":
				bit = 4
			case "params":
				bit = 8
			case "result":
				bit = 16
			case "error":
				bit = 32
			default:
				if r := u.value(&d); r != "" {
					fail("member " + strconv.Quote(r) + " is given twice in " + strconv.Quote(key))
				}
				continue
			}
			if seen&bit != 0 {
				fail("member " + strconv.Quote(key) + " is given twice")
				if bit == 2 {
					id, hasID = nil, false
				}
				d.Skip()
				continue
			}
			seen |= bit
			switch key {
			case "jsonrpc":
				if d.Peek() != strictjson.KindString {
					d.Skip()
					fail(`"jsonrpc" must be "2.0"`)
				} else if v, _ := d.StringBytes(); string(v) != "2.0" {
					fail(`"jsonrpc" must be "2.0"`)
				}
			case "id":
				hasID = true
				switch d.Peek() {
				case strictjson.KindString, strictjson.KindNull:
					id, _ = d.Raw()
				case strictjson.KindNumber:
					raw, _ := d.Raw()
					if integralID(raw) {
						id = raw
					} else {
						fail(`"id" must be a string, an integer (at most 2^53-1 in magnitude) or null`)
					}
				default:
					d.Skip()
					fail(`"id" must be a string, an integer (at most 2^53-1 in magnitude) or null`)
				}
			case "method":
				method = true
				if d.Peek() != strictjson.KindString {
					fail(`"method" must be a string`)
					d.Skip()
				} else {
					v, _ := d.StringBytes()
					toolsCall = string(v) == "tools/call"
				}
			case "params":
				switch d.Peek() {
				case strictjson.KindObject:
					if r, args := paramsRepeated(&d, u); r != "" {
						fail(r)
					} else if args != "" {
						argsTwice = args
					}
				case strictjson.KindArray:
					if r := u.value(&d); r != "" {
						fail("member " + strconv.Quote(r) + ` is given twice in "params"`)
					}
				default:
					fail(`"params" must be an object or an array`)
					d.Skip()
				}
			case "result":
				result = true
				if r := u.value(&d); r != "" {
					fail("member " + strconv.Quote(r) + ` is given twice in "result"`)
				}
			case "error":
				errorSet = true
				if d.Peek() != strictjson.KindObject {
					fail(`"error" must be an object`)
				}
				if r := u.value(&d); r != "" {
					fail("member " + strconv.Quote(r) + ` is given twice in "error"`)
				}
			}
		}
		d.ObjectEnd()
	}
	if argsTwice != "" && !toolsCall {
		fail("member " + strconv.Quote(argsTwice) + ` is given twice in "params.arguments"`)
	}
	if errs := d.Finish(); errs != nil && errs.Len() > 0 {
		msg := "Parse error"
		if len(errs.List) > 0 {
			if e := errs.List[0]; e.Path != "" {
				msg += ": " + e.Path + ": " + e.Message
			} else {
				// strictjson speaks of tool arguments; here the value is a message.
				msg += ": " + strings.Replace(e.Message, "the arguments object", "the message", 1)
			}
		}
		return errorResponse(nil, codeParseError, msg)
	}
	if problem == "" {
		switch {
		case seen&1 == 0:
			fail(`"jsonrpc" must be "2.0"`)
		case method && (result || errorSet):
			fail(`a request must not carry "result" or "error"`)
		case !method && !result && !errorSet:
			fail(`a message needs "method" (a request) or "result" or "error" (a response)`)
		case !method && result && errorSet:
			fail(`a response carries "result" or "error", not both`)
		case !method && (!hasID || string(id) == "null"):
			fail(`a response needs the "id" of its request`)
		case !method && seen&8 != 0:
			fail(`a response must not carry "params"`)
		}
	}
	if problem == "" {
		return nil
	}
	return errorResponse(id, codeInvalidRequest, "Invalid Request: "+problem)
}

// paramsRepeated reads the params object at d and returns the problem of a member given twice in it
// (unique.go), except inside its "arguments": a member given twice there is returned as args, for the
// caller to refuse unless the message is a tools/call (whose strict decoder tells the model).
func paramsRepeated(d *strictjson.Decoder, u *uniqueKeys) (problem, args string) {
	if !d.ObjectStart() {
		return "", ""
	}
	u.open()
	defer u.close()
	var buf [64]byte
	for d.NextKey() {
		key := append(buf[:0], d.Key()...) // d.Key changes as the value is read
		if !u.add(key) && problem == "" {
			problem = "member " + strconv.Quote(string(key)) + ` of "params" is given twice`
		}
		r := u.value(d)
		switch {
		case r == "":
		case string(key) == "arguments":
			if args == "" {
				args = r
			}
		case problem == "":
			problem = "member " + strconv.Quote(r) + " is given twice in " + strconv.Quote("params."+string(key))
		}
	}
	d.ObjectEnd()
	return problem, args
}

// integralID reports whether raw, a valid JSON number, is an integer the
// SDK keeps exactly.
func integralID(raw []byte) bool {
	var d strictjson.Decoder
	d.Reset(raw, strictjson.Limits{MaxErrors: 1})
	_, ok := d.Int(-maxSafeID, maxSafeID)
	return ok && d.Finish() == nil
}

// errorResponse is the JSON-RPC error response with the raw id (null when
// nil), code and message.
func errorResponse(id []byte, code int, msg string) []byte {
	b := make([]byte, 0, 64+len(msg))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	if id == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, id...)
	}
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"message":`...)
	b = strictjson.AppendString(b, msg)
	return append(b, "}}"...)
}
