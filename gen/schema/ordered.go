package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// The dialect checkers (CheckGemini, CheckAnthropicStrict) read a schema as an order-keeping JSON tree,
// their own rather than the adapters' jsontree, so that they check the converters' output independently.
// (The converters themselves live in the adapters: runtime/adapters/internal/jsontree.)

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
