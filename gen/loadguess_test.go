package gen

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestPreviousOutputInAnyStateGeneratesAlike: a package generated in its directory (as go generate runs
// winkgen) gives the same bytes whatever its previous wink_gen.go is: fresh, missing, under another
// package clause (a package renamed since), with a build constraint, or without a package clause that
// parses. Where the previous output is not what its directory suggests, load falls back to listing the
// package first (loadguess.go); the output never depends on which way it went.
func TestPreviousOutputInAnyStateGeneratesAlike(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "noparams", "noparams.go"))
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join("testdata", "noparams", OutputName))
	if err != nil {
		t.Fatal(err)
	}
	scratch := filepath.Join("testdata", "_previous")
	t.Cleanup(func() { os.RemoveAll(scratch) })
	os.RemoveAll(scratch)
	for _, c := range []struct{ name, previous string }{
		{"fresh", string(golden)},
		{"missing", ""},
		{"another package clause", Header + "\n\npackage renamed\n\nvar x = undefinedThing\n"},
		{"a build constraint", "//go:build ignore\n\n" + Header + "\n\npackage noparams\n"},
		{"a build constraint and another clause", "//go:build never\n\npackage renamed\n"},
		{"no package clause", "this is not Go\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(scratch, filepath.Base(t.Name()))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "noparams.go"), src, 0o644); err != nil {
				t.Fatal(err)
			}
			if c.previous != "" {
				if err := os.WriteFile(filepath.Join(dir, OutputName), []byte(c.previous), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			abs, _ := filepath.Abs(dir)
			results, diags, err := Generate(Config{Dir: abs})
			if err != nil || len(diags) > 0 || len(results) != 1 {
				t.Fatalf("generate: %d results, %v, %v", len(results), diags, err)
			}
			want := bytes.ReplaceAll(golden, []byte(caseImportPath("noparams")), []byte(caseImportPath("_previous/"+filepath.Base(dir))))
			if !bytes.Equal(results[0].Content, want) {
				t.Errorf("output differs from the golden's:\n%s", lineDiff(string(want), string(results[0].Content)))
			}
		})
	}
}
