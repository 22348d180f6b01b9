package mcpserver

// What a tool looks like to a client depends on the protocol version the client negotiated
// (DESIGN-notes):
//
//   - 2025-06-18 and later: every result is stated as an envelope with one optional property, "result":
//     the value when the call returned one the model may see, absent when it returned none (wink.Done)
//     or kept it out of the context (wink.WithoutValueInContext, which must hold on every adapter: some
//     hosts hand structuredContent to the model). A server that lists an outputSchema must send
//     structuredContent matching it with every successful result, and any handler may answer with
//     wink.Done, so the schema listed must also admit "no value": the envelope does, on every revision.
//     2025-06-18 and 2025-11-25 also require outputSchema to have type "object" and structuredContent to
//     be an object (the TypeScript SDK's client rejects a whole tools/list otherwise, and rejects a call
//     to a tool with an outputSchema whose success carries no structuredContent). 2026-07-28 accepts any
//     JSON Schema and any JSON value, but a bare value cannot say "no value" (a null is the value of a
//     nullable result, and the Go and TypeScript clients read a null, false, 0 or "" structuredContent
//     as none), so it gets the same envelope: one rule for every result type and every revision.
//     "$schema" and "$defs" move to the envelope's root so that "#/$defs/..." references still resolve,
//     and references into the result schema's root (a recursive type's "$ref":"#") are rebased onto
//     "#/properties/result", where that schema now is (rebaseRefs).
//   - Versions before 2025-06-18 have neither outputSchema nor structuredContent: none is sent.
//   - The result schema is first reduced to what the encoder guarantees (guaranteed): the value rules of
//     a result type's tags are not enforced on results, and a validating client (the TypeScript SDK's
//     AJV) refused a whole call whose enum-typed field was at its zero value.
//
// The version is the one the request is answered at (requestVersion), never merely the one a client
// asked for: initialize cannot negotiate 2026-07-28, so a client asking for it (or for an unknown
// version) is answered 2025-11-25 and must be listed, answered and asked (elicitation, sampling) as a
// 2025-11-25 client; initializeAtNegotiated makes the SDK keep that version for the session too.
//
// Examples (//wink:example) go where hosts and models read them: the description (the text the model
// reads, in the same form the prompt package's tools block uses), the inputSchema's "examples" keyword
// (JSON Schema's annotation for valid instances: the inputs), and _meta["io.winkgen/examples"] (each
// example's description, input and output, for programs).

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/wink"
)

// ResultProperty is the property of the structuredContent object that holds a tool's result value (on
// every protocol version that has structuredContent, 2025-06-18 and later).
const ResultProperty = "result"

// ExamplesMetaKey is the _meta key of a listed tool holding its examples: an array of objects with
// "description", "input" and, when the example states one, "output".
const ExamplesMetaKey = "io.winkgen/examples"

// shape is how results are stated for one protocol version.
type shape uint8

const (
	shapeNone     shape = iota // before 2025-06-18: no outputSchema, no structuredContent
	shapeEnvelope              // 2025-06-18 and later: {"result": value}, {} for no value
)

// versions of the protocol this package decides by.
const (
	version20250618 = "2025-06-18"
	version20251125 = "2025-11-25"
	version20260728 = "2026-07-28"
)

// shapeOf returns the result shape for a request's protocol version, the one requestVersion returns.
// An empty or unknown version is taken as 2025-11-25, what the SDK answers a client asking for one.
func shapeOf(version string) shape {
	if version == "" || !slices.Contains(mcp.SupportedProtocolVersions(), version) {
		version = version20251125
	}
	if version >= version20250618 {
		return shapeEnvelope
	}
	return shapeNone
}

// requestShape is shapeOf the protocol version req is answered at.
func (s *server) requestShape(req mcp.Request) shape {
	return shapeOf(requestVersion(req, s.versions))
}

// requestVersion is the protocol version req is answered at: a version of 2026-07-28 or later stated in
// its _meta (that protocol has no initialize; the SDK refused the request if it does not speak it), else
// the version the initialize handshake negotiated (negotiatedVersion) from the one the client asked for
// (a stateless HTTP request's Mcp-Protocol-Version header). The SDK reports the asked version, not the
// negotiated one: a client asking 2026-07-28 in initialize is answered 2025-11-25 and speaks it.
func requestVersion(req mcp.Request, supported []string) string {
	r, ok := req.(interface{ ProtocolVersion() string })
	if !ok || req == nil {
		return ""
	}
	v := r.ProtocolVersion()
	if v < version20260728 {
		return negotiatedVersion(v, supported)
	}
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		if ip := ss.InitializeParams(); ip != nil && ip.ProtocolVersion == v && !metaVersion(req) {
			return negotiatedVersion(v, supported)
		}
	}
	return v
}

// metaVersion reports whether req's _meta states a protocol version.
func metaVersion(req mcp.Request) bool {
	switch r := req.(type) {
	case *mcp.ListToolsRequest:
		return r.Params != nil && r.Params.Meta[mcp.MetaKeyProtocolVersion] != nil
	case *mcp.CallToolRequest:
		return r.Params != nil && r.Params.Meta[mcp.MetaKeyProtocolVersion] != nil
	case *mcp.GetPromptRequest:
		return r.Params != nil && r.Params.Meta[mcp.MetaKeyProtocolVersion] != nil
	case *mcp.ReadResourceRequest:
		return r.Params != nil && r.Params.Meta[mcp.MetaKeyProtocolVersion] != nil
	}
	return false
}

// negotiatedVersion is the version the SDK's initialize handshake answers a client asking for v, given
// the versions the server speaks (mcp.ServerOptions.SupportedProtocolVersions, else all the SDK's):
// v itself when the server speaks it and it is older than 2026-07-28 (which initialize cannot
// negotiate), else the newest such version the server speaks, else 2025-11-25.
func negotiatedVersion(v string, supported []string) string {
	if v != "" && v < version20260728 && slices.Contains(supported, v) {
		return v
	}
	for _, sv := range supported {
		if sv < version20260728 {
			return sv
		}
	}
	return version20251125
}

// initializeAtNegotiated is a receiving middleware that records, in an initialize request, the version
// the handshake answers (negotiatedVersion) in place of the one the client asked for, before the SDK
// keeps the request as the session's InitializeParams. The SDK answers a client asking for 2026-07-28
// (or a later, unknown one) with 2025-11-25 but goes on reading the asked version from InitializeParams:
// it then refused to send that client elicitation and sampling requests ("cannot be sent while serving a
// request on protocol version 2026-07-28") and added 2026-07-28 fields to its results.
func initializeAtNegotiated(supported []string) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if ir, ok := req.(*mcp.ServerRequest[*mcp.InitializeParams]); ok && method == "initialize" && ir.Params != nil {
				if v := negotiatedVersion(ir.Params.ProtocolVersion, supported); v != ir.Params.ProtocolVersion {
					p := *ir.Params
					p.ProtocolVersion = v
					r := *ir
					r.Params = &p
					req = &r
				}
			}
			return next(ctx, method, req)
		}
	}
}

// serverVersions are the protocol versions a server made with opts speaks, newest first.
func serverVersions(opts *mcp.ServerOptions) []string {
	all := mcp.SupportedProtocolVersions()
	if opts == nil || len(opts.SupportedProtocolVersions) == 0 {
		return all
	}
	return slices.DeleteFunc(all, func(v string) bool { return !slices.Contains(opts.SupportedProtocolVersions, v) })
}

// listedTool is one tool as each protocol version lists it.
type listedTool struct {
	byShape [2]*mcp.Tool
}

// listedTools makes t's listings. mt is the tool as registered with the SDK, whose outputSchema (the bare
// result schema) is never listed.
func listedTools(t *wink.Tool, mt *mcp.Tool) (*listedTool, error) {
	sp := t.Spec()
	lt := &listedTool{}
	mt.Description = describe(sp)
	if len(sp.Examples) > 0 {
		mt.InputSchema = rawJSON(withExamples(mt.InputSchema.(rawJSON), sp.Examples))
		mt.Meta = mcp.Meta{ExamplesMetaKey: examplesMeta(sp)}
	}
	if mt.OutputSchema != nil {
		mt.OutputSchema = rawJSON(guaranteed(sp.ResultSchema))
	}
	none := *mt
	none.OutputSchema = nil
	lt.byShape[shapeNone] = &none
	env := *mt
	if mt.OutputSchema != nil {
		e, err := envelope(guaranteed(sp.ResultSchema))
		if err != nil {
			return nil, err
		}
		env.OutputSchema = rawJSON(e)
	}
	lt.byShape[shapeEnvelope] = &env
	return lt, nil
}

// describe is the description the model reads: the tool's own, then its examples as the prompt
// package's tools block writes them.
func describe(sp *wink.Spec) string {
	if len(sp.Examples) == 0 {
		return sp.Description
	}
	var b strings.Builder
	b.WriteString(sp.Description)
	b.WriteString("\n\nExamples:")
	for _, ex := range sp.Examples {
		b.WriteString("\n- ")
		prompt.WriteExample(&b, sp.Name, ex)
	}
	return b.String()
}

// examplesMeta is the _meta value of a tool's examples.
func examplesMeta(sp *wink.Spec) rawJSON {
	b := []byte{'['}
	for i, ex := range sp.Examples {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"description":`...)
		b = strconv.AppendQuote(b, ex.Description)
		b = append(b, `,"input":`...)
		b = append(b, ex.Input...)
		if len(ex.Output) > 0 {
			b = append(b, `,"output":`...)
			b = append(b, ex.Output...)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// withExamples returns the params schema with the examples' inputs as its root "examples" keyword,
// unless it has one.
func withExamples(schema []byte, examples []wink.Example) []byte {
	members, ok := rootMembers(schema)
	if !ok {
		return schema
	}
	for _, m := range members {
		if m.key == "examples" {
			return schema
		}
	}
	v := []byte{'['}
	for i, ex := range examples {
		if i > 0 {
			v = append(v, ',')
		}
		v = append(v, ex.Input...)
	}
	v = append(v, ']')
	return writeObject(append(members, member{key: "examples", value: v}))
}

// envelope returns the object schema stating a result of schema S under ResultProperty:
// {"type":"object","properties":{"result":S},"additionalProperties":false}, with S's "$schema" and
// "$defs" (and "definitions") moved to the envelope's root.
func envelope(schema []byte) ([]byte, error) {
	members, ok := rootMembers(schema)
	if !ok {
		return nil, errNotObject
	}
	var root, inner []member
	for _, m := range members {
		// A reference into the schema's root ("#" for a recursive type, "#/properties/...") now points
		// into the envelope: it is rebased onto "#/properties/result"; "#/$defs/..." references move
		// with the $defs and stay as they are.
		m.value = rebaseRefs(m.key, m.value)
		switch m.key {
		case "$schema", "$defs", "definitions":
			root = append(root, m)
		default:
			inner = append(inner, m)
		}
	}
	props := []byte(`{"` + ResultProperty + `":`)
	props = append(append(props, writeObject(inner)...), '}')
	out := []member{{key: "type", value: []byte(`"object"`)}, {key: "properties", value: props},
		{key: "additionalProperties", value: []byte("false")}}
	if len(root) > 0 && root[0].key == "$schema" {
		out = append(root[:1:1], out...)
		root = root[1:]
	}
	return writeObject(append(out, root...)), nil
}

// valueRules are the keywords of a result schema that state rules of values (winkgen writes them from a
// result type's wink:"..." tags and enum constants) rather than their shape.
var valueRules = map[string]bool{
	"enum": true, "const": true, "format": true, "pattern": true,
	"minLength": true, "maxLength": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minItems": true, "maxItems": true, "uniqueItems": true, "minProperties": true, "maxProperties": true,
}

// guaranteed returns the result schema as an outputSchema: what the generated encoder guarantees of
// every value it writes (types, properties, required members, items, nullability, $defs and $ref), without
// the rules of values (valueRules). Only arguments are decoded strictly; a result is whatever the handler
// returned, and Go's types do not keep an enum-typed field among its constants, a string within its
// pattern or a slice within its bounds, so a result schema stating them would make clients that validate
// structuredContent (the TypeScript SDK's does, with AJV) reject a whole call for a value the handler was
// free to return. Descriptions stay, so the rules still reach whoever reads the schema; "format":
// "date-time" stays too (the encoder writes every time.Time in RFC 3339). A schema it cannot split is
// returned as it is.
func guaranteed(schema []byte) []byte {
	members, ok := rootMembers(schema)
	if !ok {
		return schema
	}
	kept := members[:0]
	for _, m := range members {
		// A time.Time is always written as RFC 3339: "date-time" is the one rule the encoder keeps.
		if valueRules[m.key] && (m.key != "format" || string(m.value) != `"date-time"`) {
			continue
		}
		m.value = guaranteedIn(m.key, m.value)
		kept = append(kept, m)
	}
	return writeObject(kept)
}

// guaranteedIn applies guaranteed to the subschemas held by the keyword key with value v.
func guaranteedIn(key string, v []byte) []byte { return subschemas(key, v, guaranteed) }

// resultPointer is the JSON pointer of the result's schema inside the envelope.
const resultPointer = "#/properties/" + ResultProperty

// rebaseRefs returns v, the value of a root keyword of a schema (key), with every "$ref" into the
// document's root rebased onto resultPointer: "#" becomes "#/properties/result" and "#/items"
// "#/properties/result/items"; references to "#/$defs/..." and "#/definitions/..." (which the envelope
// keeps at its root) and to other documents are kept. It walks subschemas only (the keywords of JSON
// Schema 2020-12 that hold them), so a "$ref" member of a default, an example or an enum value is data and
// stays as it is. A value it cannot split (not JSON, a key with escapes) is kept as it is.
func rebaseRefs(key string, v []byte) []byte {
	if key == "$ref" {
		if len(v) >= 3 && v[0] == '"' && v[1] == '#' && (v[2] == '"' || v[2] == '/') &&
			!hasPrefix(v[2:], "/$defs/") && !hasPrefix(v[2:], "/definitions/") {
			return append([]byte(`"`+resultPointer), v[2:]...)
		}
		return v
	}
	return subschemas(key, v, rebaseSchema)
}

// subschemas returns v, the value of the schema keyword key, with f applied to each subschema it holds
// (the keywords of JSON Schema 2020-12 that hold schemas: a map of them, one, or an array of them); the
// value of any other keyword (data: a default, an example, an enum) and a value it cannot split (not JSON,
// a key with escapes) are kept as they are.
func subschemas(key string, v []byte, f func([]byte) []byte) []byte {
	switch key {
	case "properties", "$defs", "definitions", "patternProperties", "dependentSchemas":
		members, ok := rootMembers(v)
		if !ok {
			return v
		}
		for i := range members {
			members[i].value = f(members[i].value)
		}
		return writeObject(members)
	case "items", "additionalProperties", "not", "contains", "propertyNames", "unevaluatedItems",
		"unevaluatedProperties", "if", "then", "else", "additionalItems":
		return f(v)
	case "allOf", "anyOf", "oneOf", "prefixItems":
		i := skipWS(v, 0)
		if i >= len(v) || v[i] != '[' {
			return v
		}
		out := []byte{'['}
		i = skipWS(v, i+1)
		for n := 0; i < len(v) && v[i] != ']'; n++ {
			end := skipValue(v, i)
			if end < 0 {
				return v
			}
			if n > 0 {
				out = append(out, ',')
			}
			out = append(out, f(v[i:end])...)
			i = skipWS(v, end)
			if i < len(v) && v[i] == ',' {
				i = skipWS(v, i+1)
			}
		}
		return append(out, ']')
	}
	return v
}

// rebaseSchema is rebaseRefs of every keyword of the schema v (an object; a boolean schema is kept).
func rebaseSchema(v []byte) []byte {
	members, ok := rootMembers(v)
	if !ok {
		return v
	}
	for i := range members {
		members[i].value = rebaseRefs(members[i].key, members[i].value)
	}
	return writeObject(members)
}

func hasPrefix(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == prefix
}

// structured returns the structuredContent of a successful call for sh: the value's JSON (ok false when
// there is none) in the envelope, {} when there is none, or nothing before 2025-06-18.
func structured(sh shape, value []byte, ok bool) (rawJSON, bool) {
	switch sh {
	case shapeEnvelope:
		if !ok {
			return rawJSON("{}"), true
		}
		b := make([]byte, 0, len(value)+len(ResultProperty)+5)
		b = append(b, `{"`+ResultProperty+`":`...)
		b = append(b, value...)
		return rawJSON(append(b, '}')), true
	}
	return nil, false
}

// listForVersion lists each tool as the request's protocol version states it, in registry order.
func (s *server) listForVersion(order map[string]int) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			lr, ok := res.(*mcp.ListToolsResult)
			if !ok || err != nil || method != "tools/list" {
				return res, err
			}
			sh := s.requestShape(req)
			tools := make([]*mcp.Tool, len(lr.Tools))
			for i, t := range lr.Tools {
				tools[i] = t
				if lt := s.listed[t.Name]; lt != nil {
					tools[i] = lt.byShape[sh]
				}
			}
			slices.SortStableFunc(tools, func(a, b *mcp.Tool) int { return order[a.Name] - order[b.Name] })
			out := *lr
			out.Tools = tools
			return &out, nil
		}
	}
}

// member is one member of a JSON object: its key (unescaped only when it has no escapes, which
// generated schemas never have at the root) and its value's text.
type member struct {
	key   string
	value []byte
}

// writeObject writes members as a JSON object.
func writeObject(members []member) []byte {
	b := []byte{'{'}
	for i, m := range members {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, m.key)
		b = append(b, ':')
		b = append(b, m.value...)
	}
	return append(b, '}')
}

// rootMembers splits a JSON object (a generated schema, already checked by rootType) into its members;
// ok is false when it is not an object or has a key with escapes.
func rootMembers(b []byte) ([]member, bool) {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i = skipWS(b, i+1)
	var out []member
	if i < len(b) && b[i] == '}' {
		return out, true
	}
	for i < len(b) {
		if b[i] != '"' {
			return nil, false
		}
		end := skipValue(b, i)
		if end < 0 {
			return nil, false
		}
		key := string(b[i+1 : end-1])
		if strings.IndexByte(key, '\\') >= 0 {
			return nil, false
		}
		i = skipWS(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipWS(b, i+1)
		vend := skipValue(b, i)
		if vend < 0 {
			return nil, false
		}
		out = append(out, member{key: key, value: b[i:vend]})
		i = skipWS(b, vend)
		if i < len(b) && b[i] == ',' {
			i = skipWS(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return out, true
		}
		return nil, false
	}
	return nil, false
}

// skipWS returns the index of the first non-whitespace byte at or after i.
func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value starting at i, or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return -1
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := skipValue(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && !strings.ContainsRune(" \t\r\n,}]", rune(b[j])) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
