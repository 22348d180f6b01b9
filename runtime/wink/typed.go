package wink

import "github.com/winkgen/wink/runtime/strictjson"

// The typed part of a tool. The call pipeline (dispatch.go) is non-generic: it
// runs once for every tool, as methods of the canonical *Tool. What must know
// the params type P and the result type R (decoding into a P, calling the
// handler, encoding an R, boxing them for policies and events) is a handful of
// small methods of typedFrame[P, R], reached through the typedCall interface.
// The compiler stamps generic code out once per GC shape, and every params
// struct is a shape of its own, so this split keeps the per-tool machine code
// to those few methods: a package of hundreds of tools compiles to a fraction
// of what a generic pipeline cost (README, "Generated code at scale").

// invoker is implemented by *Def[P, R]: the non-generic Tool reaches the
// typed part through it.
type invoker interface {
	canonical() *Tool // the canonical descriptor (an overridden copy shares its impl)
	getFrame() *frame // a zero call frame from the Def's pool
	decodeAny(args []byte, lim strictjson.Limits) (any, error)
	encodeParams(dst []byte, params any) ([]byte, bool)
	idemKeyAny(disp *Dispatcher, params any) string
	appendValueJSON(dst []byte, v any) ([]byte, bool)
}

// typedCall is the typed part of one call: its params and result, and the
// tool's typed functions applied to them. Implemented by *typedFrame[P, R].
type typedCall interface {
	decode(dec *strictjson.Decoder)             // Funcs.Decode into the params
	validate() error                            // Funcs.Validate, nil when unset
	params() any                                // the params, boxed
	handle(tc *ToolContext) (resultHead, error) // the handler; keeps its result
	validateResult() error                      // Funcs.ValidateResult on the value, nil when unset
	appendValue(dst []byte) []byte              // Funcs.EncodeResult of the value
	renderText() (string, bool)                 // Funcs.Render of the value; false when unset
	value() any                                 // the result value, boxed
	appendParams(dst []byte) ([]byte, bool)     // Funcs.EncodeParams; false when unset
	customKey() string                          // Funcs.IdempotencyKey; "" when unset
	release()                                   // zero the frame and return it to its pool
}

// resultHead is the untyped part of a handler's ToolResult.
type resultHead struct {
	message                     string
	success, hasValue, excluded bool
}

// frame is the non-generic per-call state, embedded in a typedFrame. Frames
// are pooled per Def, so the pointers the pipeline passes to the typed
// functions (params, result, outcome) are valid only during the call. The
// ToolContext is allocated on its own: the handler may keep it. A frame keeps
// its Decoder across uses (one pool operation per call instead of two).
type frame struct {
	dec   *strictjson.Decoder // nil until the first decode, and after a failed one
	cs    callState
	typed typedCall // the typedFrame this frame is embedded in
}

// typedFrame is a pooled call frame with the typed params and result.
type typedFrame[P, R any] struct {
	frame
	d   *Def[P, R]
	p   P
	res ToolResult[R]
}

// typedFrame returns a zero frame from the pool.
func (d *Def[P, R]) typedFrame() *typedFrame[P, R] {
	if tf, _ := d.frames.Get().(*typedFrame[P, R]); tf != nil {
		return tf
	}
	tf := &typedFrame[P, R]{d: d}
	tf.typed = tf
	return tf
}

func (d *Def[P, R]) canonical() *Tool { return &d.tool }
func (d *Def[P, R]) getFrame() *frame { return &d.typedFrame().frame }

// decodeAny implements invoker.
func (d *Def[P, R]) decodeAny(args []byte, lim strictjson.Limits) (any, error) {
	p, err := d.DecodeWith(args, lim)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// encodeParams implements invoker.
func (d *Def[P, R]) encodeParams(dst []byte, params any) ([]byte, bool) {
	p, ok := params.(P)
	if !ok || d.f.EncodeParams == nil {
		return dst, false
	}
	return d.f.EncodeParams(dst, &p), true
}

// idemKeyAny implements invoker.
func (d *Def[P, R]) idemKeyAny(disp *Dispatcher, params any) string {
	p, ok := params.(P)
	if !ok || d.tool.spec.Idempotency.Strategy == IdemNone {
		return ""
	}
	tf := d.typedFrame()
	tf.p = p
	key := d.tool.idemKey(disp, tf)
	tf.release()
	return key
}

// appendValueJSON encodes v, an R or a non-nil *R, with the generated
// encoder.
func (d *Def[P, R]) appendValueJSON(dst []byte, v any) ([]byte, bool) {
	switch r := v.(type) {
	case R:
		return d.f.EncodeResult(dst, &r), true
	case *R:
		if r != nil {
			return d.f.EncodeResult(dst, r), true
		}
	}
	return dst, false
}

func (tf *typedFrame[P, R]) decode(dec *strictjson.Decoder) { tf.d.f.Decode(dec, &tf.p) }

func (tf *typedFrame[P, R]) validate() error {
	if tf.d.f.Validate == nil {
		return nil
	}
	return tf.d.f.Validate(&tf.p)
}

func (tf *typedFrame[P, R]) params() any { return tf.p }

func (tf *typedFrame[P, R]) handle(tc *ToolContext) (resultHead, error) {
	res, err := tf.d.f.Handler(tc, tf.p)
	tf.res = res
	return resultHead{message: res.Message, success: res.Success, hasValue: res.HasValue, excluded: res.ExcludeValueFromContext}, err
}

func (tf *typedFrame[P, R]) validateResult() error {
	if tf.d.f.ValidateResult == nil {
		return nil
	}
	return tf.d.f.ValidateResult(&tf.res.Value)
}

func (tf *typedFrame[P, R]) appendValue(dst []byte) []byte {
	return tf.d.f.EncodeResult(dst, &tf.res.Value)
}

func (tf *typedFrame[P, R]) renderText() (string, bool) {
	if tf.d.f.Render == nil {
		return "", false
	}
	return tf.d.f.Render(&tf.res.Value), true
}

func (tf *typedFrame[P, R]) value() any { return tf.res.Value }

func (tf *typedFrame[P, R]) appendParams(dst []byte) ([]byte, bool) {
	if tf.d.f.EncodeParams == nil {
		return dst, false
	}
	return tf.d.f.EncodeParams(dst, &tf.p), true
}

func (tf *typedFrame[P, R]) customKey() string {
	if tf.d.f.IdempotencyKey == nil {
		return ""
	}
	return tf.d.f.IdempotencyKey(&tf.p)
}

func (tf *typedFrame[P, R]) release() {
	var zp P
	tf.p = zp
	var zr ToolResult[R]
	tf.res = zr
	tf.d.frames.Put(tf)
}
