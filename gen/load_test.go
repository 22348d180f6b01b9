package gen

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestLoadTypeChecksFromSourceOnlyWhatGenerationReads: a load type-checks the packages it generates from
// source, and their dependencies from the compiler's export data, also when a previous wink_gen.go is
// replaced (loadsrc.go); a dependency whose declarations generation reads (another package's types in a
// tool's params) is type-checked from source as well, and only those.
func TestLoadTypeChecksFromSourceOnlyWhatGenerationReads(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		source []string // dependencies type-checked from source
	}{
		{"basic", nil},
		{"foreigndecl", []string{caseImportPath("foreigndecl") + "/decls"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(dir, c.name, OutputName)); err != nil {
				t.Fatalf("the case needs a previous %s: %v", OutputName, err)
			}
			pkgs, ds, err := load(dir, []string{"./" + c.name})
			if err != nil || len(ds) > 0 || len(pkgs) != 1 {
				t.Fatalf("load: %d packages, %v, %v", len(pkgs), ds, err)
			}
			var fromSource []string
			deps := 0
			packages.Visit(pkgs, nil, func(p *packages.Package) {
				if p == pkgs[0] {
					return
				}
				deps++
				if len(p.Syntax) > 0 {
					fromSource = append(fromSource, p.PkgPath)
				}
			})
			for _, p := range pkgs[0].Imports {
				if p.Types == nil || !p.Types.Complete() {
					t.Errorf("import %s has no complete types", p.PkgPath)
				}
			}
			slices.Sort(fromSource)
			if !slices.Equal(fromSource, c.source) {
				t.Errorf("of %d dependencies, type-checked from source: %q; want %q", deps, fromSource, c.source)
			}
			if deps < 20 {
				t.Errorf("only %d dependencies loaded", deps)
			}
		})
	}
}

// TestFirstGenerationIsRegeneration: generating a package without a wink_gen.go gives what regenerating it
// gives, where its tools use another package's types: their enum values in declaration order (across
// files, and two declared on one line), diagnostics at their fields' line and column. The previous loader
// read such types from export data (no columns, an order of its own) when there was no wink_gen.go yet,
// and from source otherwise, whose files it parsed concurrently (an order that changed from run to run).
func TestFirstGenerationIsRegeneration(t *testing.T) {
	for _, name := range []string{"foreigndecl", "diag_foreign"} {
		t.Run(name, func(t *testing.T) {
			// A copy of the case without its wink_gen.go, importing its own copy of the declarations.
			scratch := filepath.Join("testdata", "_first", name)
			t.Cleanup(func() { os.RemoveAll(scratch) })
			os.RemoveAll(scratch)
			oldPath := caseImportPath(name)
			newPath := caseImportPath("_first/" + name)
			for _, f := range []string{name + ".go", "decls"} {
				copyTree(t, filepath.Join("testdata", name, f), filepath.Join(scratch, f), oldPath, newPath)
			}
			for round := range 3 { // first generation, then twice with the previous output in place
				results, diags, err := Generate(Config{Dir: scratch})
				if err != nil {
					t.Fatal(err)
				}
				abs, _ := filepath.Abs(scratch)
				if len(diags) > 0 {
					var b strings.Builder
					for _, d := range diags {
						b.WriteString(d.Format(abs) + "\n")
					}
					want, err := os.ReadFile(filepath.Join("testdata", name, "want.diag"))
					if err != nil {
						t.Fatalf("diagnostics, and no want.diag: %s", b.String())
					}
					if b.String() != string(want) {
						t.Fatalf("round %d: diagnostics differ from regeneration's (want.diag):\n%s\nwant:\n%s", round, b.String(), want)
					}
					continue
				}
				want, err := os.ReadFile(filepath.Join("testdata", name, OutputName))
				if err != nil || len(results) != 1 {
					t.Fatalf("%d results; golden: %v", len(results), err)
				}
				want = bytes.ReplaceAll(want, []byte(oldPath), []byte(newPath))
				if !bytes.Equal(results[0].Content, want) {
					t.Fatalf("round %d: output differs from regeneration's (the golden):\n%s", round, lineDiff(string(want), string(results[0].Content)))
				}
				if _, err := Write(results); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// copyTree copies the file or folder from to to, replacing oldPath by newPath in Go files.
func copyTree(t *testing.T, from, to, oldPath, newPath string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if info.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, bytes.ReplaceAll(b, []byte(oldPath), []byte(newPath)), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestStaleGeneratedCodeInADependency: a tool package that imports another tool package and names its
// generated identifiers generates the same, whatever the state of the other's wink_gen.go (fresh, stale but
// compiling, not compiling, not parsing, missing) and of its own (not parsing), generated alone (its
// dependency's generated code as the build sees it, from export data or, where that does not compile, from
// source) or together with the dependency (whose previous output is replaced, as the generated package's).
// Each state is a copy (user<i> importing dep<i>), so that two loads cover them all.
func TestStaleGeneratedCodeInADependency(t *testing.T) {
	scratch := filepath.Join("testdata", "_depstale")
	t.Cleanup(func() { os.RemoveAll(scratch) })
	os.RemoveAll(scratch)
	src, err := os.ReadFile(filepath.Join("testdata", "noparams", "noparams.go"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(file, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pair := func(i int) (depDir, userDir, depPath, userPath string) {
		n := strconv.Itoa(i)
		return filepath.Join(scratch, "dep"+n), filepath.Join(scratch, "user"+n),
			caseImportPath("_depstale/dep" + n), caseImportPath("_depstale/user" + n)
	}
	generate := func(patterns ...string) map[string][]byte {
		t.Helper()
		results, ds, err := Generate(Config{Dir: scratch, Patterns: patterns})
		if err != nil || len(ds) > 0 {
			t.Fatalf("generate %v: %v %v", patterns, ds, err)
		}
		out := map[string][]byte{}
		for _, r := range results {
			out[r.PkgPath] = r.Content
		}
		return out
	}
	states := []struct{ name, dep string }{
		{"fresh", ""}, // filled in below
		{"stale but compiling", "\n// WinkOld is from an older generation.\nfunc WinkOld() {}\n"},
		{"not compiling", "\nvar winkBroken int = \"no longer an int\"\n"},
		{"not compiling, without the identifiers user names", "var winkBroken int = \"no longer an int\"\n"},
		{"not parsing", "this does not compile\n"},
		{"missing", ""},
	}
	var alone, together []string
	for i := range states {
		depDir, userDir, depPath, _ := pair(i)
		write(filepath.Join(depDir, "dep.go"), strings.Replace(string(src), "package noparams", "package dep", 1))
		write(filepath.Join(userDir, "user.go"), `// Package user offers its tools and its dependency's.
package user

import (
	"`+depPath+`"
	"github.com/winkgen/wink/runtime/wink"
)

// Tools are this package's tools and dep's.
func Tools() []*wink.Tool { return append(WinkTools(), dep.WinkTools()...) }

// EchoParams are the arguments of echo.
type EchoParams struct {
	Text string `+"`json:\"text\"`"+`
}

// Echo says the text again.
//
//wink:tool
func Echo(tc *wink.ToolContext, p EchoParams) (wink.ToolResult[string], error) {
	return wink.OK(p.Text, p.Text), nil
}
`)
		alone = append(alone, "./user"+strconv.Itoa(i))
		together = append(together, "./user"+strconv.Itoa(i), "./dep"+strconv.Itoa(i))
	}
	// The reference: dep0 generated, then user0 with dep0's fresh output in place.
	depDir, _, depPath, userPath := pair(0)
	fresh := generate("./dep0")[depPath]
	write(filepath.Join(depDir, OutputName), string(fresh))
	want := generate("./user0")[userPath]
	if want == nil {
		t.Fatal("user0 generated nothing")
	}
	header := Header + "\n\npackage dep\n\n"
	for i, s := range states {
		depDir, userDir, _, _ := pair(i)
		switch {
		case s.name == "missing":
			os.Remove(filepath.Join(depDir, OutputName))
		case strings.HasPrefix(s.dep, "\n"):
			write(filepath.Join(depDir, OutputName), string(fresh)+s.dep)
		case i > 0:
			write(filepath.Join(depDir, OutputName), header+s.dep)
		}
		write(filepath.Join(userDir, OutputName), "// Code generated by winkgen. DO NOT EDIT.\n\npackage user\n\nfunc {\n")
	}
	gotAlone, gotTogether := generate(alone...), generate(together...)
	for i, s := range states {
		_, _, depPath, userPath := pair(i)
		// The reference with this pair's import paths (the generated code names its package's).
		n := []byte("_depstale/user" + strconv.Itoa(i))
		want := bytes.ReplaceAll(want, []byte("_depstale/user0"), n)
		fresh := bytes.ReplaceAll(fresh, []byte("_depstale/dep0"), []byte("_depstale/dep"+strconv.Itoa(i)))
		if got := gotAlone[userPath]; !bytes.Equal(got, want) {
			t.Errorf("dep's wink_gen.go %s: user alone:\n%s", s.name, lineDiff(string(want), string(got)))
		}
		if got := gotTogether[userPath]; !bytes.Equal(got, want) {
			t.Errorf("dep's wink_gen.go %s: user with dep:\n%s", s.name, lineDiff(string(want), string(got)))
		}
		if got := gotTogether[depPath]; !bytes.Equal(got, fresh) {
			t.Errorf("dep's wink_gen.go %s: dep with user:\n%s", s.name, lineDiff(string(fresh), string(got)))
		}
	}
}
