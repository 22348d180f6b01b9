package wink

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/winkgen/wink/runtime/strictjson"
)

// The typed part of a tool. The call pipeline (call.go) is non-generic: it
// runs once for every tool, as methods of the canonical *Tool. What must know
// the params type P and the result type R (decoding into a P, calling the
// handler, encoding an R, boxing them for policies and events) is one
// function, typedOp[P, R], that NewTool binds to the tool's Funcs; the
// pipeline reaches it through the call's frame with an opKind, passing the
// ToolContext and buffers as arguments and the rest through the frame's opIO.
//
// Why so little is generic: the compiler stamps generic code out once per GC
// shape, and every params struct is a shape of its own (its field tags
// included), so whatever is generic is paid once per tool, in code and in
// type descriptors (for the types and again for their shapes).
//   - One function with a switch, not a dozen closures (each a function per
//     tool with its prologue, type assertion, closure type and metadata).
//   - No generic type has methods (every method of a generic type is
//     instantiated, with its function types, for every type argument).
//   - The Funcs are the generated code's static variables, kept as an
//     unsafe.Pointer that only typedOp turns back into a *Funcs[P, R]: boxing
//     them or copying them to the heap would need descriptors of Funcs and of
//     each of its function types.
//   - The params and the result live in two allocations, not in a generic
//     struct; Validate and Render are found on them as methods by non-generic
//     code. The one generic struct, record[P, R], has no methods: it puts a
//     recorded call's event and the copies of the params and value the event
//     boxes in one allocation instead of three.
// docs/performance.md, "Generated code at scale", has the measurement.

// opKind names one typed operation; opIO holds its operands.
type opKind uint8

const (
	opInit            opKind = iota // the optional Funcs present and the required ones → io.has
	opNew                           // allocate the frame's typed storage (fr.p, fr.r)
	opRelease                       // zero the typed storage
	opDecode                        // Funcs.Decode into the params with fr.dec
	opParams                        // the params, boxed → cs.params
	opSetParams                     // store io.v as the params → io.ok (false when it is not a P)
	opHandle                        // the handler with tc → io.head and the error; keeps the result value
	opAppendValue                   // Funcs.EncodeResult of the value onto dst
	opValue                         // the result value, boxed → cs.value
	opAppendParams                  // Funcs.EncodeParams onto dst
	opCustomKey                     // Funcs.IdempotencyKey → io.s
	opAppendValueJSON               // Funcs.EncodeResult of io.v (an R or a non-nil *R) onto dst → io.ok
	opRecord                        // allocate the call's record (the event, with room for the params and the value) → fr.rec
)

// opIO are the operands of one typed operation besides the ToolContext and
// the buffer, which are arguments. It lives in the frame, so passing it costs
// no allocation; release clears it.
type opIO struct {
	// types and at carry opInit's type words of P and R (ops.pType, ops.pAt, ...).
	types [2]unsafe.Pointer
	at    [2]bool
	v     any
	s     string
	err   error
	head  resultHead
	ok    bool
	has   uint8
}

// validator and renderer are the methods of params and result types the
// pipeline calls (see Funcs).
type (
	validator interface{ Validate() error }
	renderer  interface{ Render() string }
)

// The optional functions and methods a tool has (ops.has).
const (
	hasValidate = 1 << iota
	hasValidateResult
	hasRender
	hasEncodeParams
	hasCustomKey
	hasRequired // Decode, EncodeResult and Handler are all set
)

// ops are one tool's typed operations.
type ops struct {
	// pType and rType are the type words of a boxed P and R; pAt and rAt say that a box of P (of R) may
	// point into a record (the type is stored indirectly in an interface and is not zero-sized).
	pType, rType unsafe.Pointer
	pAt, rAt     bool
	tool         *Tool                                                                                    // the canonical descriptor (an overridden copy shares its ops)
	frames       sync.Pool                                                                                // of *frame
	funcs        unsafe.Pointer                                                                           // the *Funcs[P, R] the tool was built with
	op           func(f unsafe.Pointer, k opKind, fr *frame, tc *ToolContext, dst []byte) ([]byte, error) // typedOp[P, R]; f is funcs
	has          uint8                                                                                    // the optional functions and methods present (hasValidate, ...)
	strs         atomic.Bool                                                                              // a recorded call has decoded a string: records are recordS
}

// resultHead is the untyped part of a handler's ToolResult.
type resultHead struct {
	message                     string
	content                     Blocks
	success, hasValue, excluded bool
}

// frame is the per-call state. Frames are pooled per tool, so the pointers the
// pipeline passes to the typed functions (params, result, outcome) are valid
// only during the call. The ToolContext is allocated on its own: the handler
// may keep it. A frame keeps its Decoder across uses (one pool operation per
// call instead of two).
type frame struct {
	// rec is the call's record (opRecord), nil when the call records no event. in is where the call's
	// params are: the record's params slot, which the decoder fills directly (no copy, and the frame's
	// own storage stays zero), or nil for the frame's own storage (fr.p). recR says that the record's
	// value slot holds the boxed value. Each slot is written once, then boxed.
	rec    unsafe.Pointer
	in     unsafe.Pointer
	recR   bool
	recS   bool                // rec is a recordS
	dec    *strictjson.Decoder // nil until the first decode, and after a failed one
	cs     callState
	ops    *ops
	p      any // the params, a *P, allocated with the frame
	r      any // the result value, a *R, allocated with the frame
	io     opIO
	out    [outputBuf]byte // where a short output is rendered (Tool.render)
	misses uint8           // the outputs rendered here that differed from the tool's last one
	clock  time.Time       // the last reading of the system clock (Dispatcher.start)
	// readers counts the AppendResultJSON calls reading the frame now, and result says that the call's
	// result is written (OnResult): see tcstate.go.
	readers atomic.Int32
	result  atomic.Bool
}

// typedOp runs operation k of a tool built from fp, the *Funcs[P, R] NewTool
// was given (ops.funcs), on fr. Optional functions are called only when set
// (the frame methods check ops.has first). It is a plain generic function, not
// a closure, so that a tool costs no closure type, and it does only what needs
// P and R: the Validate and Render methods are reached through the frame's
// boxed *P and *R by non-generic code.
func typedOp[P, R any](fp unsafe.Pointer, k opKind, fr *frame, tc *ToolContext, dst []byte) ([]byte, error) {
	f := (*Funcs[P, R])(fp)
	// Hot cases first; each asserts only the storage it uses.
	switch k {
	case opDecode:
		pp := fr.p.(*P)
		if fr.rec != nil && fr.ops.pAt {
			pp = &(*record[P, R])(fr.rec).p
			fr.in = unsafe.Pointer(pp)
			if fr.recS {
				fr.dec.KeepIn((*recordS[P, R])(fr.rec).s[:])
			}
		}
		f.Decode(fr.dec, pp)
	case opHandle:
		res, err := f.Handler(tc, *paramsOf[P](fr))
		*fr.r.(*R) = res.Value
		h := &fr.io.head // one store per field that is set or was, no copy of a whole resultHead
		if res.Message != "" || h.message != "" {
			h.message = res.Message
		}
		if res.Content != (Blocks{}) || h.content != (Blocks{}) {
			h.content = res.Content
		}
		h.success, h.hasValue, h.excluded = res.Success, res.HasValue, res.ExcludeValueFromContext
		return nil, err
	case opAppendValue:
		return f.EncodeResult(dst, fr.r.(*R)), nil
	case opRelease:
		if fr.in == nil {
			var zp P
			*fr.p.(*P) = zp
		}
		var zr R
		*fr.r.(*R) = zr
	case opParams: // into the call's state directly, not through io.v: each pointer word stored and cleared again costs a write barrier while the collector marks
		if fr.in != nil {
			fr.cs.params = boxAt(fr.ops.pType, fr.in)
			break
		}
		fr.cs.params = *fr.p.(*P)
	case opValue:
		if fr.rec != nil && fr.ops.rAt && !fr.recR {
			rec := (*record[P, R])(fr.rec)
			rec.r, fr.recR = *fr.r.(*R), true
			fr.cs.value = boxAt(fr.ops.rType, unsafe.Pointer(&rec.r))
			break
		}
		fr.cs.value = *fr.r.(*R)
	case opRecord:
		if fr.ops.strs.Load() {
			fr.rec, fr.recS = unsafe.Pointer(new(recordS[P, R])), true
			break
		}
		fr.rec = unsafe.Pointer(new(record[P, R]))
	case opSetParams:
		var v P
		v, fr.io.ok = fr.io.v.(P)
		if fr.io.ok {
			*fr.p.(*P) = v
		}
	case opAppendParams:
		return f.EncodeParams(dst, paramsOf[P](fr)), nil
	case opCustomKey:
		fr.io.s = f.IdempotencyKey(paramsOf[P](fr))
	case opAppendValueJSON:
		switch r := fr.io.v.(type) {
		case R:
			fr.io.ok = true
			return f.EncodeResult(dst, &r), nil
		case *R:
			if r != nil {
				fr.io.ok = true
				return f.EncodeResult(dst, r), nil
			}
		}
	case opNew:
		fr.p, fr.r = new(P), new(R)
	case opInit:
		if f.EncodeParams != nil {
			fr.io.has |= hasEncodeParams
		}
		if f.IdempotencyKey != nil {
			fr.io.has |= hasCustomKey
		}
		if f.Decode != nil && f.EncodeResult != nil && f.Handler != nil {
			fr.io.has |= hasRequired
		}
		var zp P
		var zr R
		fr.io.types[0], fr.io.at[0] = boxType(zp, unsafe.Sizeof(zp))
		fr.io.types[1], fr.io.at[1] = boxType(zr, unsafe.Sizeof(zr))
	}
	return dst, nil
}

// paramsOf returns where fr's params are: the record's slot or the frame's own storage.
func paramsOf[P any](fr *frame) *P {
	if fr.in != nil {
		return (*P)(fr.in)
	}
	return fr.p.(*P)
}

// record is one call's event with the storage its boxed params and value point into: one allocation
// where there would be three. A record is never reused (the event may be kept), and a slot is written
// once, before it is boxed, so the boxes are as immutable as any.
type record[P, R any] struct {
	ev ToolInvoked
	p  P
	r  R
}

// recordS is a record with room for the params' strings: the decoder copies them into s (strictjson's
// KeepIn), so a call whose strings fit costs no allocation for them. A tool's records take this form
// once one of its calls has decoded a string (ops.strs). s is written by that decode only; its strings
// then keep the whole record, which the event keeps anyway.
type recordS[P, R any] struct {
	record[P, R]
	s [recordStrs]byte
}

// recordStrs is the room recordS keeps for strings: a query, a path and a few names fit; the rest of a
// call's strings go to blocks the decoder allocates, as without it.
const recordStrs = 56

// eface is the layout of an empty interface.
type eface struct{ typ, data unsafe.Pointer }

// boxType returns the type word of v, a boxed zero value of a type of the given size, and whether a box
// of that type may point to a value stored elsewhere: its values are stored indirectly (a zero value's
// data word is then never nil; a pointer-shaped type's is) and it is not zero-sized.
func boxType(v any, size uintptr) (typ unsafe.Pointer, at bool) {
	e := (*eface)(unsafe.Pointer(&v))
	return e.typ, e.data != nil && size > 0
}

// boxAt returns the interface value of type typ (a boxType type word) whose value is the one at p, without
// copying it.
func boxAt(typ, p unsafe.Pointer) (v any) {
	e := (*eface)(unsafe.Pointer(&v))
	e.typ, e.data = typ, p
	return v
}

// record allocates the call's record and returns its event (zero), to be filled at the end of the call.
func (fr *frame) record() *ToolInvoked {
	fr.run(opRecord)
	return (*ToolInvoked)(fr.rec) // the event is the record's first field
}

// getFrame returns a zero call frame from the tool's pool.
func (o *ops) getFrame() *frame {
	if fr, _ := o.frames.Get().(*frame); fr != nil {
		return fr
	}
	fr := &frame{ops: o}
	fr.run(opNew)
	return fr
}

// The frame's typed operations. Each sets its operands in fr.io, runs, and
// reads the results; release clears fr.io (one bulk zeroing rather than one
// per operation), so a pooled frame keeps no reference to a call's values.

// run runs operation k on fr with the operands in fr.io.
func (fr *frame) run(k opKind) { fr.ops.op(fr.ops.funcs, k, fr, nil, nil) }

// release zeroes the frame's typed storage and operands and returns it to its
// pool.
func (fr *frame) release() {
	fr.run(opRelease)
	fr.io.clear()
	if fr.rec != nil {
		fr.rec, fr.in, fr.recR, fr.recS = nil, nil, false, false
	}
	fr.ops.frames.Put(fr)
}

// clear zeroes io, storing only into the fields an operation set: a store of a zero pointer costs a
// write barrier while the collector marks, and a call sets few of them.
func (io *opIO) clear() {
	if io.types[0] != nil || io.types[1] != nil { // not io.types != [2]unsafe.Pointer{}: that calls memequal
		io.types = [2]unsafe.Pointer{}
	}
	if io.v != nil {
		io.v = nil
	}
	if io.s != "" {
		io.s = ""
	}
	if io.err != nil {
		io.err = nil
	}
	if io.head.message != "" {
		io.head.message = ""
	}
	if io.head.content != (Blocks{}) {
		io.head.content = Blocks{}
	}
	io.head.success, io.head.hasValue, io.head.excluded = false, false, false
	io.at, io.ok, io.has = [2]bool{}, false, 0
}

// decode decodes into the params with fr.dec.
func (fr *frame) decode() { fr.run(opDecode) }

func (fr *frame) validate() error {
	if fr.ops.has&hasValidate == 0 {
		return nil
	}
	v := fr.p // a *P; its data word moves to the record's slot when the params are there
	if fr.in != nil {
		(*eface)(unsafe.Pointer(&v)).data = fr.in
	}
	return v.(validator).Validate()
}

// boxParams sets the call's params (cs.params), boxed.
func (fr *frame) boxParams() { fr.run(opParams) }

// params returns the params, boxed, leaving the call's state without them.
func (fr *frame) params() any {
	fr.run(opParams)
	p := fr.cs.params
	fr.cs.params = nil
	return p
}

// setParams stores params, a boxed P; false when it is not a P.
func (fr *frame) setParams(params any) bool {
	fr.io.v = params
	fr.run(opSetParams)
	return fr.io.ok
}

func (fr *frame) handle(tc *ToolContext) (resultHead, error) {
	_, err := fr.ops.op(fr.ops.funcs, opHandle, fr, tc, nil)
	return fr.io.head, err
}

func (fr *frame) validateResult() error {
	if fr.ops.has&hasValidateResult == 0 {
		return nil
	}
	return fr.r.(validator).Validate()
}

// appendValue appends the result value's JSON encoding to dst.
func (fr *frame) appendValue(dst []byte) []byte {
	dst, _ = fr.ops.op(fr.ops.funcs, opAppendValue, fr, nil, dst)
	return dst
}

// render renders the result value with its Render method; ok is false when the
// tool has none.
func (fr *frame) render() (s string, ok bool) {
	if fr.ops.has&hasRender == 0 {
		return "", false
	}
	return fr.r.(renderer).Render(), true
}

// boxValue sets the call's result value (cs.value), boxed.
func (fr *frame) boxValue() { fr.run(opValue) }

// value returns the result value, boxed, leaving the call's state (cs.value) as it was.
func (fr *frame) value() any {
	keep := fr.cs.value
	fr.run(opValue)
	v := fr.cs.value
	fr.cs.value = keep
	return v
}

// appendParams appends the params' canonical JSON to dst; ok is false when
// the tool has no params encoder.
func (fr *frame) appendParams(dst []byte) ([]byte, bool) {
	if fr.ops.has&hasEncodeParams == 0 {
		return dst, false
	}
	dst, _ = fr.ops.op(fr.ops.funcs, opAppendParams, fr, nil, dst)
	return dst, true
}

// customKey is Funcs.IdempotencyKey of the params; ok is false when the tool
// has none.
func (fr *frame) customKey() (string, bool) {
	if fr.ops.has&hasCustomKey == 0 {
		return "", false
	}
	fr.run(opCustomKey)
	return fr.io.s, true
}

// FuncsOf returns the typed functions t was built with, and false when P and
// R are not t's params and result types. Tests use it to run a generated
// decoder or encoder on its own.
func FuncsOf[P, R any](t *Tool) (Funcs[P, R], bool) {
	// The frame's storage tells t's types: funcs is a *Funcs[P, R] exactly when it holds a *P and a *R.
	fr := t.impl.getFrame()
	_, okP := fr.p.(*P)
	_, okR := fr.r.(*R)
	fr.release()
	if !okP || !okR {
		return Funcs[P, R]{}, false
	}
	return *(*Funcs[P, R])(t.impl.funcs), true
}

// decodeAny decodes args into a boxed P (Tool.Decode).
func (o *ops) decodeAny(args []byte, lim strictjson.Limits) (any, error) {
	fr := o.getFrame()
	aerr := o.tool.decode(fr, args, lim)
	var p any
	if aerr == nil {
		p = fr.params()
	}
	fr.release()
	if aerr != nil {
		return nil, aerr
	}
	return p, nil
}

// encodeParams appends the canonical JSON of params, a boxed P.
func (o *ops) encodeParams(dst []byte, params any) ([]byte, bool) {
	if o.has&hasEncodeParams == 0 {
		return dst, false
	}
	fr := o.getFrame()
	defer fr.release()
	if !fr.setParams(params) {
		return dst, false
	}
	return fr.appendParams(dst)
}

// appendValueJSON appends the encoding of v, an R or a non-nil *R
// (Tool.AppendValueJSON).
func (o *ops) appendValueJSON(dst []byte, v any) ([]byte, bool) {
	fr := o.getFrame()
	fr.io.v, fr.io.ok = v, false
	out, _ := o.op(o.funcs, opAppendValueJSON, fr, nil, dst)
	ok := fr.io.ok
	fr.release()
	if !ok {
		return dst, false
	}
	return out, true
}

// idemKeyAny is the ledger key of a call with params, a boxed P.
func (o *ops) idemKeyAny(disp *Dispatcher, params any) string {
	if o.tool.spec.Idempotency.Strategy == IdemNone {
		return ""
	}
	fr := o.getFrame()
	defer fr.release()
	if !fr.setParams(params) {
		return ""
	}
	return o.tool.idemKey(disp, fr)
}
