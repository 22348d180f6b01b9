package files_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/vfs"
)

// TestGrepWalksNeverFollowDirectorySymlinksAndSurviveBadLinks builds a tree with five directory
// symlinks pointing back up (a walk that follows them grows exponentially), a dangling link and a link
// out of the workspace: grep finds each real match once, quickly, and reports the links it could not
// read instead of failing.
func TestGrepWalksNeverFollowDirectorySymlinksAndSurviveBadLinks(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	must(os.WriteFile(filepath.Join(root, "a", "b", "x.txt"), []byte("needle\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "top.txt"), []byte("needle too\n"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("needle outside\n"), 0o644))
	for i, target := range []string{"..", "../..", ".", "..", "../.."} {
		must(os.Symlink(target, filepath.Join(root, "a", "b", "loop"+string(rune('0'+i)))))
	}
	must(os.Symlink("nowhere.txt", filepath.Join(root, "dangling.txt")))
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "escape.txt")))
	h, err := vfs.NewHost(root)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	e := newEnv(h, true)
	start := time.Now()
	out := e.call(t, "grep", `{"pattern":"needle"}`)
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("grep took %v", took)
	}
	if !out.Success {
		t.Fatalf("grep failed: %s", out.Output)
	}
	for _, want := range []string{"a/b/x.txt:1: needle", "top.txt:1: needle too", "Could not read 2 files or directories"} {
		if !strings.Contains(out.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, out.Output)
		}
	}
	if strings.Count(out.Output, "x.txt:1:") != 1 || strings.Contains(out.Output, "outside") || strings.Contains(out.Output, "loop") {
		t.Errorf("a linked directory was followed:\n%s", out.Output)
	}
}
