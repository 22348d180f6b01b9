package gen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedCodePassesVet runs go vet over every golden package that generates (the diag_ cases do
// not): generated code is part of its users' packages, and their `go vet ./...` (make test's first step
// here) reads it, so an unkeyed literal of another package's struct or a misused printf in what winkgen
// writes would fail every user's vet. go vet ./... leaves testdata out, hence this test.
func TestGeneratedCodePassesVet(t *testing.T) {
	var pkgs []string
	for _, name := range caseDirs(t) {
		if strings.HasPrefix(name, "diag_") {
			continue
		}
		if _, err := os.Stat(filepath.Join("testdata", name, OutputName)); err != nil {
			continue
		}
		pkgs = append(pkgs, "./testdata/"+name)
	}
	if len(pkgs) < 10 {
		t.Fatalf("only %d generated golden packages found", len(pkgs))
	}
	cmd := exec.Command("go", append([]string{"vet"}, pkgs...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet %s: %v\n%s", strings.Join(pkgs, " "), err, out)
	}
}
