package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// teamTalk matches what only the team that wrote the code understands: a reference to "the issue" or to
// an issue by number. Package docs, comments and notes speak to whoever reads the code later.
var teamTalk = regexp.MustCompile(`(?i)\bthe issue(?:'s)?\b|\bissues? #?[0-9]+\b`)

// TestDocsSpeakToUsers reads every Go file, Markdown file and Makefile of the repository (test data
// aside; the README and the guides under docs/ included) and refuses "the issue" and issue numbers.
// "the issue number" (a field's meaning) is allowed.
func TestDocsSpeakToUsers(t *testing.T) {
	root := filepath.Join("..", "..")
	read := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "node_modules", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == "words_test.go" || !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".md") && d.Name() != "Makefile" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rel, err := filepath.Rel(root, path); err == nil {
			read[filepath.ToSlash(rel)] = true
		}
		// No match spans a line (the pattern has no newline in it, and a line's ends are word
		// boundaries as a newline is), so a file without a match has no line with one: one scan of
		// the file spares the per-line scans of most files.
		if !teamTalk.Match(src) {
			return nil
		}
		for i, line := range strings.Split(string(src), "\n") {
			for _, m := range teamTalk.FindAllStringIndex(line, -1) {
				if strings.HasPrefix(strings.ToLower(line[m[1]:]), " number") {
					continue
				}
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d: %q: say what is meant, for a reader who never saw the issue tracker", filepath.ToSlash(rel), i+1, line[m[0]:m[1]])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range docFiles(t) { // the README and every guide are among what was read
		if !read[doc] {
			t.Errorf("%s was not read", doc)
		}
	}
}
