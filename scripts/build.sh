#!/usr/bin/env bash
# Builds kjit (library, `kjit` command, unit tests) in BUILD_DIR (default
# build/), with $CC when set. Extra arguments go to `meson setup`, e.g.
#   scripts/build.sh build-asan -Db_sanitize=address,undefined -Db_lundef=false
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${1:-build}
if [ $# -gt 0 ]; then shift; fi

# A directory left by an interrupted setup is not a build dir, and meson
# keeps the compiler a build dir was set up with: start afresh in both cases.
if [ -d "$dir" ] && [ ! -f "$dir/build.ninja" ]; then
    rm -rf "$dir"
fi
if [ -n "${CC:-}" ] && [ -f "$dir/build.ninja" ] &&
    ! grep -qF "C compiler for the host machine: $CC " "$dir/meson-logs/meson-log.txt" 2>/dev/null; then
    echo "build.sh: $dir was set up with another compiler than CC=$CC; setting it up again"
    rm -rf "$dir"
fi
if [ -f "$dir/build.ninja" ]; then
    if [ $# -gt 0 ]; then meson setup --reconfigure "$dir" "$@" >/dev/null; fi
else
    meson setup "$dir" "$@"
fi
ninja -C "$dir"
