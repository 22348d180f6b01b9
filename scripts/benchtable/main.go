// Command benchtable reads the output of
//
//	go test -run '^$' -bench 'DecodeSearchArgs|DispatchSearch' -benchmem -count N ./benchmarks/
//
// and prints a markdown table of medians (ns/op, B/op, allocs/op) per implementation with each one's time
// relative to winkgen, then the speed targets checked. It exits 1 when a target is missed or a
// benchmark is absent, 2 on a usage or read error.
//
// Usage: benchtable [file] (standard input when absent).
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Implementations of BenchmarkDecodeSearchArgs, in table order.
var implementations = []string{"winkgen", "encoding_json_strict", "json_v2", "mcp_go_sdk_path", "handwritten"}

const (
	decodePrefix = "BenchmarkDecodeSearchArgs/"
	dispatchName = "BenchmarkDispatchSearch"
)

// samples are the per-run measurements of one benchmark.
type samples struct {
	ns, bytes, allocs []float64
}

// stats are the medians of one benchmark.
type stats struct {
	ns, bytes, allocs float64
	runs              int
}

// report is what a benchmark output file holds.
type report struct {
	cpu, goos, goarch string
	results           map[string]stats // by implementation name; dispatchName for the dispatch
}

// parse reads go test -bench output.
func parse(r io.Reader) (*report, error) {
	rep := &report{results: map[string]stats{}}
	raw := map[string]*samples{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "cpu: "):
			rep.cpu = strings.TrimPrefix(line, "cpu: ")
		case strings.HasPrefix(line, "goos: "):
			rep.goos = strings.TrimPrefix(line, "goos: ")
		case strings.HasPrefix(line, "goarch: "):
			rep.goarch = strings.TrimPrefix(line, "goarch: ")
		case strings.HasPrefix(line, "Benchmark"):
			name, s, ok := parseLine(line)
			if !ok {
				continue
			}
			key := ""
			switch {
			case strings.HasPrefix(name, decodePrefix):
				key = strings.TrimPrefix(name, decodePrefix)
			case name == dispatchName:
				key = dispatchName
			default:
				continue
			}
			acc := raw[key]
			if acc == nil {
				acc = &samples{}
				raw[key] = acc
			}
			acc.ns = append(acc.ns, s[0])
			acc.bytes = append(acc.bytes, s[1])
			acc.allocs = append(acc.allocs, s[2])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for k, s := range raw {
		rep.results[k] = stats{ns: median(s.ns), bytes: median(s.bytes), allocs: median(s.allocs), runs: len(s.ns)}
	}
	return rep, nil
}

// units maps the units benchtable reads to their index in parseLine's values.
var units = map[string]int{"ns/op": 0, "B/op": 1, "allocs/op": 2}

// parseLine splits a result line into the benchmark name (without the -GOMAXPROCS suffix) and its ns/op,
// B/op and allocs/op; ok is false when any of them is missing.
func parseLine(line string) (name string, vals [3]float64, ok bool) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return "", vals, false
	}
	name = f[0]
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	var have [3]bool
	for i := 2; i+1 < len(f); i++ {
		k, known := units[f[i+1]]
		if !known {
			continue
		}
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return "", vals, false
		}
		vals[k], have[k] = v, true
	}
	return name, vals, have[0] && have[1] && have[2]
}

// median returns the median of xs (the mean of the middle two for an even count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// check is one speed target.
type check struct {
	what, target, measured string
	ok                     bool
}

// checks evaluates the targets; it needs winkgen, the three peers named below and the dispatch.
func checks(r *report) []check {
	w := r.results["winkgen"]
	ej := r.results["encoding_json_strict"]
	mcp := r.results["mcp_go_sdk_path"]
	hw := r.results["handwritten"]
	dis := r.results[dispatchName]
	x := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "x" }
	return []check{
		{"winkgen vs encoding_json_strict", ">= 7x faster", x(ej.ns/w.ns) + " faster", ej.ns >= 7*w.ns},
		{"winkgen vs mcp_go_sdk_path", ">= 50x faster", x(mcp.ns/w.ns) + " faster", mcp.ns >= 50*w.ns},
		{"winkgen vs handwritten", "<= 1.3x the time", x(w.ns/hw.ns) + " the time", w.ns <= 1.3*hw.ns},
		{"winkgen allocs/op", "<= 6", num(w.allocs), w.allocs <= 6},
		{"dispatch vs winkgen decode", "<= 2x the time", x(dis.ns/w.ns) + " the time", dis.ns <= 2*w.ns},
		{"dispatch vs encoding_json_strict decode", "faster", x(ej.ns/dis.ns) + " faster", dis.ns < ej.ns},
	}
}

// num formats a median without a needless fraction.
func num(v float64) string {
	if v == float64(int64(v)) {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// write prints the tables; it returns false when a target is missed.
func write(w io.Writer, r *report, date time.Time, goVersion string) bool {
	base := r.results["winkgen"]
	runs := base.runs
	fmt.Fprintf(w, "Medians of %d runs; %s, %s/%s, %s, %s.\n\n", runs, r.cpu, r.goos, r.goarch, goVersion, date.UTC().Format("2006-01-02"))
	fmt.Fprintln(w, "| implementation | ns/op | B/op | allocs/op | time vs winkgen |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: |")
	row := func(label string, s stats) {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %sx |\n", label, num(s.ns), num(s.bytes), num(s.allocs),
			strconv.FormatFloat(s.ns/base.ns, 'f', 2, 64))
	}
	for _, name := range implementations {
		row("`"+name+"`", r.results[name])
	}
	row("dispatch (`BenchmarkDispatchSearch`)", r.results[dispatchName])
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| target | wanted | measured | |")
	fmt.Fprintln(w, "| --- | --- | --- | --- |")
	all := true
	for _, c := range checks(r) {
		verdict := "ok"
		if !c.ok {
			verdict, all = "MISSED", false
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", c.what, c.target, c.measured, verdict)
	}
	return all
}

// missing lists the benchmarks the report lacks.
func missing(r *report) []string {
	var out []string
	for _, name := range append(slices.Clone(implementations), dispatchName) {
		if _, ok := r.results[name]; !ok {
			out = append(out, name)
		}
	}
	return out
}

func main() {
	var in io.Reader = os.Stdin
	switch len(os.Args) {
	case 1:
	case 2:
		f, err := os.Open(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchtable:", err)
			os.Exit(2)
		}
		defer f.Close()
		in = f
	default:
		fmt.Fprintln(os.Stderr, "usage: benchtable [file]")
		os.Exit(2)
	}
	r, err := parse(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(2)
	}
	if m := missing(r); len(m) > 0 {
		fmt.Fprintln(os.Stderr, "benchtable: no results for", strings.Join(m, ", "))
		os.Exit(1)
	}
	if !write(os.Stdout, r, time.Now(), runtime.Version()) {
		os.Exit(1)
	}
}
