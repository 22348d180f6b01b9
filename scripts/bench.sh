#!/usr/bin/env bash
# bench.sh (make bench): runs the decode and dispatch benchmarks six times, shows benchstat's summary, and prints the
# markdown table of medians with the targets checked (scripts/benchtable). Exits non-zero when a target
# is missed.
#
# Environment: BENCH_OUT, the file for the raw `go test` output (default: a new temporary file; its path
# is printed); BENCH_COUNT, the number of runs (default 6).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${BENCH_OUT:-$(mktemp "${TMPDIR:-/tmp}/winkgen-bench.XXXXXX")}
count=${BENCH_COUNT:-6}

echo "running benchmarks (-count $count) into $out ..." >&2
go test -run '^$' -bench 'DecodeSearchArgs|DispatchSearch' -benchmem -count "$count" ./benchmarks/ | tee "$out" >&2

echo >&2
# benchstat is a tool dependency of the module (go get -tool golang.org/x/perf/cmd/benchstat).
go tool benchstat "$out" >&2
echo >&2

go run ./scripts/benchtable "$out"
