package gen

import (
	"go/types"

	"github.com/dave/jennifer/jen"
	"github.com/winkgen/wink/gen/model"
)

// Shape guards. The generated file assigns a zero value of each named struct it decodes or encodes to the
// struct type it saw at generation time, spelled out with every field and tag:
//
//	var _ struct {
//		Query string `json:"query"`
//	} = SearchParams{}
//
// Assignability needs identical field names, types and tags, so adding, removing, renaming, retyping or
// retagging a field without regenerating fails to compile, with the generated guard as the position. A
// struct that cannot be spelled in the generated file (a field of an unexported type of another package,
// a generic type, a channel or function type) gets no guard; -check still catches it.

// goType spells t, or returns nil when the generated file cannot.
func (a *analyzer) goType(t types.Type) *model.GoType {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		obj := t.Obj()
		if t.TypeArgs().Len() > 0 {
			return nil
		}
		if obj.Pkg() == nil {
			return &model.GoType{Op: "ident", Ident: model.Ident{Name: obj.Name()}}
		}
		if obj.Pkg().Path() != a.pkg.PkgPath && !obj.Exported() {
			return nil
		}
		if obj.Pkg().Path() != a.pkg.PkgPath {
			if a.pkgNames == nil {
				a.pkgNames = map[string]string{}
			}
			a.pkgNames[obj.Pkg().Path()] = obj.Pkg().Name()
		}
		return &model.GoType{Op: "ident", Ident: model.Ident{Path: obj.Pkg().Path(), Name: obj.Name()}}
	case *types.Basic:
		if t.Kind() == types.UnsafePointer || t.Info()&types.IsUntyped != 0 {
			return nil
		}
		return &model.GoType{Op: "ident", Ident: model.Ident{Name: t.Name()}}
	case *types.Pointer:
		return a.wrapType("ptr", t.Elem())
	case *types.Slice:
		return a.wrapType("slice", t.Elem())
	case *types.Array:
		g := a.wrapType("array", t.Elem())
		if g != nil {
			g.Len = t.Len()
		}
		return g
	case *types.Map:
		k, v := a.goType(t.Key()), a.goType(t.Elem())
		if k == nil || v == nil {
			return nil
		}
		return &model.GoType{Op: "map", Key: k, Elem: v}
	case *types.Interface:
		if t.Empty() {
			return &model.GoType{Op: "ident", Ident: model.Ident{Name: "any"}}
		}
	case *types.Struct:
		g := &model.GoType{Op: "struct"}
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			if !f.Exported() && f.Pkg().Path() != a.pkg.PkgPath {
				return nil
			}
			ft := a.goType(f.Type())
			if ft == nil {
				return nil
			}
			g.Fields = append(g.Fields, model.GoField{Name: f.Name(), Embedded: f.Embedded(), Type: ft, Tag: t.Tag(i)})
		}
		return g
	}
	return nil
}

func (a *analyzer) wrapType(op string, elem types.Type) *model.GoType {
	e := a.goType(elem)
	if e == nil {
		return nil
	}
	return &model.GoType{Op: op, Elem: e}
}

// goTypeCode writes g.
func goTypeCode(g *model.GoType) jen.Code {
	switch g.Op {
	case "ident":
		if g.Ident.Path == "" {
			return jen.Id(g.Ident.Name)
		}
		return jen.Qual(g.Ident.Path, g.Ident.Name)
	case "ptr":
		return jen.Op("*").Add(goTypeCode(g.Elem))
	case "slice":
		return jen.Index().Add(goTypeCode(g.Elem))
	case "array":
		return jen.Index(jen.Lit(int(g.Len))).Add(goTypeCode(g.Elem))
	case "map":
		return jen.Map(goTypeCode(g.Key)).Add(goTypeCode(g.Elem))
	}
	var fields []jen.Code
	for _, f := range g.Fields {
		var c *jen.Statement
		if f.Embedded {
			c = jen.Add(goTypeCode(f.Type))
		} else {
			c = jen.Id(f.Name).Add(goTypeCode(f.Type))
		}
		if f.Tag != "" {
			if rawable(f.Tag) {
				c = c.Id("`" + f.Tag + "`")
			} else {
				c = c.Lit(f.Tag)
			}
		}
		fields = append(fields, c)
	}
	return jen.Struct(fields...)
}

// shapeGuards returns one guard per named struct of the package's model that can be spelled.
func shapeGuards(p *model.Package) []jen.Code {
	var out []jen.Code
	seen := map[*model.Type]bool{}
	for _, t := range append(append([]*model.Type{}, p.Types...), p.States...) {
		if seen[t] {
			continue
		}
		seen[t] = true
		if t.Kind == model.KindStruct && t.Named != nil && t.Shape != nil {
			alias := staleName(t.ID)
			out = append(out, jen.Type().Id(alias).Op("=").Add(goTypeCode(t.Shape)),
				jen.Var().Id("_").Id(alias).Op("=").Qual(t.Named.Path, t.Named.Name).Values())
		}
	}
	return out
}

// staleName is the alias a guard assigns to: the compiler's error names it ("cannot use T{} (value of
// struct type T) as winkStaleTRunGoGenerate value"), so a stale file says in one short line what to do.
func staleName(id string) string { return "winkStale" + id + "RunGoGenerate" }
