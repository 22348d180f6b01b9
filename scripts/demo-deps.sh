#!/usr/bin/env bash
# What `make demo` needs besides Go: bubblewrap (Debian's package), which the demo's shell runs in; the
# shell is never run unsandboxed. Installed here when missing, as .ci/run does: with apt-get as root, or
# through sudo when it needs no password. Where neither is possible, say how to install it and fail.
# WINK_BWRAP names the binary to look for (tests); it defaults to bwrap.
set -euo pipefail
bwrap=${WINK_BWRAP:-bwrap}
command -v "$bwrap" >/dev/null 2>&1 && exit 0
install=(apt-get install -y -qq --no-install-recommends bubblewrap)
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
	echo "make demo: the demo's shell runs in bubblewrap, which is not installed and cannot be installed from here;" >&2
	echo "install it (Debian/Ubuntu: sudo apt-get install bubblewrap) and run make demo again" >&2
	exit 1
fi
echo "make demo: installing bubblewrap (the demo's shell runs in it)"
export DEBIAN_FRONTEND=noninteractive
"${update[@]}"
"${install[@]}" >/dev/null
command -v "$bwrap" >/dev/null 2>&1 || { echo "make demo: bubblewrap was installed but $bwrap is not on PATH" >&2; exit 1; }
