package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/gen/schema"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/gemini"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/wink"
)

// emit writes the wink_gen.go file of one analyzed package.
func emit(p *model.Package) ([]byte, error) {
	f := jen.NewFilePathName(p.Path, p.Name)
	f.HeaderComment(Header)
	nameImports(f, p)
	e := &emitter{pkg: p, f: f, rats: map[string]string{}, pats: map[string]string{}, patNames: map[string]bool{}, keys: map[*model.Type]string{},
		schemas: map[string]string{}, schemaNames: map[string]bool{}}

	// Compile-time guards.
	f.Comment("Compile-time guards: this file was generated for runtime support version " + itoa(wink.GenVersion) + ", and every handler")
	f.Comment("must still have the signature it had at generation time. Regenerate with go generate if either fails.")
	f.Const().Id("_").Op("=").Qual(WinkPath, "EnforceVersion").Call(jen.Qual(WinkPath, "MaxGenVersion").Op("-").Lit(wink.GenVersion))
	f.Const().Id("_").Op("=").Qual(WinkPath, "EnforceVersion").Call(jen.Lit(wink.GenVersion).Op("-").Qual(WinkPath, "MinGenVersion"))
	if shapes := shapeGuards(p); len(shapes) > 0 {
		f.Comment("Shape guards: every struct this file decodes or encodes still has the fields, types and tags it had")
		f.Comment("at generation time. A failure here means a struct changed: regenerate with go generate.")
		for _, g := range shapes {
			f.Add(g)
		}
	}
	if len(p.Tools) > 0 {
		for _, t := range p.Tools {
			alias := staleName("Handler" + t.Func.Name)
			f.Type().Id(alias).Op("=").Add(handlerType(t))
			f.Var().Id("_").Id(alias).Op("=").Qual(t.Func.Path, t.Func.Name)
		}

		// Registry.
		var list []jen.Code
		for _, t := range p.Tools {
			list = append(list, jen.Id(defName(t)))
		}
		f.Comment("WinkTools returns this package's tools in source order. Pass it to wink.NewRegistry, together with")
		f.Comment("other packages' WinkTools, to build the registry a dispatcher serves.")
		f.Func().Id("WinkTools").Params().Index().Op("*").Qual(WinkPath, "Tool").Block(
			jen.Return(jen.Index().Op("*").Qual(WinkPath, "Tool").Values(list...)))
	}

	for _, t := range p.Tools {
		if err := e.emitTool(t); err != nil {
			return nil, err
		}
	}
	e.emitCatalog(p.Tools) // emit_catalog.go
	decoded := decodedTypes(p)
	for _, t := range p.Types {
		if t.Kind == model.KindStruct && t.Named != nil {
			if decoded[t] {
				e.emitStructDecoder(t)
			}
			e.emitStructEncoder(t)
		}
	}
	roots := map[string]bool{}
	for _, t := range p.Tools {
		if name := resultEncoderName(t); t.Result != nil && !isNamedStruct(t.Result) && !roots[name] {
			roots[name] = true
			e.emitRootEncoder(name, t.Result)
		}
	}
	for _, t := range p.Forms {
		e.emitForm(t) // emit_form.go
	}
	for _, t := range p.States {
		e.emitStateCodec(t)
	}
	e.emitZeroFuncs()
	if len(e.schemaOrder) > 0 {
		var defs []jen.Code
		for _, b := range e.schemaOrder {
			defs = append(defs, jen.Id(e.schemas[b]).Op("=").Index().Byte().Parens(rawLit(b)))
		}
		f.Comment("JSON Schemas, each written once and shared by the tools whose params or results use it.")
		f.Var().Defs(defs...)
	}
	var vars []jen.Code
	vars = append(vars, e.keyDecls...)
	sort.Slice(e.patOrder, func(i, j int) bool { return e.pats[e.patOrder[i]] < e.pats[e.patOrder[j]] })
	sort.Slice(e.ratOrder, func(i, j int) bool { return e.rats[e.ratOrder[i]] < e.rats[e.ratOrder[j]] })
	for _, pat := range e.patOrder {
		vars = append(vars, jen.Id(e.pats[pat]).Op("=").Qual(sjPath, "NewLazyPattern").Call(rawLit(anchored(pat)), jen.Qual("regexp", "MustCompile")))
	}
	for _, lit := range e.ratOrder {
		vars = append(vars, jen.Id(e.rats[lit]).Op("=").Qual(sjPath, "MustRat").Call(jen.Lit(lit)))
	}
	if len(vars) > 0 {
		f.Comment("Allowed keys for unknown-field messages, compiled patterns and exact multipleOf divisors.")
		f.Var().Defs(vars...)
	}
	if e.needGrow {
		f.Comment("winkGrow appends a zero element to *s and returns a pointer to it.")
		f.Func().Id("winkGrow").Types(jen.Id("S").Op("~").Index().Id("E"), jen.Id("E").Any()).Params(jen.Id("s").Op("*").Id("S")).Op("*").Id("E").Block(
			jen.Var().Id("z").Id("E"),
			jen.Op("*").Id("s").Op("=").Append(jen.Op("*").Id("s"), jen.Id("z")),
			jen.Return(jen.Op("&").Parens(jen.Op("*").Id("s")).Index(jen.Len(jen.Op("*").Id("s")).Op("-").Lit(1))))
	}
	if e.needNew {
		f.Comment("winkNew sets *p to a new zero value and returns it.")
		f.Func().Id("winkNew").Types(jen.Id("T").Any()).Params(jen.Id("p").Op("**").Id("T")).Op("*").Id("T").Block(
			jen.Op("*").Id("p").Op("=").New(jen.Id("T")),
			jen.Return(jen.Op("*").Id("p")))
	}
	if e.needPtr {
		f.Comment("winkPtr returns a pointer to a copy of v.")
		f.Func().Id("winkPtr").Types(jen.Id("T").Any()).Params(jen.Id("v").Id("T")).Op("*").Id("T").Block(jen.Return(jen.Op("&").Id("v")))
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("rendering %s: %w\n%s", p.Path, err, numbered(buf.String()))
	}
	out, err := format.Source(groupImports(buf.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("formatting %s: %w\n%s", p.Path, err, numbered(buf.String()))
	}
	return out, nil
}

func numbered(src string) string {
	var b strings.Builder
	for i, l := range strings.Split(src, "\n") {
		fmt.Fprintf(&b, "%5d  %s\n", i+1, l)
	}
	return b.String()
}

// rawLit writes s as a raw string literal when it can.
func rawLit(s string) jen.Code {
	if rawable(s) {
		return jen.Id("`" + s + "`")
	}
	return jen.Lit(s) // quoted with escapes (strconv.Quote)
}

// rawable reports whether s can be written as a raw string literal: valid UTF-8 without a backquote, a
// carriage return (dropped from raw strings), a NUL or a byte order mark (both forbidden in Go source).
func rawable(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsAny(s, "`\r\x00\ufeff")
}

// schemaVar names the package variable holding schema bytes b, declaring it on first use (the first hint
// wins; a clashing hint gets a number).
func (e *emitter) schemaVar(b []byte, hint string) jen.Code {
	if v, ok := e.schemas[string(b)]; ok {
		return jen.Id(v)
	}
	name := hint
	for i := 2; e.schemaNames[name]; i++ {
		name = hint + itoa(i)
	}
	e.schemaNames[name] = true
	e.schemas[string(b)] = name
	e.schemaOrder = append(e.schemaOrder, string(b))
	return jen.Id(name)
}

// schemaStem is the part of a schema variable's name that names its type.
func schemaStem(t *model.Type, none string) string {
	if t == nil {
		return none
	}
	return t.ID
}

// resultStem is schemaStem for t's result: a result type without a name of its own ([]Item, int) is
// named after the handler, so that the name does not depend on which tool is generated first.
func resultStem(t *model.Tool) string {
	if t.Result != nil && t.Result.ID == "" {
		return "ResultOf" + t.Func.Name
	}
	return schemaStem(t.Result, "NoValue")
}

func isNamedStruct(t *model.Type) bool { return t.Kind == model.KindStruct && t.Named != nil }

// resultEncoderName is the encoder of t's result value: a named struct's own encoder, else a root
// encoder named after the type (a named slice, map or scalar) or after the handler.
func resultEncoderName(t *model.Tool) string {
	switch {
	case t.Result == nil:
		return ""
	case isNamedStruct(t.Result):
		return encodeFuncName(t.Result)
	case t.Result.ID != "":
		return "winkEncode" + t.Result.ID
	}
	return "winkEncodeResultOf" + t.Func.Name
}

func defName(t *model.Tool) string { return "Wink" + t.Func.Name }

// funcsName is the variable holding the tool's typed functions.
func funcsName(t *model.Tool) string { return "winkFuncs" + t.Func.Name }

func paramsType(t *model.Tool) jen.Code {
	if t.Params == nil {
		return jen.Qual(WinkPath, "NoParams")
	}
	return typeCode(t.Params)
}

func resultType(t *model.Tool) jen.Code {
	if t.Result == nil {
		return jen.Qual(WinkPath, "NoValue")
	}
	return typeCode(t.Result)
}

// handlerType is the handler's function type as written by the developer.
func handlerType(t *model.Tool) jen.Code {
	params := []jen.Code{jen.Op("*").Qual(WinkPath, "ToolContext")}
	if t.Params != nil {
		params = append(params, typeCode(t.Params))
	}
	return jen.Func().Params(params...).Params(jen.Qual(WinkPath, "ToolResult").Types(resultType(t)), jen.Error())
}

func (e *emitter) emitTool(t *model.Tool) error {
	var paramsPlain, resultPlain []byte
	var err error
	if t.Params == nil {
		paramsPlain = schema.Empty()
	} else if paramsPlain, err = schema.Plain(t.Params); err != nil {
		return err
	}
	if t.Result == nil {
		resultPlain = schema.NoValue()
	} else if resultPlain, err = schema.Plain(t.Result); err != nil {
		return err
	}
	// The dialect forms are derived by the adapters at run time; deriving them here proves they can be.
	if _, err := openai.StrictSchema(paramsPlain); err != nil {
		return fmt.Errorf("tool %q: %w", t.Name, err)
	}
	if _, _, err := anthropic.StrictSchema(paramsPlain); err != nil {
		return fmt.Errorf("tool %q: %w", t.Name, err)
	}
	if _, err := gemini.Schema(paramsPlain); err != nil {
		return fmt.Errorf("tool %q: %w", t.Name, err)
	}
	spec := jen.Dict{
		jen.Id("Name"):             jen.Lit(t.Name),
		jen.Id("Description"):      jen.Lit(t.Description),
		jen.Id("Position"):         jen.Lit(t.Func.Path + "." + t.Func.Name + " (" + filepath.Base(t.Pos.File) + ")"),
		jen.Id("ParamsSchema"):     e.schemaVar(paramsPlain, "winkSchema"+schemaStem(t.Params, "NoParams")),
		jen.Id("ResultSchema"):     e.schemaVar(resultPlain, "winkSchema"+resultStem(t)),
		jen.Id("AcceptsOverrides"): jen.Lit(t.Overrides),
	}
	if t.ReadOnly {
		spec[jen.Id("ReadOnly")] = jen.True()
	}
	if t.Title != "" {
		spec[jen.Id("Title")] = jen.Lit(t.Title)
	}
	if t.Destructive != nil {
		spec[jen.Id("Destructive")] = jen.Qual(WinkPath, map[bool]string{true: "HintYes", false: "HintNo"}[*t.Destructive])
	}
	if t.OpenWorld != nil {
		spec[jen.Id("OpenWorld")] = jen.Qual(WinkPath, map[bool]string{true: "HintYes", false: "HintNo"}[*t.OpenWorld])
	}
	if len(t.Scopes) > 0 {
		var scs []jen.Code
		for _, sc := range t.Scopes {
			scs = append(scs, jen.Lit(sc))
		}
		spec[jen.Id("Scopes")] = jen.Index().String().Values(scs...)
	}
	switch t.Task {
	case "optional":
		spec[jen.Id("Task")] = jen.Qual(WinkPath, "TaskOptional")
	case "required":
		spec[jen.Id("Task")] = jen.Qual(WinkPath, "TaskRequired")
	}
	if t.Defer {
		spec[jen.Id("Deferred")] = jen.True()
	}
	if r := t.Rate; r != nil {
		spec[jen.Id("Rate")] = jen.Qual(WinkPath, "Rate").Values(jen.Dict{
			jen.Id("Count"): jen.Lit(int(r.Count)),
			jen.Id("Per"):   durationCode(time.Duration(r.PerNanos)),
			jen.Id("Burst"): jen.Lit(int(r.Burst)),
		})
	}
	if len(t.Headers) > 0 {
		var hs []jen.Code
		for _, h := range t.Headers {
			hs = append(hs, jen.Values(jen.Dict{jen.Id("Param"): jen.Lit(h.Param), jen.Id("Header"): jen.Lit(h.Header)}))
		}
		spec[jen.Id("Headers")] = jen.Index().Qual(WinkPath, "ParamHeader").Values(hs...)
	}
	if callableFromPrograms(t) {
		sig, err := signature(t.Name, t.Description, paramsPlain, resultPlain)
		if err != nil {
			return fmt.Errorf("tool %q: signature: %w", t.Name, err)
		}
		spec[jen.Id("Signature")] = jen.Lit(sig)
	}
	if c, ok := map[string]string{"direct": "CallersDirect", "program": "CallersProgram", "both": "CallersBoth"}[t.Callers]; ok {
		spec[jen.Id("Callers")] = jen.Qual(WinkPath, c)
	}
	if len(t.Examples) > 0 {
		var exs []jen.Code
		for _, ex := range t.Examples {
			d := jen.Dict{
				jen.Id("Description"): jen.Lit(ex.Description),
				jen.Id("Input"):       jen.Index().Byte().Parens(rawLit(ex.Input)),
			}
			if ex.Output != "" {
				d[jen.Id("Output")] = jen.Index().Byte().Parens(rawLit(ex.Output))
			}
			exs = append(exs, jen.Values(d))
		}
		spec[jen.Id("Examples")] = jen.Index().Qual(WinkPath, "Example").Values(exs...)
	}
	if id := t.Idempotency; id != nil {
		strat := map[string]string{"auto": "IdemAuto", "params": "IdemParams", "custom": "IdemCustom", "none": "IdemNone"}[id.Strategy]
		d := jen.Dict{jen.Id("Strategy"): jen.Qual(WinkPath, strat), jen.Id("Scope"): jen.Lit(id.Scope)}
		if len(id.Keys) > 0 {
			var ks []jen.Code
			for _, k := range id.Keys {
				ks = append(ks, jen.Lit(k))
			}
			d[jen.Id("Keys")] = jen.Index().String().Values(ks...)
		}
		if id.TTLNanos > 0 {
			d[jen.Id("TTL")] = durationCode(time.Duration(id.TTLNanos))
		}
		spec[jen.Id("Idempotency")] = jen.Qual(WinkPath, "Idempotency").Values(d)
	}

	funcs := jen.Dict{}
	if t.Params == nil {
		funcs[jen.Id("Decode")] = jen.Qual(WinkPath, "DecodeNoParams")
		funcs[jen.Id("EncodeParams")] = jen.Qual(WinkPath, "EncodeNoParams")
		funcs[jen.Id("Handler")] = jen.Func().Params(jen.Id("tc").Op("*").Qual(WinkPath, "ToolContext"), jen.Id("_").Qual(WinkPath, "NoParams")).
			Params(jen.Qual(WinkPath, "ToolResult").Types(resultType(t)), jen.Error()).Block(jen.Return(jen.Qual(t.Func.Path, t.Func.Name).Call(jen.Id("tc"))))
	} else {
		funcs[jen.Id("Decode")] = jen.Id(decodeFuncName(t.Params))
		funcs[jen.Id("EncodeParams")] = jen.Id(encodeFuncName(t.Params))
		funcs[jen.Id("Handler")] = jen.Qual(t.Func.Path, t.Func.Name)
	}
	if t.Result == nil {
		funcs[jen.Id("EncodeResult")] = jen.Qual(WinkPath, "EncodeNoValue")
	} else {
		funcs[jen.Id("EncodeResult")] = jen.Id(resultEncoderName(t))
	}
	if t.Idempotency != nil && t.Idempotency.Strategy == "custom" {
		var call jen.Code
		if t.Params == nil {
			call = jen.Qual(t.Idempotency.Func.Path, t.Idempotency.Func.Name).Call()
		} else {
			call = jen.Qual(t.Idempotency.Func.Path, t.Idempotency.Func.Name).Call(jen.Op("*").Id("p"))
		}
		funcs[jen.Id("IdempotencyKey")] = jen.Func().Params(jen.Id("p").Op("*").Add(paramsType(t))).String().Block(jen.Return(call))
	}

	name := defName(t)
	e.f.Commentf("%s is the %s tool, handled by %s.", name, t.Name, t.Func.Name)
	e.f.Var().Id(name).Op("=").Qual(WinkPath, "NewTool").Call(
		jen.Qual(WinkPath, "Spec").Values(spec),
		jen.Op("&").Id(funcsName(t)),
	)
	// The Funcs are a variable of their own: static data (function addresses), so they cost no init code.
	e.f.Var().Id(funcsName(t)).Op("=").Qual(WinkPath, "Funcs").Types(paramsType(t), resultType(t)).Values(funcs)
	if len(t.Examples) > 0 {
		e.emitExamples(t)
	}
	return nil
}

func durationCode(d time.Duration) jen.Code {
	if d == 0 {
		return jen.Lit(0)
	}
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}} {
		if d%u.d == 0 {
			return jen.Lit(int(d/u.d)).Op("*").Qual("time", u.name)
		}
	}
	return jen.Qual("time", "Duration").Parens(jen.Lit(int(d)))
}

// emitExamples writes the examples as typed Go values (so the compiler checks them again): a function per
// tool returning them in directive order.
func (e *emitter) emitExamples(t *model.Tool) {
	name := defName(t) + "Examples"
	var body []jen.Code
	body = append(body, jen.Id("out").Op(":=").Make(jen.Index().Qual(WinkPath, "TypedExample").Types(paramsType(t), resultType(t)), jen.Lit(len(t.Examples))))
	for i, ex := range t.Examples {
		target := jen.Id("out").Index(jen.Lit(i))
		stmts := []jen.Code{jen.Add(target).Dot("Description").Op("=").Lit(ex.Description)}
		if ex.InputValue != nil {
			stmts = append(stmts, e.assignValue(ex.InputValue, jen.Add(target).Dot("Input"), 0)...)
		}
		if ex.OutputValue != nil {
			stmts = append(stmts, e.assignValue(ex.OutputValue, jen.Add(target).Dot("Output"), 0)...)
			stmts = append(stmts, jen.Add(target).Dot("HasOutput").Op("=").True())
		}
		body = append(body, jen.Block(stmts...))
	}
	body = append(body, jen.Return(jen.Id("out")))
	e.f.Commentf("%s returns the examples of %s as typed values, in directive order. Their JSON forms are in", name, t.Name)
	e.f.Commentf("%s.Spec().Examples.", defName(t))
	e.f.Func().Id(name).Params().Index().Qual(WinkPath, "TypedExample").Types(paramsType(t), resultType(t)).Block(body...)
}

// assignValue writes statements that set target to v.
func (e *emitter) assignValue(v *model.Value, target *jen.Statement, depth int) []jen.Code {
	t := v.Type
	sfx := itoa(depth)
	switch t.Kind {
	case model.KindStruct:
		var out []jen.Code
		for _, fv := range v.Fields {
			out = append(out, e.assignValue(fv.Value, e.fieldExpr(target, fv.Field), depth+1)...)
		}
		return out
	case model.KindPointer:
		if v.Nil {
			return []jen.Code{jen.Add(target).Op("=").Nil()}
		}
		e.needNew = true
		inner := e.assignValue(v.Items[0], e.deref(jen.Id("p"+sfx)), depth+1)
		return []jen.Code{jen.Block(append([]jen.Code{jen.Id("p" + sfx).Op(":=").Id("winkNew").Call(jen.Op("&").Add(target))}, inner...)...)}
	case model.KindSlice:
		if v.Nil {
			return nil
		}
		var out []jen.Code
		if spellable(t) {
			out = append(out, jen.Add(target).Op("=").Make(typeCode(t), jen.Lit(len(v.Items))))
			for i, it := range v.Items {
				out = append(out, e.assignValue(it, jen.Add(target).Index(jen.Lit(i)), depth+1)...)
			}
			return out
		}
		e.needGrow = true
		for _, it := range v.Items {
			inner := e.assignValue(it, e.deref(jen.Id("e"+sfx)), depth+1)
			out = append(out, jen.Block(append([]jen.Code{jen.Id("e" + sfx).Op(":=").Id("winkGrow").Call(jen.Op("&").Add(target))}, inner...)...))
		}
		return out
	case model.KindArray:
		var out []jen.Code
		for i, it := range v.Items {
			out = append(out, e.assignValue(it, jen.Add(target).Index(jen.Lit(i)), depth+1)...)
		}
		return out
	case model.KindMap:
		out := []jen.Code{jen.Add(target).Op("=").Make(typeCode(t), jen.Lit(len(v.Items)))}
		for i, k := range v.Keys {
			inner := e.assignValue(v.Items[i], jen.Id("e"+sfx), depth+1)
			out = append(out, jen.Block(append(append([]jen.Code{jen.Var().Id("e" + sfx).Add(typeCode(t.Elem))}, inner...),
				jen.Add(target).Index(jen.Lit(k)).Op("=").Id("e"+sfx))...))
		}
		return out
	}
	return []jen.Code{jen.Add(target).Op("=").Add(e.valueLit(v, false))}
}

// valueLit is a Go expression for a scalar value: an untyped constant where it is assigned to a typed
// target, converted to its type when typed is set (for type inference).
func (e *emitter) valueLit(v *model.Value, typed bool) jen.Code {
	t := v.Type
	if v.Enum != nil {
		return jen.Qual(v.Enum.Const.Path, v.Enum.Const.Name)
	}
	conv := func(x jen.Code) jen.Code {
		if !typed {
			return x
		}
		if t.Named != nil {
			return jen.Add(typeCode(t)).Parens(x)
		}
		return jen.Id(t.Basic).Parens(x)
	}
	switch t.Kind {
	case model.KindString:
		if t.Named != nil {
			return conv(jen.Lit(v.Str))
		}
		return jen.Lit(v.Str)
	case model.KindBool:
		if t.Named != nil {
			return conv(jen.Lit(v.Bool))
		}
		return jen.Lit(v.Bool)
	case model.KindInt, model.KindUint, model.KindFloat:
		return conv(jen.Id(v.Num))
	case model.KindJSON:
		return jen.Add(typeCode(t)).Parens(jen.Lit(v.Str))
	case model.KindDuration:
		du, _ := time.ParseDuration(v.Str)
		if du == 0 && typed {
			return jen.Qual("time", "Duration").Parens(jen.Lit(0))
		}
		return durationCode(du)
	case model.KindTime:
		tm, err := time.Parse(time.RFC3339Nano, v.Str)
		if err != nil {
			return jen.Qual("time", "Time").Values()
		}
		var loc jen.Code = jen.Qual("time", "UTC")
		if _, off := tm.Zone(); off != 0 {
			loc = jen.Qual("time", "FixedZone").Call(jen.Lit(""), jen.Lit(off))
		}
		return jen.Qual("time", "Date").Call(jen.Lit(tm.Year()), jen.Qual("time", tm.Month().String()), jen.Lit(tm.Day()),
			jen.Lit(tm.Hour()), jen.Lit(tm.Minute()), jen.Lit(tm.Second()), jen.Lit(tm.Nanosecond()), loc)
	}
	return jen.Nil()
}

// decodedTypes returns the types something decodes: those reachable from a tool's params or a
// //wink:state type. A type only results use gets an encoder and no decoder.
func decodedTypes(p *model.Package) map[*model.Type]bool {
	seen := map[*model.Type]bool{}
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		walk(t.Elem)
		for _, f := range t.Fields {
			walk(f.Type)
		}
	}
	for _, t := range p.Tools {
		walk(t.Params)
	}
	for _, t := range p.States {
		walk(t)
	}
	for _, t := range p.Forms {
		walk(t)
	}
	return seen
}
