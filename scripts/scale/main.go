// Command scale measures how the cost of generated code grows with the number of tools: it writes a
// package of N tools (a small params and result struct each, every params struct its own type with its
// own tags, so that no two share a generic instantiation) twice, once with winkgen (//wink:tool
// handlers, wink_gen.go generated) and once with the MCP Go SDK (mcp.AddTool), then compiles each package
// alone (its dependencies already built) and reports compile time, the compiler's peak memory and the
// size of the compiled package, side by side with ratios. Run it with `make bench-scale` (N=200).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 200, "tools per package")
	runs := flag.Int("runs", 3, "compilations per package (the median is reported)")
	keep := flag.Bool("keep", false, "keep the generated packages")
	flag.Parse()
	if err := run(*n, *runs, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

func run(n, runs int, keep bool) error {
	root, err := os.MkdirTemp(".", ".scale-")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(root)
	}
	winkDir, mcpDir := filepath.Join(root, "winktools"), filepath.Join(root, "mcptools")
	for _, d := range []string{winkDir, mcpDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(winkDir, "tools.go"), winkSource(n), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(mcpDir, "tools.go"), mcpSource(n), 0o644); err != nil {
		return err
	}
	if out, err := exec.Command("go", "run", "./cmd/winkgen", "./"+winkDir).CombinedOutput(); err != nil {
		return fmt.Errorf("winkgen: %v\n%s", err, out)
	}
	lines, _ := countLines(filepath.Join(winkDir, "wink_gen.go"))
	fmt.Printf("%d tools; wink_gen.go: %d lines\n\n", n, lines)
	type result struct {
		name        string
		secs, rssMB float64
		objMB       float64
	}
	var res []result
	for _, c := range []struct{ name, dir string }{{"winkgen", winkDir}, {"mcp-go-sdk", mcpDir}} {
		// Build once so that every dependency is in the build cache; then each run edits a comment so
		// that only the package itself recompiles.
		if out, err := exec.Command("go", "build", "./"+c.dir).CombinedOutput(); err != nil {
			return fmt.Errorf("building %s: %v\n%s", c.name, err, out)
		}
		var secs, rss []float64
		for i := range runs {
			file := filepath.Join(c.dir, "tools.go")
			src, _ := os.ReadFile(file)
			src = append(src, []byte("\n// run "+strconv.Itoa(i)+" "+strconv.FormatInt(time.Now().UnixNano(), 10)+"\n")...)
			if err := os.WriteFile(file, src, 0o644); err != nil {
				return err
			}
			s, m, err := timedBuild(c.dir)
			if err != nil {
				return err
			}
			secs, rss = append(secs, s), append(rss, m)
		}
		out, err := exec.Command("go", "list", "-export", "-f", "{{.Export}}", "./"+c.dir).Output()
		if err != nil {
			return fmt.Errorf("go list -export %s: %v", c.name, err)
		}
		st, err := os.Stat(strings.TrimSpace(string(out)))
		if err != nil {
			return err
		}
		res = append(res, result{c.name, median(secs), median(rss), float64(st.Size()) / (1 << 20)})
	}
	fmt.Printf("%-12s %12s %16s %14s\n", "", "compile (s)", "compiler RSS (MB)", "object (MB)")
	for _, r := range res {
		fmt.Printf("%-12s %12.2f %16.0f %14.1f\n", r.name, r.secs, r.rssMB, r.objMB)
	}
	w, m := res[0], res[1]
	fmt.Printf("%-12s %11.2fx %15.2fx %13.2fx\n", "winkgen/mcp", w.secs/m.secs, w.rssMB/m.rssMB, w.objMB/m.objMB)
	return nil
}

// timedBuild compiles dir (its dependencies cached) and returns the wall time and the peak RSS of the
// largest process (the compiler), read from /usr/bin/time when present.
func timedBuild(dir string) (secs, rssMB float64, err error) {
	args := []string{"go", "build", "./" + dir}
	var rssOut bytes.Buffer
	if _, statErr := os.Stat("/usr/bin/time"); statErr == nil {
		args = append([]string{"/usr/bin/time", "-f", "%M"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = &rssOut
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("go build %s: %v\n%s", dir, err, rssOut.String())
	}
	secs = time.Since(start).Seconds()
	fields := strings.Fields(rssOut.String())
	if len(fields) > 0 {
		if kb, err := strconv.ParseFloat(fields[len(fields)-1], 64); err == nil {
			rssMB = kb / 1024
		}
	}
	return secs, rssMB, nil
}

func median(xs []float64) float64 {
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

func countLines(path string) (int, error) {
	b, err := os.ReadFile(path)
	return bytes.Count(b, []byte("\n")), err
}

// winkSource is a package of n winkgen tools.
func winkSource(n int) []byte {
	var b strings.Builder
	b.WriteString("// Package winktools is a generated scale test: " + strconv.Itoa(n) + " tools.\npackage winktools\n\n")
	b.WriteString("import \"github.com/winkgen/wink/runtime/wink\"\n")
	for i := range n {
		id := fmt.Sprintf("%03d", i)
		fmt.Fprintf(&b, `
// P%[1]s are the arguments of tool_%[1]s.
type P%[1]s struct {
	Query string `+"`json:\"query\" wink:\"minLength=1,maxLength=%[2]d\"`"+`
	Limit int    `+"`json:\"limit,omitempty\" wink:\"min=1,max=100,default=10\"`"+`
	Exact bool   `+"`json:\"exact,omitempty\"`"+`
}

// R%[1]s is the result of tool_%[1]s.
type R%[1]s struct {
	Items []string `+"`json:\"items\"`"+`
	Total int      `+"`json:\"total\"`"+`
}

// Tool%[1]s searches collection %[1]s.
//
//wink:tool name=tool_%[1]s
func Tool%[1]s(tc *wink.ToolContext, p P%[1]s) (wink.ToolResult[R%[1]s], error) {
	return wink.OK(R%[1]s{Items: []string{p.Query}, Total: 1}, "found"), nil
}
`, id, 100+i)
	}
	return []byte(b.String())
}

// mcpSource is the same n tools declared with the MCP Go SDK.
func mcpSource(n int) []byte {
	var b strings.Builder
	b.WriteString("// Package mcptools is a generated scale test: " + strconv.Itoa(n) + " tools.\npackage mcptools\n\n")
	b.WriteString("import (\n\t\"context\"\n\n\t\"github.com/modelcontextprotocol/go-sdk/mcp\"\n)\n")
	for i := range n {
		id := fmt.Sprintf("%03d", i)
		fmt.Fprintf(&b, `
// P%[1]s are the arguments of tool_%[1]s.
type P%[1]s struct {
	Query string `+"`json:\"query\" jsonschema:\"the search terms, at most %[2]d bytes\"`"+`
	Limit int    `+"`json:\"limit,omitempty\"`"+`
	Exact bool   `+"`json:\"exact,omitempty\"`"+`
}

// R%[1]s is the result of tool_%[1]s.
type R%[1]s struct {
	Items []string `+"`json:\"items\"`"+`
	Total int      `+"`json:\"total\"`"+`
}

func tool%[1]s(ctx context.Context, req *mcp.CallToolRequest, p P%[1]s) (*mcp.CallToolResult, R%[1]s, error) {
	return nil, R%[1]s{Items: []string{p.Query}, Total: 1}, nil
}
`, id, 100+i)
	}
	b.WriteString("\n// Register adds the tools to s.\nfunc Register(s *mcp.Server) {\n")
	for i := range n {
		id := fmt.Sprintf("%03d", i)
		fmt.Fprintf(&b, "\tmcp.AddTool(s, &mcp.Tool{Name: \"tool_%[1]s\", Description: \"Searches collection %[1]s.\"}, tool%[1]s)\n", id)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}
