#!/usr/bin/env bash
# Runs every server scenario of @modelcontextprotocol/conformance (the version package-lock.json pins)
# against the conformance server binary given as $1 (example/cmd/conformance), prints one line per
# scenario (checks passed, failed, warnings) and fails when a check failed. Called by run.sh with
# node_modules/.bin (Node.js 22) first in PATH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
server="$1"
out="$(mktemp -d)"
log="$out/server.log"
"$server" -http 127.0.0.1:0 2>"$log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$out"' EXIT
for _ in $(seq 100); do
	grep -q "listening on" "$log" && break
	sleep 0.1
done
url="$(sed -n 's/^listening on //p' "$log" | head -1)"
[ -n "$url" ] || { echo "the conformance server did not start:"; cat "$log"; exit 1; }
version="$(node -p "require('$here/node_modules/@modelcontextprotocol/conformance/package.json').version")"
echo "@modelcontextprotocol/conformance $version: every server scenario against $url"
status=0
(cd "$out" && node "$here/node_modules/@modelcontextprotocol/conformance/dist/index.js" server --url "$url" --suite all -o "$out/results" >"$out/suite.log" 2>&1) || status=$?
node "$here/summary.mjs" "$out/results" || status=1
if [ $status -ne 0 ]; then
	cat "$out/suite.log"
	echo "server log:"; cat "$log"
fi
exit $status
