package schema

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/runtime/strictjson"
)

// Plain returns the plain JSON Schema 2020-12 (Anthropic input_schema, MCP inputSchema/outputSchema) of a
// named struct type (a tool's params or result). A KindNoValue type yields NoValue().
func Plain(t *model.Type) ([]byte, error) {
	return build(t)
}

// NoValue returns the schema of a result that carries no value: {"$schema":…,"type":"null"}.
func NoValue() []byte {
	return []byte(`{"$schema":"` + Dialect + `","type":"null"}`)
}

// Empty returns the schema of a parameterless tool's arguments:
// {"$schema":…,"type":"object","properties":{},"additionalProperties":false}.
func Empty() []byte {
	return []byte(`{"$schema":"` + Dialect + `","type":"object","properties":{},"additionalProperties":false}`)
}

// rootBoilerplate matches the Go doc convention for a params or result type ("SearchParams are the
// arguments of search_docs."): at a schema's root it would only repeat the tool's description, so it is left
// out there.
var rootBoilerplate = regexp.MustCompile(`^\S+ (?:is|are|holds|has) the (?:arguments?|parameters?|params|inputs?|results?|outputs?|return value|value returned) (?:of|for|to|from|by) [^.\s]+(?: tool)?\.?$`)

func boilerplate(t *model.Type) bool {
	return t.Named != nil && strings.HasPrefix(t.Doc, t.Named.Name+" ") && rootBoilerplate.MatchString(t.Doc)
}

// builder writes one plain schema document. (The dialect forms are derived from it by the adapters.)
type builder struct {
	root   *model.Type
	shared map[*model.Type]bool   // named structs used more than once: written once under $defs
	defs   []*model.Type          // recursive types referenced, in first-use order
	defIDs map[string]*model.Type // ID → type, to catch two types sharing an ID
	stack  []*model.Type          // structs being written inline (cycle guard)
}

func build(t *model.Type) ([]byte, error) {
	if t == nil {
		return nil, errors.New("schema: nil type")
	}
	if t.Kind == model.KindNoValue {
		return NoValue(), nil
	}
	b := &builder{root: t, defIDs: map[string]*model.Type{}, shared: sharedStructs(t)}
	var s *obj
	var err error
	if t.Kind == model.KindStruct {
		s, err = b.structBody(t, false)
	} else {
		// A result may be any type (MCP 2026-07-28 allows any outputSchema); params are always structs (the
		// analyzer sees to it).
		s, err = b.value(t, false, typeName(t))
	}
	if err != nil {
		return nil, err
	}
	if len(b.defs) > 0 {
		defs := newMap()
		for i := 0; i < len(b.defs); i++ { // b.defs grows while definitions are written
			d := b.defs[i]
			ds, err := b.structBody(d, false)
			if err != nil {
				return nil, err
			}
			defs.set(d.ID, ds)
		}
		s.set("$defs", defs)
	}
	s.set("$schema", str(Dialect))
	return s.appendJSON(nil), nil
}

// Dialect is the JSON Schema dialect every plain schema states in "$schema" (MCP takes 2020-12 as its
// default dialect).
const Dialect = "https://json-schema.org/draft/2020-12/schema"

// sharedStructs returns the named structs that root's schema states more than once (not counting root
// itself, nor recursive types, which are under $defs anyway): each is written once under "$defs" and
// referenced where it is used, so the schema is smaller. A struct used inside a shared one counts once,
// as its definition is written once.
func sharedStructs(root *model.Type) map[*model.Type]bool {
	uses := map[*model.Type]int{}
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		for t != nil && (t.Kind == model.KindPointer || t.Kind == model.KindSlice || t.Kind == model.KindArray || t.Kind == model.KindMap) {
			t = t.Elem
		}
		if t == nil || t.Kind != model.KindStruct || t == root {
			return
		}
		uses[t]++
		if uses[t] > 1 {
			return
		}
		for _, f := range t.Fields {
			if f != nil {
				walk(f.Type)
			}
		}
	}
	if root.Kind == model.KindStruct {
		for _, f := range root.Fields {
			if f != nil {
				walk(f.Type)
			}
		}
	} else {
		walk(root.Elem)
	}
	shared := map[*model.Type]bool{}
	for t, n := range uses {
		if n > 1 && t.Named != nil && t.ID != "" && !t.Recursive {
			shared[t] = true
		}
	}
	return shared
}

// typeName names t in error messages.
func typeName(t *model.Type) string {
	switch {
	case t.Named != nil:
		return t.Named.Name
	case t.ID != "":
		return t.ID
	}
	return t.KindName()
}

// typeKeyword returns the "type" value, with "null" added when nullable.
func typeKeyword(name string, nullable bool) node {
	if nullable {
		return list{str(name), str("null")}
	}
	return str(name)
}

// unpointer strips pointers; the result is nullable when any pointer was stripped.
func unpointer(t *model.Type, path string) (*model.Type, bool, error) {
	ptr := false
	for t != nil && t.Kind == model.KindPointer {
		t, ptr = t.Elem, true
	}
	if t == nil {
		return nil, false, fmt.Errorf("schema: %s: pointer or container without an element type", path)
	}
	return t, ptr, nil
}

// structBody writes a struct inline: {"type":"object","description":…,"properties":{…},"required":[…],
// "additionalProperties":false}.
func (b *builder) structBody(t *model.Type, nullable bool) (*obj, error) {
	for _, s := range b.stack {
		if s == t {
			return nil, fmt.Errorf("schema: %s: type is part of a reference cycle but not marked Recursive", typeName(t))
		}
	}
	b.stack = append(b.stack, t)
	defer func() { b.stack = b.stack[:len(b.stack)-1] }()

	s := newSchema()
	s.set("type", typeKeyword("object", nullable))
	if t.Doc != "" && !(t == b.root && boilerplate(t)) {
		s.set("description", str(t.Doc))
	}
	props := newMap()
	var req list
	for _, f := range t.Fields {
		if f == nil || f.Type == nil {
			return nil, fmt.Errorf("schema: %s: field without a type", typeName(t))
		}
		if f.JSONName == "" {
			return nil, fmt.Errorf("schema: %s: field %s has no JSON name", typeName(t), strings.Join(f.GoPath, "."))
		}
		if props.has(f.JSONName) {
			return nil, fmt.Errorf("schema: %s: duplicate JSON field name %q", typeName(t), f.JSONName)
		}
		p, err := b.field(t, f)
		if err != nil {
			return nil, err
		}
		props.set(f.JSONName, p)
		if f.Required {
			req = append(req, str(f.JSONName))
		}
	}
	s.set("properties", props)
	if len(req) > 0 {
		s.set("required", req)
	}
	s.set("additionalProperties", boolean(false))
	return s, nil
}

var noCons = &model.Constraints{}

// field writes one property: its type's schema with the field's constraints, description and default.
func (b *builder) field(owner *model.Type, f *model.Field) (*obj, error) {
	path := typeName(owner) + "." + f.JSONName
	t, _, err := unpointer(f.Type, path)
	if err != nil {
		return nil, err
	}
	nullable := !f.Required // a required field never accepts null, an optional one always does
	c := f.Cons
	if c == nil {
		c = noCons
	}
	var s *obj
	var notes []string
	switch {
	case t.Kind == model.KindSlice || t.Kind == model.KindArray:
		s, notes, err = b.array(t, nullable, c, path)
	case isScalar(t):
		if err := noItemCons(c, path, t); err != nil {
			return nil, err
		}
		s, notes, err = b.scalar(t, nullable, c, path, false)
	default:
		if err := noItemCons(c, path, t); err != nil {
			return nil, err
		}
		if err := noScalarCons(c, path, t); err != nil {
			return nil, err
		}
		s, err = b.value(t, nullable, path)
	}
	if err != nil {
		return nil, err
	}
	if f.Doc != "" {
		s.set("description", str(f.Doc))
		if isScalar(t) {
			restate(s, enumMeanings(t, c)) // the field's doc replaced the type's, which scalar extended
		}
	}
	// Bounds on durations have no JSON Schema keyword (a duration is a string): the description states
	// them, in every dialect; the decoder enforces them.
	var durNotes []string
	each := ""
	if t.Kind == model.KindSlice || t.Kind == model.KindArray {
		each = "each item "
	}
	if c.MinDuration != nil {
		durNotes = append(durNotes, each+"at least "+c.MinDuration.Text)
	}
	if c.MaxDuration != nil {
		durNotes = append(durNotes, each+"at most "+c.MaxDuration.Text)
	}
	restate(s, durNotes)
	if c.Default != "" {
		d, err := literal(path+": default", c.Default)
		if err != nil {
			return nil, fmt.Errorf("schema: %w", err)
		}
		s.set("default", d)
	}
	_ = notes // the notes a dialect restates are the adapters' (they derive them from this schema)
	return s, nil
}

// value writes the schema of a type in a position without constraints (slice elements, map values,
// struct-typed fields). Pointers make the value nullable.
func (b *builder) value(t *model.Type, nullable bool, path string) (*obj, error) {
	t, ptr, err := unpointer(t, path)
	if err != nil {
		return nil, err
	}
	nullable = nullable || ptr
	switch t.Kind {
	case model.KindStruct:
		if t.Recursive || b.shared[t] {
			return b.ref(t, nullable)
		}
		return b.structBody(t, nullable)
	case model.KindSlice, model.KindArray:
		s, _, err := b.array(t, nullable, noCons, path)
		return s, err
	case model.KindMap:
		if t.Elem == nil {
			return nil, fmt.Errorf("schema: %s: map without a value type", path)
		}
		v, err := b.value(t.Elem, false, path+"{}")
		if err != nil {
			return nil, err
		}
		s := newSchema()
		s.set("type", typeKeyword("object", nullable))
		if t.Doc != "" {
			s.set("description", str(t.Doc))
		}
		s.set("additionalProperties", v)
		return s, nil
	}
	if isScalar(t) {
		s, _, err := b.scalar(t, nullable, noCons, path, false)
		return s, err
	}
	if t.Kind == model.KindJSON {
		// Free-form JSON (wink.RawJSON): a schema without "type" takes any value, null included.
		return newSchema(), nil
	}
	return nil, fmt.Errorf("schema: %s: unsupported type %s", path, t.KindName())
}

// ref writes a reference to a recursive struct: "#" for the root, "#/$defs/ID" otherwise, wrapped in
// anyOf with null when nullable.
func (b *builder) ref(t *model.Type, nullable bool) (*obj, error) {
	target := "#"
	if t != b.root {
		if t.ID == "" {
			return nil, fmt.Errorf("schema: %s: recursive type without an ID", typeName(t))
		}
		if prev, ok := b.defIDs[t.ID]; !ok {
			b.defIDs[t.ID] = t
			b.defs = append(b.defs, t)
		} else if prev != t {
			return nil, fmt.Errorf("schema: two types under $defs share the ID %q", t.ID)
		}
		target = "#/$defs/" + t.ID
	}
	r := newSchema()
	r.set("$ref", str(target))
	if !nullable {
		return r, nil
	}
	null := newSchema()
	null.set("type", str("null"))
	s := newSchema()
	s.set("anyOf", list{r, null})
	return s, nil
}

// array writes a slice or array. Item constraints go on the array, scalar constraints on its items.
func (b *builder) array(t *model.Type, nullable bool, c *model.Constraints, path string) (*obj, []string, error) {
	if t.Elem == nil {
		return nil, nil, fmt.Errorf("schema: %s: %s without an element type", path, t.KindName())
	}
	elem, elemNull, err := unpointer(t.Elem, path)
	if err != nil {
		return nil, nil, err
	}
	var items *obj
	var itemNotes []string
	if hasScalarCons(c) {
		if !isScalar(elem) {
			return nil, nil, fmt.Errorf("schema: %s: %s does not apply to elements of type %s", path, scalarConsNames(c)[0], elem.KindName())
		}
		items, itemNotes, err = b.scalar(elem, elemNull, c, path+"[]", true)
	} else {
		items, err = b.value(t.Elem, false, path+"[]")
	}
	if err != nil {
		return nil, nil, err
	}
	s := newSchema()
	s.set("type", typeKeyword("array", nullable))
	if t.Named != nil && t.Doc != "" {
		s.set("description", str(t.Doc))
	}
	s.set("items", items)
	minItems, maxItems := -1, -1
	if t.Kind == model.KindArray {
		if t.Len < 0 || t.Len > 1<<31-1 {
			return nil, nil, fmt.Errorf("schema: %s: array length %d out of range", path, t.Len)
		}
		minItems, maxItems = int(t.Len), int(t.Len)
	}
	if c.MinItems != nil && *c.MinItems > minItems {
		minItems = *c.MinItems
	}
	if c.MaxItems != nil && (maxItems < 0 || *c.MaxItems < maxItems) {
		maxItems = *c.MaxItems
	}
	if minItems >= 0 {
		s.set("minItems", rawJSON(strconv.Itoa(minItems)))
	}
	if maxItems >= 0 {
		s.set("maxItems", rawJSON(strconv.Itoa(maxItems)))
	}
	var notes []string
	if c.UniqueItems {
		s.set("uniqueItems", boolean(true))
	}
	for _, n := range itemNotes {
		notes = append(notes, "each item "+n)
	}
	return s, notes, nil
}

func isScalar(t *model.Type) bool {
	switch t.Kind {
	case model.KindString, model.KindBool, model.KindInt, model.KindUint, model.KindFloat, model.KindTime, model.KindDuration:
		return true
	}
	return false
}

func hasItemCons(c *model.Constraints) bool {
	return c.MinItems != nil || c.MaxItems != nil || c.UniqueItems
}

func noItemCons(c *model.Constraints, path string, t *model.Type) error {
	if !hasItemCons(c) {
		return nil
	}
	name := "uniqueItems"
	switch {
	case c.MinItems != nil:
		name = "minItems"
	case c.MaxItems != nil:
		name = "maxItems"
	}
	return fmt.Errorf("schema: %s: %s does not apply to type %s", path, name, t.KindName())
}

// scalarConsNames lists the scalar constraints set in c, in keyword order.
func scalarConsNames(c *model.Constraints) []string {
	var n []string
	add := func(set bool, name string) {
		if set {
			n = append(n, name)
		}
	}
	add(len(c.Enum) > 0, "enum")
	add(c.Min != nil, "min")
	add(c.ExclusiveMin != nil, "exclusiveMin")
	add(c.Max != nil, "max")
	add(c.ExclusiveMax != nil, "exclusiveMax")
	add(c.MultipleOf != nil, "multipleOf")
	add(c.MinLength != nil, "minLength")
	add(c.MaxLength != nil, "maxLength")
	add(c.Pattern != "", "pattern")
	add(c.Format != "", "format")
	return n
}

func hasScalarCons(c *model.Constraints) bool { return len(scalarConsNames(c)) > 0 }

func noScalarCons(c *model.Constraints, path string, t *model.Type) error {
	if n := scalarConsNames(c); len(n) > 0 {
		return fmt.Errorf("schema: %s: %s does not apply to type %s", path, n[0], t.KindName())
	}
	return nil
}

// scalarAllowed says which scalar constraints each scalar kind takes.
func scalarAllowed(t *model.Type, name string) bool {
	switch name {
	case "enum":
		return t.Kind != model.KindTime && t.Kind != model.KindDuration
	case "min", "exclusiveMin", "max", "exclusiveMax", "multipleOf":
		return t.Kind == model.KindInt || t.Kind == model.KindUint || t.Kind == model.KindFloat
	case "minLength", "maxLength", "pattern", "format":
		return t.Kind == model.KindString
	}
	return false
}

// scalar writes a string, boolean, integer, number or date-time schema with its scalar constraints. It
// returns the strict-mode notes for the keywords it dropped (item phrasing when item is set).
func (b *builder) scalar(t *model.Type, nullable bool, c *model.Constraints, path string, item bool) (*obj, []string, error) {
	for _, n := range scalarConsNames(c) {
		if !scalarAllowed(t, n) {
			return nil, nil, fmt.Errorf("schema: %s: %s does not apply to type %s", path, n, t.KindName())
		}
	}
	s := newSchema()
	if t.Named != nil && t.Doc != "" {
		s.set("description", str(t.Doc))
	}
	restate(s, enumMeanings(t, c))
	var notes []string

	// enum: a tag enum narrows the type's own.
	var enum list
	if len(c.Enum) > 0 {
		for _, e := range c.Enum {
			v, err := literal(path+": enum value", e)
			if err != nil {
				return nil, nil, fmt.Errorf("schema: %w", err)
			}
			enum = append(enum, v)
		}
	} else {
		for _, e := range t.Enum {
			if e == nil {
				return nil, nil, fmt.Errorf("schema: %s: nil enum value", typeName(t))
			}
			v, err := literal(typeName(t)+": enum value", e.JSON)
			if err != nil {
				return nil, nil, fmt.Errorf("schema: %w", err)
			}
			enum = append(enum, v)
		}
	}
	if len(enum) > 0 {
		if nullable {
			enum = append(enum, rawJSON("null"))
		}
		s.set("enum", enum)
	}

	switch t.Kind {
	case model.KindString:
		s.set("type", typeKeyword("string", nullable))
		if err := b.lengths(s, c, &notes, item); err != nil {
			return nil, nil, fmt.Errorf("schema: %s: %w", path, err)
		}
		if c.Pattern != "" {
			s.set("pattern", str(Anchored(c.Pattern)))
		}
		if c.Format != "" {
			s.set("format", str(c.Format))
		}
	case model.KindBool:
		s.set("type", typeKeyword("boolean", nullable))
	case model.KindTime:
		s.set("type", typeKeyword("string", nullable))
		s.set("format", str("date-time"))
	case model.KindDuration:
		s.set("type", typeKeyword("string", nullable))
		s.set("pattern", str(strictjson.DurationPattern))
	case model.KindInt, model.KindUint:
		s.set("type", typeKeyword("integer", nullable))
		lo, hi, err := intRange(t)
		if err != nil {
			return nil, nil, fmt.Errorf("schema: %s: %w", path, err)
		}
		if err := bounds(s, c, lo, hi, len(enum) == 0); err != nil {
			return nil, nil, fmt.Errorf("schema: %s: %w", path, err)
		}
	case model.KindFloat:
		s.set("type", typeKeyword("number", nullable))
		var lo, hi string
		switch t.Bits {
		case 32:
			lo, hi = "-3.4028235e+38", "3.4028235e+38" // strictjson.MaxFloat32JSON: what the encoder writes for MaxFloat32
		case 64:
			lo, hi = "-1.7976931348623157e+308", "1.7976931348623157e+308"
		default:
			return nil, nil, fmt.Errorf("schema: %s: float with %d bits", path, t.Bits)
		}
		if err := bounds(s, c, lo, hi, len(enum) == 0); err != nil {
			return nil, nil, fmt.Errorf("schema: %s: %w", path, err)
		}
	default:
		return nil, nil, fmt.Errorf("schema: %s: %s is not a scalar", path, t.KindName())
	}
	return s, notes, nil
}

// lengths writes minLength/maxLength.
func (b *builder) lengths(s *obj, c *model.Constraints, notes *[]string, item bool) error {
	if c.MinLength != nil && *c.MinLength < 0 || c.MaxLength != nil && *c.MaxLength < 0 {
		return errors.New("negative length")
	}
	if c.MinLength != nil {
		s.set("minLength", rawJSON(strconv.Itoa(*c.MinLength)))
	}
	if c.MaxLength != nil {
		s.set("maxLength", rawJSON(strconv.Itoa(*c.MaxLength)))
	}
	return nil
}

// intRange returns the Go integer type's range as JSON literals.
func intRange(t *model.Type) (lo, hi string, err error) {
	switch t.Bits {
	case 8, 16, 32, 64:
	default:
		return "", "", fmt.Errorf("integer with %d bits", t.Bits)
	}
	one := big.NewInt(1)
	if t.Kind == model.KindUint {
		max := new(big.Int).Lsh(one, uint(t.Bits))
		return "0", max.Sub(max, one).String(), nil
	}
	half := new(big.Int).Lsh(one, uint(t.Bits-1))
	min := new(big.Int).Neg(half)
	return min.String(), half.Sub(half, one).String(), nil
}

// bounds writes minimum/exclusiveMinimum/maximum/exclusiveMaximum/multipleOf. With withRange the type's
// range [lo, hi] is always stated: a Cons bound replaces it when at least as tight, and it is left out only
// when an exclusive Cons bound already implies it. Without withRange (enums) only Cons bounds are written.
func bounds(s *obj, c *model.Constraints, lo, hi string, withRange bool) error {
	lit := func(name string, n *model.Number) (rawJSON, error) {
		if n == nil {
			return "", nil
		}
		return literal(name, n.Literal)
	}
	minV, err := lit("min", c.Min)
	if err != nil {
		return err
	}
	maxV, err := lit("max", c.Max)
	if err != nil {
		return err
	}
	exMinV, err := lit("exclusiveMin", c.ExclusiveMin)
	if err != nil {
		return err
	}
	exMaxV, err := lit("exclusiveMax", c.ExclusiveMax)
	if err != nil {
		return err
	}
	mulV, err := lit("multipleOf", c.MultipleOf)
	if err != nil {
		return err
	}
	if !withRange {
		setIf(s, "minimum", minV)
		setIf(s, "exclusiveMinimum", exMinV)
		setIf(s, "maximum", maxV)
		setIf(s, "exclusiveMaximum", exMaxV)
		setIf(s, "multipleOf", mulV)
		return nil
	}
	// Lower bound.
	lower, explicit := rawJSON(lo), false
	if minV != "" {
		d, err := cmpNum(string(minV), lo)
		if err != nil {
			return err
		}
		if d >= 0 {
			lower, explicit = minV, true
		}
	}
	writeLower := true
	if exMinV != "" {
		s.set("exclusiveMinimum", exMinV)
		d, err := cmpNum(string(exMinV), lo)
		if err != nil {
			return err
		}
		if !explicit && d >= 0 {
			writeLower = false
		}
	}
	if writeLower {
		s.set("minimum", lower)
	}
	// Upper bound.
	upper, explicit := rawJSON(hi), false
	if maxV != "" {
		d, err := cmpNum(string(maxV), hi)
		if err != nil {
			return err
		}
		if d <= 0 {
			upper, explicit = maxV, true
		}
	}
	writeUpper := true
	if exMaxV != "" {
		s.set("exclusiveMaximum", exMaxV)
		d, err := cmpNum(string(exMaxV), hi)
		if err != nil {
			return err
		}
		if !explicit && d <= 0 {
			writeUpper = false
		}
	}
	if writeUpper {
		s.set("maximum", upper)
	}
	setIf(s, "multipleOf", mulV)
	return nil
}

func setIf(s *obj, k string, v rawJSON) {
	if v != "" {
		s.set(k, v)
	}
}

// cmpNum compares two JSON number literals exactly.
func cmpNum(a, b string) (int, error) {
	x, err := parseNum(a)
	if err != nil {
		return 0, err
	}
	y, err := parseNum(b)
	if err != nil {
		return 0, err
	}
	return x.Cmp(y), nil
}

func parseNum(s string) (*big.Rat, error) {
	// Refuse absurd exponents before big.Rat expands them.
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e > 1000 || e < -1000 {
			return nil, fmt.Errorf("number %s out of the supported range", s)
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("%q is not a number", s)
	}
	return r, nil
}
