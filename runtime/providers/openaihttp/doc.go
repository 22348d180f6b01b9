// Package openaihttp is a loop.Provider for any server speaking the OpenAI chat completions API
// (POST {base}/chat/completions with function tools): OpenAI itself, and the many compatible servers
// (vLLM, Ollama, llama.cpp, LiteLLM, gateways). It needs no SDK: the tools payload and tool messages come
// from runtime/adapters/openai, the tool calls are read by that adapter too, and the rest of the request
// and response is written and read by hand.
//
//	p, err := openaihttp.New(openaihttp.Config{}) // OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY
//	res, err := loop.Run(ctx, loop.Config{Provider: p, Dispatcher: d}, msgs)
//
// # Decisions where the design was silent
//
//   - Configuration: fields set in Config win; empty ones come from OPENAI_BASE_URL, OPENAI_MODEL and
//     OPENAI_API_KEY; the base URL defaults to https://api.openai.com/v1, the model has no default (a
//     silent default model is a billing surprise). No key means no Authorization header (local servers).
//   - The request carries only model, messages, tools (left out when empty: the API rejects []), an
//     optional temperature and, with Config.Stream, "stream":true with usage; one choice. Tools use strict
//     mode where the schema allows (openai.ChatTools).
//   - Streaming (Config.Stream): the text, the tool calls (by index: id and name from their first
//     fragment, arguments concatenated) and the usage chunk are assembled; a stream cut before its
//     finish_reason gives Stop "incomplete" and the arguments received so far, which the dispatcher's
//     decoder refuses with a message the model can act on.
//   - Tool call arguments are sent back in the history exactly as the model wrote them (raw text in a JSON
//     string), even when they were invalid: the model sees its own mistake next to the error text.
//   - An assistant message with tool calls and no text is sent with "content":null, as OpenAI does.
//   - The response is read without reflection (strictjson.Decoder skipping what is not needed): the first
//     choice's content (a string, or an array of text parts as some servers send), finish_reason, and
//     usage prompt_tokens / completion_tokens (absent usage counts as zero). The tool calls are read by
//     openai.ParseChatCompletion, so a custom (non-function) tool call is an error.
//   - A non-2xx status is a *StatusError with the API's error.message (or the start of the body); an
//     "error" object in a 2xx body is an error too. The response body is capped at MaxResponseBytes.
//   - Retries (Config.Retry, package httpcall): 408, 409, 429, 5xx and transport errors are retried with
//     exponential backoff and jitter, honouring retry-after-ms and Retry-After, at most Retry.MaxRetries
//     times (4 by default) and never past the context's deadline; other statuses are returned at once. A
//     model request has no side effects to repeat: the tools run only after a response is complete.
package openaihttp
