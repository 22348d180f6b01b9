// Command crosscheck type-checks a module's packages, with their tests and everything they import, for
// operating systems other than the one it runs on, from source and without compiling anything.
//
// What can differ between platforms is which files a build includes (build constraints and _GOOS file
// names) and which declarations the operating system's packages offer (syscall, os/signal,
// golang.org/x/sys): a package that calls syscall.Kill or uses SysProcAttr.Pdeathsig builds on Linux and
// not on Windows. Type-checking every package for the target platform finds both, in a fraction of the
// time that compiling and vetting the whole module once per platform takes (the dependency tree holds
// several of the largest Go modules there are: the provider SDKs, gRPC, Temporal). go vet still runs on
// the host platform, where the tests run.
//
// Usage:
//
//	go run ./internal/crosscheck [-C dir] [-os darwin,windows] [packages]
//
// It prints every error as file:line:col: message, prefixed with the platform, and exits 1 when there is
// one (2 for a usage error).
//
// The module's own packages are type-checked whole. Of the packages outside it (the standard library
// and the dependencies), only the declarations are: as they are parsed, each function body is replaced by
// one that only panics (errors of imports only the bodies used are then left out). What the module's
// code can use of them (which declarations a platform's files make) is all there; what is left out is
// the check of code the module does not own and its authors test on their own platforms: the standard
// library's bodies, for two platforms, were most of the time (25.5 -> 18.3 s of CPU for this module).
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/winkgen/wink/internal/goflags"
)

func main() {
	dir := flag.String("C", "", "the module `directory` to check (default: the current directory)")
	oses := flag.String("os", "darwin,windows", "comma-separated `GOOS` values to check")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: crosscheck [-C dir] [-os darwin,windows] [packages]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	failed := false
	for _, goos := range strings.Split(*oses, ",") {
		goos = strings.TrimSpace(goos)
		if goos == "" {
			continue
		}
		errs, n, err := check(*dir, goos, patterns)
		if err != nil {
			fmt.Fprintf(os.Stderr, "crosscheck: GOOS=%s: %v\n", goos, err)
			os.Exit(1)
		}
		for _, e := range errs {
			fmt.Fprintf(os.Stderr, "GOOS=%s: %s\n", goos, e)
		}
		if len(errs) > 0 {
			failed = true
		}
		fmt.Printf("crosscheck: GOOS=%s: %d packages type-checked, %d errors\n", goos, n, len(errs))
	}
	if failed {
		os.Exit(1)
	}
}

// check loads patterns with their tests and every dependency from source for goos, and returns every
// error found (listing, parsing or type-checking), each once, sorted, and the number of packages checked.
func check(dir, goos string, patterns []string) ([]string, int, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, 0, err
	}
	own := func(filename string) bool { return strings.HasPrefix(filename, root+string(filepath.Separator)) }
	flags, err := withoutSanitizers(os.Getenv("GOFLAGS"))
	if err != nil {
		return nil, 0, err
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps |
			packages.NeedTypes | packages.NeedSyntax,
		Dir:   dir,
		Tests: true,
		// CGO_ENABLED=0: a cross build has no C toolchain for the target, so cgo files are left out
		// as go build leaves them out.
		Env: append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS="+flags),
		ParseFile: func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			if own(filename) {
				return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments)
			}
			f, err := parser.ParseFile(fset, filename, src, parser.AllErrors|parser.SkipObjectResolution)
			if f != nil {
				for _, d := range f.Decls {
					// A body that only panics: it ends every function whatever its results, and go/types
					// wants a body on init and on generic functions.
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
						fd.Body = &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: &ast.CallExpr{
							Fun: ast.NewIdent("panic"), Args: []ast.Expr{&ast.BasicLit{Kind: token.INT, Value: "0"}}}}}}
					}
				}
			}
			return f, err
		},
	}
	roots, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, 0, err
	}
	seen := map[string]bool{}
	var errs []string
	n := 0
	packages.Visit(roots, nil, func(p *packages.Package) {
		n++
		for _, e := range p.Errors {
			s := e.Error()
			// Without their bodies, the packages outside the module may import what only the bodies
			// used.
			if e.Kind == packages.TypeError && !own(e.Pos) && strings.HasSuffix(s, "and not used") {
				continue
			}
			if !seen[s] {
				seen[s] = true
				errs = append(errs, s)
			}
		}
	})
	sort.Strings(errs)
	return errs, n, nil
}

// withoutSanitizers is the GOFLAGS value without -race, -msan and -asan, which need cgo (make test sets
// -race for the go commands its race lane starts, this one's tests among them). It reads and writes
// GOFLAGS as the go command does (internal/goflags: a flag may be quoted whole to hold spaces).
func withoutSanitizers(value string) (string, error) {
	flags, err := goflags.Split(value)
	if err != nil {
		return "", err
	}
	var keep []string
	for _, f := range flags {
		switch strings.SplitN(f, "=", 2)[0] {
		case "-race", "-msan", "-asan", "--race", "--msan", "--asan":
			continue
		}
		keep = append(keep, f)
	}
	return goflags.Join(keep)
}
