package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeBlock matches a README Go block tied to a file: "```go", "// file: <path>", the code.
var readmeBlock = regexp.MustCompile("(?s)```go\n// file: ([^\n]+)\n(.*?)```")

// TestReadmeProgramsCompileAsCopied: the README's Quickstart, its program with the loop and a model, its
// MCP server and its durable run are whole files of the module, byte for byte (nothing elided, nothing
// declared elsewhere), so a reader who copies one gets code that compiles; every block that starts with
// a package clause is likewise a whole file.
func TestReadmeProgramsCompileAsCopied(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"example/quickstart/quickstart.go":   false,
		"example/cmd/forecast/main.go":       false,
		"example/cmd/forecastserver/main.go": false,
		"runtime/durable/example_test.go":    false,
	}
	for _, m := range readmeBlock.FindAllStringSubmatch(string(readme), -1) {
		path, code := m[1], m[2]
		_, named := want[path]
		if !named && !strings.HasPrefix(code, "package ") {
			continue
		}
		src, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Errorf("README names %s: %v", path, err)
			continue
		}
		if code != string(src) {
			t.Errorf("README's block for %s is not the whole file as it is (copied, it would not compile)", path)
			continue
		}
		want[path] = true
	}
	for path, seen := range want {
		if !seen {
			t.Errorf("README shows no whole-file block of %s", path)
		}
	}
}

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
