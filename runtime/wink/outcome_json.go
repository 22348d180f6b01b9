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

// ValueIsOutput reports whether a successful call's output text is its
// result value's JSON encoding (AppendValueJSON), after the message and a
// blank line when there is a message: the tool returns a value (not NoValue)
// that has no Render method. A provider that tells the model a tool's output
// schema (OpenAI's output_schema) sends it only for such tools.
func (t *Tool) ValueIsOutput() bool {
	return t.impl != nil && !t.noValue && t.impl.has&hasRender == 0
}
