// Package model is winkgen's intermediate representation: what the analyzer understood about a package's
// tools, as plain data. It holds no go/types values and no jennifer code, so it can be dumped, compared in
// tests and consumed by every emitter (schemas, decoders, encoders, examples, registry) alike.
//
// Go identifiers are (import path, name) pairs, as in protobuf-go's GoIdent. Positions are file:line:col with
// the file name as the loader reported it (absolute); diagnostics make them relative when printed.
package model

// Pos is a source position.
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Ident is a Go identifier qualified by its package import path.
type Ident struct {
	Path string // import path; "" for predeclared identifiers
	Name string
}

// Package is one Go package that declares tools.
type Package struct {
	Path  string // import path
	Name  string // package name
	Dir   string // directory (absolute)
	Tools []*Tool
	// Unfit lists the tools with problems of their own (a bad name, a bad example, ...): never emitted,
	// still held to the providers' rules, so every problem shows in one run.
	Unfit []*Tool
	// Types lists every named struct and enum type reachable from the tools, in first-use order; each has a
	// unique ID used for generated function names and $defs keys.
	Types []*Type
	// States lists the named struct types marked //wink:state, in source order: each gets a session codec.
	States []*Type
	// Forms lists the named struct types marked //wink:form, in source order: each gets a wink.Form.
	Forms []*Type
	// Scope holds the package-level identifiers declared outside the generated file, with their
	// positions: the generated file's imports are named so as not to collide with any of them.
	Scope map[string]Pos
	// PkgNames maps the import path of each other package whose types the generated code names to that
	// package's name.
	PkgNames map[string]string
}

// Tool is one //wink:tool function.
type Tool struct {
	Name        string        // wire name, e.g. "search_docs"
	Description string        // model-facing description
	Func        Ident         // the handler
	Pos         Pos           // position of the func keyword
	DirPos      Pos           // position of the //wink:tool directive
	Params      *Type         // named struct; nil for a parameterless handler
	Result      *Type         // named struct, or nil when the result is wink.NoValue
	Overrides   bool          // description may be overridden
	ReadOnly    bool          // //wink:tool readonly: the tool changes no session state and no file
	Title       string        // //wink:tool title="...": a human-readable title (MCP)
	Destructive *bool         // //wink:tool destructive=true|false (MCP's destructiveHint); nil: not given
	OpenWorld   *bool         // //wink:tool openworld=true|false (MCP's openWorldHint); nil: not given
	Scopes      []string      // //wink:tool scopes=a,b: the OAuth scopes a caller must hold; nil: none
	Task        string        // //wink:tool task=optional|required (MCP tasks extension); "": never a task
	Defer       bool          // //wink:tool defer: left out of the model's context until tool search finds it
	Rate        *Rate         // //wink:tool rate=N/period burst=B: a token bucket per caller; nil: none
	Callers     string        // //wink:tool callers=direct|program|both; "": not given (wink.Spec.Callable's default)
	Headers     []ParamHeader // params fields tagged wink:"header=NAME", in field order
	Examples    []*Example
	Idempotency *Idempotency // nil: not idempotent

	ParamsValidate bool // *P or P has Validate() error
	ResultValidate bool // *R or R has Validate() error
	ResultRender   bool // *R or R has Render() string
}

// ParamHeader is a top-level parameter MCP's Streamable HTTP transport mirrors into the header
// Mcp-Param-<Header> (wink:"header=NAME").
type ParamHeader struct {
	Param  string // the field's JSON name
	Header string
}

// Rate is a tool's rate limit (//wink:tool rate= burst=): a bucket of Burst tokens refilled Count tokens
// every PerNanos nanoseconds.
type Rate struct {
	Count    int64
	PerNanos int64
	Burst    int64
}

// Example is one //wink:example directive, checked against the params and result types.
type Example struct {
	Pos         Pos
	Description string
	Input       string // canonical JSON of the decoded input (declaration order, defaults applied)
	Output      string // canonical JSON of the decoded output; "" when absent
	InputValue  *Value // decoded input, for emitting a typed Go literal
	OutputValue *Value // nil when absent
}

// Idempotency is the parsed //wink:idempotent directive.
type Idempotency struct {
	Strategy string   // auto, params, custom, none
	Keys     []string // JSON field names for strategy params, validated against the params type
	Func     Ident    // custom key function: func(P) string
	TTLNanos int64    // 0: no expiry
	Scope    string   // session or global
}

// Kind is the JSON shape of a type.
type Kind int

// Kinds.
const (
	KindString Kind = iota + 1
	KindBool
	KindInt   // signed integers; Bits gives the size
	KindUint  // unsigned integers; Bits gives the size
	KindFloat // Bits is 32 or 64
	KindTime  // time.Time, RFC 3339 date-time string
	KindStruct
	KindSlice
	KindArray // fixed length Len
	KindMap   // string keys; Elem is the value type
	KindPointer
	KindNoValue  // wink.NoValue
	KindDuration // time.Duration, a Go duration string ("1h30m")
	KindJSON     // wink.RawJSON: any JSON value, kept as its raw text
)

// Type is a Go type as winkgen understands it. Named types are shared (one *Type per named type), so the
// graph may contain cycles through KindStruct fields (recursive types).
type Type struct {
	Kind  Kind
	Named *Ident // Go name for named types (structs, enums, named scalars); nil for unnamed types
	// Basic is the Go predeclared type name underlying scalar kinds ("string", "int32", "float64", ...).
	Basic string
	Bits  int   // for KindInt/KindUint/KindFloat: 8, 16, 32, 64
	Elem  *Type // slice, array, map value, pointer target
	Len   int64 // array length

	Fields []*Field // struct fields in JSON order (embedded structs flattened)
	Doc    string   // the type's doc comment, folded, used as the object description

	Enum []*EnumValue // non-empty for enum types (named string or integer types with constants)
	// LegacyTitles: //wink:enum legacy on the type; a form states its titles as enum and enumNames.
	LegacyTitles bool

	ID        string // unique in the package: the Go type name, or a derived name; for generated identifiers
	Recursive bool   // part of a reference cycle: emitted under $defs and decoded by a named function

	Validate bool // has Validate() error (value or pointer receiver)
	Render   bool // has Render() string (value or pointer receiver)

	// Shape spells a named struct's underlying struct type (every field, exported or not, with its
	// tag) for the generated compile-time guard; nil when it cannot be spelled in the generated file.
	Shape *GoType
}

// KindName names t's kind for messages: "string", "string enum", "integer", "integer enum", "number",
// "bool", "time.Time", "time.Duration", "struct", "slice", "array", "map", "pointer", "NoValue".
func (t *Type) KindName() string {
	switch t.Kind {
	case KindString:
		if len(t.Enum) > 0 {
			return "string enum"
		}
		return "string"
	case KindBool:
		return "bool"
	case KindInt, KindUint:
		if len(t.Enum) > 0 {
			return "integer enum"
		}
		return "integer"
	case KindFloat:
		return "number"
	case KindTime:
		return "time.Time"
	case KindDuration:
		return "time.Duration"
	case KindJSON:
		return "wink.RawJSON"
	case KindStruct:
		return "struct"
	case KindSlice:
		return "slice"
	case KindArray:
		return "array"
	case KindMap:
		return "map"
	case KindPointer:
		return "pointer"
	case KindNoValue:
		return "NoValue"
	}
	return "value"
}

// GoType is a Go type expression as the generated file writes it.
type GoType struct {
	Op        string // "ident" (a named or predeclared type), "ptr", "slice", "array", "map" or "struct"
	Ident     Ident  // for "ident"; Path is "" for predeclared types
	Len       int64  // for "array"
	Key, Elem *GoType
	Fields    []GoField // for "struct"
}

// GoField is one field of a struct GoType.
type GoField struct {
	Name     string
	Embedded bool
	Type     *GoType
	Tag      string // the tag's value, as the compiler sees it
}

// EnumValue is one constant of an enum type, in declaration order.
type EnumValue struct {
	Const Ident  // the Go constant
	JSON  string // its JSON literal: a quoted string or an integer
	Title string // its //wink:enum title (the label a form shows); "" for none
	Doc   string // what its doc comment says it means, the constant's name dropped; "" for none
}

// Field is one JSON property of a struct.
type Field struct {
	GoPath   []string // Go selector path from the struct value (more than one element for promoted fields)
	JSONName string
	Type     *Type
	Required bool
	Doc      string // description
	Pos      Pos
	// Optional reasons, kept for messages and docs. The encoders leave the field out as encoding/json
	// does: OmitEmpty (json ",omitempty") when it is empty, OmitZero (",omitzero") when it is zero.
	OmitEmpty bool
	OmitZero  bool
	Cons      *Constraints // nil: none
}

// Constraints are a field's wink:"..." tag, checked against its type. Scalar constraints (numbers, strings,
// enum, format) apply to the field's scalar value, or to each element when the field is a slice or array of
// scalars; item constraints apply to the slice or array. For pointers they apply to the target.
type Constraints struct {
	Min, Max, ExclusiveMin, ExclusiveMax, MultipleOf *Number
	MinLength, MaxLength                             *int
	Pattern                                          string // as written; "" for none
	PatternDesc                                      string // what the pattern accepts, for messages ("must be <PatternDesc>")
	Format                                           string
	MinItems, MaxItems                               *int
	UniqueItems                                      bool
	Enum                                             []string // JSON literals, in tag order
	Default                                          string   // JSON literal; "" for none
	DefaultValue                                     *Value
	// MinDuration and MaxDuration bound a time.Duration field (min=1s,max=24h), or each duration of a
	// slice or array of them.
	MinDuration, MaxDuration *Duration
	// Header is the name MCP's Streamable HTTP transport mirrors a tool's top-level parameter into
	// (header=Region: the Mcp-Param-Region header, the "x-mcp-header" annotation); "" for none.
	// HeaderPos is where the tag names it.
	Header    string
	HeaderPos Pos
}

// Duration is a duration bound: as written in the tag, and its value.
type Duration struct {
	Text  string // as written ("24h")
	Nanos int64
}

// Number is a numeric constraint literal.
type Number struct {
	Literal string // as written (a JSON number)
	Int     bool   // integral
}

// Value is a decoded JSON value typed by a model Type, used for examples and defaults so emitters can write
// typed Go literals.
type Value struct {
	Type *Type
	// Exactly one of the following is meaningful, according to Type.Kind.
	Str    string     // KindString, KindTime (RFC 3339 text)
	Bool   bool       // KindBool
	Num    string     // KindInt, KindUint, KindFloat: canonical literal
	Enum   *EnumValue // enum types
	Items  []*Value   // slices and arrays
	Keys   []string   // maps: keys in sorted order, parallel to Items
	Fields []*FieldValue
	Nil    bool // pointer or slice or map that is nil
}

// FieldValue is one set field of a struct Value.
type FieldValue struct {
	Field *Field
	Value *Value
}
