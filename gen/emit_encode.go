package gen

import (
	"strconv"

	"github.com/dave/jennifer/jen"
	"github.com/winkgen/wink/gen/model"
)

// encodeFuncName is the generated encoder of a named struct type.
func encodeFuncName(t *model.Type) string { return "winkEncode" + t.ID }

// emitStructEncoder writes func winkEncodeT(dst []byte, v *T) []byte. Fields are written in declaration
// order, left out where encoding/json leaves them out (omitempty, omitzero: omitTest); nil pointers as
// null, nil slices as [] and nil maps as {} (so results always match their schema), map keys sorted. The output is the canonical JSON used for rendering, structured content
// and idempotency keys.
func (e *emitter) emitStructEncoder(t *model.Type) {
	body := e.encodeStruct(t, jen.Id("v"), 0)
	body = append(body, jen.Return(jen.Id("dst")))
	e.f.Commentf("%s appends the canonical JSON encoding of v to dst.", encodeFuncName(t))
	e.f.Func().Id(encodeFuncName(t)).Params(jen.Id("dst").Index().Byte(), jen.Id("v").Op("*").Add(typeCode(t))).Index().Byte().Block(body...)
}

// emitRootEncoder writes func name(dst []byte, v *T) []byte for a result type that is not a named struct
// (a slice, a map, a scalar, a pointer): the canonical JSON of *v.
func (e *emitter) emitRootEncoder(name string, t *model.Type) {
	body := []jen.Code{jen.Id("x").Op(":=").Op("*").Id("v")}
	body = append(body, e.encodeValue(t, jen.Id("x"), 0)...)
	body = append(body, jen.Return(jen.Id("dst")))
	e.f.Commentf("%s appends the canonical JSON encoding of v to dst.", name)
	e.f.Func().Id(name).Params(jen.Id("dst").Index().Byte(), jen.Id("v").Op("*").Add(typeCode(t))).Index().Byte().Block(body...)
}

func appendRaw(s string) jen.Code {
	return jen.Id("dst").Op("=").Append(jen.Id("dst"), jen.Lit(s).Op("..."))
}

func appendByte(c byte) jen.Code {
	return jen.Id("dst").Op("=").Append(jen.Id("dst"), jen.LitRune(rune(c)))
}

func (e *emitter) encodeStruct(t *model.Type, v *jen.Statement, depth int) []jen.Code {
	var out []jen.Code
	if len(t.Fields) == 0 {
		return []jen.Code{appendRaw("{}")}
	}
	// Fields before the first one always written may be left out, so whether a comma precedes a field is
	// known only at run time until then: mark is where the members start.
	mark := jen.Id("mark" + strconv.Itoa(depth))
	dynamic := e.omitTest(t.Fields[0], e.fieldExpr(v, t.Fields[0])) != nil
	scoped := dynamic && len(t.Fields) > 1 // mark lives in a block of its own (an anonymous struct's encoder is inlined)
	switch {
	case scoped:
		out = append(out, appendByte('{'), jen.Add(mark).Op(":=").Len(jen.Id("dst")))
	case dynamic:
		out = append(out, appendByte('{'))
	}
	for i, f := range t.Fields {
		name := jsonQuote(f.JSONName) + ":"
		var key []jen.Code
		switch {
		case !dynamic && i == 0:
			key = []jen.Code{appendRaw("{" + name)}
		case !dynamic:
			key = []jen.Code{appendRaw("," + name)}
		case i == 0:
			key = []jen.Code{appendRaw(name)}
		default:
			key = []jen.Code{jen.If(jen.Len(jen.Id("dst")).Op("!=").Add(mark)).Block(appendByte(',')), appendRaw(name)}
		}
		value := e.encodeValue(f.Type, e.fieldExpr(v, f), depth+1)
		if omit := e.omitTest(f, e.fieldExpr(v, f)); omit != nil {
			// Left out as encoding/json leaves it out (omitempty, omitzero); absent decodes back to it.
			out = append(out, jen.If(jen.Op("!").Parens(omit)).Block(append(key, value...)...))
			continue
		}
		dynamic = false
		out = append(out, key...)
		out = append(out, value...)
	}
	out = append(out, appendByte('}'))
	if scoped {
		return []jen.Code{jen.Block(out...)}
	}
	return out
}

// convertTo is v (of type t) converted to the basic type basic, or v itself when it has that type already.
func convertTo(t *model.Type, basic string, v jen.Code) jen.Code {
	if t.Named == nil && t.Basic == basic {
		return v
	}
	return jen.Id(basic).Parens(v)
}

func sj(name string) *jen.Statement { return jen.Qual(sjPath, name) }

func (e *emitter) encodeValue(t *model.Type, v *jen.Statement, depth int) []jen.Code {
	set := func(x jen.Code) []jen.Code { return []jen.Code{jen.Id("dst").Op("=").Add(x)} }
	switch t.Kind {
	case model.KindString:
		if t.Named != nil {
			return set(sj("AppendString").Call(jen.Id("dst"), jen.String().Parens(v)))
		}
		return set(sj("AppendString").Call(jen.Id("dst"), v))
	case model.KindBool:
		if t.Named != nil {
			return set(sj("AppendBool").Call(jen.Id("dst"), jen.Bool().Parens(v)))
		}
		return set(sj("AppendBool").Call(jen.Id("dst"), v))
	case model.KindInt:
		return set(sj("AppendInt").Call(jen.Id("dst"), convertTo(t, "int64", v)))
	case model.KindUint:
		return set(sj("AppendUint").Call(jen.Id("dst"), convertTo(t, "uint64", v)))
	case model.KindFloat:
		return set(sj("AppendFloat").Call(jen.Id("dst"), convertTo(t, "float64", v), jen.Lit(t.Bits)))
	case model.KindTime:
		return set(sj("AppendTime").Call(jen.Id("dst"), v))
	case model.KindDuration:
		return set(sj("AppendDuration").Call(jen.Id("dst"), v))
	case model.KindJSON:
		// Kept as its raw text; null when absent.
		return []jen.Code{jen.If(jen.Len(v).Op("==").Lit(0)).Block(appendRaw("null")).Else().Block(
			jen.Id("dst").Op("=").Append(jen.Id("dst"), jen.Add(v).Op("..."))),
		}
	case model.KindStruct:
		if t.Named != nil {
			return set(jen.Id(encodeFuncName(t)).Call(jen.Id("dst"), jen.Op("&").Add(v)))
		}
		return e.encodeStruct(t, v, depth)
	case model.KindPointer:
		// *p needs parentheses only to be indexed or to have a field selected (which fieldExpr writes as p.F).
		pointee := jen.Op("*").Add(v)
		switch t.Elem.Kind {
		case model.KindSlice, model.KindArray, model.KindMap, model.KindStruct, model.KindPointer:
			pointee = e.deref(v)
		}
		inner := e.encodeValue(t.Elem, pointee, depth+1)
		if t.Elem.Kind == model.KindStruct && t.Elem.Named != nil {
			// The encoder takes the pointer itself (not &(*p)).
			inner = set(jen.Id(encodeFuncName(t.Elem)).Call(jen.Id("dst"), v))
		}
		return []jen.Code{jen.If(jen.Add(v).Op("==").Nil()).Block(appendRaw("null")).Else().Block(inner...)}
	case model.KindSlice, model.KindArray:
		sfx := itoa(depth)
		loop := []jen.Code{jen.If(jen.Id("i" + sfx).Op(">").Lit(0)).Block(appendByte(','))}
		loop = append(loop, e.encodeValue(t.Elem, jen.Add(v).Index(jen.Id("i"+sfx)), depth+1)...)
		return []jen.Code{
			appendByte('['),
			jen.For(jen.Id("i" + sfx).Op(":=").Range().Add(v)).Block(loop...),
			appendByte(']'),
		}
	case model.KindMap:
		sfx := itoa(depth)
		k := "k" + sfx
		loop := []jen.Code{
			jen.If(jen.Id("i" + sfx).Op(">").Lit(0)).Block(appendByte(',')),
			jen.Id("dst").Op("=").Add(sj("AppendString")).Call(jen.Id("dst"), jen.Id(k)),
			appendByte(':'),
		}
		// The element is copied into a variable: a map element is not addressable, and struct encoders
		// take a pointer.
		elem := jen.Add(v).Index(jen.Id(k))
		if needsAddr(t.Elem) {
			el := "e" + sfx
			loop = append(loop, jen.Id(el).Op(":=").Add(elem))
			elem = jen.Id(el)
		}
		loop = append(loop, e.encodeValue(t.Elem, elem, depth+1)...)
		return []jen.Code{
			appendByte('{'),
			jen.For(jen.List(jen.Id("i"+sfx), jen.Id(k)).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(v))).Block(loop...),
			appendByte('}'),
		}
	}
	return []jen.Code{appendRaw("null")}
}

// omitTest is the condition under which a field is left out of the encoding, as encoding/json leaves it
// out: with omitempty when it is empty (false, 0, "", a nil pointer, a slice, map or free-form value of
// length 0), with omitzero when it is its zero value. Where encoding/json's omitempty never omits (a struct,
// a time.Time, a non-empty array type) the zero value is left out too: writing it could break the field's
// own constraints (a zero struct whose fields have minLength), and absent decodes back to it. nil when the
// field is always written: no omitempty or omitzero, or a default (which absent would decode to instead).
func (e *emitter) omitTest(f *model.Field, v *jen.Statement) jen.Code {
	if !f.OmitEmpty && !f.OmitZero || f.Cons != nil && f.Cons.Default != "" {
		return nil
	}
	if f.OmitEmpty {
		switch f.Type.Kind {
		case model.KindSlice, model.KindMap, model.KindJSON:
			return jen.Len(v).Op("==").Lit(0)
		}
	}
	return e.zeroExpr(f.Type, v)
}

// needsAddr reports whether encoding a value of t takes its address (a struct, or an array or map
// holding one), so a map element must be copied to a variable first.
func needsAddr(t *model.Type) bool {
	switch t.Kind {
	case model.KindStruct:
		return true
	case model.KindArray:
		return needsAddr(t.Elem)
	}
	return false
}

// zeroExpr is the Go condition that v (of type t) is its zero value; nil when it cannot be written (an
// array of a type without one).
func (e *emitter) zeroExpr(t *model.Type, v *jen.Statement) jen.Code {
	switch t.Kind {
	case model.KindStruct:
		if t.Named != nil {
			e.needZero(t)
			return jen.Id(zeroFuncName(t)).Call(jen.Op("&").Add(v))
		}
		if len(t.Fields) == 0 {
			return jen.True()
		}
		var conds []jen.Code
		for _, f := range t.Fields {
			c := e.zeroExpr(f.Type, e.fieldExpr(v, f))
			if c == nil {
				return nil
			}
			conds = append(conds, c)
		}
		return andAll(conds)
	case model.KindArray:
		if t.Len == 0 {
			return jen.True()
		}
		if c := e.zeroExpr(t.Elem, jen.Id("x")); c == nil {
			return nil
		}
		// Every element is zero: a small closure over the array (arrays are short).
		return jen.Func().Params().Bool().Block(
			jen.For(jen.Id("i").Op(":=").Range().Add(v)).Block(
				jen.Id("x").Op(":=").Add(v).Index(jen.Id("i")),
				jen.If(jen.Op("!").Parens(e.zeroExpr(t.Elem, jen.Id("x")))).Block(jen.Return(jen.False()))),
			jen.Return(jen.True())).Call()
	case model.KindPointer:
		return jen.Add(v).Op("==").Nil()
	}
	return zeroScalar(t, v)
}

// andAll joins conditions with &&.
func andAll(conds []jen.Code) jen.Code {
	s := jen.Parens(conds[0])
	for _, c := range conds[1:] {
		s = s.Op("&&").Parens(c)
	}
	return s
}

// zeroFuncName is the generated zero test of a named struct type.
func zeroFuncName(t *model.Type) string { return "winkZero" + t.ID }

// needZero records that the zero test of the named struct t is used; emitZeroFuncs writes them.
func (e *emitter) needZero(t *model.Type) {
	if e.zeroTypes == nil {
		e.zeroTypes = map[*model.Type]bool{}
	}
	if !e.zeroTypes[t] {
		e.zeroTypes[t] = true
		e.zeroOrder = append(e.zeroOrder, t)
	}
}

// emitZeroFuncs writes func winkZeroT(v *T) bool for every named struct whose zero test is used (each may
// ask for more: nested structs).
func (e *emitter) emitZeroFuncs() {
	for i := 0; i < len(e.zeroOrder); i++ {
		t := e.zeroOrder[i]
		var body jen.Code = jen.True()
		if len(t.Fields) > 0 {
			var conds []jen.Code
			ok := true
			for _, f := range t.Fields {
				c := e.zeroExpr(f.Type, e.fieldExpr(jen.Id("v"), f))
				if c == nil {
					ok = false
					break
				}
				conds = append(conds, c)
			}
			if ok {
				body = andAll(conds)
			} else {
				body = jen.False() // a field without a zero test: treat the value as set
			}
		}
		e.f.Commentf("%s reports whether v is the zero %s (an omitzero field holding it is left out).", zeroFuncName(t), t.Named.Name)
		e.f.Func().Id(zeroFuncName(t)).Params(jen.Id("v").Op("*").Add(typeCode(t))).Bool().Block(jen.Return(body))
	}
}

// zeroScalar is the zero test of a scalar, slice or map.
func zeroScalar(t *model.Type, v *jen.Statement) jen.Code {
	switch t.Kind {
	case model.KindString:
		return jen.Add(v).Op("==").Lit("")
	case model.KindBool:
		return jen.Op("!").Add(v)
	case model.KindInt, model.KindUint, model.KindFloat, model.KindDuration:
		return jen.Add(v).Op("==").Lit(0)
	case model.KindTime:
		return jen.Add(v).Dot("IsZero").Call()
	case model.KindSlice, model.KindMap:
		return jen.Add(v).Op("==").Nil()
	case model.KindJSON:
		return jen.Len(v).Op("==").Lit(0)
	}
	return nil
}
