package gen

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
)

// The golden cases are generated from one load of all of them, shared by the tests that compare their
// outputs. A load is most of what a generation costs (a go list over the packages and everything they
// import, then the export data of those imports), and it costs about as much for 40 packages as for one;
// what differs per package (analysis, emission, the checks of what was emitted) is done for each case on
// its own packages, exactly as Generate does. TestDeterministic proves that a case generated this way gives
// the same bytes and diagnostics as Generate run in its folder alone.

// caseRun is the generation of one golden case: what Generate returns for its folder.
type caseRun struct {
	results []Result
	diags   []Diagnostic
	err     error
}

var cases struct {
	once sync.Once
	runs map[string]caseRun
	err  error
}

// caseImportPath is the import path of the golden case in testdata/name.
func caseImportPath(name string) string { return "github.com/winkgen/wink/gen/testdata/" + name }

// generateCases returns the generation of every golden case (caseDirs), all loaded at once and each
// generated from its own packages (generateLoaded).
func generateCases(t *testing.T) map[string]caseRun {
	t.Helper()
	names := caseDirs(t)
	cases.once.Do(func() { cases.runs, cases.err = generateTogether(names) })
	if cases.err != nil {
		t.Fatal(cases.err)
	}
	return cases.runs
}

// generateTogether loads the cases names in one load and generates each from its share of it.
func generateTogether(names []string) (map[string]caseRun, error) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		return nil, err
	}
	var patterns []string
	for _, name := range names {
		patterns = append(patterns, "./"+name)
	}
	pkgs, _, err := load(dir, patterns)
	if err != nil {
		return nil, err
	}
	byPath := map[string][]*packages.Package{}
	for _, p := range pkgs {
		byPath[p.PkgPath] = append(byPath[p.PkgPath], p)
	}
	runs := map[string]caseRun{}
	for _, name := range names {
		own := byPath[caseImportPath(name)]
		if len(own) == 0 {
			return nil, fmt.Errorf("the load of all cases has no package %s (it has %d packages)", caseImportPath(name), len(pkgs))
		}
		delete(byPath, caseImportPath(name))
		results, diags, err := generateLoaded(own, loadErrors(own))
		runs[name] = caseRun{results, diags, err}
	}
	if len(byPath) > 0 {
		var extra []string
		for path := range byPath {
			extra = append(extra, path)
		}
		return nil, fmt.Errorf("the load of all cases has packages of no case: %s", strings.Join(extra, ", "))
	}
	return runs, nil
}
