package mcpserver

import (
	"encoding/base64"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// A tool's Spec.Headers (wink:"header=Region" on a top-level params field) are listed as the "x-mcp-header"
// annotation of their properties in inputSchema, on every protocol version. The SDK then does the rest on
// 2026-07-28 HTTP requests, from the tool as registered: it refuses a tools/call whose Mcp-Param-<name>
// header is missing while the argument is in the body, is not valid Base64 inside =?base64?...?=, or
// does not match the argument (HTTP 400, -32020); its client sends the headers. Clients of earlier
// versions and other transports ignore the annotation.

// xMCPHeader is the inputSchema keyword naming the header a property is mirrored into.
const xMCPHeader = "x-mcp-header"

// withHeaders returns the params schema with each header's property annotated. A header that breaks
// MCP's rules (winkgen checks them; a hand-made Spec may not) is an error: the SDK would panic on it, and
// clients must drop the whole tool.
func withHeaders(schema []byte, headers []wink.ParamHeader) ([]byte, error) {
	if len(headers) == 0 {
		return schema, nil
	}
	seen := map[string]bool{}
	for _, h := range headers {
		if h.Header == "" || strings.IndexFunc(h.Header, func(r rune) bool { return !isTChar(r) }) >= 0 {
			return nil, errors.New("header " + strconv.Quote(h.Header) + " of parameter " + strconv.Quote(h.Param) + " is not an HTTP field name")
		}
		if k := strings.ToLower(h.Header); seen[k] {
			return nil, errors.New("header " + strconv.Quote(h.Header) + " is named twice (names are compared ignoring case)")
		} else {
			seen[k] = true
		}
	}
	members, ok := rootMembers(schema)
	if !ok {
		return nil, errors.New("params schema is not an object")
	}
	done := 0
	for i, m := range members {
		if m.key != "properties" {
			continue
		}
		props, ok := rootMembers(m.value)
		if !ok {
			return nil, errors.New("params schema's properties are not an object")
		}
		for j, p := range props {
			for _, h := range headers {
				if p.key != h.Param {
					continue
				}
				ps, ok := rootMembers(p.value)
				if !ok {
					return nil, errors.New("parameter " + strconv.Quote(h.Param) + " has no schema object")
				}
				props[j].value = writeObject(append(ps, member{key: xMCPHeader, value: strictjson.AppendString(nil, h.Header)}))
				done++
			}
		}
		members[i].value = writeObject(props)
	}
	if done != len(headers) {
		return nil, errors.New("a header names a parameter the params schema does not have")
	}
	return writeObject(members), nil
}

// isTChar reports an RFC 9110 token character, what an HTTP field name is made of.
func isTChar(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r < 0x80 && strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}

// headersByTool are the Spec.Headers of d's tools, by tool name; nil when none has any.
func headersByTool(d *wink.Dispatcher) map[string][]wink.ParamHeader {
	if d == nil || d.Registry == nil {
		return nil
	}
	var m map[string][]wink.ParamHeader
	for _, t := range d.Registry.Tools() {
		if sp := t.Spec(); len(sp.Headers) > 0 {
			if m == nil {
				m = map[string][]wink.ParamHeader{}
			}
			m[sp.Name] = sp.Headers
		}
	}
	return m
}

// checkParamHeaders checks the Mcp-Param-<name> headers of a tools/call request on protocol 2026-07-28
// and later against its arguments, as the Streamable HTTP transport requires of a server that reads the
// body: an argument that is present and not null needs its header; the header's value, after Base64
// decoding when it is written =?base64?...?=, must equal the argument (a string as is, a bool as true or
// false, an integer by value); a header for an absent or null argument, invalid Base64 and characters
// an HTTP field value cannot hold are refused. It returns nil when the request may go on, else the error
// response (sent with HTTP 400, -32020). The SDK checks the same when it can read the tool's schema; it
// cannot when a property's "type" is a list (every optional parameter: ["string","null"]), so the
// check is made here for every tool.
func checkParamHeaders(h http.Header, body []byte, byTool map[string][]wink.ParamHeader) []byte {
	if len(byTool) == 0 || h.Get("Mcp-Protocol-Version") < version20260728 {
		return nil
	}
	var name string
	var args map[string][]byte
	method, id, ok := peekRequest(body, func(d *strictjson.Decoder, key string) {
		switch {
		case key == "name" && d.Peek() == strictjson.KindString:
			name, _ = d.String()
		case key == "arguments" && d.Peek() == strictjson.KindObject:
			args = map[string][]byte{}
			if d.ObjectStart() {
				for d.NextKey() {
					k := string(d.Key())
					if v, ok := d.Raw(); ok {
						args[k] = append([]byte(nil), v...)
					}
				}
				d.ObjectEnd()
			}
		default:
			d.Skip()
		}
	})
	if !ok || method != "tools/call" {
		return nil // the SDK answers what it cannot read
	}
	headers := byTool[name]
	if len(headers) == 0 {
		return nil
	}
	for _, ph := range headers {
		if msg := paramHeaderProblem(h, ph, args[ph.Param]); msg != "" {
			return headerMismatch(id, msg)
		}
	}
	return nil
}

// paramHeaderProblem says what is wrong with the header of one parameter whose argument is arg (nil when
// absent); "" when nothing is.
func paramHeaderProblem(h http.Header, ph wink.ParamHeader, arg []byte) string {
	field := "Mcp-Param-" + ph.Header
	vals := h.Values(field)
	absent := len(arg) == 0 || string(arg) == "null"
	switch {
	case absent && len(vals) > 0:
		return "header mismatch: " + field + " is sent but the argument " + ph.Param + " is absent or null; send the header only with the argument"
	case absent:
		return ""
	case len(vals) == 0:
		return "missing " + field + " header for the argument " + ph.Param + "; send it with the argument's value (list the tools again to see which arguments are mirrored into headers)"
	case len(vals) > 1:
		return "header mismatch: " + field + " is sent more than once"
	}
	v := strings.Trim(vals[0], " \t")
	for i := 0; i < len(v); i++ {
		if c := v[i]; c != '\t' && (c < 0x20 || c > 0x7e) {
			return "header mismatch: " + field + " holds a character a header value cannot; send the value as =?base64?<Base64 of its UTF-8>?="
		}
	}
	if inner, ok := strings.CutPrefix(v, "=?base64?"); ok {
		if inner, ok = strings.CutSuffix(inner, "?="); ok {
			b, err := base64.StdEncoding.Strict().DecodeString(inner)
			if err != nil {
				return "header mismatch: " + field + " is not valid Base64 inside =?base64?...?="
			}
			v = string(b)
		}
	}
	if !argEquals(arg, v) {
		return "header mismatch: " + field + " does not match the argument " + ph.Param
	}
	return ""
}

// argEquals reports whether a JSON argument (a string, a bool or an integer) equals a header's decoded
// value: a string as is, a bool as true or false, a number by value (42 and 42.0 are equal).
func argEquals(arg []byte, v string) bool {
	var d strictjson.Decoder
	d.Reset(arg, strictjson.Limits{MaxBytes: len(arg) + 1, MaxDepth: 2, MaxErrors: 1})
	switch d.Peek() {
	case strictjson.KindString:
		s, ok := d.String()
		return ok && s == v
	case strictjson.KindBool:
		return string(arg) == v // the argument is true or false as written

	case strictjson.KindNumber:
		a, err1 := strconv.ParseFloat(string(arg), 64)
		b, err2 := strconv.ParseFloat(v, 64)
		return err1 == nil && err2 == nil && a == b && a == math.Trunc(a)
	}
	return false
}

// headerMismatch is the -32020 error response to the request of id.
func headerMismatch(id []byte, msg string) []byte {
	if id == nil {
		id = []byte("null")
	}
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	b = append(b, `,"error":{"code":`...)
	b = strictjson.AppendInt(b, codeHeaderMismatch)
	b = append(b, `,"message":`...)
	b = strictjson.AppendString(b, msg)
	return append(b, "}}"...)
}
