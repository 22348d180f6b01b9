package gen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/go/packages"
)

var update = flag.Bool("update", false, "rewrite golden files (wink_gen.go and want.diag) in gen/testdata")

// caseDirs lists the golden cases: each folder of testdata is one package (folders the go command ignores,
// named with a leading '_' or '.', are a test's scratch space, not cases).
func caseDirs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), "_") && !strings.HasPrefix(e.Name(), ".") {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) < 10 {
		t.Fatalf("only %d golden cases found", len(dirs))
	}
	return dirs
}

// TestGolden generates every case and compares with its golden: wink_gen.go for good cases (the golden is
// a real file of the case's package, so it is compiled with it), want.diag for cases with diagnostics. The
// cases are generated together (generateCases); TestDeterministic holds each to its generation alone.
func TestGolden(t *testing.T) {
	runs := generateCases(t)
	var generated []string
	for _, name := range caseDirs(t) {
		t.Run(name, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join("testdata", name))
			results, diags, err := runs[name].results, runs[name].diags, runs[name].err
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
			generated = append(generated, name)
		})
	}
	typeCheck(t, generated)
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

// typeCheck compiles each case package of names together with its golden wink_gen.go (after -update has
// written it), all in one load.
func typeCheck(t *testing.T, names []string) {
	t.Helper()
	if len(names) == 0 {
		return
	}
	dir, _ := filepath.Abs("testdata")
	var patterns []string
	want := map[string]string{}
	for _, name := range names {
		patterns = append(patterns, "./"+name)
		want[caseImportPath(name)] = name
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedSyntax | packages.NeedName | packages.NeedFiles, Dir: dir}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		name, ok := want[p.PkgPath]
		if !ok {
			t.Errorf("the load of the goldens has a package of no case: %s", p.PkgPath)
			continue
		}
		delete(want, p.PkgPath)
		for _, e := range p.Errors {
			t.Errorf("%s: golden does not compile: %v", name, e)
		}
	}
	for path := range want {
		t.Errorf("the load of the goldens has no package %s", path)
	}
}

// TestDeterministic: what winkgen writes is a function of the source alone. Every case is generated twice,
// independently, and the two compared byte for byte, each file and each diagnostic: once with all cases
// loaded and generated together (generateCases, what TestGolden holds to the goldens, as make regen
// generates many packages in one run), and once by Generate in each case's folder alone (as go generate
// runs winkgen), several folders at a time. So an output that depends on map order, on which other
// packages are loaded with it or in what order, or on state shared between runs fails here; and the
// goldens hold for a package generated alone as well as among others.
func TestDeterministic(t *testing.T) {
	together := generateCases(t)
	names := caseDirs(t)
	dir, _ := filepath.Abs("testdata")
	alone := make([]caseRun, len(names))
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(2, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range next {
				r := &alone[i]
				r.results, r.diags, r.err = Generate(Config{Dir: filepath.Join(dir, names[i])})
			}
		})
	}
	for i := range names {
		next <- i
	}
	close(next)
	wg.Wait()
	files := 0
	for i, name := range names {
		a, b := alone[i], together[name]
		if a.err != nil || b.err != nil {
			t.Errorf("%s: generating alone: %v; together: %v", name, a.err, b.err)
			continue
		}
		if len(a.results) != len(b.results) {
			t.Errorf("%s: %d files generated alone, %d together", name, len(a.results), len(b.results))
			continue
		}
		for j := range a.results {
			ra, rb := a.results[j], b.results[j]
			if ra.PkgPath != rb.PkgPath || ra.OutputPath != rb.OutputPath {
				t.Errorf("%s: file %d is %s (%s) alone, %s (%s) together", name, j, ra.OutputPath, ra.PkgPath, rb.OutputPath, rb.PkgPath)
			}
			if !bytes.Equal(ra.Content, rb.Content) {
				t.Errorf("%s: %s differs between its generation alone (-) and together with the other cases (+):\n%s",
					name, filepath.Base(ra.OutputPath), diffLines(string(ra.Content), string(rb.Content)))
			}
			files++
		}
		if fa, fb := formatDiags(a.diags, dir), formatDiags(b.diags, dir); fa != fb {
			t.Errorf("%s: the diagnostics differ between its generation alone (-) and together with the other cases (+):\n%s", name, diffLines(fa, fb))
		}
	}
	if files < 10 {
		t.Errorf("only %d files compared", files)
	}
}

// formatDiags writes ds one a line as go vet does, relative to base.
func formatDiags(ds []Diagnostic, base string) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Format(base) + "\n")
	}
	return b.String()
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
	// Each edit is a copy of the package in its own folder, and all are compiled in one load.
	scratch, err := os.MkdirTemp("testdata", "_edited")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(scratch)
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for i, e := range edits {
		edited := bytes.Replace(src, []byte(e.old), []byte(e.new), 1)
		if bytes.Equal(edited, src) {
			t.Fatalf("the edit %q did not apply", e.old)
		}
		sub := filepath.Join(scratch, strconv.Itoa(i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			content := edited
			if f.Name() != filepath.Base(file) {
				if content, err = os.ReadFile(filepath.Join(dir, f.Name())); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(sub, f.Name()), content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		patterns = append(patterns, "./"+filepath.ToSlash(sub))
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedName | packages.NeedFiles}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]*packages.Package{}
	for _, p := range pkgs {
		byPath[p.PkgPath] = p
	}
	for i, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			p := byPath[caseImportPath(filepath.Base(scratch)+"/"+strconv.Itoa(i))]
			if p == nil {
				t.Fatalf("the edited package was not loaded (loaded %d packages)", len(pkgs))
			}
			var inGenerated []string
			for _, pe := range p.Errors {
				if strings.Contains(pe.Pos, OutputName) || strings.Contains(pe.Msg, OutputName) {
					inGenerated = append(inGenerated, pe.Error())
				} else {
					t.Errorf("unexpected error outside the generated file: %v", pe)
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
