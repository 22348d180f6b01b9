package wink

import "github.com/winkgen/wink/runtime/strictjson"

// The typed part of a tool. The call pipeline (dispatch.go) is non-generic: it
// runs once for every tool, as methods of the canonical *Tool. What must know
// the params type P and the result type R (decoding into a P, calling the
// handler, encoding an R, boxing them for policies and events) is a table of
// small closures (ops) that NewDef builds over the Def's Funcs, reached from
// the Tool and from each call's frame. The compiler stamps generic code out
// once per GC shape, and every params struct is a shape of its own, so the
// per-tool part is kept to those closures: they add machine code but no
// generic types with methods, whose type descriptors and method tables were
// most of what a generic pipeline cost per tool (README, "Generated code at
// scale").

// ops are one Def's typed operations. data is the call's typed storage, a
// *callData[P, R].
type ops struct {
	tool     *Tool         // the canonical descriptor (an overridden copy shares its ops)
	getFrame func() *frame // a zero call frame from the Def's pool

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

// frame is the per-call state. Frames are pooled per Def, so the pointers the
// pipeline passes to the typed functions (params, result, outcome) are valid
// only during the call. The ToolContext is allocated on its own: the handler
// may keep it. A frame keeps its Decoder across uses (one pool operation per
// call instead of two).
type frame struct {
	dec  *strictjson.Decoder // nil until the first decode, and after a failed one
	cs   callState
	ops  *ops
	data any // the typed storage, a *callData[P, R], allocated with the frame
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

// newOps builds d's typed operations.
func newOps[P, R any](d *Def[P, R]) *ops {
	// The closures capture the Funcs and the pool, not d: a closure holding a *Def[P, R] would need its type
	// descriptor, method table included, in every package with tools.
	f := &d.f
	pool := &d.frames
	o := &ops{tool: &d.tool}
	o.getFrame = func() *frame {
		if fr, _ := pool.Get().(*frame); fr != nil {
			return fr
		}
		return &frame{ops: o, data: new(callData[P, R])}
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
