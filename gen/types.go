package gen

import (
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/winkgen/wink/annotations"
	"github.com/winkgen/wink/gen/model"
)

func itoa(n int) string { return strconv.Itoa(n) }

const supported = "supported: string, bool, integers, float32/64, named types over these, enums, time.Time, time.Duration, " +
	"slices, arrays, maps with string keys, pointers and structs"

// convert maps a Go type to the model. where names the value for messages ("SearchParams.Filters");
// pos is where to report problems that have no better position.
func (a *analyzer) convert(t types.Type, where string, pos token.Pos) *model.Type {
	written := t // messages name the type as the source spells it (an alias by its own name)
	t = types.Unalias(t)
	switch t := t.(type) {
	case *types.Named:
		return a.convertNamed(t, written, where, pos)
	case *types.Basic:
		return a.basic(t, where, pos)
	case *types.Pointer:
		if _, ok := types.Unalias(t.Elem()).(*types.Pointer); ok {
			a.unsupported(where, pos, "pointer to a pointer "+a.typeString(t)+" (use one pointer)")
			return nil
		}
		e := a.convert(t.Elem(), where, pos)
		if e == nil {
			return nil
		}
		return &model.Type{Kind: model.KindPointer, Elem: e}
	case *types.Slice:
		if b, ok := types.Unalias(t.Elem()).(*types.Basic); ok && b.Kind() == types.Uint8 {
			a.unsupported(where, pos, "byte slice "+a.typeString(t)+" (encoding/json writes bytes as base64, which a model "+
				"cannot write reliably: use a string for text, and decode base64 in the handler if you need bytes)")
			return nil
		}
		e := a.convert(t.Elem(), where+"[]", pos)
		if e == nil {
			return nil
		}
		return &model.Type{Kind: model.KindSlice, Elem: e}
	case *types.Array:
		e := a.convert(t.Elem(), where+"[]", pos)
		if e == nil {
			return nil
		}
		return &model.Type{Kind: model.KindArray, Elem: e, Len: t.Len()}
	case *types.Map:
		k, ok := types.Unalias(t.Key()).Underlying().(*types.Basic)
		if !ok || k.Kind() != types.String {
			a.unsupported(where, pos, "map key type "+a.typeString(t.Key())+" (JSON object keys are strings: use a map with string keys)")
			return nil
		}
		if _, named := types.Unalias(t.Key()).(*types.Named); named {
			a.unsupported(where, pos, "named map key type "+a.typeString(t.Key())+" (use string)")
			return nil
		}
		e := a.convert(t.Elem(), where+"[key]", pos)
		if e == nil {
			return nil
		}
		if !spellable(e) {
			a.unsupported(where, pos, "map value type "+a.typeString(t.Elem())+" (an anonymous struct; declare a named type for the values)")
			return nil
		}
		return &model.Type{Kind: model.KindMap, Elem: e}
	case *types.Struct:
		mt := &model.Type{Kind: model.KindStruct}
		mt.ID = a.uniqueID(exportedName(strings.NewReplacer("[]", "Item", "[key]", "Value").Replace(where)))
		a.order = append(a.order, mt)
		mt.Fields = a.fields(t, where, pos)
		return mt
	case *types.Interface:
		a.unsupported(where, pos, "interface type "+a.typeString(written)+" (for a value of any JSON shape, use wink.RawJSON: the value's JSON text, checked to be JSON, which your handler decodes)")
	case *types.Chan:
		a.unsupported(where, pos, "channel type "+a.typeString(written))
	case *types.Signature:
		a.unsupported(where, pos, "function type "+a.typeString(written))
	default:
		a.unsupported(where, pos, "type "+a.typeString(written))
	}
	return nil
}

// jsonMethod returns the name of a method of n (or *n) through which encoding/json would read or write
// it its own way, or "".
func jsonMethod(n *types.Named) string {
	ms := types.NewMethodSet(types.NewPointer(n))
	for _, name := range [...]string{"MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText"} {
		if sel := ms.Lookup(nil, name); sel != nil && sel.Obj().Exported() {
			return name
		}
	}
	return ""
}

func (a *analyzer) unsupported(where string, pos token.Pos, what string) {
	key := where + "\x00" + what
	if a.reported[key] {
		return
	}
	a.reported[key] = true
	a.errorf(pos, "%s: unsupported %s; %s", where, what, supported)
}

func (a *analyzer) uniqueID(base string) string {
	id := base
	for i := 2; a.ids[id]; i++ {
		id = base + itoa(i)
	}
	a.ids[id] = true
	return id
}

func (a *analyzer) basic(t *types.Basic, where string, pos token.Pos) *model.Type {
	mt := &model.Type{Basic: t.Name()}
	switch t.Kind() {
	case types.String:
		mt.Kind = model.KindString
	case types.Bool:
		mt.Kind = model.KindBool
	case types.Int, types.Int64:
		mt.Kind, mt.Bits = model.KindInt, 64
	case types.Int8:
		mt.Kind, mt.Bits = model.KindInt, 8
	case types.Int16:
		mt.Kind, mt.Bits = model.KindInt, 16
	case types.Int32:
		mt.Kind, mt.Bits = model.KindInt, 32
	case types.Uint, types.Uint64:
		mt.Kind, mt.Bits = model.KindUint, 64
	case types.Uint8:
		mt.Kind, mt.Bits = model.KindUint, 8
	case types.Uint16:
		mt.Kind, mt.Bits = model.KindUint, 16
	case types.Uint32:
		mt.Kind, mt.Bits = model.KindUint, 32
	case types.Float32:
		mt.Kind, mt.Bits = model.KindFloat, 32
	case types.Float64:
		mt.Kind, mt.Bits = model.KindFloat, 64
	default:
		a.unsupported(where, pos, "type "+t.Name())
		return nil
	}
	return mt
}

// convertNamed maps the named type n, written in the source as written (n itself, or an alias of it:
// encoding/json.RawMessage is an alias of encoding/json/jsontext.Value from Go 1.27 on, and a diagnostic
// must name what the developer wrote, on every Go release).
func (a *analyzer) convertNamed(n *types.Named, written types.Type, where string, pos token.Pos) *model.Type {
	obj := n.Obj()
	if obj.Pkg() != nil && obj.Pkg().Path() == "time" && obj.Name() == "Time" {
		return &model.Type{Kind: model.KindTime, Named: &model.Ident{Path: "time", Name: "Time"}}
	}
	if obj.Pkg() != nil && obj.Pkg().Path() == "time" && obj.Name() == "Duration" {
		return &model.Type{Kind: model.KindDuration, Named: &model.Ident{Path: "time", Name: "Duration"}}
	}
	if obj.Pkg() != nil && obj.Pkg().Path() == WinkPath && obj.Name() == "RawJSON" {
		return &model.Type{Kind: model.KindJSON, Named: &model.Ident{Path: WinkPath, Name: "RawJSON"}}
	}
	if obj.Pkg() != nil && obj.Pkg().Path() == WinkPath && obj.Name() == "NoValue" {
		a.unsupported(where, pos, "use of wink.NoValue inside a type (it is only a result type)")
		return nil
	}
	if obj.Pkg() == nil {
		// error and other universe types
		a.unsupported(where, pos, "type "+obj.Name())
		return nil
	}
	if obj.Pkg() != nil && obj.Pkg().Path() == "encoding/json" && obj.Name() == "Number" {
		a.unsupported(where, pos, "type encoding/json.Number (encoding/json writes it as a bare number; use float64, int64 or string)")
		return nil
	}
	if m := jsonMethod(n); m != "" {
		a.unsupported(where, pos, "type "+a.typeString(written)+" with its own "+m+" method (encoding/json would use it, "+
			"and winkgen cannot know the JSON it reads or writes; use a type without it, or a plain field the handler converts)")
		return nil
	}
	if n.TypeArgs().Len() > 0 {
		a.unsupported(where, pos, "generic type "+a.typeString(written)+" (declare a non-generic named type)")
		return nil
	}
	if mt, ok := a.named[n]; ok {
		if mt == nil {
			a.unsupported(where, pos, "recursive type "+a.typeString(written)+" (recursion must go through a struct type)")
			return nil
		}
		for i, p := range a.inProg {
			if p == n {
				for _, r := range a.inProgTy[i:] {
					r.Recursive = true
				}
			}
		}
		return mt
	}
	ident := &model.Ident{Path: obj.Pkg().Path(), Name: obj.Name()}
	if why := a.buildCons[a.pos(obj.Pos()).Filename]; why != "" && obj.Pkg().Path() == a.pkg.PkgPath {
		a.unsupported(where, pos, "type "+obj.Name()+", declared in a file with build constraints ("+why+
			"): generated code must compile on every platform; move the type to a file without build constraints")
		return nil
	}
	if obj.Pkg().Path() != a.pkg.PkgPath {
		if a.pkgNames == nil {
			a.pkgNames = map[string]string{}
		}
		a.pkgNames[obj.Pkg().Path()] = obj.Pkg().Name()
	}
	if obj.Pkg().Path() != a.pkg.PkgPath && !obj.Exported() {
		a.unsupported(where, pos, "unexported type "+a.typeString(written)+" of another package")
		return nil
	}
	a.readDeclarations(obj.Pkg())
	switch u := n.Underlying().(type) {
	case *types.Struct:
		mt := &model.Type{Kind: model.KindStruct, Named: ident}
		mt.ID = a.uniqueID(obj.Name())
		mt.Doc = foldSpace(a.typeDocs[obj.Pos()])
		mt.Validate = hasMethod(n, "Validate", "error")
		mt.Render = hasMethod(n, "Render", "string")
		a.named[n] = mt
		a.order = append(a.order, mt)
		a.inProg = append(a.inProg, n)
		a.inProgTy = append(a.inProgTy, mt)
		mt.Fields = a.fields(u, obj.Name(), obj.Pos())
		mt.Shape = a.goType(u)
		a.inProg = a.inProg[:len(a.inProg)-1]
		a.inProgTy = a.inProgTy[:len(a.inProgTy)-1]
		return mt
	case *types.Basic:
		mt := a.basic(u, where, pos)
		if mt == nil {
			return nil
		}
		mt.Named = ident
		mt.Doc = foldSpace(a.typeDocs[obj.Pos()])
		if mt.Kind == model.KindString || mt.Kind == model.KindInt || mt.Kind == model.KindUint {
			mt.Enum = a.enumValues(n)
			if len(mt.Enum) > 0 {
				mt.ID = a.uniqueID(obj.Name())
				a.order = append(a.order, mt)
			}
		}
		a.named[n] = mt
		return mt
	default:
		// Named slices, maps, arrays, pointers: the underlying shape with the Go name kept.
		a.named[n] = nil // recursion through non-struct named types is not supported
		inner := a.convert(u, where, pos)
		if inner == nil {
			delete(a.named, n)
			return nil
		}
		cp := *inner
		cp.Named = ident
		a.named[n] = &cp
		return &cp
	}
}

// enumValues lists the constants of type n declared in n's package, in declaration order.
func (a *analyzer) enumValues(n *types.Named) []*model.EnumValue {
	scope := n.Obj().Pkg().Scope()
	var consts []*types.Const
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if ok && types.Identical(c.Type(), n) {
			consts = append(consts, c)
		}
	}
	// Declaration order: by file name, then place in the file. Not by token.Pos: the loader parses a
	// package's files concurrently, so the order of their positions varies from run to run.
	sort.Slice(consts, func(i, j int) bool {
		pi, pj := a.pos(consts[i].Pos()), a.pos(consts[j].Pos())
		if pi.Filename != pj.Filename {
			return pi.Filename < pj.Filename
		}
		return pi.Offset < pj.Offset
	})
	var out []*model.EnumValue
	seen := map[string]bool{}
	for _, c := range consts {
		lit := constJSON(c.Val())
		if seen[lit] {
			continue // aliases of one value appear once
		}
		seen[lit] = true
		out = append(out, &model.EnumValue{Const: model.Ident{Path: c.Pkg().Path(), Name: c.Name()}, JSON: lit, Title: a.enumTitle(c), Doc: a.constDocAt(c.Pos())})
	}
	return out
}

type fieldCand struct {
	f     *model.Field
	depth int
	tag   bool
}

// fields flattens a struct's fields as encoding/json does: exported fields, json tag names, embedded
// structs promoted; a shallower field wins over a deeper one of the same name.
func (a *analyzer) fields(st *types.Struct, where string, pos token.Pos) []*model.Field {
	var cands []fieldCand
	a.collectFields(st, where, nil, 0, &cands, map[*types.Struct]bool{})
	byName := map[string][]int{}
	for i, c := range cands {
		byName[c.f.JSONName] = append(byName[c.f.JSONName], i)
	}
	var out []*model.Field
	for i, c := range cands {
		idx := byName[c.f.JSONName]
		best := idx[0]
		for _, j := range idx[1:] {
			if cands[j].depth < cands[best].depth {
				best = j
			}
		}
		conflict := false
		for _, j := range idx {
			if j != best && cands[j].depth == cands[best].depth {
				conflict = true
			}
		}
		if conflict && i == idx[0] {
			a.errorf(pos, "%s: JSON field name %q is used by more than one field at the same depth; rename one with a json tag", where, c.f.JSONName)
		}
		if i == best && !conflict {
			out = append(out, c.f)
		}
	}
	return out
}

func (a *analyzer) collectFields(st *types.Struct, where string, goPath []string, depth int, out *[]fieldCand, visiting map[*types.Struct]bool) {
	if visiting[st] {
		return
	}
	visiting[st] = true
	defer delete(visiting, st)
	for i := 0; i < st.NumFields(); i++ {
		v := st.Field(i)
		tag := reflect.StructTag(st.Tag(i))
		jsonTag, hasJSON := tag.Lookup("json")
		jname, opts, _ := strings.Cut(jsonTag, ",")
		if jsonTag == "-" { // "-," names the field "-", as in encoding/json
			continue
		}
		path := append(append([]string{}, goPath...), v.Name())
		fwhere := where + "." + v.Name()
		a.readDeclarations(v.Pkg())
		if v.Embedded() && jname == "" {
			et := types.Unalias(v.Type())
			if _, isPtr := et.(*types.Pointer); isPtr {
				a.errorf(v.Pos(), "%s: embedded pointer %s is not supported; embed the struct value or use a named field", fwhere, a.typeString(v.Type()))
				continue
			}
			if s, ok := et.Underlying().(*types.Struct); ok {
				a.collectFields(s, where, path, depth+1, out, visiting)
				continue
			}
		}
		if !v.Exported() {
			continue
		}
		f := &model.Field{GoPath: path, Pos: a.mpos(v.Pos())}
		f.JSONName = jname
		if f.JSONName == "" {
			f.JSONName = snakeCase(v.Name())
		}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				f.OmitEmpty = true
			case "omitzero":
				f.OmitZero = true
			case "string":
				a.errorf(v.Pos(), "%s: the json \",string\" option is not supported; declare the field as a string", fwhere)
			}
		}
		_ = hasJSON
		if af := a.astFields[v.Pos()]; af != nil {
			if af.Doc != nil {
				f.Doc = foldSpace(af.Doc.Text())
			} else if af.Comment != nil {
				f.Doc = foldSpace(af.Comment.Text())
			}
		}
		f.Type = a.convert(v.Type(), fwhere, v.Pos())
		if f.Type == nil {
			continue
		}
		// Tag constraints: the field's type's //wink:constraints, then the field's own tag (which wins).
		var wt *annotations.Tag
		var errs []*annotations.Error
		if af := a.astFields[v.Pos()]; af != nil && af.Tag != nil {
			wt, errs = annotations.ParseFieldTag(af.Tag.Value, a.pos(af.Tag.Pos()))
		} else if val, ok := tag.Lookup("wink"); ok {
			wt, errs = annotations.ParseTag(val, a.pos(v.Pos()))
		}
		for _, e := range errs {
			a.ds.add(e.Pos, "%s: %s", fwhere, e.Msg)
		}
		wt = mergeTags(a.typeTag(v.Type()), wt)
		if wt != nil && len(errs) == 0 {
			f.Cons = a.constraints(wt, f, fwhere)
		}
		f.Required = f.Type.Kind != model.KindPointer && !f.OmitEmpty && !f.OmitZero && (f.Cons == nil || f.Cons.Default == "")
		*out = append(*out, fieldCand{f: f, depth: depth, tag: jname != ""})
	}
}

// typeTag returns the //wink:constraints of the named type that field constraints would apply to: the
// field's type, its pointer target, or the (pointer) element of a slice or array.
func (a *analyzer) typeTag(t types.Type) *annotations.Tag {
	strip := func(t types.Type) types.Type {
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			return p.Elem()
		}
		return t
	}
	t = strip(t)
	if n, ok := types.Unalias(t).(*types.Named); ok {
		if tag := a.namedTag(n); tag != nil {
			return tag
		}
	}
	switch u := types.Unalias(t).Underlying().(type) {
	case *types.Slice:
		t = strip(u.Elem())
	case *types.Array:
		t = strip(u.Elem())
	default:
		return nil
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return a.namedTag(n)
	}
	return nil
}

// mergeTags combines a type's constraints with a field's: the field's items win key by key.
func mergeTags(typeTag, fieldTag *annotations.Tag) *annotations.Tag {
	if typeTag == nil {
		return fieldTag
	}
	if fieldTag == nil {
		return typeTag
	}
	out := &annotations.Tag{}
	for _, it := range typeTag.Items {
		if _, overridden := fieldTag.Get(it.Key); !overridden {
			out.Items = append(out.Items, it)
		}
	}
	out.Items = append(out.Items, fieldTag.Items...)
	return out
}
