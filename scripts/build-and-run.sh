#!/usr/bin/env bash
# From a fresh Debian 12 machine to a checked example: installs the missing
# packages, builds kjit in build/, then checks an example program and prints
# its typed IR.
#   scripts/build-and-run.sh [PROGRAM.k]      (default lang/examples/vector_add.k)
set -euo pipefail
cd "$(dirname "$0")/.."

prog=${1:-lang/examples/vector_add.k}
bash scripts/install-deps.sh
bash scripts/build.sh build
echo "+ build/kjit check $prog"
build/kjit check "$prog"
echo "+ build/kjit ir $prog"
build/kjit ir "$prog"
