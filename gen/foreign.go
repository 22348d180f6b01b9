package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"

	"github.com/winkgen/wink/annotations"
)

// namedTag returns the //wink:constraints of a named type: from this package's syntax, or, for a type of
// another package (whose syntax the loader does not keep), from its declaring file, parsed once.
func (a *analyzer) namedTag(n *types.Named) *annotations.Tag {
	obj := n.Obj()
	if obj.Pkg() == nil || obj.Pkg().Path() == a.pkg.PkgPath {
		return a.typeCons[obj.Pos()]
	}
	pos := a.fset.Position(obj.Pos())
	if pos.Filename == "" {
		return nil
	}
	if a.foreign == nil {
		a.foreign = map[string]map[string]*annotations.Tag{}
	}
	tags, ok := a.foreign[pos.Filename]
	if !ok {
		tags = a.parseForeign(pos.Filename)
		a.foreign[pos.Filename] = tags
	}
	return tags[obj.Name()]
}

// parseForeign reads the //wink:constraints of the types declared in file (another package's). A directive
// that does not parse is reported where it is: silently dropping it would loosen the schema.
func (a *analyzer) parseForeign(file string) map[string]*annotations.Tag {
	tags := map[string]*annotations.Tag{}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return tags
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			doc := ts.Doc
			if doc == nil && len(gd.Specs) == 1 {
				doc = gd.Doc
			}
			if doc == nil {
				continue
			}
			for _, c := range doc.List {
				if !annotations.IsDirective(c.Text) {
					continue
				}
				d, errs := annotations.ParseDirective(c.Text, fset.Position(c.Pos()))
				for _, e := range errs {
					a.ds.add(e.Pos, "%s: %s", ts.Name.Name, e.Msg)
				}
				if cons, ok := d.(*annotations.Constraints); ok && cons.Tag != nil && len(errs) == 0 {
					tags[ts.Name.Name] = cons.Tag
				}
			}
		}
	}
	return tags
}
