package wink

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/winkgen/wink/runtime/strictjson"
)

// A tool list a client can pin: Fingerprint digests the definitions of a set of tools, so that a host
// that approved a server's tools can tell when a definition changed afterwards (a "rug pull": a tool
// whose description or schema is changed once people trust it). The MCP server publishes it
// (runtime/mcpserver); a host computes it offline from the same registry with Fingerprint, or reads it
// from a running server, and compares.
//
// What it covers is everything a client or a model is shown of each tool: its name, title and
// description, the params (input) and result (output) schemas, the examples, the annotation hints
// (read-only, idempotent, destructive, open-world), the scopes it needs, whether it runs as a task,
// and whether its definition is deferred. Each tool's definition is written as one JSON object and put
// in RFC 8785 canonical form (strictjson.Canonical: member order, whitespace and number spelling do not
// count); the definitions are sorted (as bytes of their canonical form), so neither the registry's
// order nor any map's changes it; the fingerprint is "sha256:" and the hex SHA-256 of the JSON array of them. It does not cover the
// source position of the handler, its code, or anything else the client is not shown: it changes when
// and only when a shown definition changes.

// Fingerprint returns the fingerprint of the definitions of tools (see above), whatever their order:
// "sha256:" followed by 64 hex digits. The fingerprint of no tools is that of "[]".
func Fingerprint(tools []*Tool) string {
	defs := make([][]byte, 0, len(tools))
	for _, t := range tools {
		defs = append(defs, t.definition())
	}
	slices.SortFunc(defs, func(a, b []byte) int { return strings.Compare(string(a), string(b)) })
	h := sha256.New()
	h.Write([]byte{'['})
	for i, d := range defs {
		if i > 0 {
			h.Write([]byte{','})
		}
		h.Write(d)
	}
	h.Write([]byte{']'})
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// definition returns t's definition in canonical JSON.
func (t *Tool) definition() []byte {
	sp := &t.spec
	b := []byte(`{"name":`)
	b = strictjson.AppendString(b, sp.Name)
	if sp.Title != "" {
		b = append(b, `,"title":`...)
		b = strictjson.AppendString(b, sp.Title)
	}
	b = append(b, `,"description":`...)
	b = strictjson.AppendString(b, t.Description())
	b = append(b, `,"inputSchema":`...)
	b = appendRaw(b, sp.ParamsSchema)
	if len(sp.ResultSchema) > 0 {
		b = append(b, `,"outputSchema":`...)
		b = appendRaw(b, sp.ResultSchema)
	}
	if len(sp.Examples) > 0 {
		b = append(b, `,"examples":[`...)
		for i, e := range sp.Examples {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"description":`...)
			b = strictjson.AppendString(b, e.Description)
			b = append(b, `,"input":`...)
			b = appendRaw(b, e.Input)
			b = append(b, `,"output":`...)
			b = appendRaw(b, e.Output)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"annotations":{"readOnlyHint":`...)
	b = strictjson.AppendBool(b, sp.ReadOnly)
	b = append(b, `,"idempotentHint":`...)
	b = strictjson.AppendBool(b, sp.Idempotency.Strategy != IdemNone)
	for _, h := range []struct {
		name string
		v    Hint
	}{{"destructiveHint", sp.Destructive}, {"openWorldHint", sp.OpenWorld}} {
		if h.v != HintUnset {
			b = append(b, `,"`...)
			b = append(b, h.name...)
			b = append(b, `":`...)
			b = strictjson.AppendBool(b, h.v == HintYes)
		}
	}
	b = append(b, '}')
	if len(sp.Scopes) > 0 {
		b = append(b, `,"scopes":[`...)
		for i, s := range sp.Scopes {
			if i > 0 {
				b = append(b, ',')
			}
			b = strictjson.AppendString(b, s)
		}
		b = append(b, ']')
	}
	switch sp.Task {
	case TaskOptional:
		b = append(b, `,"task":"optional"`...)
	case TaskRequired:
		b = append(b, `,"task":"required"`...)
	}
	if sp.Deferred {
		b = append(b, `,"deferred":true`...)
	}
	b = append(b, '}')
	c, err := strictjson.Canonical(nil, b)
	if err != nil {
		// A schema or example that is not JSON (a hand-written Spec; winkgen never emits one): the
		// definition is digested as written, which still changes whenever it changes.
		c = b
	}
	return c
}

// appendRaw appends the JSON text v, or null for none.
func appendRaw(b, v []byte) []byte {
	if len(v) == 0 {
		return append(b, "null"...)
	}
	return append(b, v...)
}
