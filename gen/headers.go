package gen

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/winkgen/wink/annotations"
	"github.com/winkgen/wink/gen/model"
)

// A field tagged wink:"header=Region" is a tool parameter MCP's Streamable HTTP transport mirrors into the
// Mcp-Param-Region header: winkgen writes it into wink.Spec.Headers, and the MCP server lists it as the
// property's "x-mcp-header" annotation and checks the header against the body. The specification's
// restrictions are checked here, so a tool is never listed with an annotation clients must reject:
//
//   - the name is not empty and is an HTTP field name token (RFC 9110 tchar: letters, digits and
//     !#$%&'*+-.^_`|~; no space, colon, control character or non-ASCII letter);
//   - the field is a string, an integer or a bool (or a pointer to one), never a number, slice, map or
//     struct; an integer whose type reaches past JavaScript's safe range needs min and max within it;
//   - names are unique among a tool's parameters, ignoring case;
//   - the field is a top-level field of the tool's params struct (winkgen writes nested structs under
//     $defs, where a client's plain walk of "properties" would not find the annotation).

// safeInt is the largest integer MCP mirrors into a header (2^53-1).
var safeInt = big.NewInt(1<<53 - 1)

// headerTag checks the value and the field of a header=NAME tag item, reporting what is wrong.
func (a *analyzer) headerTag(item annotations.TagItem, f *model.Field, where string) bool {
	if !item.HasValue || item.Value == "" {
		a.ds.add(item.KeyPos, "%s: header needs a name, like header=Region (sent as the Mcp-Param-Region header)", where)
		return false
	}
	for _, r := range item.Value {
		if r >= 0x80 || !isTChar(byte(r)) {
			a.ds.add(item.ValuePos, "%s: header=%s: %s cannot be part of an HTTP field name; use ASCII letters, digits and !#$%%&'*+-.^_`|~", where, item.Value, strconv.QuoteRune(r))
			return false
		}
	}
	t := stripPtr(f.Type)
	if len(t.Enum) == 0 && (t.Kind == model.KindString || t.Kind == model.KindBool || t.Kind == model.KindInt || t.Kind == model.KindUint) ||
		len(t.Enum) > 0 && (t.Kind == model.KindString || t.Kind == model.KindInt || t.Kind == model.KindUint) {
		return true
	}
	what := aKind(t)
	if t.Kind == model.KindFloat {
		what += " (MCP mirrors no numbers with fractions into headers)"
	}
	a.ds.add(item.KeyPos, "%s: header applies to a string, integer or bool field, not to %s", where, what)
	return false
}

// headerIntInRange reports whether an integer field tagged header keeps within JavaScript's safe range,
// by its type or by its min and max; true for other kinds.
func headerIntInRange(t *model.Type, c *model.Constraints) bool {
	if t.Kind != model.KindInt && t.Kind != model.KindUint {
		return true
	}
	lo, hi := typeRange(t)
	if c.Min != nil {
		if r, ok := new(big.Rat).SetString(c.Min.Literal); ok && r.IsInt() {
			lo = r.Num()
		}
	}
	if c.Max != nil {
		if r, ok := new(big.Rat).SetString(c.Max.Literal); ok && r.IsInt() {
			hi = r.Num()
		}
	}
	return hi.Cmp(safeInt) <= 0 && lo.Cmp(new(big.Int).Neg(safeInt)) >= 0
}

// isTChar reports an RFC 9110 token character.
func isTChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// paramHeaders checks the header tags of a tool's params: unique names (ignoring case) on top-level fields.
// It returns the tool's headers in field order.
func (a *analyzer) paramHeaders(t *model.Tool) []model.ParamHeader {
	if t.Params == nil {
		return nil
	}
	var out []model.ParamHeader
	seen := map[string]*model.Field{}
	for _, f := range t.Params.Fields {
		if f.Cons == nil || f.Cons.Header == "" {
			continue
		}
		key := strings.ToLower(f.Cons.Header)
		if prev := seen[key]; prev != nil {
			a.ds.add(tokenPos(f.Cons.HeaderPos), "tool %s: header=%s on %s names the same header as header=%s on %s (names are compared ignoring case); give each its own", t.Name, f.Cons.Header, f.JSONName, prev.Cons.Header, prev.JSONName)
			continue
		}
		seen[key] = f
		out = append(out, model.ParamHeader{Param: f.JSONName, Header: f.Cons.Header})
	}
	visited := map[*model.Type]bool{t.Params: true}
	for _, f := range t.Params.Fields {
		a.nestedHeaders(t, f.Type, visited)
	}
	return out
}

// nestedHeaders reports header tags on fields below a tool's top-level params.
func (a *analyzer) nestedHeaders(t *model.Tool, ty *model.Type, visited map[*model.Type]bool) {
	if ty == nil || visited[ty] {
		return
	}
	visited[ty] = true
	a.nestedHeaders(t, ty.Elem, visited)
	for _, f := range ty.Fields {
		if f.Cons != nil && f.Cons.Header != "" {
			a.ds.add(tokenPos(f.Cons.HeaderPos), "tool %s: header=%s on %s.%s: only a top-level field of the params struct %s can be mirrored into a header; move it there", t.Name, f.Cons.Header, typeNameOf(ty), f.JSONName, t.Params.Named.Name)
		}
		a.nestedHeaders(t, f.Type, visited)
	}
}

func typeNameOf(t *model.Type) string {
	if t.Named != nil {
		return t.Named.Name
	}
	return t.KindName()
}
