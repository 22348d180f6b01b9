package main

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/internal/goflags"
)

// TestUseInYourModule follows the README's "Use it in your module" in a fresh module in a temporary
// directory, as a new user does: an empty module (no go.sum), the README's commands for a local checkout
// as written, //go:generate go tool winkgen, generate, build, vet, go mod tidy, build again, winkgen
// -check, and a program that dispatches a call. The module is not published, so the new module replaces
// it with this checkout, the way a user behind a company's module proxy does: GOPROXY names a proxy that
// serves every other module and answers 403 Forbidden for github.com/winkgen/wink (companyProxy), which
// must never be asked. The go command starts as on a new machine (an empty GOPATH: no module cache, no
// checksum database state), so every module and every checksum of go.sum comes through the proxy. (The
// proxy serves what this machine's go command has downloaded and verified; a checksum database tile it
// lacks, it asks the Go module mirror for, as a company proxy does.)
func TestUseInYourModule(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/agent\n\ngo 1.26\n")
	write("tools/tools.go", `// Package tools holds the agent's tools.
package tools

`+goGenerate+` go tool winkgen

import "github.com/winkgen/wink/runtime/wink"

// GreetParams are the arguments of greet.
type GreetParams struct {
	// Name is who to greet.
	Name string `+"`json:\"name\" wink:\"minLength=1\"`"+`
}

// Greeting is what greet returns.
type Greeting struct {
	// Text is the greeting.
	Text string `+"`json:\"text\"`"+`
}

// Greet greets someone by name.
//
//wink:tool
func Greet(tc *wink.ToolContext, p GreetParams) (wink.ToolResult[Greeting], error) {
	return wink.OK(Greeting{Text: "Hello, " + p.Name + "!"}, "Greeted."), nil
}
`)
	write("main.go", `package main

import (
	"context"
	"fmt"

	"example.com/agent/tools"
	"github.com/winkgen/wink/runtime/wink"
)

func main() {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(tools.WinkTools())}
	for _, args := range []string{`+"`{\"name\":\"Ada\"}`, `{\"name\":\"\"}`"+`} {
		out, err := d.Dispatch(context.Background(), wink.Call{ID: "1", Name: "greet", Arguments: []byte(args)})
		fmt.Println(out.Success, out.Output, err)
	}
}
`)
	proxy, forbidden, checksums := companyProxy(t, true)
	gopath := newUserGopath(t, repo) // a new user's: no module cache, no checksum database state
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOPROXY="+proxy, "GOFLAGS="+buildFlags(t), "GOWORK=off", "GONOSUMDB=", "GONOSUMCHECK=", "GOSUMDB=",
			"GOPRIVATE=", "GONOPROXY=", "GOINSECURE=", "GOPATH="+gopath, "GOMODCACHE=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	// The README's steps for a local checkout, as written.
	for _, c := range readmeLocalCheckout(t, repo) {
		if c[0] != "go" {
			t.Fatalf("the README's local-checkout block runs %q; this test runs only go commands", c)
		}
		run(c[1:]...)
	}
	run("generate", "./...")
	if _, err := os.Stat(filepath.Join(dir, "tools", "wink_gen.go")); err != nil {
		t.Fatal("go generate wrote no wink_gen.go")
	}
	run("build", "./...")
	run("vet", "./...")
	run("mod", "tidy")
	run("build", "./...")
	run("tool", "winkgen", "-check", "./...")
	out := run("run", ".")
	want := "true Greeted.\n\n{\"text\":\"Hello, Ada!\"} <nil>\n" +
		"false Invalid arguments for tool \"greet\":\n- name: must be at least 1 character long; got 0\nFix the arguments and call greet again. <nil>\n"
	if out != want {
		t.Errorf("the program printed:\n%s\nwant:\n%s", out, want)
	}
	if f := forbidden(); len(f) > 0 {
		t.Errorf("the proxy was asked for what it forbids: %q", f)
	}
	if sum, err := os.ReadFile(filepath.Join(dir, "go.sum")); err != nil || !strings.Contains(string(sum), "golang.org/x/") {
		t.Errorf("the commands wrote no go.sum with the runtime's dependencies (%v):\n%s", err, sum)
	}
	if c := checksums(); !slices.ContainsFunc(c, func(p string) bool { return strings.HasPrefix(p, "/sumdb/sum.golang.org/lookup/golang.org/x/") }) {
		t.Errorf("the go command verified no checksum through the proxy's checksum database; it asked for %q", c)
	}
	if gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod")); !strings.Contains(string(gomod), "tool github.com/winkgen/wink/cmd/winkgen") {
		t.Errorf("go mod tidy dropped the tool line:\n%s", gomod)
	}
}

// goGenerate is the directive's prefix, kept out of this file's own lines so that go generate ./... in
// this repository does not run the example module's directive.
const goGenerate = "//go:" + "generate"

// newUserGopath returns an empty GOPATH for a new user's go command: no module cache, no checksum database
// state. It is the same folder on every run of this checkout's test where it can be (in the temporary
// folder, named after the checkout, held by one run at a time through a lock file), emptied before and
// after the run, so that what an earlier run compiled into the build cache is found again: without
// -trimpath the go command keys a compiled package by its source folder, and a new folder each run would
// compile every dependency of the new module anew each run. That reuse weakens nothing checked here: the
// build cache is keyed by the content of every source file (a module served differently is compiled
// anew), and it was shared already for everything outside GOPATH; the module cache and the checksum
// database state, which this test is about, start empty each time. When another run holds the folder (or
// left its lock less than an hour ago), the run takes a new folder of its own.
func newUserGopath(t *testing.T, repo string) string {
	t.Helper()
	sum := sha256.Sum256([]byte(repo))
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("winkgen-newuser-%x", sum[:8]))
	lock := dir + ".lock"
	if st, err := os.Stat(lock); err == nil && time.Since(st.ModTime()) > time.Hour {
		os.Remove(lock) // left by a run that was killed
	}
	f, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		t.Logf("%s is taken (%v): a new GOPATH of this run's own, every dependency compiled anew", dir, err)
		dir = t.TempDir()
		t.Cleanup(func() { makeWritable(dir) }) // runs before TempDir's removal
		return dir
	}
	f.Close()
	empty := func() error {
		makeWritable(dir)
		return os.RemoveAll(dir)
	}
	if err := empty(); err != nil {
		os.Remove(lock)
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		os.Remove(lock)
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := empty(); err != nil {
			t.Error(err)
		}
		os.Remove(lock)
	})
	return dir
}

// makeWritable makes every folder under dir writable: the go command makes the module cache read-only.
func makeWritable(dir string) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
}

// buildFlags keeps, of the surrounding test run's GOFLAGS, the flags that only say how packages are
// compiled (-race, -gcflags, -ldflags; make test sets -race and builds without DWARF): the new user's module
// then reuses the standard library and the packages that run compiled, instead of compiling them once
// more. No flag that changes what the go command resolves or fetches (-mod, -modfile, ...) reaches the
// user's commands.
func buildFlags(t *testing.T) string {
	t.Helper()
	flags, err := goflags.Split(os.Getenv("GOFLAGS"))
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, f := range flags {
		if f == "-race" || f == "-race=true" || strings.HasPrefix(f, "-gcflags=") || strings.HasPrefix(f, "-ldflags=") {
			keep = append(keep, f)
		}
	}
	s, err := goflags.Join(keep)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
