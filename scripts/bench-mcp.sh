#!/usr/bin/env bash
# bench-mcp.sh (make bench-mcp): winkgen's MCP server side by side with the official Go SDK's own server
# (mcp.AddTool) on the same three tools, each server in its own process (benchmarks/mcp): calls per
# second and server CPU per call at 1, 8 and 64 clients (stateful and stateless streamable HTTP,
# BENCH_COUNT rounds, default 3, each running every configuration of both servers in turn), the resident
# memory (RSS and its peak, Linux) and live heap after WINK_MCPBENCH_CALLS calls on one session (default
# 100,000), and the memory of an idle session. Prints benchstat's medians with wink and the SDK server side
# by side.
#
# Environment: BENCH_OUT, the file for the raw `go test` output (default: a new temporary file; its path
# is printed); BENCH_COUNT; BENCH_TIME, the -benchtime of the calls benchmarks (default 3000x calls).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${BENCH_OUT:-$(mktemp "${TMPDIR:-/tmp}/winkgen-bench-mcp.XXXXXX")}
count=${BENCH_COUNT:-3}
benchtime=${BENCH_TIME:-3000x}

echo "running MCP server benchmarks into $out ..." >&2
go test -c -o "$out.test" ./benchmarks/mcp/
: > "$out"
for _ in $(seq "$count"); do # one run at a time: every configuration of both servers in each round
	"$out.test" -test.run '^$' -test.bench 'Calls' -test.benchtime "$benchtime" | tee -a "$out" >&2
done
"$out.test" -test.run '^$' -test.bench 'LiveHeap|IdleSession' -test.benchtime 1x -test.count 1 | tee -a "$out" >&2
rm -f "$out.test"

echo >&2
# The implementations side by side (column impl), every other configuration a row.
go tool benchstat -col /impl "$out"
