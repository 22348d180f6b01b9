package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExamplesGenerateAsTheReadmeTeaches: every package under example/ runs winkgen with the line the
// README teaches, //go:generate go tool winkgen, so a user who copies an example copies the right line.
func TestExamplesGenerateAsTheReadmeTeaches(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const line = "//go:generate go tool winkgen"
	if !strings.Contains(string(readme), "`"+line+"`") {
		t.Fatalf("the README does not teach %s", line)
	}
	n := 0
	err = filepath.WalkDir(filepath.Join("..", "..", "example"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, l := range strings.Split(string(src), "\n") {
			if strings.HasPrefix(l, "//go:generate") && strings.Contains(l, "winkgen") {
				n++
				if strings.TrimSpace(l) != line {
					t.Errorf("%s: %q, want %q", path, l, line)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 {
		t.Errorf("only %d go:generate lines found under example/", n)
	}
}
