package gen

import (
	"encoding/json"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/winkgen/wink/annotations"
	"github.com/winkgen/wink/gen/model"
)

// Forms: a named struct type marked //wink:form gets its strict decoder and a wink.Form,
//
//	var WinkFormContact = &wink.Form[Contact]{Name: "Contact", Schema: []byte(`{...}`), Decode: winkDecodeContact}
//
// whose Schema is the requestedSchema of MCP's elicitation (form mode): a flat object whose properties are
// primitives (string with minLength, maxLength and the formats email, uri, date and date-time; number and
// integer with minimum and maximum; boolean), single-select enums (a string enum: "enum" when untitled,
// "oneOf" of const/title when every value has a //wink:enum title) and multi-select enums (a slice of a string
// enum: "items" with "enum" or "anyOf"), each with its description (the field's comment) and default (its
// tag's default=). Anything a form cannot state is a diagnostic at the field: nested structs, maps, slices
// of anything but a string enum, integer enums, durations, and the constraints a client would not enforce
// (pattern, exclusiveMin/Max, multipleOf, other formats), so that the decoder never rejects an answer the
// form allowed.
//
// Decisions: titled enums use oneOf/anyOf, which current clients read; an enum type marked //wink:enum legacy
// states its titles the deprecated way instead (SEP-1330's legacy titled enum: "enum" and "enumNames"), for
// clients that read only that, in single-selects (a multi-select has no legacy form and keeps anyOf). Titles
// are read from //wink:enum directives on constants of the form's own package; an enum type of another
// package is untitled. A pointer field is an optional primitive.

// formState holds the //wink:form declarations and the //wink:enum titles of the package being analyzed.
type formState struct {
	decls  []stateDecl
	titles map[token.Pos]string // constant name position → //wink:enum title
	legacy map[string]bool      // enum types of the package marked //wink:enum legacy
}

// formName is the name of the form winkgen emits for a //wink:form type.
func formName(t *model.Type) string { return "WinkForm" + t.Named.Name }

// formDirective records a //wink:form directive in a type's doc comment.
func (a *analyzer) formDirective(ts *ast.TypeSpec, doc *ast.CommentGroup) {
	found := false
	for _, c := range doc.List {
		if !annotations.IsDirective(c.Text) {
			continue
		}
		d, errs := annotations.ParseDirective(c.Text, a.pos(c.Pos()))
		switch e := d.(type) {
		case *annotations.Form:
		case *annotations.Enum:
			a.owned[c] = true
			if len(errs) > 0 {
				for _, err := range errs {
					a.ds.add(err.Pos, "%s: %s", ts.Name.Name, err.Msg)
				}
				continue
			}
			if e.Title != "" {
				a.errorf(c.Pos(), "//wink:enum title=... belongs in the comment of an enum constant (the label a form shows for its value); on the type %s, //wink:enum takes legacy only", ts.Name.Name)
				continue
			}
			if e.Legacy {
				if a.fm.legacy == nil {
					a.fm.legacy = map[string]bool{}
				}
				a.fm.legacy[ts.Name.Name] = true
			}
			continue
		default:
			continue
		}
		a.owned[c] = true
		for _, e := range errs {
			a.ds.add(e.Pos, "%s: %s", ts.Name.Name, e.Msg)
		}
		if found {
			a.errorf(c.Pos(), "%s has more than one //wink:form directive; one is enough", ts.Name.Name)
			continue
		}
		found = true
		a.fm.decls = append(a.fm.decls, stateDecl{ts, c})
	}
}

// enumDirectives records the //wink:enum titles in the doc and line comments of a const declaration.
func (a *analyzer) enumDirectives(gd *ast.GenDecl) {
	for _, s := range gd.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		var cs []*ast.Comment
		for _, cg := range []*ast.CommentGroup{vs.Doc, vs.Comment} {
			if cg != nil {
				cs = append(cs, cg.List...)
			}
		}
		if len(gd.Specs) == 1 && gd.Doc != nil {
			cs = append(cs, gd.Doc.List...)
		}
		for _, c := range cs {
			if !annotations.IsDirective(c.Text) {
				continue
			}
			d, errs := annotations.ParseDirective(c.Text, a.pos(c.Pos()))
			e, ok := d.(*annotations.Enum)
			if !ok {
				continue
			}
			a.owned[c] = true
			for _, err := range errs {
				a.ds.add(err.Pos, "%s", err.Msg)
			}
			if e.Legacy {
				a.errorf(c.Pos(), "//wink:enum legacy belongs in the doc comment of the enum type, not of the constant %s", vs.Names[0].Name)
				continue
			}
			if len(vs.Names) != 1 {
				a.errorf(c.Pos(), "//wink:enum titles one constant; declare each titled constant on its own line")
				continue
			}
			if a.fm.titles == nil {
				a.fm.titles = map[token.Pos]string{}
			}
			if _, dup := a.fm.titles[vs.Names[0].Pos()]; dup {
				a.errorf(c.Pos(), "%s has more than one //wink:enum directive; one title is enough", vs.Names[0].Name)
				continue
			}
			if e.Title != "" {
				a.fm.titles[vs.Names[0].Pos()] = e.Title
			}
		}
	}
}

// enumTitle is the //wink:enum title of constant c, or "".
func (a *analyzer) enumTitle(c *types.Const) string { return a.fm.titles[c.Pos()] }

// formTypes converts the types marked //wink:form and checks that each fits MCP's elicitation subset.
func (a *analyzer) formTypes() []*model.Type {
	var out []*model.Type
	for _, sd := range a.fm.decls {
		obj, _ := a.pkg.TypesInfo.Defs[sd.ts.Name].(*types.TypeName)
		if obj == nil {
			continue
		}
		named, isNamed := obj.Type().(*types.Named)
		switch {
		case !isNamed || obj.IsAlias():
			a.errorf(sd.dir.Pos(), "//wink:form applies to a named struct type, not to the alias %s", sd.ts.Name.Name)
			continue
		case named.TypeParams().Len() > 0:
			a.errorf(sd.dir.Pos(), "//wink:form applies to a named struct type, not to the generic type %s", sd.ts.Name.Name)
			continue
		}
		if _, ok := named.Underlying().(*types.Struct); !ok {
			a.errorf(sd.dir.Pos(), "//wink:form applies to a named struct type; %s is %s", sd.ts.Name.Name, a.typeString(named.Underlying()))
			continue
		}
		t := a.convert(named, sd.ts.Name.Name, sd.ts.Name.Pos())
		if t == nil {
			continue
		}
		if a.checkForm(t) {
			for _, f := range t.Fields {
				for ft := f.Type; ft != nil; ft = ft.Elem {
					if ft.Named != nil && ft.Named.Path == a.pkg.PkgPath && a.fm.legacy[ft.Named.Name] {
						ft.LegacyTitles = true
					}
				}
			}
			out = append(out, t)
		}
	}
	return out
}

// checkForm reports every field of t outside MCP's elicitation subset; false when there is one.
func (a *analyzer) checkForm(t *model.Type) bool {
	ok := true
	bad := func(f *model.Field, msg string) {
		ok = false
		a.ds.add(token.Position{Filename: f.Pos.File, Line: f.Pos.Line, Column: f.Pos.Col}, "%s.%s: %s", t.Named.Name, strings.Join(f.GoPath, "."), msg)
	}
	if len(t.Fields) == 0 {
		a.ds.add(token.Position{}, "%s: a form needs at least one field", t.Named.Name)
		return false
	}
	for _, f := range t.Fields {
		ft := f.Type
		if ft.Kind == model.KindPointer {
			ft = ft.Elem
		}
		switch ft.Kind {
		case model.KindString, model.KindBool, model.KindFloat, model.KindTime:
		case model.KindInt, model.KindUint:
			if len(ft.Enum) > 0 {
				bad(f, "an integer enum is outside MCP's elicitation subset (a form's choices are strings); use a string enum")
				continue
			}
		case model.KindSlice:
			if ft.Elem.Kind != model.KindString || (len(ft.Elem.Enum) == 0 && (f.Cons == nil || len(f.Cons.Enum) == 0)) {
				bad(f, "a form's list must be a multi-select: a slice of a string enum (MCP's elicitation subset has no other arrays)")
				continue
			}
		default:
			bad(f, "a form field must be a string, number, integer, boolean, time.Time, string enum or slice of a string enum (MCP's elicitation subset is flat); "+ft.KindName()+" is not")
			continue
		}
		if c := f.Cons; c != nil {
			for _, k := range []struct {
				set  bool
				name string
			}{{c.Pattern != "", "pattern"}, {c.ExclusiveMin != nil, "exclusiveMin"}, {c.ExclusiveMax != nil, "exclusiveMax"}, {c.MultipleOf != nil, "multipleOf"}} {
				if k.set {
					bad(f, k.name+" is outside MCP's elicitation subset: a client could not show it, and the decoder would reject answers the form allowed")
				}
			}
			switch c.Format {
			case "", "email", "uri", "date", "date-time":
			default:
				bad(f, "format "+c.Format+" is outside MCP's elicitation subset (email, uri, date, date-time)")
			}
		}
	}
	return ok
}

// formSchema is the requestedSchema of the form t.
func formSchema(t *model.Type) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	for i, f := range t.Fields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonString(f.JSONName))
		b.WriteByte(':')
		writeFormProperty(&b, f)
		if f.Required {
			required = append(required, f.JSONName)
		}
	}
	b.WriteByte('}')
	if len(required) > 0 {
		b.WriteString(`,"required":[`)
		for i, r := range required {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(jsonString(r))
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// writeFormProperty writes the schema of one form field.
func writeFormProperty(b *strings.Builder, f *model.Field) {
	ft := f.Type
	if ft.Kind == model.KindPointer {
		ft = ft.Elem
	}
	c := f.Cons
	if c == nil {
		c = &model.Constraints{}
	}
	b.WriteByte('{')
	switch ft.Kind {
	case model.KindString:
		b.WriteString(`"type":"string"`)
		if list, titled := choices(ft, c); titled && ft.LegacyTitles {
			b.WriteString(`,"enum":` + untitledList(list) + `,"enumNames":[`)
			for i, v := range list {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(jsonString(v.Title))
			}
			b.WriteByte(']')
		} else if titled {
			b.WriteString(`,"oneOf":` + titledList(list))
		} else if list != nil {
			b.WriteString(`,"enum":` + untitledList(list))
		}
	case model.KindTime:
		b.WriteString(`"type":"string","format":"date-time"`)
	case model.KindBool:
		b.WriteString(`"type":"boolean"`)
	case model.KindInt, model.KindUint:
		b.WriteString(`"type":"integer"`)
	case model.KindFloat:
		b.WriteString(`"type":"number"`)
	case model.KindSlice:
		if list, titled := choices(ft.Elem, c); titled {
			b.WriteString(`"type":"array","items":{"anyOf":` + titledList(list) + `}`)
		} else {
			b.WriteString(`"type":"array","items":{"type":"string","enum":` + untitledList(list) + `}`)
		}
		if c.MinItems != nil {
			b.WriteString(`,"minItems":` + itoa(*c.MinItems))
		}
		if c.MaxItems != nil {
			b.WriteString(`,"maxItems":` + itoa(*c.MaxItems))
		}
	}
	if f.Doc != "" {
		b.WriteString(`,"description":` + jsonString(f.Doc))
	}
	if ft.Kind == model.KindString && len(ft.Enum) == 0 && len(c.Enum) == 0 {
		if c.MinLength != nil {
			b.WriteString(`,"minLength":` + itoa(*c.MinLength))
		}
		if c.MaxLength != nil {
			b.WriteString(`,"maxLength":` + itoa(*c.MaxLength))
		}
		if c.Format != "" {
			b.WriteString(`,"format":` + jsonString(c.Format))
		}
	}
	if ft.Kind == model.KindInt || ft.Kind == model.KindUint || ft.Kind == model.KindFloat {
		if c.Min != nil {
			b.WriteString(`,"minimum":` + c.Min.Literal)
		}
		if c.Max != nil {
			b.WriteString(`,"maximum":` + c.Max.Literal)
		}
	}
	if c.Default != "" {
		b.WriteString(`,"default":` + c.Default)
	}
	b.WriteByte('}')
}

// choices are the values a string (enum) field may take, narrowed by its tag's enum=, and whether every
// one has a //wink:enum title; nil for a plain string.
func choices(t *model.Type, c *model.Constraints) (list []*model.EnumValue, titled bool) {
	allowed := map[string]bool{}
	for _, e := range c.Enum {
		allowed[e] = true
	}
	for _, v := range t.Enum {
		if len(allowed) == 0 || allowed[v.JSON] {
			list = append(list, v)
		}
	}
	if len(t.Enum) == 0 {
		for _, e := range c.Enum {
			list = append(list, &model.EnumValue{JSON: e})
		}
	}
	titled = len(list) > 0
	for _, v := range list {
		titled = titled && v.Title != ""
	}
	return list, titled
}

// untitledList is `["a","b"]`.
func untitledList(list []*model.EnumValue) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(v.JSON)
	}
	b.WriteByte(']')
	return b.String()
}

// titledList is `[{"const":"a","title":"A"},...]`.
func titledList(list []*model.EnumValue) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"const":` + v.JSON + `,"title":` + jsonString(v.Title) + `}`)
	}
	b.WriteByte(']')
	return b.String()
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// emitForm emits the wink.Form of a //wink:form type.
func (e *emitter) emitForm(t *model.Type) {
	ty := jen.Qual(t.Named.Path, t.Named.Name)
	e.f.Comment(formName(t) + " is the elicitation form of " + t.Named.Name + " (//wink:form): its requestedSchema in MCP's")
	e.f.Comment("elicitation subset and its strict decoder. Ask for it with wink.Elicit(tc, message, " + formName(t) + ").")
	e.f.Var().Id(formName(t)).Op("=").Op("&").Qual(WinkPath, "Form").Types(ty).Values(jen.Dict{
		jen.Id("Name"):   jen.Lit(t.Named.Name),
		jen.Id("Schema"): e.schemaVar(formSchema(t), "winkSchemaForm"+t.ID),
		jen.Id("Decode"): jen.Id(decodeFuncName(t)),
	})
}
