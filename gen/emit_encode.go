package gen

import (
	"github.com/dave/jennifer/jen"
	"github.com/winkgen/wink/gen/model"
)

// encodeFuncName is the generated encoder of a named struct type.
func encodeFuncName(t *model.Type) string { return "winkEncode" + t.ID }

// emitStructEncoder writes func winkEncodeT(dst []byte, v *T) []byte. Every field is written, in
// declaration order: nil pointers as null, nil slices as [] and nil maps as {} (so results always match
// their schema), map keys sorted. The output is the canonical JSON used for rendering, structured content
// and idempotency keys.
func (e *emitter) emitStructEncoder(t *model.Type) {
	body := e.encodeStruct(t, jen.Id("v"), 0)
	body = append(body, jen.Return(jen.Id("dst")))
	e.f.Commentf("%s appends the canonical JSON encoding of v to dst.", encodeFuncName(t))
	e.f.Func().Id(encodeFuncName(t)).Params(jen.Id("dst").Index().Byte(), jen.Id("v").Op("*").Add(typeCode(t))).Index().Byte().Block(body...)
}

func appendRaw(s string) jen.Code {
	return jen.Id("dst").Op("=").Append(jen.Id("dst"), jen.Lit(s).Op("..."))
}

func appendByte(c byte) jen.Code {
	return jen.Id("dst").Op("=").Append(jen.Id("dst"), jen.LitByte(c))
}

func (e *emitter) encodeStruct(t *model.Type, v *jen.Statement, depth int) []jen.Code {
	var out []jen.Code
	if len(t.Fields) == 0 {
		return []jen.Code{appendRaw("{}")}
	}
	for i, f := range t.Fields {
		prefix := ","
		if i == 0 {
			prefix = "{"
		}
		out = append(out, appendRaw(prefix+jsonQuote(f.JSONName)+":"))
		value := e.encodeValue(f.Type, fieldExpr(v, f), depth+1)
		if zero := zeroTest(f, fieldExpr(v, f)); zero != nil {
			// An optional field at its zero value is written as null (absent): its zero value may not satisfy
			// its own constraints (an empty string against a pattern), and null decodes back to it.
			out = append(out, jen.If(zero).Block(appendRaw("null")).Else().Block(value...))
			continue
		}
		out = append(out, value...)
	}
	out = append(out, appendByte('}'))
	return out
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
		return set(sj("AppendInt").Call(jen.Id("dst"), jen.Int64().Parens(v)))
	case model.KindUint:
		return set(sj("AppendUint").Call(jen.Id("dst"), jen.Uint64().Parens(v)))
	case model.KindFloat:
		return set(sj("AppendFloat").Call(jen.Id("dst"), jen.Float64().Parens(v), jen.Lit(t.Bits)))
	case model.KindTime:
		return set(sj("AppendTime").Call(jen.Id("dst"), v))
	case model.KindStruct:
		if t.Named != nil {
			return set(jen.Id(encodeFuncName(t)).Call(jen.Id("dst"), jen.Op("&").Add(v)))
		}
		return e.encodeStruct(t, v, depth)
	case model.KindPointer:
		return []jen.Code{jen.If(jen.Add(v).Op("==").Nil()).Block(appendRaw("null")).Else().Block(
			e.encodeValue(t.Elem, jen.Parens(jen.Op("*").Add(v)), depth+1)...)}
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
		loop = append(loop, e.encodeValue(t.Elem, jen.Add(v).Index(jen.Id(k)), depth+1)...)
		return []jen.Code{
			appendByte('{'),
			jen.For(jen.List(jen.Id("i"+sfx), jen.Id(k)).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(v))).Block(loop...),
			appendByte('}'),
		}
	}
	return []jen.Code{appendRaw("null")}
}

// zeroTest is the condition under which an optional field without a default is written as null: its Go
// zero value. nil when the field is written as is (required fields, defaults, pointers, which are null when
// nil anyway, and structs and arrays).
func zeroTest(f *model.Field, v *jen.Statement) jen.Code {
	if f.Required || (f.Cons != nil && f.Cons.Default != "") {
		return nil
	}
	switch f.Type.Kind {
	case model.KindString:
		return jen.Add(v).Op("==").Lit("")
	case model.KindBool:
		return jen.Op("!").Add(v)
	case model.KindInt, model.KindUint, model.KindFloat:
		return jen.Add(v).Op("==").Lit(0)
	case model.KindTime:
		return jen.Add(v).Dot("IsZero").Call()
	case model.KindSlice, model.KindMap:
		return jen.Add(v).Op("==").Nil()
	}
	return nil
}
