package gen

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/winkgen/wink/gen/model"
)

const sjPath = "github.com/winkgen/wink/runtime/strictjson"

// emitter carries per-file state for emitting one package.
type emitter struct {
	pkg         *model.Package
	f           *jen.File
	rats        map[string]string // multipleOf literal → package variable name
	ratOrder    []string
	pats        map[string]string // pattern → package variable name
	patNames    map[string]bool   // the names in pats
	patOrder    []string
	keys        map[*model.Type]string // struct → allowed-keys variable
	keyDecls    []jen.Code
	schemas     map[string]string // schema bytes → package variable
	schemaNames map[string]bool
	schemaOrder []string
	needGrow    bool
	needNew     bool
	needPtr     bool
	zeroTypes   map[*model.Type]bool // named structs whose zero test is used
	zeroOrder   []*model.Type
	derefs      map[*jen.Statement]jen.Code // (*x) → x, for selecting a field through it (see deref)
}

// deref is the expression (*x) for a pointer x. A field of it is written x.F, not (*x).F: fieldExpr
// selects through the pointer, as Go does.
func (e *emitter) deref(x jen.Code) *jen.Statement {
	s := jen.Parens(jen.Op("*").Add(x))
	if e.derefs == nil {
		e.derefs = map[*jen.Statement]jen.Code{}
	}
	e.derefs[s] = x
	return s
}

// typeCode spells a model type in Go. Anonymous structs cannot be spelled (their unexported fields and tags are
// not in the model); callers avoid needing them (see spellable).
func typeCode(t *model.Type) jen.Code {
	if t.Named != nil {
		return jen.Qual(t.Named.Path, t.Named.Name)
	}
	switch t.Kind {
	case model.KindPointer:
		return jen.Op("*").Add(typeCode(t.Elem))
	case model.KindSlice:
		return jen.Index().Add(typeCode(t.Elem))
	case model.KindArray:
		return jen.Index(jen.Lit(int(t.Len))).Add(typeCode(t.Elem))
	case model.KindMap:
		return jen.Map(jen.String()).Add(typeCode(t.Elem))
	case model.KindStruct:
		return jen.Id("struct{ /* anonymous */ }")
	}
	return jen.Id(t.Basic)
}

// spellable reports whether t can be written as a Go type expression (it contains no anonymous struct).
func spellable(t *model.Type) bool {
	if t.Named != nil {
		return true
	}
	switch t.Kind {
	case model.KindStruct:
		return false
	case model.KindPointer, model.KindSlice, model.KindArray, model.KindMap:
		return spellable(t.Elem)
	}
	return true
}

func (e *emitter) ratVar(lit string) string {
	if v, ok := e.rats[lit]; ok {
		return v
	}
	v := "winkRat" + strings.NewReplacer(".", "p", "-", "m", "+", "P").Replace(lit)
	e.rats[lit] = v
	e.ratOrder = append(e.ratOrder, lit)
	return v
}

func (e *emitter) patVar(p string) string {
	if v, ok := e.pats[p]; ok {
		return v
	}
	// Named by a hash of the pattern, not by order of use: adding a pattern renames no other.
	sum := sha256.Sum256([]byte(p))
	v := "winkPattern" + hex.EncodeToString(sum[:4])
	for n := 5; e.patNames[v]; n++ {
		v = "winkPattern" + hex.EncodeToString(sum[:n])
	}
	e.patNames[v] = true
	e.pats[p] = v
	e.patOrder = append(e.patOrder, p)
	return v
}

// keysVar returns the name of the variable listing a struct's JSON field names (for unknown-key messages).
func (e *emitter) keysVar(t *model.Type, id string) string {
	if v, ok := e.keys[t]; ok {
		return v
	}
	v := "winkKeys" + id
	e.keys[t] = v
	var names []jen.Code
	for _, f := range t.Fields {
		names = append(names, jen.Lit(f.JSONName))
	}
	e.keyDecls = append(e.keyDecls, jen.Id(v).Op("=").Index().String().Values(names...))
	return v
}

// decodeFuncName is the generated decoder of a named struct type.
func decodeFuncName(t *model.Type) string { return "winkDecode" + t.ID }

// emitStructDecoder writes func winkDecodeT(d *strictjson.Decoder, v *T).
func (e *emitter) emitStructDecoder(t *model.Type) {
	body := e.structBody(t, jen.Id("v"), t.ID, 0)
	e.f.Commentf("%s strictly decodes a %s object; errors are recorded in d.", decodeFuncName(t), t.Named.Name)
	e.f.Func().Id(decodeFuncName(t)).Params(jen.Id("d").Op("*").Qual(sjPath, "Decoder"), jen.Id("v").Op("*").Add(typeCode(t))).Block(body...)
}

// structBody decodes an object into the struct expression v (addressable).
func (e *emitter) structBody(t *model.Type, v *jen.Statement, id string, depth int) []jen.Code {
	seen := "seen" + suffix(depth)
	set := "set" + suffix(depth)
	words := (len(t.Fields) + 63) / 64
	if words == 0 {
		words = 1
	}
	needSet := false
	for _, f := range t.Fields {
		if f.Cons != nil && f.Cons.Default != "" {
			needSet = true
		}
	}
	var cases []jen.Code
	for i, f := range t.Fields {
		word, bit := i/64, uint64(1)<<(uint(i)%64)
		bitLit := uintLit(bit)
		target := e.fieldExpr(v, f)
		var stmts []jen.Code
		stmts = append(stmts,
			jen.If(jen.Id("d").Dot("Repeated").Call(jen.Op("&").Id(seen).Index(jen.Lit(word)), bitLit)).Block(jen.Continue()))
		if !f.Required {
			stmts = append(stmts, jen.If(jen.Id("d").Dot("Null").Call()).Block(jen.Continue()))
		}
		if needSet && f.Cons != nil && f.Cons.Default != "" {
			stmts = append(stmts, jen.Id(set).Index(jen.Lit(word)).Op("|=").Add(uintLit(bit)))
		}
		if f.Type.Kind == model.KindPointer {
			// null was handled above (optional fields: null means absent).
			stmts = append(stmts, e.pointeeCode(f.Type, target, f.Cons, true, id+exportedName(f.JSONName), depth+1)...)
		} else {
			stmts = append(stmts, e.valueCode(f.Type, target, f.Cons, true, id+exportedName(f.JSONName), depth+1)...)
		}
		cases = append(cases, jen.Case(jen.Lit(f.JSONName)).Block(stmts...))
	}
	cases = append(cases, jen.Default().Block(jen.Id("d").Dot("Unknown").Call(jen.Id(e.keysVar(t, id)))))
	out := []jen.Code{
		jen.If(jen.Op("!").Id("d").Dot("ObjectStart").Call()).Block(jen.Return()),
		jen.Var().Id(seen).Index(jen.Lit(words)).Uint64(),
	}
	if len(t.Fields) == 0 {
		out[1] = jen.Null()
	}
	if needSet {
		out = append(out, jen.Var().Id(set).Index(jen.Lit(words)).Uint64())
	}
	out = append(out, jen.For(jen.Id("d").Dot("NextKey").Call()).Block(
		jen.Switch(jen.String().Parens(jen.Id("d").Dot("Key").Call())).Block(cases...)))
	for i, f := range t.Fields {
		word, bit := i/64, uint64(1)<<(uint(i)%64)
		if f.Required {
			out = append(out, jen.If(jen.Id(seen).Index(jen.Lit(word)).Op("&").Add(uintLit(bit)).Op("==").Lit(0)).Block(
				jen.Id("d").Dot("Missing").Call(jen.Lit(f.JSONName))))
		}
		if f.Cons != nil && f.Cons.Default != "" {
			var apply []jen.Code
			if dt := stripPtr(f.Type); scalarTarget(dt) != dt {
				// A slice, array, map or struct default is built afresh for every call that leaves it out.
				val := f.Cons.DefaultValue
				if f.Type.Kind == model.KindPointer {
					val = &model.Value{Type: f.Type, Items: []*model.Value{val}}
				}
				apply = e.assignValue(val, e.fieldExpr(v, f), 1)
			} else {
				apply = []jen.Code{jen.Add(e.fieldExpr(v, f)).Op("=").Add(e.defaultCode(f))}
			}
			out = append(out, jen.If(jen.Id(set).Index(jen.Lit(word)).Op("&").Add(uintLit(bit)).Op("==").Lit(0)).Block(apply...))
		}
	}
	out = append(out, jen.Id("d").Dot("ObjectEnd").Call())
	if depth > 0 {
		// Inline (anonymous struct): wrap in if d.ObjectStart() { ... }.
		return []jen.Code{jen.If(jen.Id("d").Dot("ObjectStart").Call()).Block(out[1:]...)}
	}
	return out
}

func suffix(depth int) string {
	if depth == 0 {
		return ""
	}
	return itoa(depth)
}

func (e *emitter) fieldExpr(v *jen.Statement, f *model.Field) *jen.Statement {
	s := jen.Add(v)
	if x, ok := e.derefs[v]; ok && len(f.GoPath) > 0 {
		s = jen.Add(x)
	}
	for _, p := range f.GoPath {
		s = s.Dot(p)
	}
	return s
}

// defaultCode is the Go value of a field's default.
func (e *emitter) defaultCode(f *model.Field) jen.Code {
	if f.Type.Kind == model.KindPointer {
		e.needPtr = true
		return jen.Id("winkPtr").Call(e.valueLit(f.Cons.DefaultValue, true))
	}
	return e.valueLit(f.Cons.DefaultValue, false)
}

// valueCode decodes the next JSON value into target (an addressable expression of type t). c carries the
// field's constraints; items reports whether item constraints apply at this level.
func (e *emitter) valueCode(t *model.Type, target *jen.Statement, c *model.Constraints, items bool, id string, depth int) []jen.Code {
	d := jen.Id("d")
	conv := func(x jen.Code) jen.Code {
		if t.Named != nil {
			return jen.Add(typeCode(t)).Parens(x)
		}
		// Int, Uint and Float read an int64, a uint64 and a float64.
		if read := map[model.Kind]string{model.KindInt: "int64", model.KindUint: "uint64", model.KindFloat: "float64"}[t.Kind]; read != "" && t.Basic != read {
			return jen.Id(t.Basic).Parens(x)
		}
		return x
	}
	switch t.Kind {
	case model.KindPointer:
		return []jen.Code{jen.If(d.Clone().Dot("Null").Call()).Block(jen.Add(target).Op("=").Nil()).Else().Block(
			e.pointeeCode(t, target, c, items, id, depth)...)}
	case model.KindString:
		allowed := enumAllowed(t, c)
		if len(allowed) > 0 {
			var cases []jen.Code
			for _, lit := range allowed {
				ev := enumByJSON(t, lit)
				var val jen.Code
				if ev != nil {
					val = jen.Qual(ev.Const.Path, ev.Const.Name)
				} else {
					s, _ := strconv.Unquote(lit)
					val = conv(jen.Lit(s))
				}
				s, _ := unquoteJSON(lit)
				cases = append(cases, jen.Case(jen.Lit(s)).Block(jen.Add(target).Op("=").Add(val)))
			}
			cases = append(cases, jen.Default().Block(d.Clone().Dot("EnumMismatch").Call(jen.Id("b"), jen.Lit(enumText(allowed)))))
			return []jen.Code{jen.If(jen.List(jen.Id("b"), jen.Id("ok")).Op(":=").Add(d.Clone().Dot("StringBytes").Call()), jen.Id("ok")).Block(
				jen.Switch(jen.String().Parens(jen.Id("b"))).Block(cases...))}
		}
		body := []jen.Code{jen.Add(target).Op("=").Add(conv(jen.Id("s")))}
		body = append(body, e.stringChecks(c)...)
		return []jen.Code{jen.If(jen.List(jen.Id("s"), jen.Id("ok")).Op(":=").Add(d.Clone().Dot("String").Call()), jen.Id("ok")).Block(body...)}
	case model.KindBool:
		return []jen.Code{jen.If(jen.List(jen.Id("b"), jen.Id("ok")).Op(":=").Add(d.Clone().Dot("Bool").Call()), jen.Id("ok")).Block(
			jen.Add(target).Op("=").Add(conv(jen.Id("b"))))}
	case model.KindInt, model.KindUint:
		var call jen.Code
		if t.Kind == model.KindInt {
			lo, hi := intBounds(t, c)
			call = d.Clone().Dot("Int").Call(intLit(lo), intLit(hi))
		} else {
			call = d.Clone().Dot("Uint").Call(uintLit(uintBound(t, c)))
		}
		body := e.intChecks(t, c)
		body = append(body, jen.Add(target).Op("=").Add(conv(jen.Id("n"))))
		return []jen.Code{jen.If(jen.List(jen.Id("n"), jen.Id("ok")).Op(":=").Add(call), jen.Id("ok")).Block(body...)}
	case model.KindFloat:
		body := e.ruleCalls(t, c, "f")
		if allowed := enumAllowed(t, c); len(allowed) > 0 {
			// A number enum: the value read (as float64) equals one of the literals read the same way.
			var vals []jen.Code
			for _, a := range allowed {
				x, _ := strconv.ParseFloat(a, 64)
				vals = append(vals, jen.Lit(x))
			}
			body = append(body, jen.Switch(jen.Id("f")).Block(jen.Case(vals...),
				jen.Default().Block(d.Clone().Dot("FailFloat").Call(jen.Lit("must be one of "+enumText(allowed)), jen.Id("f")))))
		}
		body = append(body, jen.Add(target).Op("=").Add(conv(jen.Id("f"))))
		return []jen.Code{jen.If(jen.List(jen.Id("f"), jen.Id("ok")).Op(":=").Add(d.Clone().Dot("Float").Call(jen.Lit(t.Bits))), jen.Id("ok")).Block(body...)}
	case model.KindTime:
		return []jen.Code{jen.If(jen.List(jen.Id("tm"), jen.Id("ok")).Op(":=").Add(d.Clone().Dot("Time").Call()), jen.Id("ok")).Block(
			jen.Add(target).Op("=").Id("tm"))}
	case model.KindJSON:
		return []jen.Code{jen.If(jen.List(jen.Id("raw"), jen.Id("ok")).Op(":=").Add(d.Clone().Dot("FreeForm").Call()), jen.Id("ok")).Block(
			jen.Add(target).Op("=").Add(typeCode(t)).Parens(jen.Id("raw")))}
	case model.KindDuration:
		body := e.ruleCalls(t, c, "du")
		body = append(body, jen.Add(target).Op("=").Id("du"))
		return []jen.Code{jen.If(jen.List(jen.Id("du"), jen.Id("ok")).Op(":=").Add(d.Clone().Dot("Duration").Call()), jen.Id("ok")).Block(body...)}
	case model.KindStruct:
		if t.Named != nil {
			return []jen.Code{jen.Id(decodeFuncName(t)).Call(d, jen.Op("&").Add(target))}
		}
		return e.structBody(t, target, id, depth)
	case model.KindSlice:
		return e.sliceCode(t, target, c, items, id, depth)
	case model.KindArray:
		sfx := suffix(depth)
		i := jen.Id("i" + sfx)
		elem := e.valueCode(t.Elem, jen.Add(target).Index(jen.Id("i"+sfx)), c, false, id+"Item", depth+1)
		body := []jen.Code{
			jen.Id("i" + sfx).Op(":=").Lit(0),
			jen.For(d.Clone().Dot("NextElem").Call()).Block(
				jen.If(jen.Id("i"+sfx).Op("<").Lit(int(t.Len))).Block(elem...).Else().Block(d.Clone().Dot("Skip").Call()),
				jen.Add(i).Op("++"),
			),
			d.Clone().Dot("ArrayEnd").Call(),
			d.Clone().Dot("CheckArrayLen").Call(jen.Id("i"+sfx), jen.Lit(int(t.Len))),
		}
		if items {
			body = append(body, e.itemChecks(c, jen.Id("i"+sfx), jen.Add(target).Index(jen.Op(":")))...)
		}
		return []jen.Code{jen.If(d.Clone().Dot("ArrayStart").Call()).Block(body...)}
	case model.KindMap:
		sfx := suffix(depth)
		m := "m" + sfx
		k := "k" + sfx
		ev := "e" + sfx
		elem := e.valueCode(t.Elem, jen.Id(ev), nil, false, id+"Value", depth+1)
		loop := []jen.Code{
			jen.Id(k).Op(":=").Add(d.Clone().Dot("KeyString").Call()),
			jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Id(m).Index(jen.Id(k)), jen.Id("dup")).Block(
				d.Clone().Dot("Duplicate").Call(), d.Clone().Dot("Skip").Call(), jen.Continue()),
			jen.Var().Id(ev).Add(typeCode(t.Elem)),
		}
		loop = append(loop, elem...)
		loop = append(loop, jen.Id(m).Index(jen.Id(k)).Op("=").Id(ev))
		objectForm := jen.If(d.Clone().Dot("ObjectStart").Call()).Block(
			jen.Id(m).Op(":=").Make(typeCode(t)),
			jen.For(d.Clone().Dot("NextKey").Call()).Block(loop...),
			d.Clone().Dot("ObjectEnd").Call(),
			jen.Add(target).Op("=").Id(m),
		)
		// The pair form (strictjson.Limits.PairMaps): [{"key": k, "value": v}, ...], as a tool's OpenAI
		// strict schema states a map.
		seen := "seen" + sfx
		pelem := e.valueCode(t.Elem, jen.Id(ev), nil, false, id+"Value", depth+1)
		pair := []jen.Code{
			jen.Var().Id(k).String(),
			jen.Var().Id(ev).Add(typeCode(t.Elem)),
			jen.Var().Id(seen).Uint64(),
			jen.For(d.Clone().Dot("NextKey").Call()).Block(jen.Switch(jen.String().Call(d.Clone().Dot("Key").Call())).Block(
				jen.Case(jen.Lit("key")).Block(
					jen.If(d.Clone().Dot("Repeated").Call(jen.Op("&").Id(seen), jen.Lit(1))).Block(jen.Continue()),
					jen.List(jen.Id(k), jen.Id("_")).Op("=").Add(d.Clone().Dot("String").Call()),
				),
				jen.Case(jen.Lit("value")).Block(append([]jen.Code{
					jen.If(d.Clone().Dot("Repeated").Call(jen.Op("&").Id(seen), jen.Lit(2))).Block(jen.Continue()),
				}, pelem...)...),
				jen.Default().Block(d.Clone().Dot("Unknown").Call(jen.Qual(sjPath, "PairKeys"))),
			)),
			jen.If(jen.Id(seen).Op("&").Lit(1).Op("==").Lit(0)).Block(d.Clone().Dot("Missing").Call(jen.Lit("key"))),
			jen.If(jen.Id(seen).Op("&").Lit(2).Op("==").Lit(0)).Block(d.Clone().Dot("Missing").Call(jen.Lit("value"))),
			d.Clone().Dot("ObjectEnd").Call(),
			jen.If(jen.Id(seen).Op("!=").Lit(3)).Block(jen.Continue()),
			jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Id(m).Index(jen.Id(k)), jen.Id("dup")).Block(
				d.Clone().Dot("FailRepeatedKey").Call(jen.Id(k)), jen.Continue()),
			jen.Id(m).Index(jen.Id(k)).Op("=").Id(ev),
		}
		pairForm := jen.If(d.Clone().Dot("PairsStart").Call()).Block(
			jen.Id(m).Op(":=").Make(typeCode(t)),
			jen.For(d.Clone().Dot("NextElem").Call()).Block(
				jen.If(jen.Op("!").Add(d.Clone().Dot("ObjectStart").Call())).Block(jen.Continue()),
				jen.Block(pair...),
			),
			d.Clone().Dot("ArrayEnd").Call(),
			jen.Add(target).Op("=").Id(m),
		)
		return []jen.Code{jen.If(d.Clone().Dot("PairMaps").Call()).Block(pairForm).Else().Block(objectForm)}
	}
	return []jen.Code{d.Clone().Dot("Skip").Call()}
}

// pointeeCode decodes a non-null value into a new target of the pointer type t.
func (e *emitter) pointeeCode(t *model.Type, target *jen.Statement, c *model.Constraints, items bool, id string, depth int) []jen.Code {
	sfx := suffix(depth)
	if spellable(t.Elem) {
		body := []jen.Code{jen.Var().Id("p" + sfx).Add(typeCode(t.Elem))}
		body = append(body, e.valueCode(t.Elem, jen.Id("p"+sfx), c, items, id, depth+1)...)
		return append(body, jen.Add(target).Op("=").Op("&").Id("p"+sfx))
	}
	e.needNew = true
	body := []jen.Code{jen.Id("p" + sfx).Op(":=").Id("winkNew").Call(jen.Op("&").Add(target))}
	return append(body, e.valueCode(t.Elem, e.deref(jen.Id("p"+sfx)), c, items, id, depth+1)...)
}

func (e *emitter) sliceCode(t *model.Type, target *jen.Statement, c *model.Constraints, items bool, id string, depth int) []jen.Code {
	d := jen.Id("d")
	sfx := suffix(depth)
	tmp := "tmp" + sfx
	if spellable(t.Elem) {
		ev := "e" + sfx
		elem := e.valueCode(t.Elem, jen.Id(ev), c, false, id+"Item", depth+1)
		loop := []jen.Code{jen.Var().Id(ev).Add(typeCode(t.Elem))}
		loop = append(loop, elem...)
		loop = append(loop, jen.Id(tmp).Op("=").Append(jen.Id(tmp), jen.Id(ev)))
		body := []jen.Code{
			jen.Var().Id("buf" + sfx).Index(jen.Lit(8)).Add(typeCode(t.Elem)),
			jen.Id(tmp).Op(":=").Id("buf" + sfx).Index(jen.Op(":").Lit(0)),
			jen.For(d.Clone().Dot("NextElem").Call()).Block(loop...),
			d.Clone().Dot("ArrayEnd").Call(),
		}
		var val jen.Code = jen.Qual(sjPath, "Clone").Call(jen.Id(tmp))
		if t.Named != nil {
			val = jen.Add(typeCode(t)).Parens(val)
		}
		body = append(body, jen.Add(target).Op("=").Add(val))
		if items {
			body = append(body, e.itemChecks(c, jen.Len(jen.Id(tmp)), jen.Id(tmp))...)
		}
		return []jen.Code{jen.If(d.Clone().Dot("ArrayStart").Call()).Block(body...)}
	}
	// Elements of an anonymous struct type: grow the target in place.
	e.needGrow = true
	ep := "e" + sfx
	elem := e.valueCode(t.Elem, e.deref(jen.Id(ep)), c, false, id+"Item", depth+1)
	loop := []jen.Code{jen.Id(ep).Op(":=").Id("winkGrow").Call(jen.Op("&").Add(target))}
	loop = append(loop, elem...)
	body := []jen.Code{
		jen.Add(target).Op("=").Add(target).Index(jen.Op(":").Lit(0)),
		jen.For(d.Clone().Dot("NextElem").Call()).Block(loop...),
		d.Clone().Dot("ArrayEnd").Call(),
	}
	if items {
		body = append(body, e.itemChecks(c, jen.Len(target), target)...)
	}
	return []jen.Code{jen.If(d.Clone().Dot("ArrayStart").Call()).Block(body...)}
}

func (e *emitter) itemChecks(c *model.Constraints, n jen.Code, slice jen.Code) []jen.Code {
	if c == nil {
		return nil
	}
	d := jen.Id("d")
	var out []jen.Code
	if c.MinItems != nil || c.MaxItems != nil {
		out = append(out, d.Clone().Dot("CheckItems").Call(n, jen.Lit(bound(c.MinItems)), jen.Lit(bound(c.MaxItems))))
	}
	if c.UniqueItems {
		out = append(out, jen.If(jen.List(jen.Id("i"), jen.Id("j"), jen.Id("dup")).Op(":=").Qual(sjPath, "FirstDuplicate").Call(slice), jen.Id("dup")).Block(
			d.Clone().Dot("FailDuplicate").Call(jen.Id("i"), jen.Id("j"))))
	}
	return out
}

func (e *emitter) stringChecks(c *model.Constraints) []jen.Code {
	if c == nil {
		return nil
	}
	d := jen.Id("d")
	var out []jen.Code
	if c.MinLength != nil || c.MaxLength != nil {
		out = append(out, d.Clone().Dot("CheckLength").Call(jen.Id("s"), jen.Lit(bound(c.MinLength)), jen.Lit(bound(c.MaxLength))))
	}
	if c.Pattern != "" {
		out = append(out, d.Clone().Dot("CheckPattern").Call(jen.Id("s"), jen.Id(e.patVar(c.Pattern)), jen.Lit(c.PatternDesc)))
	}
	if c.Format != "" {
		out = append(out, d.Clone().Dot("CheckFormat").Call(jen.Id("s"), jen.Qual(sjPath, formatConst(c.Format))))
	}
	return out
}

func formatConst(name string) string {
	switch name {
	case "date-time":
		return "FormatDateTime"
	case "date":
		return "FormatDate"
	case "time":
		return "FormatTime"
	case "duration":
		return "FormatDuration"
	case "email":
		return "FormatEmail"
	case "hostname":
		return "FormatHostname"
	case "ipv4":
		return "FormatIPv4"
	case "ipv6":
		return "FormatIPv6"
	case "uuid":
		return "FormatUUID"
	case "uri":
		return "FormatURI"
	}
	return "FormatUnknown"
}

func (e *emitter) intChecks(t *model.Type, c *model.Constraints) []jen.Code {
	d := jen.Id("d")
	out := e.ruleCalls(t, c, "n")
	allowed := enumAllowed(t, c)
	if len(allowed) > 0 {
		var vals []jen.Code
		for _, a := range allowed {
			r, _ := new(big.Rat).SetString(a)
			if t.Kind == model.KindUint {
				vals = append(vals, uintLit(r.Num().Uint64()))
			} else {
				vals = append(vals, intLit(r.Num().Int64()))
			}
		}
		n := jen.Id("n")
		if t.Kind == model.KindUint {
			n = jen.Int64().Parens(n)
		}
		out = append(out, jen.Switch(jen.Id("n")).Block(jen.Case(vals...), jen.Default().Block(d.Clone().Dot("EnumMismatchInt").Call(n, jen.Lit(enumText(allowed))))))
	}
	return out
}

// ruleCalls writes the numberRules of a number of type t as strictjson calls on the variable v.
func (e *emitter) ruleCalls(t *model.Type, c *model.Constraints, v string) []jen.Code {
	var out []jen.Code
	for _, r := range numberRules(t, c) {
		var bound jen.Code
		switch t.Kind {
		case model.KindInt:
			bound = intLit(r.i)
		case model.KindUint:
			bound = uintLit(r.u)
		case model.KindFloat:
			bound = jen.Lit(r.f)
		case model.KindDuration:
			bound = durationCode(r.dur)
		}
		if r.fn == "CheckMultipleOfFloat" {
			out = append(out, jen.Id("d").Dot(r.fn).Call(jen.Id(v), jen.Id(e.ratVar(r.lit)), jen.Lit(r.lit)))
			continue
		}
		out = append(out, jen.Qual(sjPath, r.fn).Call(jen.Id("d"), jen.Id(v), bound, jen.Lit(r.lit)))
	}
	return out
}

func intLit(n int64) jen.Code {
	switch n {
	case -1 << 63:
		return jen.Qual("math", "MinInt64")
	case 1<<63 - 1:
		return jen.Qual("math", "MaxInt64")
	}
	return jen.Lit(int(n))
}

func uintLit(n uint64) jen.Code {
	if n == 1<<64-1 {
		return jen.Qual("math", "MaxUint64")
	}
	if n > 1<<62 {
		return jen.Lit(n)
	}
	return jen.Lit(int(n))
}

func unquoteJSON(lit string) (string, bool) {
	var s string
	if err := json.Unmarshal([]byte(lit), &s); err != nil {
		return "", false
	}
	return s, true
}

// bound is a length or count bound for CheckLength and CheckItems: -1 when absent.
func bound(b *int) int {
	if b == nil {
		return -1
	}
	return *b
}
