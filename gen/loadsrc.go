package gen

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"golang.org/x/tools/go/packages"
)

// Design note: what is type-checked from source, and why.
//
// The generator replaces the previous wink_gen.go of every package it generates by a file holding only its
// package clause, so that a stale, broken or unparsable one never stops generation. That replacement used
// to be go/packages' Config.Overlay, but any Config.Overlay makes go/packages distrust all export data:
// every dependency, the standard library included, was type-checked from source on every run (about a
// second of CPU per package where export data takes a few tens of milliseconds).
//
// So the replacement is given to the two readers separately, and no Config.Overlay is set:
//   - the go command (go list -export, which also compiles the dependencies' export data) gets it as its
//     own -overlay build flag, so it never reads the old file either: no list error, no import of a
//     package the old file named, and every package built against a generated package sees it blank;
//   - go/packages' parser gets it through Config.ParseFile, which parses the stand-in for those files.
//
// go/packages then type-checks the matched packages from source (always) and each dependency from its
// export data, or from source where there is none (a dependency that does not compile). A dependency's
// generated code is used as it is: its identifiers are the dependency's API, as the build sees it; if it
// does not compile, the dependency is type-checked from source, errors tolerated and not reported (they
// are that package's, and its own generation reports them), as before.
//
// Export data keeps types exactly but not source positions (no columns; file names as compiled, which
// -trimpath rewrites), nor every unexported declaration. The analysis reads more than types from one kind
// of declaration of other packages: the types it turns into schemas (their fields' positions in
// diagnostics, enum constants in declaration order, //wink:constraints from the declaring file). So a
// dependency whose declarations the analysis read (analyzer.readDeclarations) is loaded again, from source:
// it is added to the load as a further pattern (go/packages type-checks every pattern's package from
// source and hands that package to its importers), and dropped from the result. That is a second load for
// the packages that use another package's types in their tools, and what they get is what a load of
// everything from source gives.

// loadSources loads the packages matched by patterns with the files in blank replaced by their contents,
// type-checking the matched packages and every dependency whose declarations the analysis reads from
// source. It returns the matched packages in the loader's order.
func loadSources(dir string, patterns []string, blank map[string][]byte) ([]*packages.Package, error) {
	cfg := &packages.Config{Mode: loadMode, Dir: dir, Tests: false,
		ParseFile: func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			if b, ok := blank[filename]; ok {
				src = b
			}
			// go/packages' own parse mode.
			return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments)
		},
	}
	if len(blank) > 0 {
		flag, cleanup, err := writeOverlay(blank)
		if err != nil {
			return nil, err
		}
		defer cleanup()
		cfg.BuildFlags = []string{flag}
	}
	var order []string              // IDs of the matched packages, in the first load's order
	matched := map[string]bool{}    // their import paths
	fromSource := map[string]bool{} // dependencies added as patterns
	var extra []string              // the same, in the order added
	for {
		pkgs, err := packages.Load(cfg, append(slices.Clip(patterns), extra...)...)
		if err != nil {
			return nil, err
		}
		byID := map[string]*packages.Package{}
		for _, p := range pkgs {
			byID[p.ID] = p
		}
		if order == nil {
			order = []string{}
			for _, p := range pkgs {
				order = append(order, p.ID)
				matched[p.PkgPath] = true
			}
		}
		roots := make([]*packages.Package, 0, len(order))
		for _, id := range order {
			if p := byID[id]; p != nil {
				roots = append(roots, p)
			}
		}
		var need []string
		for _, p := range roots {
			if len(p.Syntax) == 0 {
				continue
			}
			a := newAnalyzer(p)
			a.run()
			for path := range a.declared {
				if !matched[path] && !fromSource[path] {
					fromSource[path] = true
					need = append(need, path)
				}
			}
		}
		if len(need) == 0 {
			return roots, nil
		}
		slices.Sort(need)
		extra = append(extra, need...)
	}
}

// readDeclarations records that the analysis reads declarations of p (beyond its types), so that p is
// type-checked from source if it is another package (see the design note above).
func (a *analyzer) readDeclarations(p *types.Package) {
	if p == nil || p.Path() == a.pkg.PkgPath {
		return
	}
	if a.declared == nil {
		a.declared = map[string]bool{}
	}
	a.declared[p.Path()] = true
}

// writeOverlay writes the go command's overlay file replacing each file in blank by its contents, and
// returns its build flag and a function that removes what it wrote.
func writeOverlay(blank map[string][]byte) (string, func(), error) {
	tmp, err := os.MkdirTemp("", "winkgen-overlay")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	replace := map[string]string{}
	names := make([]string, 0, len(blank))
	for name := range blank {
		names = append(names, name)
	}
	slices.Sort(names)
	for i, name := range names {
		f := filepath.Join(tmp, strconv.Itoa(i)+".go")
		if err := os.WriteFile(f, blank[name], 0o644); err != nil {
			cleanup()
			return "", nil, err
		}
		replace[name] = f
	}
	b, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err == nil {
		err = os.WriteFile(filepath.Join(tmp, "overlay.json"), b, 0o644)
	}
	if err != nil {
		cleanup()
		return "", nil, err
	}
	return "-overlay=" + filepath.Join(tmp, "overlay.json"), cleanup, nil
}
