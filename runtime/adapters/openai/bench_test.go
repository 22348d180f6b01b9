package openai_test

import (
	"testing"

	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/wink"
)

func BenchmarkChatTools(b *testing.B) {
	tools := adapterstest.WinkTools()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openai.ChatTools(tools); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseChatToolCalls(b *testing.B) {
	msg := []byte(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search","arguments":"{\"search_engine\":\"google\",\"search_query\":\"Bob Odenkirk age\"}"}}]}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openai.ParseChatToolCalls(msg); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkChatToolMessage(b *testing.B) {
	out := wink.Outcome{Success: true, Output: "1 hit.\n\n{\"hits\":[\"google: Bob Odenkirk age\"]}"}
	b.ReportAllocs()
	for b.Loop() {
		openai.ChatToolMessage("call_1", out)
	}
}
