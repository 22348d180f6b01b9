package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// companyProxy is a module proxy like many companies run: it serves the modules it knows (here, from
// this machine's module cache, which holds every dependency of this repository) and answers 403 Forbidden
// for any module it does not, github.com/winkgen/wink among them while the module is unpublished. Every
// request it forbids is recorded.
func companyProxy(t *testing.T) (url string, forbidden func() []string) {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	cache := http.FileServer(http.Dir(filepath.Join(strings.TrimSpace(string(out)), "cache", "download")))
	var mu sync.Mutex
	var refused []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/github.com/winkgen/") || strings.HasPrefix(r.URL.Path, "/sumdb/") {
			mu.Lock()
			refused = append(refused, r.URL.Path)
			mu.Unlock()
			http.Error(w, "403 Forbidden: module not on the allow list", http.StatusForbidden)
			return
		}
		cache.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(refused) }
}

// readmeLocalCheckout returns the commands of the README's sh block for a local checkout (the one that
// replaces github.com/winkgen/wink with /path/to/wink), each split into words, comments dropped.
func readmeLocalCheckout(t *testing.T, repo string) [][]string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.Split(string(readme), "```sh\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		if !strings.Contains(block, "-replace=github.com/winkgen/wink=/path/to/wink") {
			continue
		}
		var cmds [][]string
		for _, line := range strings.Split(strings.ReplaceAll(block, "\\\n", " "), "\n") {
			line, _, _ = strings.Cut(line, "#")
			if f := strings.Fields(strings.ReplaceAll(line, "/path/to/wink", repo)); len(f) > 0 {
				cmds = append(cmds, f)
			}
		}
		return cmds
	}
	t.Fatal("README has no sh block with -replace=github.com/winkgen/wink=/path/to/wink")
	return nil
}
