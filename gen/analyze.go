package gen

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/winkgen/wink/annotations"
	"github.com/winkgen/wink/gen/model"
	"golang.org/x/tools/go/packages"
)

// WinkPath is the import path of the runtime package generated code and handlers use.
const WinkPath = "github.com/winkgen/wink/runtime/wink"

// analyzer turns one type-checked package into the model, checking everything the README promises and
// collecting every problem as a diagnostic.
type analyzer struct {
	pkg  *packages.Package
	fset *token.FileSet
	ds   diags

	named     map[*types.Named]*model.Type
	inProg    []*types.Named // named structs being converted (recursion detection)
	inProgTy  []*model.Type
	order     []*model.Type
	ids       map[string]bool                        // generated-identifier stems in use
	astFields map[token.Pos]*ast.Field               // field name (or embedded type) position → syntax
	typeDocs  map[token.Pos]string                   // type name position → doc text
	constDoc  map[token.Pos]string                   // constant name position → what it means (enumdoc.go)
	typeCons  map[token.Pos]*annotations.Tag         // type name position → its //wink:constraints
	states    []stateDecl                            // types marked //wink:state, in source order
	fm        formState                              // //wink:form types and //wink:enum titles (emit_form.go)
	owned     map[*ast.Comment]bool                  // directives that belong to a declaration
	reported  map[string]bool                        // de-duplicates per-type diagnostics
	pkgNames  map[string]string                      // import path → name of other packages whose types are named
	buildCons map[string]string                      // file name → its build constraint, for constrained files
	foreign   map[string]map[string]*annotations.Tag // another package's file → its types' //wink:constraints
	declared  map[string]bool                        // other packages whose declarations were read (loadsrc.go)
}

func newAnalyzer(pkg *packages.Package) *analyzer {
	a := &analyzer{
		pkg:       pkg,
		fset:      pkg.Fset,
		named:     map[*types.Named]*model.Type{},
		ids:       map[string]bool{},
		astFields: map[token.Pos]*ast.Field{},
		typeDocs:  map[token.Pos]string{},
		constDoc:  map[token.Pos]string{},
		typeCons:  map[token.Pos]*annotations.Tag{},
		owned:     map[*ast.Comment]bool{},
		reported:  map[string]bool{},
	}
	a.buildCons = map[string]string{}
	for _, f := range a.files() {
		name := a.fset.Position(f.Pos()).Filename
		if why := fileConstraint(name, f); why != "" {
			a.buildCons[name] = why
		}
	}
	for _, f := range a.files() {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				if n.Tok == token.TYPE {
					for _, s := range n.Specs {
						ts := s.(*ast.TypeSpec)
						doc := ts.Doc
						if doc == nil && len(n.Specs) == 1 {
							doc = n.Doc
						}
						if doc != nil {
							a.typeDocs[ts.Name.Pos()] = doc.Text()
							a.typeConstraints(ts, doc)
							a.stateDirective(ts, doc)
							a.formDirective(ts, doc)
						}
					}
				}
				if n.Tok == token.CONST {
					a.enumDirectives(n) // emit_form.go
					a.constDocs(n)      // enumdoc.go
				}
			case *ast.StructType:
				for _, fld := range n.Fields.List {
					if len(fld.Names) == 0 {
						a.astFields[embeddedPos(fld.Type)] = fld
					}
					for _, name := range fld.Names {
						a.astFields[name.Pos()] = fld
					}
				}
			}
			return true
		})
	}
	return a
}

// typeConstraints records the //wink:constraints directives in a type's doc comment.
func (a *analyzer) typeConstraints(ts *ast.TypeSpec, doc *ast.CommentGroup) {
	for _, c := range doc.List {
		if !annotations.IsDirective(c.Text) {
			continue
		}
		d, errs := annotations.ParseDirective(c.Text, a.pos(c.Pos()))
		cons, ok := d.(*annotations.Constraints)
		if !ok {
			continue // reported as misplaced by analyze
		}
		a.owned[c] = true
		for _, e := range errs {
			a.ds.add(e.Pos, "%s: %s", ts.Name.Name, e.Msg)
		}
		if prev := a.typeCons[ts.Name.Pos()]; prev != nil {
			a.errorf(c.Pos(), "%s has more than one //wink:constraints directive; put all constraints in one", ts.Name.Name)
			continue
		}
		if cons.Tag != nil {
			a.typeCons[ts.Name.Pos()] = cons.Tag
		}
	}
}

// stateDecl is a type declaration marked //wink:state.
type stateDecl struct {
	ts  *ast.TypeSpec
	dir *ast.Comment
}

// stateDirective records a //wink:state directive in a type's doc comment.
func (a *analyzer) stateDirective(ts *ast.TypeSpec, doc *ast.CommentGroup) {
	found := false
	for _, c := range doc.List {
		if !annotations.IsDirective(c.Text) {
			continue
		}
		d, errs := annotations.ParseDirective(c.Text, a.pos(c.Pos()))
		if _, ok := d.(*annotations.State); !ok {
			continue
		}
		a.owned[c] = true
		for _, e := range errs {
			a.ds.add(e.Pos, "%s: %s", ts.Name.Name, e.Msg)
		}
		if found {
			a.errorf(c.Pos(), "%s has more than one //wink:state directive; one is enough", ts.Name.Name)
			continue
		}
		found = true
		a.states = append(a.states, stateDecl{ts, c})
	}
}

// stateTypes converts the types marked //wink:state: each must be a named, non-generic struct type.
func (a *analyzer) stateTypes() []*model.Type {
	var out []*model.Type
	for _, sd := range a.states {
		obj, _ := a.pkg.TypesInfo.Defs[sd.ts.Name].(*types.TypeName)
		if obj == nil {
			continue
		}
		named, isNamed := obj.Type().(*types.Named)
		if !isNamed || obj.IsAlias() {
			a.errorf(sd.dir.Pos(), "//wink:state applies to a named struct type, not to the alias %s", sd.ts.Name.Name)
			continue
		}
		if named.TypeParams().Len() > 0 {
			a.errorf(sd.dir.Pos(), "//wink:state applies to a named struct type, not to the generic type %s", sd.ts.Name.Name)
			continue
		}
		if _, ok := named.Underlying().(*types.Struct); !ok {
			a.errorf(sd.dir.Pos(), "//wink:state applies to a named struct type; %s is %s", sd.ts.Name.Name, a.typeString(named.Underlying()))
			continue
		}
		if t := a.convert(named, sd.ts.Name.Name, sd.ts.Name.Pos()); t != nil {
			out = append(out, t)
		}
	}
	return out
}

// embeddedPos is the position go/types reports for an embedded field: that of the type name.
func embeddedPos(e ast.Expr) token.Pos {
	switch t := e.(type) {
	case *ast.StarExpr:
		return embeddedPos(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Pos()
	case *ast.IndexExpr:
		return embeddedPos(t.X)
	case *ast.IndexListExpr:
		return embeddedPos(t.X)
	}
	return e.Pos()
}

// files returns the package's syntax without a previous generated file, in file name order.
func (a *analyzer) files() []*ast.File {
	var out []*ast.File
	for _, f := range a.pkg.Syntax {
		name := a.fset.Position(f.Pos()).Filename
		if filepath.Base(name) == OutputName {
			continue
		}
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool {
		return a.fset.Position(out[i].Pos()).Filename < a.fset.Position(out[j].Pos()).Filename
	})
	return out
}

func (a *analyzer) pos(p token.Pos) token.Position { return a.fset.Position(p) }

func (a *analyzer) mpos(p token.Pos) model.Pos {
	tp := a.fset.Position(p)
	return model.Pos{File: tp.Filename, Line: tp.Line, Col: tp.Column}
}

func (a *analyzer) errorf(p token.Pos, format string, args ...any) {
	a.ds.add(a.pos(p), format, args...)
}

// analyze returns the model of pkg, or nil when it declares no tools.
func analyze(pkg *packages.Package) (*model.Package, []Diagnostic) {
	return newAnalyzer(pkg).run()
}

func (a *analyzer) run() (*model.Package, []Diagnostic) {
	pkg := a.pkg
	mp := &model.Package{Path: pkg.PkgPath, Name: pkg.Name}
	if len(pkg.GoFiles) > 0 {
		mp.Dir = filepath.Dir(pkg.GoFiles[0])
	}
	names := map[string]*model.Tool{}
	a.constrainedDirectives()
	for _, f := range a.files() {
		if why := a.buildCons[a.fset.Position(f.Pos()).Filename]; why != "" {
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					if annotations.IsDirective(c.Text) {
						a.errorf(c.Pos(), "%s is in a file with build constraints (%s): generated code must be the same on "+
							"every platform; move it to a file without build constraints", directiveVerb(c.Text), why)
					}
				}
			}
		}
		owned := a.owned
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			var dirs []*ast.Comment
			for _, c := range fd.Doc.List {
				if annotations.IsDirective(c.Text) {
					dirs = append(dirs, c)
					owned[c] = true
				}
			}
			if len(dirs) == 0 {
				continue
			}
			t, ok := a.tool(fd, dirs)
			if t == nil {
				continue
			}
			// A tool with other problems still takes part in the duplicate check, so that a duplicate
			// name is reported in the same run as everything else.
			if prev, dup := names[t.Name]; dup {
				a.ds.add(a.pos(fd.Name.Pos()), "duplicate tool name %q: also declared by %s at %s%s", t.Name,
					prev.Func.Name, shortPos(prev.Pos), duplicateHint(t, names))
				continue
			}
			names[t.Name] = t
			if ok {
				mp.Tools = append(mp.Tools, t)
			} else {
				mp.Unfit = append(mp.Unfit, t)
			}
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if annotations.IsDirective(c.Text) && !owned[c] {
					a.errorf(c.Pos(), "%s must be in the doc comment of a function declaration (the handler)", directiveVerb(c.Text))
				}
				if e := annotations.NearMiss(c.Text, a.pos(c.Pos())); e != nil {
					a.ds.add(e.Pos, "%s", e.Msg)
				}
			}
		}
	}
	mp.States = a.stateTypes()
	mp.Forms = a.formTypes()
	if len(mp.Tools) > 0 || len(mp.States) > 0 || len(mp.Forms) > 0 {
		a.reservedNames()
	}
	mp.Types = a.order
	if len(mp.Tools) == 0 && len(mp.States) == 0 && len(mp.Forms) == 0 && len(a.ds.list) == 0 {
		return nil, nil
	}
	mp.Scope = a.scope()
	mp.PkgNames = a.pkgNames
	return mp, a.ds.list
}

// reservedNames reports package-level identifiers that generated code would declare: winkgen owns every
// top-level name starting with "Wink" or "wink" followed by an upper-case letter (WinkTools, WinkSearchDocs,
// winkDecodeSearchParams, ...) in a package that declares tools.
func (a *analyzer) reservedNames() {
	scope := a.pkg.Types.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if filepath.Base(a.pos(obj.Pos()).Filename) == OutputName {
			continue
		}
		rest, isW := strings.CutPrefix(name, "Wink")
		if !isW {
			rest, isW = strings.CutPrefix(name, "wink")
		}
		if isW && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
			a.errorf(obj.Pos(), "%s is reserved for generated code in packages that declare tools (names starting with Wink or wink followed by an upper-case letter); rename it", name)
		}
	}
}

// scope returns the package-level identifiers declared outside the generated file.
func (a *analyzer) scope() map[string]model.Pos {
	scope := a.pkg.Types.Scope()
	m := map[string]model.Pos{}
	for _, name := range scope.Names() {
		if p := a.pos(scope.Lookup(name).Pos()); filepath.Base(p.Filename) != OutputName {
			m[name] = model.Pos{File: p.Filename, Line: p.Line, Col: p.Column}
		}
	}
	return m
}

func shortPos(p model.Pos) string {
	return filepath.Base(p.File) + ":" + itoa(p.Line) + ":" + itoa(p.Col)
}

func directiveVerb(text string) string {
	v := strings.TrimPrefix(text, "//")
	if i := strings.IndexAny(v, " \t"); i >= 0 {
		v = v[:i]
	}
	return "//" + v
}

// tool analyzes one annotated function. t is nil when it declares no tool name; ok is false when it has
// problems (reported).
func (a *analyzer) tool(fd *ast.FuncDecl, dirs []*ast.Comment) (t *model.Tool, ok bool) {
	var td *annotations.Tool
	var examples []*annotations.Example
	var idem *annotations.Idempotent
	ok = true
	for _, c := range dirs {
		d, errs := annotations.ParseDirective(c.Text, a.pos(c.Pos()))
		for _, e := range errs {
			a.ds.add(e.Pos, "%s", e.Msg)
			ok = false
		}
		if _, isEx := d.(*annotations.Example); isEx && len(errs) > 0 {
			continue // reported; the other examples are still checked
		}
		switch d := d.(type) {
		case *annotations.Tool:
			if td != nil {
				a.errorf(c.Pos(), "more than one //wink:tool directive on %s", fd.Name.Name)
				ok = false
				continue
			}
			td = d
		case *annotations.Example:
			examples = append(examples, d)
		case *annotations.State:
			a.errorf(c.Pos(), "//wink:state belongs in the doc comment of a named struct type (whose session codec it asks for), not of the function %s", fd.Name.Name)
			ok = false
		case *annotations.Form:
			a.errorf(c.Pos(), "//wink:form belongs in the doc comment of a named struct type (the form it declares), not of the function %s", fd.Name.Name)
			ok = false
		case *annotations.Enum:
			a.errorf(c.Pos(), "//wink:enum belongs in the comment of an enum constant (the label a form shows for its value), not of the function %s", fd.Name.Name)
			ok = false
		case *annotations.Constraints:
			a.errorf(c.Pos(), "//wink:constraints belongs in the doc comment of a named type (its constraints apply to every field of that type), not of the function %s", fd.Name.Name)
			ok = false
		case *annotations.Idempotent:
			if idem != nil {
				a.errorf(c.Pos(), "more than one //wink:idempotent directive on %s", fd.Name.Name)
				ok = false
				continue
			}
			idem = d
		}
	}
	if td == nil {
		if ok {
			a.errorf(dirs[0].Pos(), "%s needs a //wink:tool directive on the same function", directiveVerb(dirs[0].Text))
		}
		return nil, false
	}
	t = &model.Tool{
		Func:      model.Ident{Path: a.pkg.PkgPath, Name: fd.Name.Name},
		Pos:       a.mpos(fd.Pos()),
		DirPos:    a.mpos(dirs[0].Pos()),
		Overrides: td.Overrides,
		ReadOnly:  td.ReadOnly,
		Title:     td.Title,
	}
	t.Destructive, t.OpenWorld, t.Scopes, t.Task = td.Destructive, td.OpenWorld, td.Scopes, td.Task
	t.Defer = td.Defer
	if r := td.Rate; r != nil {
		t.Rate = &model.Rate{Count: r.Count, PerNanos: int64(r.Per), Burst: r.Burst}
	}
	t.Callers = td.Callers
	// Name.
	if td.HasName {
		t.Name = td.Name
		if !validToolName(t.Name) {
			a.ds.add(td.NamePos, "tool name %q must match ^[a-z_][a-z0-9_-]{0,63}$ (lowercase letters, digits, '_' and '-', starting with a letter or '_', as Gemini requires)%s", t.Name, renameHint(t.Name))
			ok = false
		}
	} else {
		t.Name = snakeCase(fd.Name.Name)
		if !validToolName(t.Name) {
			a.errorf(fd.Name.Pos(), "tool name %q (from the function name) must match ^[a-z_][a-z0-9_-]{0,63}$%s", t.Name, renameHint(t.Name))
			ok = false
		}
	}
	// Description.
	doc := ""
	if fd.Doc != nil {
		doc = fd.Doc.Text()
	}
	t.Description = toolDescription(doc, fd.Name.Name)
	switch {
	case t.Description == "":
		a.errorf(fd.Name.Pos(), "tool %s needs a doc comment: it becomes the description the model reads (1-200 ASCII characters)", t.Name)
		ok = false
	case !isASCII(t.Description):
		a.errorf(fd.Doc.Pos(), "description of tool %s must be ASCII (it is sent to every provider as is)", t.Name)
		ok = false
	case len(t.Description) > 200:
		a.errorf(fd.Doc.Pos(), "description of tool %s is %d characters; the limit is 200 (move details to the parameter docs)", t.Name, len(t.Description))
		ok = false
	}
	// Handler shape.
	shapeOK := a.handlerShape(fd, t)
	if !shapeOK {
		ok = false
	}
	if idem != nil && shapeOK {
		if m := a.idempotency(idem, t, fd); m != nil {
			t.Idempotency = m
		} else {
			ok = false
		}
	}
	if shapeOK {
		t.Headers = a.paramHeaders(t)
		for _, ex := range examples {
			if m := a.example(ex, t); m != nil {
				t.Examples = append(t.Examples, m)
			} else {
				ok = false
			}
		}
	}
	return t, ok && validToolName(t.Name)
}

const shapes = "accepted shapes: func(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) or " +
	"func(tc *wink.ToolContext) (wink.ToolResult[R], error), with P a named struct type and R any type winkgen encodes (a named struct, a slice, a map, a scalar...) or wink.NoValue"

// handlerShape checks the handler's signature and fills the params and result types.
func (a *analyzer) handlerShape(fd *ast.FuncDecl, t *model.Tool) bool {
	obj, _ := a.pkg.TypesInfo.Defs[fd.Name].(*types.Func)
	if obj == nil {
		a.errorf(fd.Name.Pos(), "cannot type-check handler %s", fd.Name.Name)
		return false
	}
	sig := obj.Type().(*types.Signature)
	if sig.Recv() != nil {
		a.errorf(fd.Name.Pos(), "handler %s is a method; a tool handler must be a plain function (%s)", fd.Name.Name, shapes)
		return false
	}
	if sig.TypeParams().Len() > 0 {
		a.errorf(fd.Name.Pos(), "handler %s is generic; %s", fd.Name.Name, shapes)
		return false
	}
	bad := func(what string) bool {
		a.errorf(fd.Type.Pos(), "handler %s: %s; %s", fd.Name.Name, what, shapes)
		a.signatureTypes(sig, fd)
		return false
	}
	ps, rs := sig.Params(), sig.Results()
	if sig.Variadic() {
		return bad("variadic parameters are not allowed")
	}
	if ps.Len() < 1 || ps.Len() > 2 {
		return bad("it has " + itoa(ps.Len()) + " parameters")
	}
	if !isWinkPointer(ps.At(0).Type(), "ToolContext") {
		return bad("the first parameter must be *wink.ToolContext, not " + a.typeString(ps.At(0).Type()))
	}
	if rs.Len() != 2 {
		return bad("it must return (wink.ToolResult[R], error)")
	}
	if !isErrorType(rs.At(1).Type()) {
		return bad("the second result must be error, not " + a.typeString(rs.At(1).Type()))
	}
	res, isRes := types.Unalias(rs.At(0).Type()).(*types.Named)
	if !isRes || !isWinkNamed(res, "ToolResult") || res.TypeArgs().Len() != 1 {
		return bad("the first result must be wink.ToolResult[R], not " + a.typeString(rs.At(0).Type()))
	}
	ok := true
	rt := res.TypeArgs().At(0)
	if n, isNamed := types.Unalias(rt).(*types.Named); isNamed && isWinkNamed(n, "NoValue") {
		t.Result = nil
	} else {
		where := "result of " + fd.Name.Name
		if n, isNamed := types.Unalias(rt).(*types.Named); isNamed {
			where = n.Obj().Name()
		}
		t.Result = a.convert(rt, where, fd.Type.Pos())
		if t.Result == nil {
			ok = false
		} else {
			t.ResultValidate = hasMethod(rt, "Validate", "error")
			t.ResultRender = hasMethod(rt, "Render", "string")
		}
	}
	if ps.Len() == 2 {
		pt := ps.At(1).Type()
		if n, isNamed := types.Unalias(pt).(*types.Named); !isNamed || !isStruct(n) {
			a.errorf(fd.Type.Pos(), "handler %s: params type %s must be a named struct type; %s", fd.Name.Name, a.typeString(pt), shapes)
			ok = false
		} else if n.TypeArgs().Len() > 0 {
			a.errorf(fd.Type.Pos(), "handler %s: params type %s is generic; use a named non-generic struct", fd.Name.Name, a.typeString(pt))
			ok = false
		} else {
			t.Params = a.convert(pt, n.Obj().Name(), fd.Type.Pos())
			t.ParamsValidate = hasMethod(pt, "Validate", "error")
		}
	}
	return ok
}

func (a *analyzer) typeString(t types.Type) string {
	return types.TypeString(t, types.RelativeTo(a.pkg.Types))
}

func isWinkNamed(n *types.Named, name string) bool {
	o := n.Obj()
	return o.Pkg() != nil && o.Pkg().Path() == WinkPath && o.Name() == name
}

func isWinkPointer(t types.Type, name string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && isWinkNamed(n, name)
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func isStruct(n *types.Named) bool {
	_, ok := n.Underlying().(*types.Struct)
	return ok
}

// hasMethod reports whether t or *t has a method name() result with no parameters.
func hasMethod(t types.Type, name, result string) bool {
	ms := types.NewMethodSet(types.NewPointer(t))
	for i := 0; i < ms.Len(); i++ {
		f, ok := ms.At(i).Obj().(*types.Func)
		if !ok || f.Name() != name {
			continue
		}
		sig := f.Type().(*types.Signature)
		if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
			return false
		}
		r := sig.Results().At(0).Type()
		switch result {
		case "error":
			return isErrorType(r)
		case "string":
			b, ok := r.(*types.Basic)
			return ok && b.Kind() == types.String
		}
	}
	return false
}

// idempotency checks a //wink:idempotent directive against the tool.
func (a *analyzer) idempotency(d *annotations.Idempotent, t *model.Tool, fd *ast.FuncDecl) *model.Idempotency {
	m := &model.Idempotency{Strategy: d.Strategy, Scope: d.Scope}
	if m.Strategy == "" {
		m.Strategy = "auto"
	}
	if m.Scope == "" {
		m.Scope = "session"
	}
	if d.HasTTL {
		m.TTLNanos = int64(d.TTL / time.Nanosecond)
	}
	ok := true
	switch m.Strategy {
	case "params":
		if t.Params == nil {
			a.ds.add(d.KeysPos, "strategy=params needs a params type; %s takes no parameters", t.Name)
			return nil
		}
		for _, k := range d.Keys {
			found := false
			for _, f := range t.Params.Fields {
				if f.JSONName == k {
					found = true
				}
			}
			if !found {
				a.ds.add(d.KeysPos, "idempotency key %q is not a field of %s (fields: %s)", k, t.Params.Named.Name, strings.Join(fieldNames(t.Params), ", "))
				ok = false
			}
		}
		m.Keys = d.Keys
	case "custom":
		obj := a.pkg.Types.Scope().Lookup(d.Func)
		fn, isFn := obj.(*types.Func)
		var want string
		if t.Params != nil {
			want = "func(" + t.Params.Named.Name + ") string"
		} else {
			want = "func() string"
		}
		if !isFn {
			a.ds.add(d.FuncPos, "idempotency key function %s is not a function of package %s; want %s", d.Func, a.pkg.Name, want)
			return nil
		}
		sig := fn.Type().(*types.Signature)
		good := sig.Recv() == nil && sig.Results().Len() == 1 && isString(sig.Results().At(0).Type())
		if t.Params != nil {
			good = good && sig.Params().Len() == 1 && types.Identical(sig.Params().At(0).Type(), a.pkg.TypesInfo.Defs[fd.Name].(*types.Func).Type().(*types.Signature).Params().At(1).Type())
		} else {
			good = good && sig.Params().Len() == 0
		}
		if !good {
			a.ds.add(d.FuncPos, "idempotency key function %s has type %s; want %s", d.Func, a.typeString(fn.Type()), want)
			return nil
		}
		m.Func = model.Ident{Path: a.pkg.PkgPath, Name: d.Func}
	}
	if !ok {
		return nil
	}
	return m
}

func isString(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Kind() == types.String
}

func fieldNames(t *model.Type) []string {
	var out []string
	for _, f := range t.Fields {
		out = append(out, f.JSONName)
	}
	return out
}
