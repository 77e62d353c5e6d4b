#!/bin/sh
# The man page kjit(1), generated from the command's own help text (as
# Debian's help2man does, which is not needed: the help's layout is known):
# "usage:" becomes SYNOPSIS, each "section:" line a section, the rest
# verbatim, so the page never disagrees with `kjit --help`.
#   scripts/gen-man.sh KJIT OUT
set -eu
kjit=$1
out=$2
version=$("$kjit" --version | sed -n '1s/^kjit //p')
help=$("$kjit" --help)
[ -n "$version" ] && [ -n "$help" ] || { echo "gen-man.sh: no version or help from $kjit" >&2; exit 1; }
{
    printf '.TH KJIT 1 "" "kjit %s" "User Commands"\n' "$version"
    printf '.SH NAME\nkjit \\- a JIT compiler for the Python that Numba compiles\n'
    printf '%s\n' "$help" | awk '
        # roff: a backslash is written \e; a line starting with . or '"'"' is escaped with \&
        function roff(s) { gsub(/\\/, "\\e", s); if (s ~ /^[.'"'"']/) s = "\\&" s; return s }
        NR == 1 && /^usage: / { sub(/^usage: /, ""); print ".SH SYNOPSIS\n.B " roff($0); next }
        /^[a-z][a-z ]*:$/ { if (pre) print ".fi"; pre = 0; sub(/:$/, ""); print ".SH " toupper($0); next }
        /^$/ { if (pre) { print ".fi"; pre = 0 } print ".PP"; next }
        { if (!pre) { print ".nf"; pre = 1 } print roff($0) }
        END { if (pre) print ".fi" }'
    printf '.SH ENVIRONMENT\nKJIT_STATS, KJIT_CACHE_DIR, KJIT_BOUNDSCHECK, KJIT_OPT, KJIT_NUM_THREADS and the other\n'
    printf 'variables, with the NUMBA_* ones kjit reads: see the documentation, cli.md "Environment".\n'
    printf '.SH SEE ALSO\nThe documentation installed with kjit (docs/cli.md, docs/language.md,\n'
    printf 'docs/embedding.md), usually in /usr/local/share/doc/kjit.\n'
} >"$out.tmp"
mv "$out.tmp" "$out"
