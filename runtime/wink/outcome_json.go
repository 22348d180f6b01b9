package wink

// AppendValueJSON appends to dst the JSON encoding of v, a result value of
// the tool (an R, as ToolInvoked.Value carries it, or a non-nil *R), written
// by the tool's generated encoder: the same bytes the model sees after the
// message when the type has no Render method. It reports false, and returns
// dst unchanged, when v is not of the tool's result type. Adapters use it for
// structured results (MCP structuredContent).
func (t *Tool) AppendValueJSON(dst []byte, v any) ([]byte, bool) {
	if t.impl == nil {
		return dst, false
	}
	return t.impl.appendValueJSON(dst, v)
}
