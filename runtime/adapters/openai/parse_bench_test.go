package openai_test

import (
	"testing"

	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
	"github.com/winkgen/wink/runtime/adapters/openai"
)

// A chat completion and a Responses API response as the providers send them (one tool call each, with
// the usual members beside it), read whole.
var (
	benchCompletion = []byte(`{"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion","created":1741570283,"model":"gpt-4o-2024-08-06","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search","arguments":"{\"search_engine\":\"google\",\"search_query\":\"Bob Odenkirk age\"}"}}],"refusal":null,"annotations":[]},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":82,"completion_tokens":27,"total_tokens":109,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},"service_tier":"default","system_fingerprint":"fp_fc9f1d7035"}`)
	benchResponse   = []byte(`{"id":"resp_67ca09c5efe0819096d0511c92b8c890096610f474011cc0","object":"response","created_at":1741294021,"status":"completed","error":null,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"model":"gpt-4.1-2025-04-14","output":[{"type":"reasoning","id":"rs_1","summary":[]},{"type":"function_call","id":"fc_67ca09c6bedc8190a7abfec07b1a1332096610f474011cc0","call_id":"call_unLAR8MvFNptuiZK6K6HCy5k","name":"get_current_weather","arguments":"{\"location\":\"Boston, MA\",\"unit\":\"celsius\"}","status":"completed"}],"parallel_tool_calls":true,"temperature":1.0,"tool_choice":"auto","usage":{"input_tokens":291,"output_tokens":23,"total_tokens":314}}`)
)

func BenchmarkParseChatCompletion(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if calls, err := openai.ParseChatCompletion(benchCompletion); err != nil || len(calls) != 1 {
			b.Fatal(calls, err)
		}
	}
}

func BenchmarkParseResponsesToolCalls(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if calls, err := openai.ParseResponsesToolCalls(benchResponse); err != nil || len(calls) != 1 {
			b.Fatal(calls, err)
		}
	}
}

func BenchmarkResponsesTools(b *testing.B) {
	tools := adapterstest.WinkTools()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openai.ResponsesTools(tools); err != nil {
			b.Fatal(err)
		}
	}
}
