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
	if err := toolset.Check("anthropic", tools, plainSchema); err != nil {
		return nil, nil, err
	}
	b := toolset.Grow(tools, 64, func(s *wink.Spec) []byte {
		if st := strictSchema(s.ParamsSchema); st != nil {
			return st
		}
		return s.ParamsSchema
	})
	b = append(b, '[')
	var strict, optional, unions int
	for i, t := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		s := t.Spec()
		schema, isStrict := s.ParamsSchema, false
		if st := strictSchema(s.ParamsSchema); st != nil {
			o, u := countStrict(st)
			if strict+1 <= MaxStrictTools && optional+o <= MaxStrictOptional && unions+u <= MaxStrictUnions {
				schema, isStrict = st, true
				strict, optional, unions = strict+1, optional+o, unions+u
			}
		}
		if !isStrict {
			fellBack = append(fellBack, s.Name)
		}
		b = append(b, `{"name":`...)
		b = strictjson.AppendString(b, s.Name)
		b = append(b, `,"description":`...)
		b = strictjson.AppendString(b, s.Description)
		b = append(b, `,"input_schema":`...)
		b = append(b, schema...)
		if isStrict {
			b = append(b, `,"strict":true`...)
		}
		b = append(b, '}')
	}
	return append(b, ']'), fellBack, nil
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
