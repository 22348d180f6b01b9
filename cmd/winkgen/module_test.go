package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
	gopath := t.TempDir() // a new user's: no module cache, no checksum database state
	t.Cleanup(func() {    // the go command makes the module cache read-only; let TempDir remove it
		filepath.WalkDir(gopath, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
	})
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOPROXY="+proxy, "GOFLAGS=", "GOWORK=off", "GONOSUMDB=", "GONOSUMCHECK=", "GOSUMDB=",
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
