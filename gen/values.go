package gen

import (
	"bytes"
	"encoding/json"
	"go/constant"
	"go/token"
	"math/big"
	"regexp"
	"slices"
	"sort"
	"strconv"

	"github.com/winkgen/wink/annotations"
	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/runtime/strictjson"
)

// This file is the generation-time twin of the generated decoders: it decodes a JSON value against the
// model with the same runtime primitives (strictjson.Decoder) and the same checks and messages, so examples
// and defaults are judged exactly as the model's calls will be. Tests decode every example again with the
// generated decoder and compare, which keeps the two honest.

// decodeJSONValue decodes data as one value of type t with the field constraints c (nil for none).
func decodeJSONValue(data []byte, t *model.Type, c *model.Constraints) (*model.Value, []string) {
	var d strictjson.Decoder
	d.Reset(data, strictjson.Limits{})
	v := interpret(&d, t, c, true)
	if errs := d.Finish(); errs != nil {
		return nil, errs.Lines()
	}
	return v, nil
}

// interpret decodes one value. items reports whether item constraints of c still apply (true at the
// field's own level).
func interpret(d *strictjson.Decoder, t *model.Type, c *model.Constraints, items bool) *model.Value {
	v := &model.Value{Type: t}
	switch t.Kind {
	case model.KindPointer:
		if d.Null() {
			v.Nil = true
			return v
		}
		inner := interpret(d, t.Elem, c, items)
		if inner == nil {
			return nil
		}
		inner.Type = t.Elem
		return &model.Value{Type: t, Items: []*model.Value{inner}}
	case model.KindString:
		if len(t.Enum) > 0 || (c != nil && len(c.Enum) > 0) {
			b, ok := d.StringBytes()
			if !ok {
				return nil
			}
			lit := jsonQuote(string(b))
			allowed := enumAllowed(t, c)
			for _, a := range allowed {
				if a == lit {
					v.Str = string(b)
					v.Enum = enumByJSON(t, lit)
					return v
				}
			}
			d.EnumMismatch(b, enumText(allowed))
			return nil
		}
		s, ok := d.String()
		if !ok {
			return nil
		}
		v.Str = s
		if !checkString(d, s, c) {
			return nil
		}
		return v
	case model.KindBool:
		b, ok := d.Bool()
		if !ok {
			return nil
		}
		v.Bool = b
		return v
	case model.KindInt:
		lo, hi := intBounds(t, c)
		n, ok := d.Int(lo, hi)
		if !ok {
			return nil
		}
		v.Num = strconv.FormatInt(n, 10)
		if !checkInt(d, t, c, big.NewInt(n)) {
			return nil
		}
		if ev := enumByJSON(t, v.Num); len(t.Enum) > 0 {
			v.Enum = ev
		}
		return v
	case model.KindUint:
		hi := uintBound(t, c)
		n, ok := d.Uint(hi)
		if !ok {
			return nil
		}
		v.Num = strconv.FormatUint(n, 10)
		if !checkInt(d, t, c, new(big.Int).SetUint64(n)) {
			return nil
		}
		if ev := enumByJSON(t, v.Num); len(t.Enum) > 0 {
			v.Enum = ev
		}
		return v
	case model.KindFloat:
		f, ok := d.Float(t.Bits)
		if !ok {
			return nil
		}
		v.Num = strconv.FormatFloat(f, 'g', -1, t.Bits)
		if !checkFloat(d, c, f) {
			return nil
		}
		if allowed := enumAllowed(t, c); len(allowed) > 0 && !slices.ContainsFunc(allowed, func(a string) bool {
			x, _ := strconv.ParseFloat(a, 64)
			return x == f
		}) {
			d.FailFloat("must be one of "+enumText(allowed), f)
			return nil
		}
		return v
	case model.KindJSON:
		raw, ok := d.Raw()
		if !ok {
			return nil
		}
		var b bytes.Buffer
		json.Compact(&b, raw)
		v.Str = b.String()
		return v
	case model.KindDuration:
		du, ok := d.Duration()
		if !ok {
			return nil
		}
		v.Str = du.String()
		if c != nil && c.MinDuration != nil && int64(du) < c.MinDuration.Nanos {
			d.FailDuration(strictjson.MsgMinDuration(c.MinDuration.Text), du)
			return nil
		}
		if c != nil && c.MaxDuration != nil && int64(du) > c.MaxDuration.Nanos {
			d.FailDuration(strictjson.MsgMaxDuration(c.MaxDuration.Text), du)
			return nil
		}
		return v
	case model.KindTime:
		tm, ok := d.Time()
		if !ok {
			return nil
		}
		v.Str = tm.Format("2006-01-02T15:04:05.999999999Z07:00")
		return v
	case model.KindStruct:
		return interpretStruct(d, t, v)
	case model.KindSlice, model.KindArray:
		if !d.ArrayStart() {
			return nil
		}
		okAll := true
		for d.NextElem() {
			if t.Kind == model.KindArray && int64(len(v.Items)) >= t.Len {
				d.Skip()
				v.Items = append(v.Items, nil)
				continue
			}
			e := interpret(d, t.Elem, c, false)
			if e == nil {
				okAll = false
			}
			v.Items = append(v.Items, e)
		}
		d.ArrayEnd()
		if !okAll || d.Failed() {
			return nil
		}
		if t.Kind == model.KindArray && int64(len(v.Items)) != t.Len {
			d.FailLen(strictjson.MsgExactItems(int(t.Len)), len(v.Items))
			return nil
		}
		if items && !checkItems(d, c, v.Items) {
			return nil
		}
		return v
	case model.KindMap:
		if !d.ObjectStart() {
			return nil
		}
		seen := map[string]bool{}
		okAll := true
		type kv struct {
			k string
			v *model.Value
		}
		var kvs []kv
		for d.NextKey() {
			k := d.KeyString()
			if seen[k] {
				d.Duplicate()
				d.Skip()
				okAll = false
				continue
			}
			seen[k] = true
			e := interpret(d, t.Elem, nil, false)
			if e == nil {
				okAll = false
			}
			kvs = append(kvs, kv{k, e})
		}
		d.ObjectEnd()
		if !okAll || d.Failed() {
			return nil
		}
		sort.Slice(kvs, func(i, j int) bool { return kvs[i].k < kvs[j].k })
		for _, e := range kvs {
			v.Keys = append(v.Keys, e.k)
			v.Items = append(v.Items, e.v)
		}
		return v
	}
	d.Skip()
	d.Fail("unsupported type")
	return nil
}

func interpretStruct(d *strictjson.Decoder, t *model.Type, v *model.Value) *model.Value {
	if !d.ObjectStart() {
		return nil
	}
	seen := map[string]bool{}
	set := map[string]*model.Value{}
	allowed := fieldNames(t)
	okAll := true
	for d.NextKey() {
		k := string(d.Key())
		var f *model.Field
		for _, ff := range t.Fields {
			if ff.JSONName == k {
				f = ff
			}
		}
		if f == nil {
			d.Unknown(allowed)
			okAll = false
			continue
		}
		if seen[k] {
			d.Duplicate()
			d.Skip()
			okAll = false
			continue
		}
		seen[k] = true
		if !f.Required && d.Null() {
			continue
		}
		fv := interpret(d, f.Type, f.Cons, true)
		if fv == nil {
			okAll = false
			continue
		}
		set[k] = fv
	}
	for _, f := range t.Fields {
		if f.Required && !seen[f.JSONName] {
			d.Missing(f.JSONName)
			okAll = false
		}
	}
	d.ObjectEnd()
	if !okAll || d.Failed() {
		return nil
	}
	for _, f := range t.Fields {
		fv := set[f.JSONName]
		if fv == nil && f.Cons != nil && f.Cons.DefaultValue != nil {
			fv = f.Cons.DefaultValue
			if f.Type.Kind == model.KindPointer {
				fv = &model.Value{Type: f.Type, Items: []*model.Value{fv}}
			}
		}
		if fv != nil {
			v.Fields = append(v.Fields, &model.FieldValue{Field: f, Value: fv})
		}
	}
	return v
}

func checkString(d *strictjson.Decoder, s string, c *model.Constraints) bool {
	if c == nil {
		return true
	}
	ok := true
	if (c.MinLength != nil || c.MaxLength != nil) && !d.CheckLength(s, bound(c.MinLength), bound(c.MaxLength)) {
		ok = false
	}
	if c.Pattern != "" && !regexp.MustCompile(anchored(c.Pattern)).MatchString(s) {
		d.FailString(strictjson.MsgPattern(anchored(c.Pattern), c.PatternDesc), s)
		ok = false
	}
	if c.Format != "" {
		f, _ := strictjson.FormatByName(c.Format)
		if !d.CheckFormat(s, f) {
			ok = false
		}
	}
	return ok
}

// intBounds is the range passed to Decoder.Int: the Go type's range narrowed by min and max.
func intBounds(t *model.Type, c *model.Constraints) (int64, int64) {
	lo, hi := typeRange(t)
	l, h := lo.Int64(), hi.Int64()
	if c != nil && c.Min != nil {
		if m := ratOf(c.Min).Num(); m.Cmp(lo) > 0 {
			l = m.Int64()
		}
	}
	if c != nil && c.Max != nil {
		if m := ratOf(c.Max).Num(); m.Cmp(hi) < 0 {
			h = m.Int64()
		}
	}
	return l, h
}

// uintBound is the maximum passed to Decoder.Uint.
func uintBound(t *model.Type, c *model.Constraints) uint64 {
	_, hi := typeRange(t)
	h := hi.Uint64()
	if c != nil && c.Max != nil {
		if m := ratOf(c.Max).Num(); m.Cmp(hi) < 0 {
			h = m.Uint64()
		}
	}
	return h
}

func checkInt(d *strictjson.Decoder, t *model.Type, c *model.Constraints, n *big.Int) bool {
	ok := true
	fail := func(msg string) {
		if t.Kind == model.KindUint {
			d.FailUint(msg, n.Uint64())
		} else {
			d.FailInt(msg, n.Int64())
		}
		ok = false
	}
	if c != nil {
		if t.Kind == model.KindUint && c.Min != nil && n.Cmp(ratOf(c.Min).Num()) < 0 {
			fail(strictjson.MsgMin(c.Min.Literal))
		}
		if c.ExclusiveMin != nil && n.Cmp(ratOf(c.ExclusiveMin).Num()) <= 0 {
			fail(strictjson.MsgExclusiveMin(c.ExclusiveMin.Literal))
		}
		if c.ExclusiveMax != nil && n.Cmp(ratOf(c.ExclusiveMax).Num()) >= 0 {
			fail(strictjson.MsgExclusiveMax(c.ExclusiveMax.Literal))
		}
		if c.MultipleOf != nil && new(big.Int).Rem(n, ratOf(c.MultipleOf).Num()).Sign() != 0 {
			fail(strictjson.MsgMultipleOf(c.MultipleOf.Literal))
		}
	}
	allowed := enumAllowed(t, c)
	if len(allowed) > 0 {
		found := false
		for _, a := range allowed {
			if r, ok := new(big.Rat).SetString(a); ok && r.IsInt() && r.Num().Cmp(n) == 0 {
				found = true
			}
		}
		if !found {
			d.EnumMismatchInt(n.Int64(), enumText(allowed))
			ok = false
		}
	}
	return ok
}

func checkFloat(d *strictjson.Decoder, c *model.Constraints, f float64) bool {
	if c == nil {
		return true
	}
	ok := true
	if c.Min != nil && f < floatOf(c.Min) {
		d.FailFloat(strictjson.MsgMin(c.Min.Literal), f)
		ok = false
	}
	if c.Max != nil && f > floatOf(c.Max) {
		d.FailFloat(strictjson.MsgMax(c.Max.Literal), f)
		ok = false
	}
	if c.ExclusiveMin != nil && f <= floatOf(c.ExclusiveMin) {
		d.FailFloat(strictjson.MsgExclusiveMin(c.ExclusiveMin.Literal), f)
		ok = false
	}
	if c.ExclusiveMax != nil && f >= floatOf(c.ExclusiveMax) {
		d.FailFloat(strictjson.MsgExclusiveMax(c.ExclusiveMax.Literal), f)
		ok = false
	}
	if c.MultipleOf != nil && !strictjson.MultipleOf(d.NumberLiteral(), ratOf(c.MultipleOf)) {
		d.FailFloat(strictjson.MsgMultipleOf(c.MultipleOf.Literal), f)
		ok = false
	}
	return ok
}

func floatOf(n *model.Number) float64 {
	f, _ := strconv.ParseFloat(n.Literal, 64)
	return f
}

func checkItems(d *strictjson.Decoder, c *model.Constraints, items []*model.Value) bool {
	if c == nil {
		return true
	}
	ok := true
	if (c.MinItems != nil || c.MaxItems != nil) && !d.CheckItems(len(items), bound(c.MinItems), bound(c.MaxItems)) {
		ok = false
	}
	if c.UniqueItems {
		seen := map[string]int{}
		for j, it := range items {
			key := canonical(it)
			if i, dup := seen[key]; dup {
				d.FailDuplicate(i, j)
				ok = false
				break
			}
			seen[key] = j
		}
	}
	return ok
}

// enumAllowed lists the JSON literals a value may take: the tag's enum if set, else the enum type's values.
func enumAllowed(t *model.Type, c *model.Constraints) []string {
	if c != nil && len(c.Enum) > 0 {
		return c.Enum
	}
	var out []string
	for _, e := range t.Enum {
		out = append(out, e.JSON)
	}
	return out
}

// enumText renders allowed literals for messages: "fuzzy", "exact" or 1, 2, 3.
func enumText(allowed []string) string {
	var b bytes.Buffer
	for i, a := range allowed {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a)
	}
	return b.String()
}

// canonical writes v as canonical JSON: struct fields in declaration order (only those set), map keys sorted,
// numbers in their shortest form.
func canonical(v *model.Value) string {
	var b []byte
	b = appendCanonical(b, v)
	return string(b)
}

func appendCanonical(b []byte, v *model.Value) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	switch v.Type.Kind {
	case model.KindPointer:
		if v.Nil {
			return append(b, "null"...)
		}
		return appendCanonical(b, v.Items[0])
	case model.KindString, model.KindTime, model.KindDuration:
		return strictjson.AppendString(b, v.Str)
	case model.KindJSON:
		return append(b, v.Str...)
	case model.KindBool:
		return strconv.AppendBool(b, v.Bool)
	case model.KindInt, model.KindUint:
		return append(b, v.Num...)
	case model.KindFloat:
		f, _ := strconv.ParseFloat(v.Num, 64)
		return strictjson.AppendFloat(b, f, v.Type.Bits)
	case model.KindStruct:
		b = append(b, '{')
		for i, fv := range v.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = strictjson.AppendString(b, fv.Field.JSONName)
			b = append(b, ':')
			b = appendCanonical(b, fv.Value)
		}
		return append(b, '}')
	case model.KindSlice, model.KindArray:
		b = append(b, '[')
		for i, it := range v.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonical(b, it)
		}
		return append(b, ']')
	case model.KindMap:
		b = append(b, '{')
		for i, k := range v.Keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = strictjson.AppendString(b, k)
			b = append(b, ':')
			b = appendCanonical(b, v.Items[i])
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

// jsonQuote quotes s as a JSON string without HTML escaping.
func jsonQuote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return string(bytes.TrimRight(buf.Bytes(), "\n"))
}

// constJSON is the JSON literal of a Go constant (string or integer).
func constJSON(v constant.Value) string {
	if v.Kind() == constant.String {
		return jsonQuote(constant.StringVal(v))
	}
	return v.ExactString()
}

// asWritten is an example's JSON as the developer wrote it, only insignificant whitespace removed: the
// model is shown "48h" as "48h", the members in the order written, no default filled in. The decoder has
// checked it (decodeJSONValue); what it understood is the typed example (Wink<Handler>Examples).
func asWritten(src string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(src)); err != nil {
		return src // not reached: the decoder accepted src
	}
	return b.String()
}

// example checks one //wink:example against the tool's types.
func (a *analyzer) example(ex *annotations.Example, t *model.Tool) *model.Example {
	m := &model.Example{Pos: model.Pos{File: ex.Pos.Filename, Line: ex.Pos.Line, Col: ex.Pos.Column}, Description: ex.Desc}
	ok := true
	if ex.Desc == "" || len(ex.Desc) > 200 {
		a.ds.add(ex.DescPos, "example description must be 1-200 characters")
		ok = false
	}
	if t.Params == nil {
		var d strictjson.Decoder
		d.Reset([]byte(ex.Input), strictjson.Limits{})
		strictjson.DecodeEmpty(&d)
		if errs := d.Finish(); errs != nil {
			a.exampleErrors(ex.InputPos, "input", t.Name, errs.Lines())
			ok = false
		}
		m.Input = "{}"
	} else {
		v, errs := decodeJSONValue([]byte(ex.Input), t.Params, nil)
		if len(errs) > 0 {
			a.exampleErrors(ex.InputPos, "input", t.Name, errs)
			ok = false
		} else {
			m.InputValue = v
			m.Input = asWritten(ex.Input)
		}
	}
	if ex.HasOutput {
		if t.Result == nil {
			if string(bytes.TrimSpace([]byte(ex.Output))) != "null" {
				a.ds.add(ex.OutputPos, "example output for %s must be null: the tool returns wink.NoValue", t.Name)
				ok = false
			}
		} else {
			v, errs := decodeJSONValue([]byte(ex.Output), t.Result, nil)
			if len(errs) > 0 {
				a.exampleErrors(ex.OutputPos, "output", t.Name, errs)
				ok = false
			} else {
				m.OutputValue = v
				m.Output = asWritten(ex.Output)
			}
		}
	}
	if !ok {
		return nil
	}
	return m
}

func (a *analyzer) exampleErrors(pos token.Position, what, tool string, errs []string) {
	for _, e := range errs {
		a.ds.add(pos, "example %s for %s: %s", what, tool, e)
	}
}
