package gemini_test

import (
	"testing"

	"github.com/winkgen/wink/runtime/adapters/gemini"
	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
)

func BenchmarkFunctionDeclarations(b *testing.B) {
	tools := adapterstest.WinkTools()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := gemini.FunctionDeclarations(tools); err != nil {
			b.Fatal(err)
		}
	}
}
