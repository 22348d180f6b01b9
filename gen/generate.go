// Package gen is the winkgen generator library: load (go/packages) → analyze (go/types and the //wink:
// annotations into the model, with every semantic check) → emit (jennifer). It returns files as bytes plus
// diagnostics and never writes or exits on its own; cmd/winkgen and the tests consume the same Result.
package gen

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/gen/schema"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/gemini"
	"golang.org/x/tools/go/packages"
)

// Config selects what to generate.
type Config struct {
	Dir      string   // working directory for package patterns; "" means the current directory
	Patterns []string // package patterns; default "."
}

// Result is the outcome for one package that declares tools.
type Result struct {
	PkgPath    string
	OutputPath string // absolute path of wink_gen.go
	Content    []byte // nil when the package has diagnostics
}

// Analyze loads the packages matched by cfg and analyzes them: the model of each package that declares
// tools (or //wink:state types), in load order, and every diagnostic of the run, sorted and deduplicated.
// It is the one front end of generation, -check, -dump-ir, list and schema. The error is for failures that
// are not the developer's (the loader itself failed).
func Analyze(cfg Config) ([]*model.Package, []Diagnostic, error) {
	pkgs, ds, err := load(cfg.Dir, cfg.Patterns)
	if err != nil {
		return nil, nil, err
	}
	models, ds := analyzeLoaded(pkgs, ds)
	return models, ds, nil
}

// analyzeLoaded is Analyze after the load: ds are the load's diagnostics of pkgs.
func analyzeLoaded(pkgs []*packages.Package, ds []Diagnostic) ([]*model.Package, []Diagnostic) {
	var out []*model.Package
	for _, p := range pkgs {
		if len(p.Syntax) == 0 {
			continue
		}
		mp, pds := analyze(p)
		if mp != nil {
			// The dialect checks see the tools without problems of their own, so their diagnostics come
			// in the same run as the others.
			pds = append(pds, checkProviderLimits(mp, len(pds) > 0)...)
		}
		ds = append(ds, pds...)
		if mp != nil && len(pds) == 0 {
			out = append(out, mp)
		}
	}
	return out, sortDiagnostics(ds)
}

// Generate analyzes (Analyze) and emits every package matched by cfg. Diagnostics are returned all at
// once, sorted and deduplicated; when there are any, no Result is returned. The error is for failures
// that are not the developer's annotations (the loader itself failed, or emitted code did not format).
func Generate(cfg Config) ([]Result, []Diagnostic, error) {
	pkgs, ds, err := load(cfg.Dir, cfg.Patterns)
	if err != nil {
		return nil, nil, err
	}
	return generateLoaded(pkgs, ds)
}

// generateLoaded is Generate after the load: ds are the load's diagnostics of pkgs. The tests load many
// packages at once and generate each from its share of the load.
func generateLoaded(pkgs []*packages.Package, ds []Diagnostic) ([]Result, []Diagnostic, error) {
	models, ds := analyzeLoaded(pkgs, ds)
	if len(ds) > 0 {
		return nil, ds, nil
	}
	var results []Result
	for _, mp := range models {
		src, err := emit(mp)
		if err != nil {
			return nil, nil, err
		}
		ds = append(ds, checkEmitted(mp, src)...)
		results = append(results, Result{PkgPath: mp.Path, OutputPath: filepath.Join(mp.Dir, OutputName), Content: src})
	}
	if ds = sortDiagnostics(ds); len(ds) > 0 {
		return nil, ds, nil
	}
	sort.Slice(results, func(i, j int) bool { return results[i].PkgPath < results[j].PkgPath })
	return results, nil, nil
}

// Write writes each result whose file content differs from what is on disk, and returns the paths it
// wrote. Unchanged files are not touched, so build systems and editors see no change.
func Write(results []Result) ([]string, error) {
	var wrote []string
	for _, r := range results {
		old, err := os.ReadFile(r.OutputPath)
		if err == nil && bytes.Equal(old, r.Content) {
			continue
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return wrote, err
		}
		if err := os.WriteFile(r.OutputPath, r.Content, 0o644); err != nil {
			return wrote, err
		}
		wrote = append(wrote, r.OutputPath)
	}
	return wrote, nil
}

// Stale compares each result with the file on disk and returns a unified-style diff for every stale or
// missing file; empty means everything is fresh.
func Stale(results []Result, base string) string {
	var b strings.Builder
	for _, r := range results {
		old, err := os.ReadFile(r.OutputPath)
		if err == nil && bytes.Equal(old, r.Content) {
			continue
		}
		name := r.OutputPath
		if rel, err := filepath.Rel(base, name); err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
		if err != nil {
			fmt.Fprintf(&b, "%s: missing; run go generate\n", name)
			continue
		}
		fmt.Fprintf(&b, "%s: stale; run go generate\n%s", name, lineDiff(string(old), string(r.Content)))
	}
	return b.String()
}

// lineDiff is a small line diff (longest common subsequence) in unified style without hunks' context
// trimming beyond 3 lines.
func lineDiff(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	n, m := len(x), len(y)
	if n*m > 25_000_000 {
		return fmt.Sprintf("--- on disk (%d lines)\n+++ generated (%d lines)\n", n, m)
	}
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind byte
		text string
		line int
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], i + 1})
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, op{'+', y[j], i + 1})
			j++
		default:
			ops = append(ops, op{'-', x[i], i + 1})
			i++
		}
	}
	var out strings.Builder
	out.WriteString("--- on disk\n+++ generated\n")
	for k, o := range ops {
		if o.kind == ' ' {
			near := false
			for d := -3; d <= 3; d++ {
				if k+d >= 0 && k+d < len(ops) && ops[k+d].kind != ' ' {
					near = true
				}
			}
			if !near {
				continue
			}
		}
		fmt.Fprintf(&out, "%c%s\n", o.kind, o.text)
	}
	return out.String()
}

// checkProviderLimits reports what a provider would refuse in a tool's params: the tools whose params exceed
// the documented limits of OpenAI's strict mode (schema.CheckOpenAILimits: OpenAI refuses the whole request
// that carries such a tool), property names Gemini does not accept (gemini.NameOK: letters, digits and
// underscores, starting with a letter or an underscore, at most 64) and objects without properties, which
// Gemini cannot state (gemini.EmptyObjectError), at the field that declares them. When the package has
// diagnostics of its own (flawed), a struct can look empty only because its fields were refused: objects
// without properties are then left for the next run, after those are fixed.
func checkProviderLimits(p *model.Package, flawed bool) []Diagnostic {
	var ds diags
	for _, t := range append(p.Tools[:len(p.Tools):len(p.Tools)], p.Unfit...) {
		if t.Params == nil {
			continue
		}
		checkGeminiNames(&ds, t.Params, map[*model.Type]bool{})
		b, _, err := schema.Strict(t.Params)
		if err != nil {
			continue // emit reports it
		}
		if err := schema.CheckOpenAILimits(b); err != nil {
			ds.add(tokenPos(t.Pos), "tool %q: its params exceed OpenAI strict mode's limits (%s); OpenAI refuses a request carrying this tool: split or flatten its params",
				t.Name, strings.ReplaceAll(err.Error(), "\n", "; "))
		}
		// The forms the other adapters derive, held to their providers' rules as the dialect tests do: a
		// failure here would be a request the provider refuses.
		plain, err := schema.Plain(t.Params)
		if err != nil {
			continue // emit reports it
		}
		g, err := gemini.Schema(plain)
		var empty *gemini.EmptyObjectError
		if errors.As(err, &empty) && !flawed {
			for _, path := range empty.Paths {
				if f, owner := fieldAtPath(t.Params, path); f != nil {
					ds.add(tokenPos(f.Pos), "%s: Gemini cannot state %q, an object without properties (an empty struct): the Gemini API refuses an OBJECT without properties, and leaving it out of tool %q's Gemini schema would hide a value the decoder reads; give the struct a field, or use a bool, or []string for a set",
						structName(owner)+"."+strings.Join(f.GoPath, "."), path, t.Name)
				} else {
					ds.add(tokenPos(t.Pos), "tool %q: Gemini cannot state %q, an object without properties (an empty struct); give the struct a field, or use a bool, or []string for a set", t.Name, path)
				}
			}
		}
		if err == nil && g != nil {
			if err := schema.CheckGemini(g); err != nil {
				var rest []string
				for _, line := range strings.Split(err.Error(), "\n") {
					if !strings.Contains(line, "property name") { // reported above, at the field
						rest = append(rest, line)
					}
				}
				if len(rest) > 0 {
					ds.add(tokenPos(t.Pos), "tool %q: its params have no form Gemini accepts (%s)", t.Name, strings.Join(rest, "; "))
				}
			}
		}
		if a, ok, err := anthropic.StrictSchema(plain); err == nil && ok {
			if err := schema.CheckAnthropicStrict(a); err != nil {
				ds.add(tokenPos(t.Pos), "tool %q: its strict form breaks Anthropic's strict tool use (%s)", t.Name, strings.ReplaceAll(err.Error(), "\n", "; "))
			}
		}
	}
	return ds.list
}

// fieldAtPath returns the field of params that a Gemini schema path names (gemini.EmptyObjectError: JSON
// names joined by ".", "[*]" for an array's items, "*" for a map's values), and the struct declaring it; nil
// when the path names no field.
func fieldAtPath(params *model.Type, path string) (*model.Field, *model.Type) {
	var field *model.Field
	var owner *model.Type
	t := params
	for _, seg := range strings.Split(strings.ReplaceAll(path, "[*]", ".[*]"), ".") {
		for t != nil && t.Kind == model.KindPointer {
			t = t.Elem
		}
		if t == nil {
			return nil, nil
		}
		switch seg {
		case "[*]":
			if t.Kind != model.KindSlice && t.Kind != model.KindArray {
				return nil, nil
			}
			t = t.Elem
		case "*":
			if t.Kind != model.KindMap {
				return nil, nil
			}
			t = t.Elem
		default:
			if t.Kind != model.KindStruct {
				return nil, nil
			}
			var next *model.Field
			for _, f := range t.Fields {
				if f.JSONName == seg {
					next = f
				}
			}
			if next == nil {
				return nil, nil
			}
			field, owner, t = next, t, next.Type
		}
	}
	return field, owner
}

// checkGeminiNames reports the fields of t (and of the structs it holds) whose JSON name Gemini refuses as
// a parameter name.
func checkGeminiNames(ds *diags, t *model.Type, seen map[*model.Type]bool) {
	for t != nil && (t.Kind == model.KindPointer || t.Kind == model.KindSlice || t.Kind == model.KindArray || t.Kind == model.KindMap) {
		t = t.Elem
	}
	if t == nil || t.Kind != model.KindStruct || seen[t] {
		return
	}
	seen[t] = true
	for _, f := range t.Fields {
		if !gemini.NameOK(f.JSONName) {
			ds.add(tokenPos(f.Pos), "%s: JSON name %q is not a parameter name Gemini accepts (letters, digits and underscores, starting with a letter or an underscore, at most 64); rename it with a json tag",
				structName(t)+"."+strings.Join(f.GoPath, "."), f.JSONName)
		}
		checkGeminiNames(ds, f.Type, seen)
	}
}

// structName names a struct type in a diagnostic.
func structName(t *model.Type) string {
	if t.Named != nil {
		return t.Named.Name
	}
	return "struct"
}
