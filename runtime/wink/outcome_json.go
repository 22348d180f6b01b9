package wink

// valueEncoder is implemented by *Def[P, R]: it encodes a boxed R with the
// generated encoder.
type valueEncoder interface {
	appendValueJSON(dst []byte, v any) ([]byte, bool)
}

// AppendValueJSON appends to dst the JSON encoding of v, a result value of
// the tool (an R, as ToolInvoked.Value carries it, or a non-nil *R), written
// by the tool's generated encoder: the same bytes the model sees after the
// message when the type has no Render method. It reports false, and returns
// dst unchanged, when v is not of the tool's result type. Adapters use it for
// structured results (MCP structuredContent).
func (t *Tool) AppendValueJSON(dst []byte, v any) ([]byte, bool) {
	enc, ok := t.impl.(valueEncoder)
	if !ok {
		return dst, false
	}
	return enc.appendValueJSON(dst, v)
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
