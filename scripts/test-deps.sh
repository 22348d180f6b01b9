#!/usr/bin/env bash
# What `make test` needs besides Go, checked before anything is built, so that a missing piece is said in
# the first second and not after minutes of compiling: bubblewrap (the sandbox suite's shell), PostgreSQL's
# server binaries (the stores' tests start throwaway clusters), and npm (it installs Node.js 22 and the
# pinned MCP clients in testdata/mcpclients). Debian's packages are installed when missing, as
# scripts/demo-deps.sh installs bubblewrap: with apt-get as root, or through sudo when it needs no
# password. Where that is not possible, the script names what to install and fails. (The Temporal CLI,
# for runtime/durable/temporal's tests, is built from its Go module by those tests when it is missing.)
set -euo pipefail
# WINK_BWRAP, WINK_INITDB and WINK_NPM name what to look for (tests); WINK_PGLIB is where Debian puts
# PostgreSQL's versioned server binaries.
need=()
command -v "${WINK_BWRAP:-bwrap}" >/dev/null 2>&1 || need+=(bubblewrap)
compgen -G "${WINK_PGLIB:-/usr/lib/postgresql}/*/bin/initdb" >/dev/null || command -v "${WINK_INITDB:-initdb}" >/dev/null 2>&1 || need+=(postgresql)
command -v "${WINK_NPM:-npm}" >/dev/null 2>&1 || need+=(npm)
[ ${#need[@]} -eq 0 ] && exit 0
install=(apt-get install -y -qq --no-install-recommends "${need[@]}")
update=(apt-get update -qq)
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		install=(sudo "${install[@]}")
		update=(sudo "${update[@]}")
	else
		install=()
	fi
fi
if [ ${#install[@]} -eq 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "make test needs ${need[*]}, which cannot be installed from here;" >&2
	echo "install them (Debian/Ubuntu: sudo apt-get install ${need[*]}) and run make test again" >&2
	exit 1
fi
echo "make test: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
"${update[@]}"
"${install[@]}" >/dev/null
