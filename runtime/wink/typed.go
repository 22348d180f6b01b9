package wink

import (
	"sync"

	"github.com/winkgen/wink/runtime/strictjson"
)

// The typed part of a tool. The call pipeline (dispatch.go) is non-generic: it
// runs once for every tool, as methods of the canonical *Tool. What must know
// the params type P and the result type R (decoding into a P, calling the
// handler, encoding an R, boxing them for policies and events) is a table of
// small closures (ops) that NewTool builds over the tool's Funcs, reached from
// the Tool and from each call's frame. The compiler stamps generic code out
// once per GC shape, and every params struct is a shape of its own, so the
// per-tool part is kept to those closures and to generic types without
// methods (Funcs, ToolResult, callData): every method of a generic type is
// instantiated, with its function types, for every type argument, which is
// what a typed Def[P, R] with four methods and a ToolResult[R] with one cost
// per tool (README, "Generated code at scale").

// ops are one tool's typed operations. data is the call's typed storage, a
// *callData[P, R].
type ops struct {
	tool     *Tool         // the canonical descriptor (an overridden copy shares its ops)
	getFrame func() *frame // a zero call frame from frames
	frames   sync.Pool     // of *frame
	funcs    any           // the *Funcs[P, R] the tool was built with (FuncsOf)

	decode         func(data any, dec *strictjson.Decoder)             // Funcs.Decode into the params
	validate       func(data any) error                                // Funcs.Validate; nil when unset
	params         func(data any) any                                  // the params, boxed
	handle         func(data any, tc *ToolContext) (resultHead, error) // the handler; keeps its result value
	validateResult func(data any) error                                // Funcs.ValidateResult on the value; nil when unset
	appendValue    func(data any, dst []byte) []byte                   // Funcs.EncodeResult of the value
	render         func(data any) string                               // Funcs.Render of the value; nil when unset
	value          func(data any) any                                  // the result value, boxed
	appendParams   func(data any, dst []byte) []byte                   // Funcs.EncodeParams; nil when unset
	customKey      func(data any) string                               // Funcs.IdempotencyKey; nil when unset
	release        func(fr *frame)                                     // zero the frame and return it to its pool
	setParams      func(data any, params any) bool                     // store a boxed P; false when params is not a P

	appendValueJSON func(dst []byte, v any) ([]byte, bool) // Tool.AppendValueJSON
}

// resultHead is the untyped part of a handler's ToolResult.
type resultHead struct {
	message                     string
	success, hasValue, excluded bool
}

// frame is the per-call state. Frames are pooled per tool, so the pointers the
// pipeline passes to the typed functions (params, result, outcome) are valid
// only during the call. The ToolContext is allocated on its own: the handler
// may keep it. A frame keeps its Decoder across uses (one pool operation per
// call instead of two).
type frame struct {
	dec  *strictjson.Decoder // nil until the first decode, and after a failed one
	cs   callState
	ops  *ops
	data any // the typed storage, a *callData[P, R], allocated with the frame
	p    any // the params in data, a *P (DecodeParams reads it knowing P alone)
}

// callData is a call's typed storage.
type callData[P, R any] struct {
	p P
	r R
}

// The frame's typed operations.
func (fr *frame) decode(dec *strictjson.Decoder) { fr.ops.decode(fr.data, dec) }
func (fr *frame) params() any                    { return fr.ops.params(fr.data) }
func (fr *frame) value() any                     { return fr.ops.value(fr.data) }
func (fr *frame) release()                       { fr.ops.release(fr) }
func (fr *frame) handle(tc *ToolContext) (resultHead, error) {
	return fr.ops.handle(fr.data, tc)
}

func (fr *frame) validate() error {
	if fr.ops.validate == nil {
		return nil
	}
	return fr.ops.validate(fr.data)
}

func (fr *frame) validateResult() error {
	if fr.ops.validateResult == nil {
		return nil
	}
	return fr.ops.validateResult(fr.data)
}

// newOps builds t's typed operations over f.
func newOps[P, R any](t *Tool, f *Funcs[P, R]) *ops {
	o := &ops{tool: t, funcs: f}
	pool := &o.frames
	o.getFrame = func() *frame {
		if fr, _ := pool.Get().(*frame); fr != nil {
			return fr
		}
		cd := new(callData[P, R])
		return &frame{ops: o, data: cd, p: &cd.p}
	}
	o.release = func(fr *frame) {
		*fr.data.(*callData[P, R]) = callData[P, R]{}
		pool.Put(fr)
	}
	o.decode = func(data any, dec *strictjson.Decoder) { f.Decode(dec, &data.(*callData[P, R]).p) }
	if f.Validate != nil {
		o.validate = func(data any) error { return f.Validate(&data.(*callData[P, R]).p) }
	}
	o.params = func(data any) any { return data.(*callData[P, R]).p }
	o.setParams = func(data any, params any) bool {
		p, ok := params.(P)
		if ok {
			data.(*callData[P, R]).p = p
		}
		return ok
	}
	o.handle = func(data any, tc *ToolContext) (resultHead, error) {
		cd := data.(*callData[P, R])
		res, err := f.Handler(tc, cd.p)
		cd.r = res.Value
		return resultHead{message: res.Message, success: res.Success, hasValue: res.HasValue, excluded: res.ExcludeValueFromContext}, err
	}
	if f.ValidateResult != nil {
		o.validateResult = func(data any) error { return f.ValidateResult(&data.(*callData[P, R]).r) }
	}
	o.appendValue = func(data any, dst []byte) []byte { return f.EncodeResult(dst, &data.(*callData[P, R]).r) }
	if f.Render != nil {
		o.render = func(data any) string { return f.Render(&data.(*callData[P, R]).r) }
	}
	o.value = func(data any) any { return data.(*callData[P, R]).r }
	if f.EncodeParams != nil {
		o.appendParams = func(data any, dst []byte) []byte { return f.EncodeParams(dst, &data.(*callData[P, R]).p) }
	}
	if f.IdempotencyKey != nil {
		o.customKey = func(data any) string { return f.IdempotencyKey(&data.(*callData[P, R]).p) }
	}
	o.appendValueJSON = func(dst []byte, v any) ([]byte, bool) {
		switch r := v.(type) {
		case R:
			return f.EncodeResult(dst, &r), true
		case *R:
			if r != nil {
				return f.EncodeResult(dst, r), true
			}
		}
		return dst, false
	}
	return o
}

// FuncsOf returns the typed functions t was built with, and false when P and
// R are not t's params and result types. Tests use it to run a generated
// decoder or encoder on its own.
func FuncsOf[P, R any](t *Tool) (Funcs[P, R], bool) {
	f, ok := t.impl.funcs.(*Funcs[P, R])
	if !ok {
		return Funcs[P, R]{}, false
	}
	return *f, true
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
	if o.appendParams == nil {
		return dst, false
	}
	fr := o.getFrame()
	defer fr.release()
	if !o.setParams(fr.data, params) {
		return dst, false
	}
	return o.appendParams(fr.data, dst), true
}

// idemKeyAny is the ledger key of a call with params, a boxed P.
func (o *ops) idemKeyAny(disp *Dispatcher, params any) string {
	if o.tool.spec.Idempotency.Strategy == IdemNone {
		return ""
	}
	fr := o.getFrame()
	defer fr.release()
	if !o.setParams(fr.data, params) {
		return ""
	}
	return o.tool.idemKey(disp, fr)
}
