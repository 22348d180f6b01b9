package schema

import "github.com/winkgen/wink/gen/model"

// Hand-built model types for the tests.

func tString() *model.Type { return &model.Type{Kind: model.KindString, Basic: "string"} }
func tBool() *model.Type   { return &model.Type{Kind: model.KindBool, Basic: "bool"} }
func tTime() *model.Type {
	return &model.Type{Kind: model.KindTime, Named: &model.Ident{Path: "time", Name: "Time"}}
}

func tInt(bits int) *model.Type {
	return &model.Type{Kind: model.KindInt, Bits: bits, Basic: "int"}
}

func tUint(bits int) *model.Type {
	return &model.Type{Kind: model.KindUint, Bits: bits, Basic: "uint"}
}

func tFloat(bits int) *model.Type {
	return &model.Type{Kind: model.KindFloat, Bits: bits, Basic: "float64"}
}

func tPtr(t *model.Type) *model.Type   { return &model.Type{Kind: model.KindPointer, Elem: t} }
func tSlice(t *model.Type) *model.Type { return &model.Type{Kind: model.KindSlice, Elem: t} }
func tArray(t *model.Type, n int64) *model.Type {
	return &model.Type{Kind: model.KindArray, Elem: t, Len: n}
}
func tMap(t *model.Type) *model.Type { return &model.Type{Kind: model.KindMap, Elem: t} }

func tStruct(name, doc string, fields ...*model.Field) *model.Type {
	return &model.Type{
		Kind:   model.KindStruct,
		Named:  &model.Ident{Path: "example.com/p", Name: name},
		ID:     name,
		Doc:    doc,
		Fields: fields,
	}
}

func tEnum(name, doc string, kind model.Kind, lits ...string) *model.Type {
	t := &model.Type{Kind: kind, Named: &model.Ident{Path: "example.com/p", Name: name}, ID: name, Doc: doc, Basic: "string"}
	if kind != model.KindString {
		t.Bits, t.Basic = 64, "int"
	}
	for i, l := range lits {
		t.Enum = append(t.Enum, &model.EnumValue{Const: model.Ident{Path: "example.com/p", Name: name + string(rune('A'+i))}, JSON: l})
	}
	return t
}

func req(name string, t *model.Type) *model.Field {
	return &model.Field{GoPath: []string{name}, JSONName: name, Type: t, Required: true}
}

func opt(name string, t *model.Type) *model.Field {
	return &model.Field{GoPath: []string{name}, JSONName: name, Type: t}
}

func doc(f *model.Field, d string) *model.Field { f.Doc = d; return f }

func cons(f *model.Field, c model.Constraints) *model.Field { f.Cons = &c; return f }

func num(lit string) *model.Number { return &model.Number{Literal: lit} }
func n(i int) *int                 { return &i }

// searchParams is the benchmark type shared with the peers' benchmarks, with constraints of most kinds.
func searchParams() *model.Type {
	mode := tEnum("Mode", "Mode picks the matching algorithm.", model.KindString, `"fuzzy"`, `"exact"`)
	filters := tStruct("Filters", "Filters narrow the search.",
		doc(cons(opt("path_prefix", tString()), model.Constraints{Format: "uri"}), "Only paths under this prefix."),
		cons(opt("max_size", tInt(64)), model.Constraints{Min: num("0")}),
	)
	return tStruct("SearchArgs", "SearchArgs are the arguments of search_docs.",
		doc(cons(req("query", tString()), model.Constraints{MinLength: n(1), MaxLength: n(200)}), "Search terms."),
		doc(cons(opt("limit", tInt(64)), model.Constraints{Min: num("1"), Max: num("100"), Default: "10"}), "Maximum results."),
		opt("case_sensitive", tBool()),
		doc(cons(opt("file_types", tSlice(tString())), model.Constraints{MaxItems: n(10), UniqueItems: true, MaxLength: n(20), Pattern: "[a-z]+"}), "File extensions."),
		opt("filters", tPtr(filters)),
		cons(opt("mode", mode), model.Constraints{Default: `"fuzzy"`}),
	)
}

// treeType is a self-recursive root: Tree{label, children []*Tree, parent *Tree}.
func treeType() *model.Type {
	t := tStruct("Tree", "Tree is a labelled tree.")
	t.Recursive = true
	t.Fields = []*model.Field{
		req("label", tString()),
		doc(req("children", tSlice(tPtr(t))), "Sub-trees."),
		opt("parent", tPtr(t)),
	}
	return t
}

// mutualType is a non-recursive root holding a mutually recursive pair Expr <-> Call.
func mutualType() *model.Type {
	expr := tStruct("Expr", "Expr is an expression.")
	call := tStruct("Call", "Call applies a function.")
	expr.Recursive, call.Recursive = true, true
	expr.Fields = []*model.Field{
		opt("literal", tPtr(tFloat(64))),
		opt("call", tPtr(call)),
	}
	call.Fields = []*model.Field{
		req("func", tString()),
		doc(req("args", tSlice(expr)), "Arguments."),
	}
	return tStruct("Eval", "",
		doc(req("expr", expr), "The expression to evaluate."),
		req("vars", tSlice(call)),
	)
}

// kitchenSink uses every kind, optional and required, constraints of every kind, nesting, arrays, enums.
func kitchenSink() *model.Type {
	level := tEnum("Level", "Level is a severity.", model.KindInt, "1", "2", "3")
	color := tEnum("Color", "", model.KindString, `"red"`, `"green"`, `"blue"`)
	point := tStruct("Point", "Point is a 2D point.",
		req("x", tFloat(32)),
		req("y", tFloat(32)),
	)
	id := &model.Type{Kind: model.KindString, Named: &model.Ident{Path: "example.com/p", Name: "ID"}, ID: "ID", Doc: "ID identifies a thing.", Basic: "string"}
	return tStruct("Sink", "Sink has one of everything.",
		req("s", tString()),
		opt("s_opt", tString()),
		req("id", id),
		cons(req("email", tString()), model.Constraints{Format: "email"}),
		cons(req("code", tString()), model.Constraints{MinLength: n(2), MaxLength: n(2), Pattern: `[A-Z]{2}`}),
		req("b", tBool()),
		opt("b_ptr", tPtr(tBool())),
		req("i8", tInt(8)),
		req("i16", tInt(16)),
		req("i32", tInt(32)),
		req("i64", tInt(64)),
		req("u8", tUint(8)),
		req("u16", tUint(16)),
		req("u32", tUint(32)),
		req("u64", tUint(64)),
		req("f32", tFloat(32)),
		req("f64", tFloat(64)),
		cons(req("ratio", tFloat(64)), model.Constraints{ExclusiveMin: num("0"), Max: num("1"), MultipleOf: num("0.25")}),
		cons(req("even", tInt(32)), model.Constraints{MultipleOf: num("2"), ExclusiveMax: num("100")}),
		req("when", tTime()),
		opt("when_opt", tPtr(tTime())),
		req("level", level),
		opt("level_opt", level),
		cons(req("color", color), model.Constraints{Enum: []string{`"red"`, `"blue"`}}),
		cons(opt("tag_enum", tInt(16)), model.Constraints{Enum: []string{"5", "10"}}),
		req("point", point),
		opt("point_opt", tPtr(point)),
		doc(req("points", tSlice(point)), "A polyline."),
		req("nullable_points", tSlice(tPtr(point))),
		req("triple", tArray(tUint(8), 3)),
		cons(req("pair_min", tArray(tFloat(64), 2)), model.Constraints{Min: num("-1")}),
		cons(opt("ints", tSlice(tPtr(tInt(32)))), model.Constraints{MinItems: n(1), Max: num("9")}),
		req("matrix", tSlice(tSlice(tInt(8)))),
		cons(opt("colors", tSlice(color)), model.Constraints{UniqueItems: true}),
		cons(opt("urls", tSlice(tString())), model.Constraints{Format: "uri", MinLength: n(1)}),
		cons(opt("note", tString()), model.Constraints{Default: `"none"`, MaxLength: n(1)}),
	)
}

// mapType holds a map of pointers to structs.
func mapType() *model.Type {
	v := tStruct("Val", "", req("n", tInt(32)))
	return tStruct("WithMap", "",
		doc(req("labels", tMap(tString())), "Labels."),
		opt("vals", tMap(tPtr(v))),
	)
}

// allFixtures lists every fixture for the schema-wide property tests.
func allFixtures() map[string]*model.Type {
	return map[string]*model.Type{
		"search":  searchParams(),
		"tree":    treeType(),
		"mutual":  mutualType(),
		"sink":    kitchenSink(),
		"map":     mapType(),
		"empty":   tStruct("Nothing", ""),
		"novalue": {Kind: model.KindNoValue},
	}
}
