#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The committed logfactorial table (src/runtime/logfact_table.h) is what
# scripts/gen_logfact.py writes: log(k!) correctly rounded, the doubles of
# NumPy's logfactorial.c (the Generator's hypergeometric golden checks the
# draws). Usage: tests/random/logfact.sh SOURCE_ROOT
set -eu
root=$1
py=${PYTHON:-python3}
"$py" "$root/scripts/gen_logfact.py" | diff -u "$root/src/runtime/logfact_table.h" -
echo "logfact_table.h: as scripts/gen_logfact.py writes it"
