// Package jsontree is the order-keeping JSON tree the dialect converters of the adapters work on: a
// schema is parsed with strictjson (so a hand-built schema that is not JSON is an error, never a panic),
// rewritten, and written back compactly with its keys in their original order, so that the same plain
// schema always gives the same bytes.
package jsontree

import (
	"errors"
	"strings"

	"github.com/winkgen/wink/runtime/strictjson"
)

// Obj is a JSON object that keeps its keys' order.
type Obj struct {
	Keys []string
	Vals map[string]any
}

// Num is a JSON number, kept as its literal text.
type Num string

// Get returns the value of k, nil when absent (or o is nil).
func (o *Obj) Get(k string) any {
	if o == nil || o.Vals == nil {
		return nil
	}
	return o.Vals[k]
}

// Has reports whether o has the key k.
func (o *Obj) Has(k string) bool {
	if o == nil || o.Vals == nil {
		return false
	}
	_, ok := o.Vals[k]
	return ok
}

// Set sets k to v, appending k when it is new.
func (o *Obj) Set(k string, v any) {
	if o.Vals == nil {
		o.Vals = map[string]any{}
	}
	if _, ok := o.Vals[k]; !ok {
		o.Keys = append(o.Keys, k)
	}
	o.Vals[k] = v
}

// Del removes k.
func (o *Obj) Del(k string) {
	if !o.Has(k) {
		return
	}
	delete(o.Vals, k)
	for i, x := range o.Keys {
		if x == k {
			o.Keys = append(o.Keys[:i:i], o.Keys[i+1:]...)
			break
		}
	}
}

// Str returns the string value of k ("" when absent or not a string).
func (o *Obj) Str(k string) string {
	s, _ := o.Get(k).(string)
	return s
}

// Parse parses a JSON document into *Obj, []any, string, Num, bool and nil.
func Parse(b []byte) (any, error) {
	var d strictjson.Decoder
	d.Reset(b, strictjson.Limits{MaxBytes: len(b) + 1, MaxDepth: 1000, MaxErrors: 1})
	v := value(&d)
	if errs := d.Finish(); errs != nil {
		return nil, errors.New("schema is not valid JSON: " + errs.Error())
	}
	return v, nil
}

// ParseObject parses a JSON document that must be an object.
func ParseObject(b []byte) (*Obj, error) {
	v, err := Parse(b)
	if err != nil {
		return nil, err
	}
	o, ok := v.(*Obj)
	if !ok {
		return nil, errors.New("schema is not a JSON object")
	}
	return o, nil
}

func value(d *strictjson.Decoder) any {
	switch d.Peek() {
	case strictjson.KindObject:
		o := &Obj{Vals: map[string]any{}}
		if !d.ObjectStart() {
			return nil
		}
		for d.NextKey() {
			k := d.KeyString()
			o.Set(k, value(d))
		}
		d.ObjectEnd()
		return o
	case strictjson.KindArray:
		arr := []any{}
		if !d.ArrayStart() {
			return nil
		}
		for d.NextElem() {
			arr = append(arr, value(d))
		}
		d.ArrayEnd()
		return arr
	case strictjson.KindString:
		s, _ := d.String()
		return s
	case strictjson.KindBool:
		v, _ := d.Bool()
		return v
	case strictjson.KindNull:
		d.Null()
		return nil
	}
	raw, _ := d.Raw()
	return Num(raw)
}

// Append appends v as compact JSON, objects in their keys' order.
func Append(b []byte, v any) []byte {
	switch v := v.(type) {
	case *Obj:
		b = append(b, '{')
		for i, k := range v.Keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = strictjson.AppendString(b, k)
			b = append(b, ':')
			b = Append(b, v.Vals[k])
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = Append(b, e)
		}
		return append(b, ']')
	case string:
		return strictjson.AppendString(b, v)
	case Num:
		return append(b, v...)
	case bool:
		return strictjson.AppendBool(b, v)
	case nil:
		return append(b, "null"...)
	}
	return append(b, "null"...)
}

// Literal writes v as compact JSON text, for the notes the converters restate in descriptions.
func Literal(v any) string { return string(Append(nil, v)) }

// Literals writes vs as a comma-separated list of JSON literals.
func Literals(vs []any) string {
	parts := make([]string, 0, len(vs))
	for _, v := range vs {
		parts = append(parts, Literal(v))
	}
	return strings.Join(parts, ", ")
}

// AddNotes restates notes at the end of o's description, in parentheses, joined by "; ": "Doc. (note;
// note)", or "(note; note)" without a description.
func AddNotes(o *Obj, notes []string) {
	if len(notes) == 0 {
		return
	}
	note := "(" + strings.Join(notes, "; ") + ")"
	if d := o.Str("description"); d != "" {
		note = d + " " + note
	}
	o.Set("description", note)
}

// Types returns the "type" keyword as a list of names ("string" → [string]; [T, "null"] → [T null]).
func Types(o *Obj) []string {
	switch t := o.Get("type").(type) {
	case string:
		return []string{t}
	case []any:
		var ts []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				ts = append(ts, s)
			}
		}
		return ts
	}
	return nil
}

// HasType reports whether o's "type" names t.
func HasType(o *Obj, t string) bool {
	for _, x := range Types(o) {
		if x == t {
			return true
		}
	}
	return false
}

// IsAny reports whether o states no constraint on the value's type: free-form JSON.
func IsAny(o *Obj) bool {
	for _, k := range []string{"type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const", "properties", "items", "not"} {
		if o.Has(k) {
			return false
		}
	}
	return true
}

// IsMap reports whether o is a map schema: an object stating its values' schema in additionalProperties
// and no properties.
func IsMap(o *Obj) bool {
	_, ok := o.Get("additionalProperties").(*Obj)
	return ok && !o.Has("properties")
}

// PairItem returns the item schema of map schema s sent as an array of pairs: an object (type objType)
// of a "key" (type strType, with the pattern of s's propertyNames) and a "value" (val), both required.
// The type names are the dialect's spellings of "object" and "string".
func PairItem(s, val *Obj, objType, strType string) *Obj {
	key := &Obj{}
	key.Set("type", strType)
	if pn, ok := s.Get("propertyNames").(*Obj); ok {
		if p := pn.Str("pattern"); p != "" {
			key.Set("pattern", p)
		}
	}
	pair := &Obj{}
	pair.Set("type", objType)
	props := &Obj{}
	props.Set("key", key)
	props.Set("value", val)
	pair.Set("properties", props)
	pair.Set("required", []any{"key", "value"})
	return pair
}

// PairsDescription is the description of map schema s sent as pairs: s's own, then "(key/value pairs,
// each key once)".
func PairsDescription(s *Obj) string {
	const desc = "key/value pairs, each key once"
	if d := s.Str("description"); d != "" {
		return d + " (" + desc + ")"
	}
	return desc
}

// DefName returns the definition a local "$ref" names ("#/$defs/Node" → "Node"); "" for "#" and for
// anything else.
func DefName(ref string) string {
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok {
		return ""
	}
	return name
}

// Recursive reports whether the schema root refers to itself: a "$ref" of "#", or a definition under
// "$defs" that reaches itself.
func Recursive(root *Obj) bool {
	defs, _ := root.Get("$defs").(*Obj)
	if refersTo(root, "#", defs, map[string]bool{}) {
		return true
	}
	if defs == nil {
		return false
	}
	for _, name := range defs.Keys {
		if reaches(defs, name, name, map[string]bool{}) {
			return true
		}
	}
	return false
}

// refersTo reports whether v holds a "$ref" equal to ref, following definitions it names.
func refersTo(v any, ref string, defs *Obj, seen map[string]bool) bool {
	switch v := v.(type) {
	case *Obj:
		if r, ok := v.Get("$ref").(string); ok {
			if r == ref {
				return true
			}
			if name := DefName(r); name != "" && !seen[name] {
				seen[name] = true
				if refersTo(defs.Get(name), ref, defs, seen) {
					return true
				}
			}
		}
		for _, k := range v.Keys {
			if k == "$defs" {
				continue
			}
			if refersTo(v.Vals[k], ref, defs, seen) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if refersTo(e, ref, defs, seen) {
				return true
			}
		}
	}
	return false
}

// reaches reports whether definition from refers, directly or not, to target.
func reaches(defs *Obj, from, target string, seen map[string]bool) bool {
	if seen[from] {
		return false
	}
	seen[from] = true
	found := false
	var walk func(v any)
	walk = func(v any) {
		if found {
			return
		}
		switch v := v.(type) {
		case *Obj:
			if ref, ok := v.Get("$ref").(string); ok {
				name := DefName(ref)
				if name == target || (name != "" && reaches(defs, name, target, seen)) {
					found = true
					return
				}
			}
			for _, k := range v.Keys {
				walk(v.Vals[k])
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(defs.Get(from))
	return found
}

// Rank reorders the keys of schema s, and of every schema inside it, by order (keys not in order keep
// their relative order after those that are). The members of "properties" and "$defs" keep theirs.
func Rank(s *Obj, order []string) {
	rank := func(k string) int {
		for i, o := range order {
			if o == k {
				return i
			}
		}
		return len(order)
	}
	keys := append([]string(nil), s.Keys...)
	// A stable insertion sort: schemas have a handful of keys.
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && rank(keys[j]) < rank(keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	s.Keys = keys
	for _, k := range keys {
		switch v := s.Vals[k].(type) {
		case *Obj:
			if k == "properties" || k == "$defs" {
				for _, mk := range v.Keys {
					if ms, ok := v.Vals[mk].(*Obj); ok {
						Rank(ms, order)
					}
				}
			} else {
				Rank(v, order)
			}
		case []any:
			for _, e := range v {
				if es, ok := e.(*Obj); ok {
					Rank(es, order)
				}
			}
		}
	}
}
