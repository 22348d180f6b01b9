package docs

import (
	"bytes"
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// repo is the repository's root, seen from this package's directory.
var repo = filepath.Join("..", "..")

// docFiles returns the README and every guide under docs/, as paths relative to the repository's root.
func docFiles(t *testing.T) []string {
	t.Helper()
	guides, err := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(guides) < 5 {
		t.Fatalf("docs/ holds %d guides; the README sends readers to one guide per topic", len(guides))
	}
	files := []string{"README.md"}
	for _, g := range guides {
		rel, _ := filepath.Rel(repo, g)
		files = append(files, filepath.ToSlash(rel))
	}
	sort.Strings(files[1:])
	return files
}

func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// goBlock matches a fenced Go block; fileLine is the "// file: PATH" line it must start with.
var (
	goBlock  = regexp.MustCompile("(?s)```go\n(.*?)```")
	fileLine = regexp.MustCompile(`^// file: (\S+)\n`)
)

// compiledGoFile says why path is not a Go file that this module (or a nested module) builds and tests on
// this machine, or "" when it is one: a .go file outside testdata and outside directories the go command
// ignores, whose build constraints the default build context accepts.
func compiledGoFile(path string) string {
	if !strings.HasSuffix(path, ".go") {
		return "not a Go file"
	}
	for _, elem := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		if elem == "testdata" || strings.HasPrefix(elem, "_") || strings.HasPrefix(elem, ".") && elem != "." {
			return "in a directory the go command does not build (" + elem + ")"
		}
	}
	ok, err := build.Default.MatchFile(filepath.Join(repo, filepath.Dir(path)), filepath.Base(path))
	if err != nil {
		return err.Error()
	}
	if !ok {
		return "excluded from the build by its name or build constraints"
	}
	return ""
}

// TestReadmeCodeMatchesSources keeps the README and the guides honest: every Go block starts with a
// "// file: PATH" line naming a Go file the module builds and tests, and the rest of the block, cut at
// "// ..." lines, is made of whole lines of that file, verbatim. A block that does not compile cannot be
// such an excerpt; one that drifts from its source fails here.
func TestReadmeCodeMatchesSources(t *testing.T) {
	total := 0
	for _, doc := range docFiles(t) {
		text := readDoc(t, doc)
		all := strings.Count(text, "```go\n")
		blocks := goBlock.FindAllStringSubmatch(text, -1)
		if len(blocks) != all {
			t.Errorf("%s: %d Go blocks, %d of them closed", doc, all, len(blocks))
		}
		total += len(blocks)
		for _, b := range blocks {
			m := fileLine.FindStringSubmatch(b[1])
			if m == nil {
				first, _, _ := strings.Cut(b[1], "\n")
				t.Errorf("%s: a Go block starts with %q; every Go block must start with // file: PATH, the compiled file it is taken from", doc, first)
				continue
			}
			path, code := m[1], b[1][len(m[0]):]
			if why := compiledGoFile(path); why != "" {
				t.Errorf("%s: block for %s: %s; a block must come from a file the tests compile", doc, path, why)
				continue
			}
			src, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(path)))
			if err != nil {
				t.Errorf("%s names %s: %v", doc, path, err)
				continue
			}
			for _, chunk := range strings.Split(code, "\n// ...\n") {
				if !strings.HasSuffix(chunk, "\n") {
					chunk += "\n"
				}
				if !bytes.Contains(src, []byte(chunk)) || !wholeLines(src, []byte(chunk)) {
					t.Errorf("%s: block for %s is not in the file as whole lines:\n%s", doc, path, strings.TrimSpace(chunk))
				}
			}
		}
	}
	if total < 8 {
		t.Errorf("only %d Go blocks in the README and the guides", total)
	}
}

// wholeLines reports whether chunk (ending in a newline) occurs in src starting at the start of a line.
func wholeLines(src, chunk []byte) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], chunk)
		if j < 0 {
			return false
		}
		if i+j == 0 || src[i+j-1] == '\n' {
			return true
		}
		i += j + 1
	}
}

// TestReadmeProgramsCompileAsCopied: the Quickstart and the program with the loop and a model are in the
// README, the MCP server and the durable run in the guides, each as a whole file of the module, byte for
// byte (nothing elided, nothing declared elsewhere), so a reader who copies one gets code that compiles;
// every block that starts with a package clause is likewise a whole file.
func TestReadmeProgramsCompileAsCopied(t *testing.T) {
	want := map[string]string{ // path -> the document that must show it ("" for any)
		"example/quickstart/quickstart.go":   "README.md",
		"example/cmd/forecast/main.go":       "README.md",
		"example/cmd/forecastserver/main.go": "",
		"runtime/durable/example_test.go":    "",
	}
	seen := map[string]bool{}
	for _, doc := range docFiles(t) {
		for _, b := range goBlock.FindAllStringSubmatch(readDoc(t, doc), -1) {
			m := fileLine.FindStringSubmatch(b[1])
			if m == nil {
				continue // TestReadmeCodeMatchesSources reports it
			}
			path, code := m[1], b[1][len(m[0]):]
			where, named := want[path]
			if !named && !strings.HasPrefix(code, "package ") {
				continue
			}
			src, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(path)))
			if err != nil {
				t.Errorf("%s names %s: %v", doc, path, err)
				continue
			}
			if code != string(src) {
				t.Errorf("%s: the block for %s is not the whole file as it is (copied, it would not compile)", doc, path)
				continue
			}
			if where == "" || where == doc {
				seen[path] = true
			}
		}
	}
	for path, where := range want {
		if !seen[path] {
			if where == "" {
				where = "the README or a guide"
			}
			t.Errorf("%s shows no whole-file block of %s", where, path)
		}
	}
}

var (
	fence      = regexp.MustCompile("(?ms)^```.*?^```[^\n]*$")
	codeSpan   = regexp.MustCompile("`+[^`\n]*`+")
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading  = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *#*$`)
	htmlAnchor = regexp.MustCompile(`<a (?:name|id)="([^"]+)"`)
)

// anchors returns the anchors GitHub gives the headings of a Markdown text: lower case, every character
// but letters, digits, spaces, hyphens and underscores dropped, spaces made hyphens, "-1", "-2", ... added
// to repeats.
func anchors(text string) map[string]bool {
	text = fence.ReplaceAllString(text, "")
	out := map[string]bool{}
	count := map[string]int{}
	for _, m := range mdHeading.FindAllStringSubmatch(text, -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		a := b.String()
		if n := count[a]; n > 0 {
			count[a]++
			a += "-" + string(rune('0'+n))
		} else {
			count[a] = 1
		}
		out[a] = true
	}
	for _, m := range htmlAnchor.FindAllStringSubmatch(text, -1) {
		out[m[1]] = true
	}
	return out
}

// TestDocsLinksResolve: every relative link of the README and the guides names a file or directory of
// the repository, and every #anchor a heading of the document it points into; every guide is reachable
// from the README.
func TestDocsLinksResolve(t *testing.T) {
	docs := docFiles(t)
	linked := map[string]bool{}
	n := 0
	for _, doc := range docs {
		text := codeSpan.ReplaceAllString(fence.ReplaceAllString(readDoc(t, doc), ""), "")
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			n++
			file, anchor, _ := strings.Cut(target, "#")
			path := doc
			if file != "" {
				path = filepath.ToSlash(filepath.Join(filepath.Dir(doc), file))
				if strings.HasPrefix(path, "../") {
					t.Errorf("%s: link %q leaves the repository", doc, target)
					continue
				}
				if _, err := os.Stat(filepath.Join(repo, filepath.FromSlash(path))); err != nil {
					t.Errorf("%s: link %q: no such file or directory %s", doc, target, path)
					continue
				}
			}
			linked[path] = true
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(path, ".md") {
				t.Errorf("%s: link %q: an anchor into a file that is not Markdown", doc, target)
				continue
			}
			if !anchors(readDoc(t, path))[anchor] {
				t.Errorf("%s: link %q: %s has no heading with the anchor #%s", doc, target, path, anchor)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d relative links checked", n)
	}
	for _, doc := range docs[1:] {
		if !linked[doc] {
			t.Errorf("no link of the README or of a guide leads to %s", doc)
		}
	}
	readme := codeSpan.ReplaceAllString(readDoc(t, "README.md"), "")
	index := codeSpan.ReplaceAllString(readDoc(t, "docs/README.md"), "")
	for _, doc := range docs[1:] {
		if doc == "docs/README.md" {
			continue
		}
		if !strings.Contains(readme, "]("+doc+")") {
			t.Errorf("README.md's list of guides does not link %s", doc)
		}
		if !strings.Contains(index, "]("+strings.TrimPrefix(doc, "docs/")+")") {
			t.Errorf("docs/README.md's list of guides does not link %s", doc)
		}
	}
}

// repoPath matches a word of a code span that names a path of this repository (`runtime/durable`,
// `./example/cmd/forecast`, `./runtime/vfs/...`).
var repoPath = regexp.MustCompile(`^(?:\./)?((?:annotations|benchmarks|cmd|docs|example|gen|internal|runtime|scripts|testdata|\.ci)/[A-Za-z0-9_./-]*)$`)

// TestDocsPathsExist: every repository path the README and the guides name in code (a package, a file,
// a command's pattern) exists, so that a reader who looks for it finds it.
func TestDocsPathsExist(t *testing.T) {
	n := 0
	for _, doc := range docFiles(t) {
		text := fence.ReplaceAllString(readDoc(t, doc), "")
		for _, span := range codeSpan.FindAllString(text, -1) {
			for _, w := range strings.Fields(strings.Trim(span, "`")) {
				m := repoPath.FindStringSubmatch(w)
				if m == nil {
					continue
				}
				n++
				p := strings.TrimSuffix(strings.TrimSuffix(m[1], "..."), "/")
				if _, err := os.Stat(filepath.Join(repo, filepath.FromSlash(p))); err != nil {
					t.Errorf("%s: `%s` names %s, which does not exist", doc, w, p)
				}
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d repository paths found in code spans", n)
	}
}
