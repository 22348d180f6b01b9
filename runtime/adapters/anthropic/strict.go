package anthropic

import (
	"github.com/winkgen/wink/runtime/adapters/internal/toolset"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// Anthropic's documented per-request limits on strict tool use: the number of strict tools, the optional
// properties across their schemas, and the schemas with a union type (a type array or anyOf).
const (
	MaxStrictTools    = 20
	MaxStrictOptional = 24
	MaxStrictUnions   = 16
)

// StrictTools returns the tools array with strict tool use: each tool whose params have a strict form
// (StrictSchema of Spec.ParamsSchema, derived once per tool) is sent as
//
//	{"name":N,"description":D,"input_schema":S,"strict":true}
//
// as long as the request stays within the per-request limits, counted in the tools' order; a tool without
// a strict schema, or past a limit, is sent as Tools sends it (the decoder enforces its schema either
// way). fellBack names those tools, so a caller that needs them strict can split its tools or simplify
// their params. The error is Tools' error.
func StrictTools(tools []*wink.Tool) (payload []byte, fellBack []string, err error) {
	var strict, optional, unions int
	payload, err = toolset.Write(&strictFormat, tools, func(s *wink.Spec) ([]byte, string) {
		if st := strictSchema(s.ParamsSchema); st != nil {
			o, u := countStrict(st)
			if strict+1 <= MaxStrictTools && optional+o <= MaxStrictOptional && unions+u <= MaxStrictUnions {
				strict, optional, unions = strict+1, optional+o, unions+u
				return st, `,"strict":true`
			}
		}
		fellBack = append(fellBack, s.Name)
		return s.ParamsSchema, ""
	})
	if err != nil {
		return nil, nil, err
	}
	return payload, fellBack, nil
}

// strictOrPlain is the schema StrictTools sends for a tool within the limits.
func strictOrPlain(s *wink.Spec) []byte {
	if st := strictSchema(s.ParamsSchema); st != nil {
		return st
	}
	return s.ParamsSchema
}

// countStrict counts a schema's optional properties and union-typed schemas (see MaxStrictOptional and
// MaxStrictUnions).
func countStrict(schema []byte) (optional, unions int) {
	var d strictjson.Decoder
	d.Reset(schema, strictjson.Limits{MaxBytes: len(schema) + 1, MaxDepth: 512})
	countValue(&d, &optional, &unions)
	return optional, unions
}

func countValue(d *strictjson.Decoder, optional, unions *int) {
	switch d.Peek() {
	case strictjson.KindArray:
		d.ArrayStart()
		for d.NextElem() {
			countValue(d, optional, unions)
		}
		d.ArrayEnd()
	case strictjson.KindObject:
		d.ObjectStart()
		props, required := 0, 0
		for d.NextKey() {
			switch string(d.Key()) {
			case "type":
				if d.Peek() == strictjson.KindArray {
					*unions++
				}
				d.Skip()
			case "anyOf":
				*unions++
				countValue(d, optional, unions)
			case "properties":
				if d.Peek() != strictjson.KindObject {
					d.Skip()
					continue
				}
				d.ObjectStart()
				for d.NextKey() {
					props++
					countValue(d, optional, unions)
				}
				d.ObjectEnd()
			case "required":
				if d.Peek() != strictjson.KindArray {
					d.Skip()
					continue
				}
				d.ArrayStart()
				for d.NextElem() {
					required++
					d.Skip()
				}
				d.ArrayEnd()
			default:
				countValue(d, optional, unions)
			}
		}
		d.ObjectEnd()
		*optional += max(props-required, 0)
	default:
		d.Skip()
	}
}
