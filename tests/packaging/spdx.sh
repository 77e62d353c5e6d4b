#!/bin/sh
# Every C source and header under src/, include/ and tests/unit/ starts with
# the license's SPDX identifier (LICENSE; issue 30 point 7).
#   tests/packaging/spdx.sh SRCDIR
set -u
cd "$1" || exit 1
want='/* SPDX-License-Identifier: BSD-2-Clause */'
bad=0
n=0
for f in $(find src include tests/unit -name '*.c' -o -name '*.h' | sort); do
    n=$((n + 1))
    if [ "$(head -n 1 "$f")" != "$want" ]; then
        echo "FAIL $f: the first line is not $want"
        bad=$((bad + 1))
    fi
done
[ "$n" -gt 100 ] || { echo "FAIL only $n files found under src/, include/, tests/unit/"; exit 1; }
[ "$bad" -eq 0 ]
