package gen

import (
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"github.com/winkgen/wink/annotations"
)

// Build constraints. The generated file has none, and must be the same whichever platform runs winkgen and
// compile on every platform; so handlers, directives and the package's own types that tools use may not
// live in files that only some platforms compile (a //go:build line or a _GOOS/_GOARCH file name suffix).
// Such a file is a positioned diagnostic, whether this platform compiles it or not.

// fileConstraint returns how the file restricts the platforms it is compiled on, or "".
func fileConstraint(name string, f *ast.File) string {
	if f != nil {
		for _, cg := range f.Comments {
			if cg.Pos() > f.Package {
				break
			}
			for _, c := range cg.List {
				if constraint.IsGoBuild(c.Text) || constraint.IsPlusBuild(c.Text) {
					return strings.TrimSpace(c.Text)
				}
			}
		}
	}
	base := strings.TrimSuffix(filepath.Base(name), ".go")
	parts := strings.Split(base, "_")
	for i := len(parts) - 1; i >= 1 && i >= len(parts)-2; i-- {
		if knownOS[parts[i]] || knownArch[parts[i]] {
			return "the file name suffix _" + strings.Join(parts[i:], "_")
		}
	}
	return ""
}

// constrainedDirectives reports every //wink: directive in the files this platform does not compile
// (they would silently vanish from the output here, and reappear elsewhere).
func (a *analyzer) constrainedDirectives() {
	for _, name := range a.pkg.IgnoredFiles {
		if filepath.Base(name) == OutputName || !strings.HasSuffix(name, ".go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil || f == nil {
			continue
		}
		why := fileConstraint(name, f)
		if why == "" {
			why = "its build constraints"
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if annotations.IsDirective(c.Text) {
					a.ds.add(fset.Position(c.Pos()), "%s is in a file this platform does not compile (%s): generated code must be "+
						"the same on every platform; move it to a file without build constraints", directiveVerb(c.Text), why)
				}
			}
		}
	}
}

// The platforms' names, as the go command reads file name suffixes.
var knownOS = setOf("aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux",
	"nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos")

var knownArch = setOf("386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "loong64", "mips", "mipsle",
	"mips64", "mips64le", "mips64p32", "mips64p32le", "ppc", "ppc64", "ppc64le", "riscv", "riscv64", "s390",
	"s390x", "sparc", "sparc64", "wasm")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
