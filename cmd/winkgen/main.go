// Command winkgen generates wink_gen.go for every package that declares //wink:tool handlers.
//
//	winkgen [-check] [packages]
//
// With no packages it generates the package in the current directory (as go generate runs it). Diagnostics
// are printed as file:line:col: message, all at once. Exit codes: 0 ok; 1 diagnostics, or with -check stale
// output (a diff is printed); 2 usage or internal error.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/winkgen/wink/gen"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("winkgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "do not write; report stale or missing generated files with a diff and exit 1")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: winkgen [-check] [packages]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "winkgen:", err)
		return 2
	}
	results, diags, err := gen.Generate(gen.Config{Dir: wd, Patterns: fs.Args()})
	if err != nil {
		fmt.Fprintln(stderr, "winkgen:", err)
		return 2
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
