#!/usr/bin/env bash
# Runs the requirement sets of @modelcontextprotocol/conformance (the version package-lock.json pins)
# against the conformance server binary given as $1 (default: example/cmd/conformance, built here):
#
#   2025-11-25 on a stateful server (sampling, elicitation and subscriptions of that revision need a
#              session);
#   2026-07-28 on a stateless server (-stateless) and on a stateful one.
#
# Each run runs every scenario of the revision's set, the scored ones and those the set runs without
# scoring (the tasks extension, pending scenarios), and prints one line per scenario and the score
# (summary.mjs). It fails when a scenario fails that conformance-baseline.txt does not list for that run,
# or when a listed one passes. Called by run.sh with node_modules/.bin (Node.js 22) first in PATH; run on
# its own with `bash testdata/mcpclients/conformance.sh` (npm ci first when node_modules is missing).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PATH="$here/node_modules/.bin:$PATH"
server="${1:-}"
out="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$out"' EXIT
if [ -z "$server" ]; then
	bash "$here/install.sh"
	server="$out/conformance"
	(cd "$root" && go build -o "$server" ./example/cmd/conformance)
fi
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
version="$(node -p "require('$here/node_modules/@modelcontextprotocol/conformance/package.json').version")"
status=0

# run NAME REVISION [SERVER FLAGS...] starts the server, runs the revision's requirement set against it
# and summarizes.
run() {
	local name="$1" revision="$2"
	shift 2
	local log="$out/$name.server.log"
	"$server" -http 127.0.0.1:0 "$@" 2>"$log" &
	local pid=$!
	pids+=("$pid")
	for _ in $(seq 100); do
		grep -q "listening on" "$log" && break
		sleep 0.1
	done
	local url
	url="$(sed -n 's/^listening on //p' "$log" | head -1)"
	[ -n "$url" ] || { echo "the conformance server did not start:"; cat "$log"; status=1; return; }
	echo "@modelcontextprotocol/conformance $version, $name: --requirements $revision against $url ($*)"
	mkdir -p "$out/$name"
	(cd "$out/$name" && node "$suite" server --url "$url" --requirements "$revision" -o "$out/$name/results" >"$out/$name/suite.log" 2>&1) || true
	if ! node "$here/summary.mjs" "$out/$name/results" "$revision" "$here/conformance-baseline.txt" "$name"; then
		status=1
		sed -n '/^Total:/,$p' "$out/$name/suite.log"
		echo "server log:"
		cat "$log"
	fi
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

run 2025-11-25 2025-11-25
run 2026-07-28-stateless 2026-07-28 -stateless
run 2026-07-28-stateful 2026-07-28
exit $status
