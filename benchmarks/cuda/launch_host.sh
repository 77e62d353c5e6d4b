#!/usr/bin/env bash
# kjit's host-side cost per launch, without a GPU (launch_host.c): builds the
# driver against a kjit build and runs it on the fake CUDA driver.
#   benchmarks/cuda/launch_host.sh [BUILD_DIR (build)] [REPS (200000)] [PATH: raw, launch, prepared or k-loop]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
reps=${2:-200000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjit-launch-host.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -Wall -Wextra -Werror -I "$root/include" "$root/benchmarks/cuda/launch_host.c" -o "$tmp/launch_host" \
    -L "$build" -Wl,-rpath,"$build" -lkjit -ldl
KJIT_LIBCUDA=$build/tests/libfakecuda.so KJIT_CACHE_DIR=$tmp/cache "$tmp/launch_host" "$reps" "${3:-}"
