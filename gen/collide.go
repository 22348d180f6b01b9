package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"

	"github.com/winkgen/wink/gen/model"
)

// checkEmitted reports the package-level declarations that would make the generated file src fail to
// compile even though its imports are named around them (nameImports): a declaration that shadows a
// predeclared identifier the generated code uses (a package's own string, len or append), and one the
// generated code refers to under a name it also uses for a local variable (a type named s or n). Both
// are rare; each gets a positioned diagnostic instead of output that does not build.
func checkEmitted(p *model.Package, src []byte) []Diagnostic {
	f, err := parser.ParseFile(token.NewFileSet(), OutputName, src, 0)
	if err != nil {
		return nil // format.Source accepted it; the build reports anything else
	}
	var ds diags
	// Predeclared identifiers: what the file leaves unresolved is package-level or universe.
	shadowed := map[string]bool{}
	for _, id := range f.Unresolved {
		if types.Universe.Lookup(id.Name) == nil || shadowed[id.Name] {
			continue
		}
		if pos, ok := p.Scope[id.Name]; ok {
			shadowed[id.Name] = true
			ds.add(tokenPos(pos), "%s shadows Go's predeclared %s, which winkgen's generated code uses; rename it", id.Name, id.Name)
		}
	}
	// Locals of generated functions against the package's identifiers the generated code names.
	locals := map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		ast.Inspect(fd, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Field:
				for _, id := range n.Names {
					locals[id.Name] = true
				}
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					for _, e := range n.Lhs {
						if id, ok := e.(*ast.Ident); ok {
							locals[id.Name] = true
						}
					}
				}
			case *ast.ValueSpec:
				for _, id := range n.Names {
					locals[id.Name] = true
				}
			case *ast.RangeStmt:
				if n.Tok == token.DEFINE {
					for _, e := range []ast.Expr{n.Key, n.Value} {
						if id, ok := e.(*ast.Ident); ok {
							locals[id.Name] = true
						}
					}
				}
			}
			return true
		})
	}
	var clash []string
	for name := range ownRefs(p) {
		if locals[name] && name != "_" {
			clash = append(clash, name)
		}
	}
	sort.Strings(clash)
	for _, name := range clash {
		if pos, ok := p.Scope[name]; ok {
			ds.add(tokenPos(pos), "%s: winkgen's generated code uses %s as a local variable and could not refer to this declaration; rename it", name, name)
		}
	}
	return ds.list
}

// ownRefs returns the names of the package's own identifiers that generated code refers to: handlers,
// key functions, named types and enum constants.
func ownRefs(p *model.Package) map[string]bool {
	refs := map[string]bool{}
	seen := map[*model.Type]bool{}
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if t.Named != nil && t.Named.Path == p.Path {
			refs[t.Named.Name] = true
		}
		for _, ev := range t.Enum {
			if ev.Const.Path == p.Path {
				refs[ev.Const.Name] = true
			}
		}
		walk(t.Elem)
		for _, f := range t.Fields {
			walk(f.Type)
		}
	}
	for _, t := range p.Tools {
		refs[t.Func.Name] = true
		if t.Idempotency != nil && t.Idempotency.Func.Name != "" {
			refs[t.Idempotency.Func.Name] = true
		}
		walk(t.Params)
		walk(t.Result)
	}
	for _, t := range p.Types {
		walk(t)
	}
	for _, t := range p.States {
		walk(t)
	}
	return refs
}

func tokenPos(p model.Pos) token.Position {
	return token.Position{Filename: p.File, Line: p.Line, Column: p.Col}
}
