package gen_test

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/winkgen/wink/gen"
)

// Generate returns the wink_gen.go of every package that declares tools, as bytes (Write puts them on
// disk; cmd/winkgen does both). Here the package is one of the generator's own test cases.
func ExampleGenerate() {
	results, diags, err := gen.Generate(gen.Config{Patterns: []string{"./testdata/noparams"}})
	if err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Println(r.PkgPath, filepath.Base(r.OutputPath), bytes.HasPrefix(r.Content, []byte(gen.Header)))
	}
	fmt.Println(len(diags), "diagnostics")
	// Output:
	// github.com/winkgen/wink/gen/testdata/noparams wink_gen.go true
	// 0 diagnostics
}

// Inspect describes the tools from the source alone, as `winkgen list` shows them.
func ExampleInspect() {
	tools, _, err := gen.Inspect(gen.Config{Patterns: []string{"./testdata/noparams"}})
	if err != nil {
		panic(err)
	}
	for _, t := range tools {
		fmt.Printf("%s %q %v\n", t.Name, t.Description, t.Params)
	}
	// Output:
	// ping "Checks liveness." []
	// clear-key "Forgets a key and returns no value." [key]
	// noop "Does nothing at all." []
}

// Every mistake in the annotations is a positioned diagnostic, all of them in one run; no file is
// generated for a package that has any. Format writes a diagnostic as go vet does, relative to a base.
func ExampleGenerate_diagnostics() {
	results, diags, err := gen.Generate(gen.Config{Patterns: []string{"./testdata/diag_directives"}})
	if err != nil {
		panic(err)
	}
	base, _ := filepath.Abs(filepath.Join("testdata", "diag_directives"))
	fmt.Println(len(results), "files")
	fmt.Println(diags[0].Format(base))
	// Output:
	// 0 files
	// directives.go:16:13: unknown key "nmae" in //wink:tool (did you mean "name"?); accepted keys: name, overrides, readonly, title, destructive, openworld, scopes, task, defer, rate, burst, callers
}
