package wink

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sync/atomic"
	"time"
	"unsafe"

	"github.com/winkgen/wink/runtime/strictjson"
)

// GenVersion is the version of the generated-code contract this runtime
// implements; winkgen emits code for it.
const GenVersion = 4

// MinGenVersion is the oldest generated-code version this runtime supports.
const MinGenVersion = 4

// MaxGenVersion is the newest generated-code version this runtime supports.
const MaxGenVersion = 4

// EnforceVersion is used by generated code to fail compilation when it does
// not fit this runtime (the protobuf-go idiom). Code generated for version G
// declares
//
//	const _ = wink.EnforceVersion(wink.MaxGenVersion - G)
//	const _ = wink.EnforceVersion(G - wink.MinGenVersion)
//
// and a negative constant does not convert to an unsigned type.
type EnforceVersion uint

// Spec is the static description of a tool, emitted by winkgen as constants.
type Spec struct {
	// Name is the tool's name, matching ^[a-z0-9_-]{1,64}$.
	Name string
	// Description is the text shown to the model (1-200 ASCII characters).
	Description string
	// Position is the handler, by package path and name, and its file
	// ("example.com/agent/tools.SearchDocs (search.go)"), for diagnostics
	// such as duplicate names. It carries no line number, so an edit that
	// moves a handler does not change the generated file.
	Position string
	// ParamsSchema is the plain JSON Schema 2020-12 of the arguments
	// (Anthropic input_schema, MCP inputSchema). The forms a provider's
	// dialect needs (OpenAI strict mode, Anthropic strict tool use, Gemini's
	// OpenAPI subset) are derived from it by that provider's adapter
	// (runtime/adapters/<vendor>), once per tool.
	ParamsSchema []byte
	// ResultSchema is the plain JSON Schema of the result value (MCP
	// outputSchema).
	ResultSchema []byte
	// Examples are the tool's validated examples, in declaration order.
	Examples []Example
	// Idempotency is the tool's idempotency declaration; its zero value means
	// the tool is not idempotent.
	Idempotency Idempotency
	// AcceptsOverrides reports whether the description may be overridden.
	AcceptsOverrides bool
	// ReadOnly reports that the tool changes neither session state nor files
	// (//wink:tool readonly). The dispatcher enforces it: the call takes no
	// snapshot, shares its session's lock with other read-only calls, and
	// sees read-only views of the session and the filesystem, so a change
	// fails with a clear error and changes nothing.
	ReadOnly bool
	// Title is a human-readable title (//wink:tool title="..."), for MCP
	// clients; "" when not given.
	Title string
	// Destructive and OpenWorld are the tool's hints for MCP clients
	// (//wink:tool destructive=true|false, openworld=true|false): HintUnset
	// when not given, so clients assume the protocol's defaults.
	Destructive, OpenWorld Hint
	// Scopes are the OAuth scopes a caller must hold, all of them, to call
	// the tool (//wink:tool scopes=a,b), in declaration order. The
	// dispatcher checks them before decoding the arguments of a call whose
	// context carries a Principal (WithPrincipal); without a principal
	// (stdio, a local loop) they are not checked. A tool declaring none is
	// callable by any authenticated caller: readonly is not a permission.
	Scopes []string
	// Task says whether a call of the tool runs as a task of MCP's
	// io.modelcontextprotocol/tasks extension (//wink:tool
	// task=optional|required): TaskNever (the default), TaskOptional or
	// TaskRequired. Only the MCP server reads it (runtime/mcpserver,
	// WithTasks); every other entry point calls the tool as usual.
	Task TaskSupport
	// Deferred reports that the tool's definition is left out of the
	// model's context until a tool search finds it (//wink:tool defer):
	// providers that load tools on demand are sent it marked so
	// (defer_loading), others are sent it once it is found (package
	// toolsearch, loop.Config.Search). It is callable either way.
	Deferred bool
	// Rate is the token bucket each caller gets for this tool (//wink:tool
	// rate=10/s burst=20), applied by a Dispatcher.RateLimit such as
	// runtime/ratelimit's; the zero Rate: no per-tool limit.
	Rate Rate
	// Callers says who may call the tool (//wink:tool callers=direct|program|both): the model
	// directly, a program's inner calls (code mode), or both; CallersDefault when not declared, which
	// Callable resolves from the hints. The dispatcher enforces it.
	Callers Callers
	// Headers are the parameters MCP's Streamable HTTP transport mirrors into HTTP headers
	// (wink:"header=Region" on a top-level field of the params struct: the Mcp-Param-Region header), in
	// field order. winkgen checks the names and the fields against MCP's rules; the MCP server lists
	// each as the property's "x-mcp-header" annotation and refuses a call whose header does not match
	// its argument. Other entry points ignore them.
	Headers []ParamHeader
	// Signature is the tool's one-line signature for programs, derived from the schemas by winkgen for
	// a tool programs may call (Callable): name(param: type, opt: type = default) -> result  # description.
	// Program tools show the model these lines (runtime/suites/eval's ProgramGuide); "" for other tools.
	Signature string
}

// ParamHeader names a top-level parameter (its JSON name) and the header it is mirrored into over MCP's
// Streamable HTTP transport: Mcp-Param-<Header>.
type ParamHeader struct {
	Param, Header string
}

// Hint is a tri-state tool hint: HintUnset, HintYes or HintNo.
type Hint uint8

// The hint values.
const (
	HintUnset Hint = iota // not given: clients assume the protocol's default
	HintYes               // given as true
	HintNo                // given as false
)

// Example is one example call of a tool: canonical JSON of its arguments and
// of its result value.
type Example struct {
	// Description says what the example shows.
	Description string
	// Input is the arguments as the //wink:example directive wrote them (insignificant whitespace
	// removed; durations, defaults and member order as written), checked by the params' decoder at
	// generation time.
	Input []byte
	// Output is the result value as the directive wrote it, checked likewise.
	Output []byte
}

// IdemStrategy selects how a tool call's idempotency key is derived.
type IdemStrategy uint8

const (
	// IdemNone (the zero value) marks a tool that is not idempotent.
	IdemNone IdemStrategy = iota
	// IdemAuto keys a call on all of its arguments.
	IdemAuto
	// IdemParams keys a call on the arguments named in Idempotency.Keys.
	IdemParams
	// IdemCustom keys a call on what Funcs.IdempotencyKey returns.
	IdemCustom
)

// String returns the strategy's directive spelling: "none", "auto", "params"
// or "custom".
func (s IdemStrategy) String() string {
	switch s {
	case IdemNone:
		return "none"
	case IdemAuto:
		return "auto"
	case IdemParams:
		return "params"
	case IdemCustom:
		return "custom"
	}
	return "IdemStrategy(" + strconv.Itoa(int(s)) + ")"
}

// Idempotency is a tool's idempotency declaration (//wink:idempotent).
type Idempotency struct {
	// Strategy selects how keys are derived; IdemNone disables idempotency.
	Strategy IdemStrategy
	// Keys are the argument names an IdemParams key is built from.
	Keys []string
	// TTL is how long a recorded result is replayed; zero means forever.
	TTL time.Duration
	// Scope namespaces keys (for example "session").
	Scope string
}

// Funcs are the typed functions behind one tool; winkgen generates all but
// Handler, which is the user's function. The pointers the dispatcher passes
// to them are valid only during the call and must not be kept.
//
// The types' own methods complete them, found by NewTool as winkgen finds
// them: a params type whose pointer has Validate() error is checked after a
// decode without errors (its errors reach the model as argument errors); a
// result type whose pointer has Validate() error is checked after a
// successful call with a value (a violation is a failure that rolls back);
// one with Render() string is rendered with it instead of its JSON encoding.
// (They are methods rather than fields so that a tool's Funcs hold no more
// function types than it needs: each costs type descriptors per tool.)
type Funcs[P, R any] struct {
	// Decode is the generated strict decoder of the params (required).
	Decode func(*strictjson.Decoder, *P)
	// EncodeParams appends the canonical JSON of the params.
	EncodeParams func([]byte, *P) []byte
	// EncodeResult appends the JSON of the result value (required).
	EncodeResult func([]byte, *R) []byte
	// Handler is the tool's handler (required).
	Handler func(*ToolContext, P) (ToolResult[R], error)
	// IdempotencyKey, when set, derives an IdemCustom key from the params.
	IdempotencyKey func(*P) string
}

// NewTool returns the tool described by spec whose typed functions are *f.
// Generated code declares one package-level tool per handler with it, its
// Funcs a package-level variable of their own (static data, no init code):
//
//	var WinkSearchDocs = wink.NewTool(wink.Spec{...}, &winkFuncsSearchDocs)
//
// It panics when the name does not match ^[a-z0-9_-]{1,64}$ or when Decode,
// EncodeResult or Handler is nil: generated code never does that, so such a
// tool is a programming error caught at package initialisation. *f must not
// be modified afterwards.
//
// NewTool is the only generic step a tool pays for: it binds the tool's typed
// operations (decode into a P, call the handler, encode an R); the rest of the
// pipeline is shared by every tool.
func NewTool[P, R any](spec Spec, f *Funcs[P, R]) *Tool {
	// NewTool is small enough to be inlined where it is called: what needs P and R is typedOp's (opInit
	// included), the rest is newTool's, once for all tools. f is kept as an unsafe.Pointer, not boxed in
	// an interface: boxing a *Funcs[P, R], or copying a Funcs[P, R] to the heap, would need the type
	// descriptors of Funcs and of every one of its function types, twice (the types and their GC
	// shapes), for every tool.
	return newTool(&spec, unsafe.Pointer(f), typedOp[P, R])
}

// newTool is NewTool's untyped part: f is the *Funcs[P, R], op its typedOp.
func newTool(spec *Spec, f unsafe.Pointer, op func(f unsafe.Pointer, k opKind, fr *frame, tc *ToolContext, dst []byte) ([]byte, error)) *Tool {
	var probe frame
	op(f, opInit, &probe, nil, nil)
	if probe.io.has&hasRequired == 0 {
		panic(badDef(spec.Name))
	}
	t := new(Tool)
	o := &ops{tool: t, funcs: f, op: op, has: probe.io.has,
		pType: probe.io.types[0], rType: probe.io.types[1], pAt: probe.io.at[0], rAt: probe.io.at[1]}
	// The methods winkgen looks for, found on the frame's boxed *P and *R.
	fr := o.getFrame()
	_, validP := fr.p.(validator)
	_, validR := fr.r.(validator)
	_, rendR := fr.r.(renderer)
	_, noValue := fr.r.(*NoValue)
	fr.release()
	for bit, set := range [...]bool{validP, validR, rendR} {
		if set {
			o.has |= 1 << bit
		}
	}
	t.init(*spec, o, noValue)
	return t
}

// DecodeParams strictly decodes args into t's params type P with lim and
// runs the params' Validate, without boxing them. A non-nil error is an
// *ArgumentsError, or an error naming the mismatch when P is not t's params
// type.
func DecodeParams[P any](t *Tool, args []byte, lim strictjson.Limits) (P, error) {
	// The params are decoded into a pooled call frame, not a local: a local
	// whose address goes to the Decode function value escapes, costing an
	// allocation and a write barrier per stored field.
	var zero P
	fr := t.impl.getFrame()
	pp, ok := fr.p.(*P)
	if !ok {
		fr.release()
		return zero, errors.New("wink.DecodeParams: the type argument is not the params type of tool " + strconv.Quote(t.spec.Name))
	}
	aerr := t.decode(fr, args, lim)
	p := *pp
	fr.release()
	if aerr != nil {
		return zero, aerr
	}
	return p, nil
}

// init sets up t; it panics on an invalid name (see NewTool).
func (t *Tool) init(spec Spec, impl *ops, noValue bool) {
	if !validName(spec.Name) {
		panic(fmt.Sprintf("wink.NewTool: tool name %q must match ^[a-z0-9_-]{1,64}$", spec.Name))
	}
	for _, sc := range spec.Scopes {
		if !ValidScope(sc) {
			panic(fmt.Sprintf("wink.NewTool: tool %q: scope %q is not an RFC 6749 scope-token (printable ASCII, no space, '\"' or '\\')", spec.Name, sc))
		}
	}
	if err := spec.Rate.Validate(); err != nil {
		panic(fmt.Sprintf("wink.NewTool: tool %q: %v", spec.Name, err))
	}
	t.spec, t.impl, t.noValue = spec, impl, noValue
}

// badDef is NewTool's panic value for missing functions.
func badDef(name string) string {
	return fmt.Sprintf("wink.NewTool: tool %q: Funcs.Decode, Funcs.EncodeResult and Funcs.Handler are required", name)
}

// validName reports whether name matches ^[a-z0-9_-]{1,64}$.
func validName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// decode fills the frame's params from args with the frame's decoder and
// validates them; nil means success. Validate runs only when decoding found
// no error: a half-decoded value is meaningless.
func (t *Tool) decode(fr *frame, args []byte, lim strictjson.Limits) *ArgumentsError {
	dec := fr.dec
	if dec == nil {
		dec = new(strictjson.Decoder)
		fr.dec = dec
	}
	// Providers send "" or null for a call without arguments: they mean {},
	// which a tool with no required field accepts and any other tool answers
	// by naming its missing fields.
	if noArguments(args) {
		args = emptyObject
	}
	dec.Reset(args, lim)
	fr.decode()
	if fr.rec != nil && !fr.recS && dec.HasStrings() && !fr.ops.strs.Load() {
		fr.ops.strs.Store(true) // the tool's params have strings: its records keep room for them (recordS)
	}
	if errs := dec.Finish(); errs != nil {
		// The decoder is not used again: errs may share its storage.
		fr.dec = nil
		return &ArgumentsError{Tool: t.spec.Name, Errors: errs}
	}
	dec.Drop() // the references to the input and to the strings' block
	err := fr.validate()
	if err == nil {
		return nil
	}
	return &ArgumentsError{Tool: t.spec.Name, Errors: validationErrors(err)}
}

// emptyObject is the arguments "" and null stand for.
var emptyObject = []byte("{}")

// noArguments reports whether args is empty, blank, or null (with blanks around it).
func noArguments(args []byte) bool {
	if len(args) > 0 && args[0] == '{' { // the usual arguments: an object, no blank before it
		return false
	}
	i, j := 0, len(args)
	for i < j && isBlank(args[i]) {
		i++
	}
	for j > i && isBlank(args[j-1]) {
		j--
	}
	return i == j || string(args[i:j]) == "null"
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// validationErrors converts an error returned by a Validate method into
// decoding-style errors: a *strictjson.Errors or a FieldErrorer contributes
// its entries, any other error one root entry with its text.
func validationErrors(err error) *strictjson.Errors {
	errs := &strictjson.Errors{}
	if se, ok := errors.AsType[*strictjson.Errors](err); ok {
		for _, fe := range se.List {
			errs.Add(fe.Path, fe.Message)
		}
		errs.Omitted += se.Omitted
		return errs
	}
	if fe, ok := errors.AsType[fieldErrorsError](err); ok {
		list := fe.FieldErrors()
		if len(list) > 0 {
			for _, e := range list {
				errs.Add(e.Path, e.Message)
			}
			return errs
		}
	}
	errs.Add("", err.Error())
	return errs
}

// fieldErrorsError is an error that is also a FieldErrorer.
type fieldErrorsError interface {
	error
	FieldErrorer
}

// Tool is the non-generic descriptor of a tool: its Spec plus a route to the
// typed operations it was built with. Tools are created only by NewTool
// (and WithDescription) and are immutable; use them from any goroutine.
type Tool struct {
	spec       Spec
	impl       *ops                   // the typed operations, shared by an overridden copy
	noValue    bool                   // the result type is NoValue: never rendered
	program    bool                   // the handler runs a program whose inner calls are dispatched (AsProgram)
	renderHint atomic.Int32           // the longest result encoding rendered so far (capped)
	lastOutput atomic.Pointer[string] // a short output rendered before, given again when a call renders the same
}

// Spec returns the tool's static description. The result points into the
// Tool and must not be modified.
func (t *Tool) Spec() *Spec { return &t.spec }

// Name returns the tool's name.
func (t *Tool) Name() string { return t.spec.Name }

// Description returns the tool's description.
func (t *Tool) Description() string { return t.spec.Description }

// Position returns where the tool's handler is declared.
func (t *Tool) Position() string { return t.spec.Position }

// Decode strictly decodes and validates args with lim and returns the typed
// params boxed in an interface. A non-nil error is an *ArgumentsError.
func (t *Tool) Decode(args []byte, lim strictjson.Limits) (any, error) {
	return t.impl.decodeAny(args, lim)
}

// WithDescription returns a copy of t described by desc (trimmed); it keeps
// t's decoder, handler and every other part of its Spec, and dispatches
// through t's typed operations, so policies, hooks and events see the original Tool.
// Prompt overrides (package prompt) are built with it.
func (t *Tool) WithDescription(desc string) *Tool {
	c := &Tool{spec: t.spec, impl: t.impl, noValue: t.noValue, program: t.program}
	c.spec.Description = strings.TrimSpace(desc)
	return c
}

// Same reports whether t and u run the same tool: the same NewTool, so an
// overridden copy (WithDescription) and its original are the same.
func (t *Tool) Same(u *Tool) bool {
	return t != nil && u != nil && t.impl != nil && t.impl == u.impl
}
