package gemini_test

import (
	"encoding/json"
	"testing"

	"github.com/winkgen/wink/runtime/adapters/gemini"
	"github.com/winkgen/wink/runtime/internal/callertools"
)

// A tool only programs may call (callers=program) is never declared to the model as a function.
func TestProgramOnlyToolsAreNotDeclared(t *testing.T) {
	all := callertools.WinkTools()
	b, err := gemini.FunctionDeclarations(all)
	if err != nil {
		t.Fatal(err)
	}
	var decls []struct{ Name string }
	if err := json.Unmarshal(b, &decls); err != nil {
		t.Fatal(err)
	}
	for _, d := range decls {
		if d.Name == "audit" {
			t.Errorf("audit is declared: %s", b)
		}
	}
	if len(decls) != len(all)-1 {
		t.Errorf("%d declarations for %d tools, one for programs only", len(decls), len(all))
	}
}
