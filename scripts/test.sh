#!/usr/bin/env bash
# make test: every test and check of the tree on the machine's Go, in three lanes side by side, each lane's
# lines prefixed with its name:
#
#   race     every test and vet of the root module under -race (make test-race-root), the slowest
#            packages first
#   gen      the generator's and the evaluator's tests (make test-gen: their test binaries without -race,
#            the go commands they start with it), the dispatcher's allocation pins, which -race cannot
#            measure (make test-allocs), the freshness of generated code (make check-fresh), then the rest
#            of make test-race (make test-race-rest: the evaluator's concurrency tests and the nested
#            modules under -race), which would otherwise run alone after the race lane's root tests
#   clients  the darwin/windows type-check (make cross: a source type-check, built without -race, which
#            cannot cross-compile), then the official MCP clients and the conformance suite (make
#            mcp-clients)
#
# make test-extra runs the two lanes CI adds beside make test (.ci/run runs both commands):
#
#   next     the generator, decoders and dispatcher on the newest Go release (make go-next)
#   fuzz     every fuzz target for 10,000 executions (make fuzz-brief; their seed corpora already run as
#            tests in make test)
#
# Each of those two builds the tree once more (another toolchain; fuzzing's instrumentation), about a
# third of all the CPU a cold run spends, and neither checks the code a change touched on the Go a
# developer runs: make test stays the check to run before pushing.
#
# Why -race for nearly everything: on a fresh clone most of make test is compiling, and each way of building
# the tree (plain, -race) compiles the standard library and every dependency again. The race lane sets
# GOFLAGS=-race for every go command it runs (go vet, the tests, the go commands the
# tests start, winkgen -check, go build for the MCP clients' servers), and so does test-gen for the go
# commands the generator's tests start, so they share one build of the tree; a test that passes under -race
# passes without it, and the plain build's only extra checks (allocation counts, which -race changes) run in
# make test-allocs. The lanes build different things, so running them side by side wastes no
# work, and one lane's waits (PostgreSQL, subprocesses, Node.js) leave the CPU to the others.
#
# The script returns non-zero when any step failed, after every lane finished, and ends with each step's
# duration and CPU time (user and system, of every process the step waited for) and the whole run's CPU
# time. TEST_LANES (default "race gen clients"; make test-extra: "next fuzz") picks lanes.
set -uo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}

bash scripts/test-deps.sh || exit 1
lanes=${TEST_LANES:-race gen clients}
# The MCP clients (Node.js 22, the TypeScript SDK, the Inspector, oauth2-mock-server): the clients lane
# runs them and the race lane's authorization tests start oauth2-mock-server, so they are installed before
# any lane starts.
if [[ " $lanes " == *" race "* || " $lanes " == *" clients "* ]]; then
	bash testdata/mcpclients/install.sh || exit 1
fi
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt needed:"
	echo "$unformatted"
	exit 1
fi

steps_race="test-race-root"
steps_gen="test-gen test-allocs check-fresh test-race-rest"
steps_clients="cross mcp-clients"
steps_next="go-next"
steps_fuzz="fuzz-brief"
# The race build (every step's go commands but the plain builds' own) is made without debugging
# information (DWARF): no test reads it (stack traces and the race detector's reports come from the symbol
# table, which stays), and leaving it out takes an eighth off the CPU of compiling and linking (537 -> 470 s
# for the race build of runtime/mcpserver, adapters and providers with their dependencies, from an empty
# cache). The plain builds (the generator's test binaries, test-allocs, cross) take the default flags
# instead (the Makefile's PLAIN_GOFLAGS), which a user's `go tool winkgen` shares.
nodebug="-gcflags=all=-dwarf=false -ldflags=-w"
# Steps whose go commands build with -race: they share one build of the tree.
race_steps=" test-race test-race-root test-race-rest check-fresh mcp-clients test-gen "

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
t0=$(date +%s)
TIMEFORMAT='%1U %1S'

lane() {
	local name=$1 steps=$2 step start rc flags
	for step in $steps; do
		start=$(date +%s)
		echo "== $step"
		flags="${GOFLAGS:-} $nodebug"
		if [[ "$race_steps" == *" $step "* ]]; then
			flags="$flags -race"
		fi
		# bash's time keyword reports the CPU time of the step's whole process tree (every process it
		# waited for: the go commands, compilers, test binaries, servers, node).
		{ time GOFLAGS="$flags" $MAKE --no-print-directory "$step" 2>&3; } 3>&2 2>"$dir/$step.cpu"
		rc=$?
		echo "$name $step $(( $(date +%s) - start )) $rc $(awk '{ printf "%d", $1 + $2 + 0.5 }' "$dir/$step.cpu")" >>"$dir/times"
		if [ $rc -ne 0 ]; then
			echo "== $step FAILED (exit $rc); the rest of lane $name is skipped"
			return 1
		fi
	done
}

# Lanes that start together would compile the same packages at the same time (the build cache shares
# what is done, not what is under way): a cold run of the three lanes spent ~4 more minutes of CPU on
# such duplicates than when the steps building the same packages started apart. make prebuild compiles
# what the lanes share first, the race build and the plain one side by side; each lane then compiles only
# what is its own (its test binaries).
if [[ " $lanes " == *" race "* || " $lanes " == *" gen "* || " $lanes " == *" clients "* ]]; then
	lane pre prebuild 2>&1 | sed -u "s/^/[pre] /"
	if [ "${PIPESTATUS[0]}" -ne 0 ]; then
		echo "make test: the build failed (above); no lane was started"
		exit 1
	fi
fi

pids=()
for name in $lanes; do
	steps_var=steps_$name
	if [ -z "${!steps_var:-}" ]; then
		echo "scripts/test.sh: no lane $name (lanes: race gen clients next fuzz)" >&2
		exit 2
	fi
	# Each lane's lines get its name; sed -u keeps them flowing as they come.
	( lane "$name" "${!steps_var}" 2>&1 | sed -u "s/^/[$name] /"; exit "${PIPESTATUS[0]}" ) &
	pids+=($!)
done
failed=0
for p in "${pids[@]}"; do
	wait "$p" || failed=1
done

echo
echo "${TEST_NAME:-make test}: step times (lanes ran side by side; $(( $(date +%s) - t0 )) s in all)"
while read -r name step secs rc cpu; do
	status=ok
	[ "$rc" -ne 0 ] && status="FAILED (exit $rc)"
	printf '  %-7s %-12s %4d s  CPU %5s s  %s\n' "$name" "$step" "$secs" "$cpu" "$status"
done < <(sort -s -k1,1 "$dir/times")
# times: the second line is the CPU time (user, system) of every process the script waited for.
times >"$dir/total"
echo "  CPU of the whole run (user, system): $(sed -n 2p "$dir/total")"
if [ $failed -ne 0 ]; then
	echo "${TEST_NAME:-make test}: FAILED"
	exit 1
fi
echo "${TEST_NAME:-make test}: ok"
