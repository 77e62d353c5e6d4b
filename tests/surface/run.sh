#!/usr/bin/env bash
# The item-by-item checker of Numba's documented surface (issues 24-26):
#   tests/surface/run.sh KJIT [--check] [--update] [--markdown] [-v] [-j N] [CATEGORY...]
# runs every probe of tests/surface/probes/ with `KJIT run --target cpu`,
# compares with tests/surface/expected/ (CPython + Numba 0.56), classes each
# item pass/refused/wrong/crash (or no-oracle/unprobed), prints the counts per
# category and `surface: N of M`.  --check (the meson suite `surface`): only
# the items of pass.cpu, failing when one no longer passes.  See surface.py
# and tests/surface/README.md.
exec python3 "$(dirname "$0")/surface.py" run "$@"
