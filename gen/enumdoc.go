package gen

import (
	"go/ast"
	"go/token"
	"strings"
)

// constDocs records the doc text of each constant in a const declaration (its own doc comment, else its
// trailing line comment, else the declaration's doc when it declares one spec), directives excluded: what
// an integer enum's values mean, for the schema's description (model.EnumValue.Doc).
func (a *analyzer) constDocs(gd *ast.GenDecl) {
	for _, s := range gd.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		cg := vs.Doc
		if cg == nil {
			cg = vs.Comment
		}
		if cg == nil && len(gd.Specs) == 1 {
			cg = gd.Doc
		}
		if cg == nil {
			continue
		}
		text := foldSpace(cg.Text()) // CommentGroup.Text drops directives
		for _, n := range vs.Names {
			a.constDoc[n.Pos()] = constMeaning(n.Name, text)
		}
	}
}

// constMeaning is a constant's doc without the Go convention's leading name and verb ("Low is for tasks
// that can wait." → "for tasks that can wait"; "High means today." → "today"; "Medium: this week." → "this
// week").
func constMeaning(name, doc string) string {
	for _, sep := range []string{": ", " - ", ", "} {
		if rest, ok := strings.CutPrefix(doc, name+sep); ok {
			return strings.TrimSuffix(rest, ".")
		}
	}
	if rest, ok := strings.CutPrefix(doc, name+" "); ok {
		for _, verb := range []string{"is ", "means ", "marks ", "says "} {
			if r, ok := strings.CutPrefix(rest, verb); ok {
				return strings.TrimSuffix(r, ".")
			}
		}
		return strings.TrimSuffix(rest, ".")
	}
	return strings.TrimSuffix(doc, ".")
}

// constDocAt is the doc recorded for the constant declared at pos ("" for none).
func (a *analyzer) constDocAt(pos token.Pos) string { return a.constDoc[pos] }
