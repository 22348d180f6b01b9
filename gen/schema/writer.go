package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"unicode/utf8"
)

// keyOrder is the fixed order of keywords inside every schema object. Keys not listed sort after these, in
// insertion order (none are emitted today).
var keyOrder = []string{
	"$schema",
	"type",
	"description",
	"anyOf",
	"enum",
	"properties",
	"required",
	"additionalProperties",
	"items",
	"minItems",
	"maxItems",
	"uniqueItems",
	"minimum",
	"exclusiveMinimum",
	"maximum",
	"exclusiveMaximum",
	"multipleOf",
	"minLength",
	"maxLength",
	"pattern",
	"format",
	"default",
	"$ref",
	"$defs",
}

var keyRank = func() map[string]int {
	m := make(map[string]int, len(keyOrder))
	for i, k := range keyOrder {
		m[k] = i
	}
	return m
}()

// node is a JSON value of the schema tree.
type node interface {
	appendJSON(b []byte) []byte
}

// str is a JSON string.
type str string

// rawJSON is an already valid, compact JSON text (numbers, enum literals, defaults).
type rawJSON string

// boolean is a JSON boolean.
type boolean bool

// list is a JSON array.
type list []node

// obj is a JSON object. A schema object (ranked) writes its keys in keyOrder; a plain map (properties,
// $defs) writes them in insertion order.
type obj struct {
	keys   []string
	vals   []node
	ranked bool
}

// newSchema returns an empty schema object, whose keys are written in keyOrder.
func newSchema() *obj { return &obj{ranked: true} }

// newMap returns an empty object whose keys are written in insertion order.
func newMap() *obj { return &obj{} }

func (o *obj) index(k string) int {
	for i, key := range o.keys {
		if key == k {
			return i
		}
	}
	return -1
}

// set adds k or replaces its value.
func (o *obj) set(k string, v node) {
	if i := o.index(k); i >= 0 {
		o.vals[i] = v
		return
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
}

// get returns k's value or nil.
func (o *obj) get(k string) node {
	if i := o.index(k); i >= 0 {
		return o.vals[i]
	}
	return nil
}

// del removes k if present.
func (o *obj) del(k string) {
	if i := o.index(k); i >= 0 {
		o.keys = append(o.keys[:i], o.keys[i+1:]...)
		o.vals = append(o.vals[:i], o.vals[i+1:]...)
	}
}

func (o *obj) has(k string) bool { return o.index(k) >= 0 }

func (o *obj) appendJSON(b []byte) []byte {
	idx := make([]int, len(o.keys))
	for i := range idx {
		idx[i] = i
	}
	if o.ranked {
		rank := func(i int) int {
			if r, ok := keyRank[o.keys[i]]; ok {
				return r
			}
			return len(keyOrder)
		}
		sort.SliceStable(idx, func(a, c int) bool { return rank(idx[a]) < rank(idx[c]) })
	}
	b = append(b, '{')
	for n, i := range idx {
		if n > 0 {
			b = append(b, ',')
		}
		b = appendString(b, o.keys[i])
		b = append(b, ':')
		b = o.vals[i].appendJSON(b)
	}
	return append(b, '}')
}

func (s str) appendJSON(b []byte) []byte     { return appendString(b, string(s)) }
func (r rawJSON) appendJSON(b []byte) []byte { return append(b, r...) }

func (v boolean) appendJSON(b []byte) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

func (l list) appendJSON(b []byte) []byte {
	b = append(b, '[')
	for i, v := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = v.appendJSON(b)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Only '"', '\\' and control characters are escaped (no HTML
// escaping, so patterns stay readable); invalid UTF-8 becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// literal validates a JSON literal from the model (constraint numbers, enum values, defaults) and returns
// it compacted.
func literal(what, lit string) (rawJSON, error) {
	if !json.Valid([]byte(lit)) {
		return "", fmt.Errorf("%s: %q is not a JSON value", what, lit)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(lit)); err != nil {
		return "", fmt.Errorf("%s: %v", what, err)
	}
	return rawJSON(buf.String()), nil
}
