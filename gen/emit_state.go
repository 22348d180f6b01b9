package gen

import (
	"github.com/dave/jennifer/jen"
	"github.com/winkgen/wink/gen/model"
)

// sessionPath is the import path of the session package, whose Codec the state codecs are.
const sessionPath = "github.com/winkgen/wink/runtime/session"

// codecName is the name of the session codec winkgen emits for a //wink:state type.
func codecName(t *model.Type) string { return "Wink" + t.Named.Name + "Codec" }

// emitStateCodec emits, for a type marked //wink:state, a session.Codec over the type's generated strict
// decoder and canonical encoder:
//
//	var WinkPlanCodec = session.Codec[Plan]{Encode: winkEncodePlan, Decode: winkStateDecodePlan}
func (e *emitter) emitStateCodec(t *model.Type) {
	ty := jen.Qual(t.Named.Path, t.Named.Name)
	dec := "winkStateDecode" + t.ID
	e.f.Comment(codecName(t) + " stores session slices of " + t.Named.Name + " (//wink:state): its canonical JSON encoding,")
	e.f.Comment("and a strict decoder that reports every problem with its JSON path. Attach it with")
	e.f.Comment("session.WithCodec when declaring the slice.")
	e.f.Var().Id(codecName(t)).Op("=").Qual(sessionPath, "Codec").Types(ty).Values(jen.Dict{
		jen.Id("Encode"): jen.Id(encodeFuncName(t)),
		jen.Id("Decode"): jen.Id(dec),
	})
	e.f.Comment(dec + " decodes one stored " + t.Named.Name + " strictly.")
	e.f.Func().Id(dec).Params(jen.Id("data").Index().Byte()).Params(ty.Clone(), jen.Error()).Block(
		jen.Var().Id("d").Qual(sjPath, "Decoder"),
		// The store's limits (session.MaxItemBytes, session.MaxItemDepth): a commit reads every item back
		// with this decoder, so what it writes is what a load accepts.
		jen.Id("d").Dot("Reset").Call(jen.Id("data"), jen.Qual(sjPath, "Limits").Values(jen.Dict{
			jen.Id("MaxBytes"): jen.Qual(sessionPath, "MaxItemBytes"),
			jen.Id("MaxDepth"): jen.Qual(sessionPath, "MaxItemDepth"),
		})),
		jen.Var().Id("v").Add(ty.Clone()),
		jen.Id(decodeFuncName(t)).Call(jen.Op("&").Id("d"), jen.Op("&").Id("v")),
		jen.If(jen.Id("errs").Op(":=").Id("d").Dot("Finish").Call(), jen.Id("errs").Op("!=").Nil()).Block(
			jen.Return(jen.Id("v"), jen.Id("errs"))),
		jen.Return(jen.Id("v"), jen.Nil()),
	)
}
