// Command winkgen generates wink_gen.go for every package that declares //wink:tool handlers.
//
//	winkgen [-check] [packages]                          generate (or, with -check, verify) wink_gen.go
//	winkgen -dump-ir [packages]                          print what the analyzer understood
//	winkgen list [packages]                              print a table of the tools
//	winkgen schema -format F [packages]                  print the tools payload F's adapter sends, byte for
//	                                                     byte (F: openai, openai-responses, anthropic,
//	                                                     anthropic-strict, gemini; a tool anthropic-strict
//	                                                     sends without strict is named on stderr, with why)
//	winkgen schema -format mcp [-revision R] [packages]  print the tools array runtime/mcpserver's tools/list
//	                                                     sends at MCP revision R (default the newest): title,
//	                                                     annotations, examples, _meta, the outputSchema
//	                                                     envelope, as a server without options lists them
//	winkgen help [command]                               print usage (also -h)
//	winkgen -version                                     print the module version
//
// With no packages it works on the package in the current directory (as go generate runs it). Diagnostics
// are printed as file:line:col: message, all at once. Exit codes: 0 ok; 1 diagnostics, or with -check stale
// output (a diff is printed); 2 usage or internal error. list and schema read the source only, so they work
// before the first go generate.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/winkgen/wink/gen"
	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/runtime/mcpserver"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// usage is the text of winkgen -h and winkgen help.
const usage = `winkgen generates wink_gen.go (tool registry, JSON Schemas, strict decoders, encoders) for every
package that declares //wink:tool handlers or //wink:state types.

usage:
  winkgen [-check] [-dump-ir] [packages]   generate wink_gen.go (with -check: verify it is fresh, print a
                                           diff and exit 1 when it is not; with -dump-ir: print what was
                                           understood)
  winkgen list [packages]                  print a table of the tools
  winkgen schema -format F [packages]      print the tools payload F's adapter sends (F: openai, openai-responses,
                                           anthropic, anthropic-strict, gemini)
  winkgen schema -format mcp [-revision R] [packages]
                                           print the tools array an MCP server (runtime/mcpserver, no
                                           options) sends in tools/list at revision R (default the newest):
                                           title, annotations, examples, _meta, the outputSchema envelope
  winkgen help [list|schema]               print this help, or a command's
  winkgen -version                         print the module version

With no packages it works on the package in the current directory (as go generate runs it).
Exit codes: 0 ok; 1 diagnostics or stale output; 2 usage or internal error.

flags:
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "list":
			return list(args[1:], stdout, stderr)
		case "schema":
			return schemaCmd(args[1:], stdout, stderr)
		case "help":
			switch {
			case len(args) > 1 && args[1] == "list":
				return list([]string{"-h"}, stdout, stdout)
			case len(args) > 1 && args[1] == "schema":
				return schemaCmd([]string{"-h"}, stdout, stdout)
			case len(args) > 1:
				fmt.Fprintf(stderr, "winkgen help: unknown command %q; commands: list, schema (winkgen help prints the usage)\n", args[1])
				return 2
			}
			args = []string{"-h"}
			stderr = stdout
		}
	}
	fs := flag.NewFlagSet("winkgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "do not write; report stale or missing generated files with a diff and exit 1")
	dumpIR := fs.Bool("dump-ir", false, "do not write; print what was understood (tools, types, fields, constraints)")
	version := fs.Bool("version", false, "print the module version and exit")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if *version {
		fmt.Fprintln(stdout, "winkgen", moduleVersion())
		return 0
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "winkgen:", err)
		return 2
	}
	if *dumpIR {
		models, diags, err := gen.Analyze(gen.Config{Dir: wd, Patterns: fs.Args()})
		if err != nil {
			return loadFailed(stderr, err, fs.Args())
		}
		for _, d := range diags {
			fmt.Fprintln(stderr, d.Format(wd))
		}
		for _, m := range models {
			model.Dump(stdout, m)
		}
		if len(diags) > 0 {
			return 1
		}
		return 0
	}
	results, diags, err := gen.Generate(gen.Config{Dir: wd, Patterns: fs.Args()})
	if err != nil {
		return loadFailed(stderr, err, fs.Args())
	}
	if len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(stderr, d.Format(wd))
		}
		return 1
	}
	if *check {
		if diff := gen.Stale(results, wd); diff != "" {
			fmt.Fprint(stdout, diff)
			return 1
		}
		return 0
	}
	if _, err := gen.Write(results); err != nil {
		fmt.Fprintln(stderr, "winkgen:", err)
		return 2
	}
	return 0
}

func inspect(patterns []string, stderr io.Writer) ([]gen.ToolInfo, int) {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "winkgen:", err)
		return nil, 2
	}
	tools, diags, err := gen.Inspect(gen.Config{Dir: wd, Patterns: patterns})
	if err != nil {
		return nil, loadFailed(stderr, err, patterns)
	}
	if len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(stderr, d.Format(wd))
		}
		return nil, 1
	}
	return tools, 0
}

func list(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("winkgen list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, "usage: winkgen list [packages]") }
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	tools, code := inspect(fs.Args(), stderr)
	if code != 0 {
		return code
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tDESCRIPTION\tPARAMS (? optional)\tIDEMPOTENCY\tPOSITION")
	for _, t := range tools {
		idem := t.Idempotency
		if idem == "" {
			idem = "-"
		}
		params := strings.Join(t.Params, ", ")
		if params == "" {
			params = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.Name, t.Description, params, idem, t.Position)
	}
	tw.Flush()
	return 0
}

func schemaCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("winkgen schema", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "openai", "payload format: "+strings.Join(gen.Formats, ", ")+" (the bytes that provider's adapter sends)")
	revision := fs.String("revision", "", "with -format mcp: the MCP protocol revision whose tools/list to print ("+strings.Join(mcpserver.Revisions(), ", ")+"; default the newest)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: winkgen schema -format "+strings.Join(gen.Formats, "|")+" [-revision R] [packages]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if !slices.Contains(gen.Formats, *format) {
		fmt.Fprintf(stderr, "winkgen schema: unknown format %q; use %s\n", *format, strings.Join(gen.Formats, ", "))
		return 2
	}
	if *revision != "" && *format != "mcp" {
		fmt.Fprintln(stderr, "winkgen schema: -revision applies to -format mcp only")
		return 2
	}
	if *revision != "" && !slices.Contains(mcpserver.Revisions(), *revision) {
		fmt.Fprintf(stderr, "winkgen schema: unknown MCP revision %q; use %s\n", *revision, strings.Join(mcpserver.Revisions(), ", "))
		return 2
	}
	tools, code := inspect(fs.Args(), stderr)
	if code != 0 {
		return code
	}
	var out []byte
	var err error
	if *format == "mcp" {
		out, err = gen.MCPTools(tools, *revision)
	} else {
		out, err = gen.Payload(tools, *format)
	}
	if err != nil {
		fmt.Fprintln(stderr, "winkgen:", err)
		return 2
	}
	stdout.Write(out)
	for _, n := range gen.Notices(tools, *format) {
		fmt.Fprintln(stderr, "winkgen schema: "+n)
	}
	return 0
}

// moduleVersion is the version of the module winkgen was built from ("(devel)" inside its own module).
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if bi.Main.Path != "github.com/winkgen/wink" {
		for _, d := range bi.Deps {
			if d.Path == "github.com/winkgen/wink" {
				v = d.Version
				if d.Replace != nil {
					v += " => " + d.Replace.Path
				}
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	return v + " " + bi.GoVersion
}

// loadFailed prints why the packages could not be loaded and returns the exit code: 2, a usage error
// (a pattern naming no package) or an internal one. A pattern that looks like a misspelt command or flag
// gets a suggestion.
func loadFailed(stderr io.Writer, err error, patterns []string) int {
	fmt.Fprintln(stderr, "winkgen:", err)
	var pe *gen.PatternError
	if errors.As(err, &pe) {
		for _, p := range patterns {
			if s := nearCommand(p); s != "" {
				fmt.Fprintf(stderr, "winkgen: %q is no package; did you mean %s?\n", p, s)
			}
		}
		fmt.Fprintln(stderr, "usage: winkgen [-check] [-dump-ir] [packages]; winkgen help prints the whole usage")
	}
	return 2
}

// nearCommand returns the command or flag p is a near miss of ("lsit" → "winkgen list", "check" →
// "winkgen -check"), or "".
func nearCommand(p string) string {
	if strings.ContainsAny(p, "./") {
		return ""
	}
	for _, c := range []struct{ word, say string }{
		{"list", "winkgen list"}, {"schema", "winkgen schema"}, {"help", "winkgen help"},
		{"check", "winkgen -check"}, {"generate", "winkgen (it generates by default)"},
		{"version", "winkgen -version"}, {"dump-ir", "winkgen -dump-ir"},
	} {
		if d := distance(strings.TrimLeft(strings.ToLower(p), "-"), c.word); d <= 2 && d < len(c.word)/2+1 {
			return c.say
		}
	}
	return ""
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
