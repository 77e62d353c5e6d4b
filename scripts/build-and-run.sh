#!/usr/bin/env bash
# From a fresh Debian 12 machine to a running example: installs the missing
# packages, builds kjit in build/, then runs an example program on the default
# target and checks its output against the example's .expected file.
#   scripts/build-and-run.sh [PROGRAM.k]      (default lang/examples/stencil.k)
set -euo pipefail
cd "$(dirname "$0")/.."

prog=${1:-lang/examples/stencil.k}
bash scripts/install-deps.sh
bash scripts/build.sh build
echo "+ build/kjit run $prog"
out=$(build/kjit run "$prog")
printf '%s\n' "$out"
expected=${prog%.k}.expected
if [ -f "$expected" ]; then
    if [ "$out" = "$(cat "$expected")" ]; then
        echo "build-and-run: output matches $expected"
    else
        echo "build-and-run: output differs from $expected" >&2
        exit 1
    fi
fi
