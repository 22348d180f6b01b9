package files_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/wink"
)

// pathProp returns the schema of the property prop of tool's params.
func pathProp(t testing.TB, tool *wink.Tool, prop string) (pattern string, maxLength int) {
	t.Helper()
	var s struct {
		Properties map[string]struct {
			Pattern   string `json:"pattern"`
			MaxLength int    `json:"maxLength"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(tool.Spec().ParamsSchema, &s); err != nil {
		t.Fatal(err)
	}
	p, ok := s.Properties[prop]
	if !ok {
		t.Fatalf("%s has no property %s", tool.Name(), prop)
	}
	return p.Pattern, p.MaxLength
}

// schemaPatterns returns the compiled schema patterns of Path (read_file's file_path) and PathOrRoot (ls's
// path).
func schemaPatterns(t testing.TB) (path, orRoot *regexp.Regexp) {
	p, _ := pathProp(t, files.WinkReadFile, "file_path")
	r, _ := pathProp(t, files.WinkLs, "path")
	return regexp.MustCompile(p), regexp.MustCompile(r)
}

// wantPath is the rule the patterns state, written out with the suite's constants: printable ASCII, an
// optional leading and trailing "/", 1 to MaxPathDepth segments of 1 to MaxSegmentLength characters, none
// "." or ".."; with root, "" and "/" too.
func wantPath(p string, root bool) bool {
	for i := 0; i < len(p); i++ {
		if p[i] < ' ' || p[i] > '~' {
			return false
		}
	}
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return root
	}
	p = strings.TrimSuffix(p, "/")
	segs := strings.Split(p, "/")
	if len(segs) > files.MaxPathDepth {
		return false
	}
	for _, s := range segs {
		if s == "" || s == "." || s == ".." || len(s) > files.MaxSegmentLength {
			return false
		}
	}
	return true
}

// pathCases are edge cases of the path rule.
var pathCases = []string{
	"", "/", "//", "a", "/a", "a/", "/a/", "a//b", ".", "..", "...", ".a", "a.", "..a", "a..", "./a", "a/.",
	"a/../b", "a/.../b", ".hidden/..x", "a b/c,d", "~/x", "-", "a\\b", "café", "a\tb", "a\x7f",
	strings.Repeat("s", 79), strings.Repeat("s", 80), strings.Repeat("s", 81), strings.Repeat(".", 80),
	strings.Repeat(".", 81), "." + strings.Repeat("s", 79), ".." + strings.Repeat("s", 78), ".." + strings.Repeat("s", 79),
	deep(12), deep(13), deep(14), deep(15), deep(16), deep(17), "/" + deep(16) + "/", "/" + deep(17) + "/",
	deep(15) + "/" + strings.Repeat("s", 80), strings.Repeat(strings.Repeat("s", 80)+"/", 16),
	"/" + strings.Repeat(strings.Repeat("s", 80)+"/", 16), deep(16) + "/..", deep(15) + "/..",
}

// TestPathPatternStatesTheLimits checks that the schema patterns of Path and PathOrRoot accept exactly the
// paths of the rule (depth and segment length included), that every path field of the seven tools uses
// them, and that maxLength is MaxPathLength, which is the longest path the pattern accepts.
func TestPathPatternStatesTheLimits(t *testing.T) {
	path, orRoot := schemaPatterns(t)
	for _, p := range pathCases {
		if got, want := path.MatchString(p), wantPath(p, false); got != want {
			t.Errorf("Path pattern on %q (%d bytes) = %v, want %v", p, len(p), got, want)
		}
		if got, want := orRoot.MatchString(p), wantPath(p, true); got != want {
			t.Errorf("PathOrRoot pattern on %q (%d bytes) = %v, want %v", p, len(p), got, want)
		}
	}
	longest := "/" + strings.Repeat(strings.Repeat("s", files.MaxSegmentLength)+"/", files.MaxPathDepth)
	if len(longest) != files.MaxPathLength || !path.MatchString(longest) || path.MatchString(longest+"s") {
		t.Errorf("the longest path (%d bytes) and MaxPathLength (%d) disagree", len(longest), files.MaxPathLength)
	}
	for _, f := range []struct {
		tool *wink.Tool
		prop string
		re   *regexp.Regexp
	}{
		{files.WinkReadFile, "file_path", path}, {files.WinkWriteFile, "file_path", path},
		{files.WinkEditFile, "file_path", path}, {files.WinkRm, "path", path},
		{files.WinkLs, "path", orRoot}, {files.WinkGlob, "path", orRoot},
		{files.WinkGrep, "path", orRoot},
	} {
		pat, maxLen := pathProp(t, f.tool, f.prop)
		if pat != f.re.String() || maxLen != files.MaxPathLength {
			t.Errorf("%s.%s: pattern %s, maxLength %d; want %s, %d", f.tool.Name(), f.prop, pat, maxLen, f.re, files.MaxPathLength)
		}
	}
}

// FuzzPathPattern compares the schema patterns with the rule on arbitrary strings.
func FuzzPathPattern(f *testing.F) {
	for _, p := range pathCases {
		f.Add(p)
	}
	path, orRoot := schemaPatterns(f)
	f.Fuzz(func(t *testing.T, p string) {
		if got, want := path.MatchString(p), wantPath(p, false); got != want {
			t.Errorf("Path pattern on %q = %v, want %v", p, got, want)
		}
		if got, want := orRoot.MatchString(p), wantPath(p, true); got != want {
			t.Errorf("PathOrRoot pattern on %q = %v, want %v", p, got, want)
		}
	})
}

// BenchmarkPathPatternLongest measures the schema pattern (which the decoder runs) on the longest accepted
// path; the bounded repetitions make Go use its NFA matcher.
func BenchmarkPathPatternLongest(b *testing.B) {
	path, _ := schemaPatterns(b)
	longest := "/" + strings.Repeat(strings.Repeat("s", files.MaxSegmentLength)+"/", files.MaxPathDepth)
	b.ReportAllocs()
	for b.Loop() {
		if !path.MatchString(longest) {
			b.Fatal("refused")
		}
	}
}
