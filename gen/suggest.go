package gen

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"
	"unicode"

	"github.com/winkgen/wink/gen/model"
)

// toolNameLike turns name into the nearest valid tool name (validToolName): lower case, camel humps and
// every character outside [a-z0-9_-] as '_', a leading digit or '-' behind a '_', at most 64 bytes; "" when
// nothing is left.
func toolNameLike(name string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-':
			b.WriteRune(r)
			prevLower = r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		case r >= 'A' && r <= 'Z':
			if prevLower {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			prevLower = false
		default:
			if s := b.String(); s != "" && !strings.HasSuffix(s, "_") {
				b.WriteByte('_')
			}
			prevLower = false
		}
	}
	s := strings.Trim(b.String(), "_")
	if s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		s = "_" + s
	}
	if len(s) > 64 {
		s = strings.TrimRight(s[:64], "_-")
	}
	if !validToolName(s) {
		return ""
	}
	return s
}

// renameHint says how to give a tool a valid name: with //wink:tool name=..., proposing one derived from
// the name it has.
func renameHint(name string) string {
	if s := toolNameLike(name); s != "" {
		return "; did you mean //wink:tool name=" + s + "?"
	}
	return "; give it one with //wink:tool name=..."
}

// duplicateHint says how to rename the second tool of a name: a free name built from its function's
// name, else from the name and a number.
func duplicateHint(t *model.Tool, taken map[string]*model.Tool) string {
	for _, c := range []string{snakeCase(t.Func.Name), t.Name + "_2"} {
		c = toolNameLike(c)
		for i := 3; c != "" && taken[c] != nil && i < 100; i++ {
			c = toolNameLike(t.Name + "_" + strconv.Itoa(i))
		}
		if c != "" && taken[c] == nil {
			return "; rename one, for example //wink:tool name=" + c + " on " + t.Func.Name
		}
	}
	return "; rename one with //wink:tool name=..."
}

// signatureTypes converts the named struct types a handler of the wrong shape names (its parameters and
// the R of a wink.ToolResult[R] result), so their own problems are reported in the same run as the shape.
func (a *analyzer) signatureTypes(sig *types.Signature, fd *ast.FuncDecl) {
	var ts []types.Type
	for i := 0; i < sig.Params().Len(); i++ {
		ts = append(ts, sig.Params().At(i).Type())
	}
	for i := 0; i < sig.Results().Len(); i++ {
		if n, ok := types.Unalias(sig.Results().At(i).Type()).(*types.Named); ok && isWinkNamed(n, "ToolResult") && n.TypeArgs().Len() == 1 {
			ts = append(ts, n.TypeArgs().At(0))
		}
	}
	for _, t := range ts {
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || !isStruct(n) || n.TypeArgs().Len() > 0 || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() == WinkPath {
			continue
		}
		a.convert(n, n.Obj().Name(), fd.Type.Pos())
	}
}
