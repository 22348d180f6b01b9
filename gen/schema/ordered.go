package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// The dialect converters (Gemini, AnthropicStrict) work on an order-keeping JSON tree, so that what they
// write keeps the plain schema's key order (deterministic, readable output).

// ordObj is a JSON object that keeps its keys' order.
type ordObj struct {
	keys []string
	vals map[string]any
}

func (o *ordObj) get(k string) any {
	if o == nil || o.vals == nil {
		return nil
	}
	return o.vals[k]
}

func (o *ordObj) set(k string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// parseOrdered parses JSON into *ordObj, []any, string, json.Number, bool and nil.
func parseOrdered(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the schema")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &ordObj{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(kt.(string), v)
			}
			_, err := dec.Token()
			return o, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
	}
	return t, nil
}

// writeOrdered writes v compactly, objects in their keys' order.
func writeOrdered(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case *ordObj:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeOrdered(b, k)
			b.WriteByte(':')
			writeOrdered(b, v.vals[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeOrdered(b, e)
		}
		b.WriteByte(']')
	default:
		enc := json.NewEncoder(b)
		enc.SetEscapeHTML(false)
		enc.Encode(v)
		b.Truncate(b.Len() - 1) // the encoder's newline
	}
}

// addNotes restates notes at the end of out's description, in parentheses, joined by "; ".
func addNotes(out *ordObj, notes []string) {
	if len(notes) == 0 {
		return
	}
	d, _ := out.get("description").(string)
	note := "(" + strings.Join(notes, "; ") + ")"
	if d != "" {
		d += " " + note
	} else {
		d = note
	}
	out.set("description", d)
}

// jsonLiteral writes v as compact JSON, for the notes the converters restate in descriptions.
func jsonLiteral(v any) string {
	var b bytes.Buffer
	writeOrdered(&b, v)
	return b.String()
}

// jsonLiterals writes vs as a comma-separated list of JSON literals.
func jsonLiterals(vs []any) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, jsonLiteral(v))
	}
	return strings.Join(parts, ", ")
}
