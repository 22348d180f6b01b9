package gen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/go/packages"
)

var update = flag.Bool("update", false, "rewrite golden files (wink_gen.go and want.diag) in gen/testdata")

// caseDirs lists the golden cases: each folder of testdata is one package.
func caseDirs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) < 10 {
		t.Fatalf("only %d golden cases found", len(dirs))
	}
	return dirs
}

// TestGolden generates every case and compares with its golden: wink_gen.go for good cases (the golden is
// a real file of the case's package, so it is compiled with it), want.diag for cases with diagnostics.
func TestGolden(t *testing.T) {
	for _, name := range caseDirs(t) {
		t.Run(name, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join("testdata", name))
			results, diags, err := Generate(Config{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			diagFile := filepath.Join(dir, "want.diag")
			genFile := filepath.Join(dir, OutputName)
			if len(diags) > 0 {
				var b strings.Builder
				for _, d := range diags {
					b.WriteString(d.Format(dir) + "\n")
				}
				checkGolden(t, diagFile, []byte(b.String()))
				if _, err := os.Stat(genFile); err == nil {
					t.Errorf("%s has diagnostics but also a generated file", name)
				}
				return
			}
			if _, err := os.Stat(diagFile); err == nil {
				t.Fatalf("want.diag exists but generation succeeded")
			}
			if len(results) != 1 {
				t.Fatalf("got %d results, want 1", len(results))
			}
			checkGolden(t, genFile, results[0].Content)
			if !bytes.HasPrefix(results[0].Content, []byte(Header+"\n\n")) {
				t.Errorf("output does not start with the header line and a blank line")
			}
			if bytes.Contains(results[0].Content, []byte(dir)) {
				t.Errorf("output contains the absolute directory %s", dir)
			}
			typeCheck(t, dir)
		})
	}
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden (run go test ./gen -update): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got), run go test ./gen -update if intended:\n%s", filepath.Base(path), diff)
	}
}

// typeCheck compiles the case package together with its golden wink_gen.go.
func typeCheck(t *testing.T, dir string) {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedSyntax | packages.NeedName | packages.NeedFiles, Dir: dir}, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("golden does not compile: %v", e)
		}
	}
}

// TestDeterministic generates the example-like cases twice and compares bytes.
func TestDeterministic(t *testing.T) {
	dir, _ := filepath.Abs("testdata")
	var first [][]byte
	for round := 0; round < 2; round++ {
		var all [][]byte
		for _, name := range caseDirs(t) {
			results, _, err := Generate(Config{Dir: filepath.Join(dir, name)})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range results {
				all = append(all, r.Content)
			}
		}
		if round == 0 {
			first = all
			continue
		}
		if len(all) != len(first) {
			t.Fatalf("round 2 produced %d files, round 1 %d", len(all), len(first))
		}
		for i := range all {
			if !bytes.Equal(all[i], first[i]) {
				t.Errorf("file %d differs between runs", i)
			}
		}
	}
}

// TestMovingAHandlerLeavesTheOutputUnchanged: generated code names no line numbers, so blank lines and
// comments inserted above a handler change no byte of wink_gen.go.
func TestMovingAHandlerLeavesTheOutputUnchanged(t *testing.T) {
	dir, err := os.MkdirTemp("testdata", "_shifted")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	src, err := os.ReadFile(filepath.Join("testdata", "basic", "basic.go"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "basic", OutputName))
	if err != nil {
		t.Fatal(err)
	}
	shifted := bytes.Replace(src, []byte("\nimport"), []byte("\n\n// A comment that moves everything below it.\n\n\nimport"), 1)
	if bytes.Equal(shifted, src) {
		t.Fatal("the edit did not apply")
	}
	if err := os.WriteFile(filepath.Join(dir, "basic.go"), shifted, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(dir)
	results, diags, err := Generate(Config{Dir: abs})
	if err != nil || len(diags) > 0 || len(results) != 1 {
		t.Fatalf("generate: %v %v", err, diags)
	}
	// The copy lives in another folder, so its import path differs; nothing else may.
	got := bytes.ReplaceAll(results[0].Content, []byte("testdata/"+filepath.Base(dir)+"."), []byte("testdata/basic."))
	if !bytes.Equal(got, want) {
		t.Errorf("the output changed when the handler moved down:\n%s", diffLines(string(want), string(got)))
	}
}

// diffLines shows the first differing line of two texts.
func diffLines(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ":\n- " + al[i] + "\n+ " + bl[i]
		}
	}
	return "lengths differ"
}

// TestChangingAStructWithoutRegeneratingFailsToCompile: the generated shape guards make every edit of a
// params or result struct (a field added, removed, retyped or retagged) a compile error in wink_gen.go until
// the file is regenerated; an edit elsewhere (a comment, a blank line) still compiles.
func TestChangingAStructWithoutRegeneratingFailsToCompile(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "basic"))
	file := filepath.Join(dir, "basic.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edits := []struct {
		name, old, new string
		compiles       bool
	}{
		{"a field added", "\tOn      bool              `json:\"on\"`", "\tOn bool `json:\"on\"`\n\tExtra string `json:\"extra\"`", false},
		{"a field removed", "\tOn      bool              `json:\"on\"`\n", "", false},
		{"a field retyped", "\tCount   uint16", "\tCount   uint32", false},
		{"a json tag changed", "`json:\"on\"`", "`json:\"enabled\"`", false},
		{"a constraint changed", "max=500,multipleOf=5", "max=400,multipleOf=5", false},
		{"an unexported field added", "\thidden  string", "\tsecret int\n\thidden  string", false},
		{"a result field added", "\tOK bool `json:\"ok\"`", "\tOK bool `json:\"ok\"`\n\tN int `json:\"n\"`", false},
		{"a comment added", "\n// Kinds", "\n// A new comment.\n\n// Kinds", true},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			edited := bytes.Replace(src, []byte(e.old), []byte(e.new), 1)
			if bytes.Equal(edited, src) {
				t.Fatalf("the edit %q did not apply", e.old)
			}
			pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedName | packages.NeedFiles,
				Dir: dir, Overlay: map[string][]byte{file: edited}}, ".")
			if err != nil {
				t.Fatal(err)
			}
			var inGenerated []string
			for _, p := range pkgs {
				for _, pe := range p.Errors {
					if strings.Contains(pe.Pos, OutputName) || strings.Contains(pe.Msg, OutputName) {
						inGenerated = append(inGenerated, pe.Error())
					} else {
						t.Errorf("unexpected error outside the generated file: %v", pe)
					}
				}
			}
			if e.compiles && len(inGenerated) > 0 {
				t.Errorf("the package no longer compiles: %v", inGenerated)
			}
			// The compiler's message names the guard's alias, which says what to do, instead of spelling
			// out the whole struct type.
			if msg := strings.Join(inGenerated, "\n"); !e.compiles && (!strings.Contains(msg, "{} (value of struct type") ||
				!regexp.MustCompile(`as winkStale\w+RunGoGenerate value`).MatchString(msg) || strings.Contains(msg, "struct{")) {
				t.Errorf("no shape guard fails with a message saying to run go generate: %v", inGenerated)
			}
		})
	}
}
