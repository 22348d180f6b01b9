package main

import (
	"fmt"
	"io"
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
// this machine's module cache: a module version the cache lacks, such as a test dependency of a
// dependency that go mod tidy asks for, it first downloads into the cache through the machine's own
// GOPROXY, as a company proxy fills itself from upstream) and answers 403 Forbidden for any module it
// does not, github.com/winkgen/wink among them while the module is unpublished. Every
// request it forbids is recorded. With sumdb it also serves the checksum database sum.golang.org, as
// most company proxies do (here from what this machine's go command verified and cached: its signed
// tree head, its lookups and tiles), and records what it served of it; without, it answers 403 for the
// checksum database too.
func companyProxy(t *testing.T, sumdb bool) (url string, forbidden, checksums func() []string) {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatal(err)
	}
	modcache, gopath, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	if i := strings.IndexByte(gopath, os.PathListSeparator); i >= 0 {
		gopath = gopath[:i]
	}
	download := filepath.Join(modcache, "cache", "download")
	cache := http.FileServer(http.Dir(download))
	var mu sync.Mutex
	var refused, served []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path
		if strings.HasPrefix(path, "/github.com/winkgen/") || strings.HasPrefix(path, "/sumdb/") && !sumdb {
			mu.Lock()
			refused = append(refused, path)
			mu.Unlock()
			http.Error(w, "403 Forbidden: module not on the allow list", http.StatusForbidden)
			return
		}
		if rest, ok := strings.CutPrefix(path, "/sumdb/sum.golang.org/"); ok {
			mu.Lock()
			served = append(served, path)
			mu.Unlock()
			switch {
			case rest == "supported":
				return // 200: this proxy serves the checksum database
			case rest == "latest":
				http.ServeFile(w, r, filepath.Join(gopath, "pkg", "sumdb", "sum.golang.org", "latest"))
				return
			case !strings.HasPrefix(rest, "lookup/") && !strings.HasPrefix(rest, "tile/"):
				http.NotFound(w, r)
				return
			}
			if _, err := os.Stat(filepath.Join(download, filepath.FromSlash(path))); err != nil {
				forwardSumdb(w, rest) // not verified on this machine yet: ask the checksum database, as the company's proxy does
				return
			}
		}
		if !strings.HasPrefix(path, "/sumdb/") {
			if err := fill(download, path); err != nil {
				http.Error(w, err.Error(), http.StatusNotFound)
				return
			}
		}
		cache.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(refused) },
		func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(served) }
}

// fillMu serializes fill's downloads: two go commands filling the same module cache at once would only
// wait on each other's lock.
var fillMu sync.Mutex

// fill makes sure the module cache under download holds the file a proxy request's path names (a
// module version's .info, .mod or .zip), downloading the version with the machine's go command (its own
// GOPROXY, outside any module) when it does not: the test proxy then serves every public module, as the
// company proxy it stands for does, and not only those this machine happened to download before. Other
// paths (a version list, @latest) are served from the cache as they are.
func fill(download, path string) error {
	rest, ext, ok := strings.Cut(path, "/@v/")
	if !ok || strings.Contains(ext, "/") {
		return nil
	}
	var version string
	for _, e := range []string{".info", ".mod", ".zip"} {
		if v, ok := strings.CutSuffix(ext, e); ok {
			version = v
		}
	}
	if version == "" {
		return nil
	}
	if _, err := os.Stat(filepath.Join(download, filepath.FromSlash(path))); err == nil {
		return nil
	}
	fillMu.Lock()
	defer fillMu.Unlock()
	if _, err := os.Stat(filepath.Join(download, filepath.FromSlash(path))); err == nil {
		return nil
	}
	// The escaped path spells each upper-case letter as ! and the lower-case letter.
	var mod strings.Builder
	escaped := strings.TrimPrefix(rest, "/")
	for i := 0; i < len(escaped); i++ {
		if escaped[i] == '!' && i+1 < len(escaped) {
			i++
			mod.WriteByte(escaped[i] - 'a' + 'A')
			continue
		}
		mod.WriteByte(escaped[i])
	}
	cmd := exec.Command("go", "mod", "download", "-json", mod.String()+"@"+version)
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s@%s is not on this machine and the upstream proxy did not give it: %v\n%s", mod.String(), version, err, out)
	}
	return nil
}

// forwardSumdb answers with the checksum database's answer for rest (a lookup or a tile), through the Go
// module mirror.
func forwardSumdb(w http.ResponseWriter, rest string) {
	resp, err := http.Get("https://proxy.golang.org/sumdb/sum.golang.org/" + rest)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
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
