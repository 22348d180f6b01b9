// Package anthropic adapts a winkgen registry to the Anthropic Messages API: it writes the `tools`
// payload ([Tools], [StrictTools]), reads `tool_use` content blocks into [wink.Call] values for the
// dispatcher ([ParseToolUses]), and writes the dispatcher's [wink.Outcome] values back as `tool_result`
// blocks ([ToolResult], [ToolResults]).
//
// # What goes over the wire
//
//	tools:        [{"name":N,"description":D,"input_schema":S}, ...]
//	tool calls:   content[i] = {"type":"tool_use","id":ID,"name":N,"input":{...}}
//	tool result:  {"type":"tool_result","tool_use_id":ID,"content":OUTPUT}                  (success)
//	              {"type":"tool_result","tool_use_id":ID,"content":OUTPUT,"is_error":true}  (failure)
//
// S is, with [Tools], the tool's plain ParamsSchema, appended byte for byte (the generated decoder enforces
// it); with [StrictTools], the strict form [StrictSchema] derives from it once per tool, sent with
// "strict":true where the params allow one (no map, no free-form JSON, no recursion) and the request stays
// within Anthropic's limits on strict tools. OUTPUT is wink.Outcome.Output, the text the dispatcher rendered
// for the model, sent as a string; is_error is written only for failures (Outcome.Success false), so the
// model sees both the flag and the text that says how to fix the call. ToolResults builds the content
// array of the user message that answers a whole turn, in the calls' order.
//
// # Arguments
//
// `input` arrives as a JSON object, not a string: Call.Arguments is its raw bytes exactly as they appear
// in the response (whitespace, key order, escapes), never decoded and re-encoded, so the strict decoder
// judges what the model really produced. A tool_use without `input` gives empty Arguments, and an input
// that is not an object is passed through as well: the dispatcher decides, and answers the model.
//
// # Decisions where the contract was silent
//
//   - Payloads are written by hand with strictjson.AppendString (no reflection, no HTML escaping, fixed
//     key order); responses are read with encoding/json, with its semantics and error texts (see package
//     openai). The input is taken as a json.RawMessage (byte for byte) into Call.Arguments. Invalid
//     UTF-8 or a lone surrogate escape anywhere in the response is an error instead of U+FFFD.
//   - A tools list with nil tools, duplicate names or a schema that is not a JSON object is an error
//     (all problems joined): the API would reject the request.
//   - Blocks other than tool_use (text, thinking, server_tool_use and the server tools' results) are
//     skipped: server tools run at Anthropic, not in the registry.
//   - An empty output leaves `content` out of the tool_result (it is optional; an empty string adds
//     nothing).
//   - ParseToolUses accepts the message object or its content array; an error body
//     (`{"type":"error","error":{...}}`) is returned as an error.
//   - Tool names: winkgen names (^[a-z0-9_-]{1,64}$) are a subset of what Anthropic accepts; a call
//     naming a tool the registry lacks is answered by the dispatcher as an unknown tool.
//
// # Tool search, examples and programs (ToolsWith, ToolReferences)
//
// ToolsWith writes what Options asks for besides each tool: "defer_loading":true on deferred tools
// (//wink:tool defer), "input_examples" from the validated examples (//wink:example, canonical inputs),
// "allowed_callers" from the declaration ("direct", and CodeExecutionType for a tool programs may call:
// by default read-only or idempotent tools not declared destructive), and the server tools: the client
// tool search as a custom tool named toolsearch.Name, Anthropic's tool_search_tool_bm25_20251119 or
// tool_search_tool_regex_20251119, the code_execution_20250825 tool. A client search is answered by
// ToolReferences, a tool_result of {"type":"tool_reference","tool_name":N} blocks. Field names and
// shapes are those of the official SDK's types (github.com/anthropics/anthropic-sdk-go v1.84.0:
// ToolParam.DeferLoading, AllowedCallers, InputExamples; ToolReferenceBlockParam; ServerToolCaller;
// MessageNewParams.Container) and of the tool reference page of the Messages API's documentation
// (platform.claude.com/docs/en/agents-and-tools/tool-use/tool-reference); the tests read our payloads
// with those types.
package anthropic
