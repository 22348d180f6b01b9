// Package openai adapts a winkgen registry to the OpenAI APIs: chat completions and the Responses API.
// It writes the `tools` payloads, reads the model's tool calls into [wink.Call] values for the dispatcher,
// and writes the dispatcher's [wink.Outcome] values back as tool messages / function_call_output items.
//
// # What goes over the wire
//
// Chat completions ([ChatTools], [ParseChatToolCalls] / [ParseChatCompletion], [ChatToolMessage]):
//
//	tools:        [{"type":"function","function":{"name":N,"description":D,"parameters":S,"strict":B}}, ...]
//	tool calls:   message.tool_calls[i] = {"id":ID,"type":"function","function":{"name":N,"arguments":"<JSON text>"}}
//	tool result:  {"role":"tool","tool_call_id":ID,"content":OUTPUT}
//
// Responses API (ResponsesTools, ParseResponsesToolCalls, ResponsesToolOutput):
//
//	tools:        [{"type":"function","name":N,"description":D,"parameters":S,"strict":B}, ...]
//	tool calls:   output[i] = {"type":"function_call","id":"fc_...","call_id":ID,"name":N,"arguments":"<JSON text>"}
//	tool result:  {"type":"function_call_output","call_id":ID,"output":OUTPUT}
//
// OUTPUT is wink.Outcome.Output, the text the dispatcher rendered for the model. Neither API has an
// error flag on tool results, so a failure is sent as its text, which already says what went wrong and
// how to fix it.
//
// # Strict mode and its fallback
//
// Every tool is sent with the strict form StrictSchema derives from its plain Spec.ParamsSchema (once per
// tool, cached) and "strict":true, so the model's arguments are constrained to the schema the generated
// decoder enforces: maps are stated as key/value pairs and free-form JSON as a string of JSON text, and
// the calls the parsers return say so (wink.Call.PairMaps), so that the decoder reads those forms. A
// strict form that nests deeper than MaxNesting (as OpenAI's own validator counts; winkgen diagnoses such
// a tool at generation time, so only a hand-built one gets here) is sent with "strict":false, and a
// hand-built schema the derivation cannot take (its root is not an object with properties) goes plain with
// "strict":false; either is always written out rather than omitted, and the strict decoder alone guards
// the arguments. Schema reports the choice.
//
// # Arguments
//
// `arguments` is a JSON string whose content is the arguments text: Call.Arguments is its unescaped
// content, byte for byte (whitespace, key order and escapes inside the text are kept). An empty string,
// null or a missing member give empty Arguments; the dispatcher decides (they mean {}: a tool with no
// required field accepts them, any other names its missing fields to the model). Arguments that are an object instead of a
// string, as some OpenAI-compatible servers send, are passed through verbatim. Malformed argument text
// is not an adapter error either: it reaches the dispatcher, which answers the model with the syntax
// error, so one bad call never aborts a turn.
//
// # Decisions where the contract was silent
//
//   - Payloads are written by hand with strictjson.AppendString (no reflection, no HTML escaping, a
//     fixed key order), and the generated schema bytes are appended verbatim, never decoded or
//     re-marshaled: what the model is shown is exactly what winkgen emitted. Provider responses are read
//     with encoding/json (off the dispatch path: a response is read once per model turn), so its
//     semantics and error texts hold: unknown keys skipped, keys matched case-insensitively, null leaves
//     a field, a repeated key decodes again, the first type error ("json: cannot unmarshal ...") or
//     syntax error ("invalid character ...") reported. One addition: invalid UTF-8 and lone surrogate
//     escapes in a response are an error (the strict decoder's text) instead of U+FFFD. testdata/
//     parse.golden pins what the readers return for malformed responses.
//   - A tools list with nil tools, duplicate names or a schema that is not a JSON object is an error
//     (all problems joined): the API would reject the request. An empty list gives `[]`; callers should
//     leave `tools` out then, since the API rejects an empty array.
//   - A chat tool call of a type other than "function" (custom tools) or without `function` is an error:
//     it cannot be dispatched, and answering it as a function would be wrong. An absent type is taken as
//     "function". Responses items other than function_call (messages, reasoning, built-in tools) are
//     skipped.
//   - Call ids and names are passed through as received, even empty: the dispatcher answers an unknown
//     name with the list of available tools, and the id is echoed back.
//   - ParseChatCompletion reads the first choice; with n > 1, parse each choice with
//     ParseChatToolCalls. An `error` body is returned as an error.
//   - The deprecated `function_call` (functions API) is not read.
//   - Tool names: winkgen names (^[a-z0-9_-]{1,64}$) are a subset of what OpenAI accepts, so every
//     registry is sendable; a call naming a tool the registry lacks (say camelCase from another client's
//     history) is answered by the dispatcher as an unknown tool.
//
// # Tool search, output schemas and programs (Responses API)
//
// ResponsesToolsWith writes what ResponsesOptions asks for besides each function: "defer_loading":true
// on deferred tools (//wink:tool defer), "allowed_callers" from the declaration ("direct", and
// "programmatic" for a tool programs may call: by default read-only or idempotent tools not declared
// destructive; a tool only programs may call, //wink:tool callers=program, is sent only with Programs,
// with "programmatic" alone, and never by ChatTools or ResponsesTools), "output_schema" from the
// generated result schema for a tool whose output is its value's JSON (HasOutputSchema; its calls are
// answered with SchemaOutput, the JSON alone), and the tools {"type":"tool_search"}
// (hosted, or "execution":"client" with toolsearch's description and parameters) and
// {"type":"programmatic_tool_calling"}. A client search call is replayed by ToolSearchCall and answered
// by ToolSearchOutput, a tool_search_output item carrying the found functions' definitions. Field names
// and shapes are those of the official SDK's types (github.com/openai/openai-go/v3 v3.96.0, package
// responses: FunctionToolParam.DeferLoading, AllowedCallers, OutputSchema; ToolSearchToolParam;
// ResponseToolSearchCall, ResponseToolSearchOutputItem; ResponseInputItemProgram.Fingerprint;
// ResponseFunctionToolCallCallerProgram); the tests read our payloads with those types.
package openai
