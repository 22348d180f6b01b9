package gen

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Design note: the previous outputs without a first go list.
//
// load needs the previous wink_gen.go of every matched package before its go list (the go command gets
// their stand-ins as -overlay). Finding them takes a go list of names and files (the probe): two go
// commands more per run, a fifth of what generating one package costs when the build cache is warm. When
// every pattern is a directory (what go generate runs: winkgen in the package's directory), the previous
// outputs are where the probe would find them, dir/wink_gen.go, and their stand-ins can be made from that
// file's own package clause. The load with them is then checked against what the probe would have given:
// every matched package listed with files, its wink_gen.go (if any) exactly the file guessed, under the
// package name guessed. Where any of that differs (a package clause that is not the package's, a file
// the go command does not list, a pattern naming no package), the guess is dropped and load probes as
// before, so what it returns never depends on the guess.

// guessOutputs returns the stand-ins of the previous outputs of patterns, relative to dir, when every
// pattern is a directory and each one's wink_gen.go, if any, is a regular file with a package clause that
// parses and no build constraint; ok is false otherwise.
func guessOutputs(dir string, patterns []string) (blank map[string][]byte, ok bool) {
	if dir == "" {
		dir = "."
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, false
	}
	blank = map[string][]byte{}
	for _, p := range patterns {
		if strings.Contains(p, "...") || !(p == "." || p == ".." || filepath.IsAbs(p) ||
			strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../")) {
			return nil, false
		}
		d := p
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return nil, false
		}
		f := filepath.Join(d, OutputName)
		st, err := os.Lstat(f)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil || !st.Mode().IsRegular() {
			return nil, false
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, false
		}
		clause, err := parser.ParseFile(token.NewFileSet(), f, src, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return nil, false
		}
		if fileConstraint(f, clause) != "" { // a build constraint may leave the file out of its package
			return nil, false
		}
		blank[f] = blankGenerated(f, clause.Name.Name)
	}
	return blank, true
}

// guessHeld reports whether the matched packages pkgs, loaded with the stand-ins blank, are what the
// probe would have given blank for: each listed with files, and the wink_gen.go files among them exactly
// blank's, each with the stand-in of its package's name.
func guessHeld(pkgs []*packages.Package, blank map[string][]byte) bool {
	seen := 0
	for _, p := range pkgs {
		if len(p.GoFiles) == 0 && len(p.IgnoredFiles) == 0 && len(p.CompiledGoFiles) == 0 {
			return false
		}
		for _, f := range append(append([]string{}, p.GoFiles...), p.IgnoredFiles...) {
			if filepath.Base(f) != OutputName {
				continue
			}
			b, ok := blank[f]
			if !ok || !bytes.Equal(b, blankGenerated(f, p.Name)) {
				return false
			}
			seen++
		}
	}
	return seen == len(blank)
}
