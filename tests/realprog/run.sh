#!/usr/bin/env bash
# The corpus of real programs (issue 23): programs ported from Numba's and
# numba-cuda's documentation and test suites (each file says where it came
# from and what was changed), each with NAME.expected, its stdout under
# CPython + Numba (NUMBA_ENABLE_CUDASIM=1 for the cuda*.py programs).
#
#   tests/realprog/run.sh KJIT [--target cpu|parallel|cuda] [--list] [--check] [NAME...]
#
# Runs `KJIT run --target TARGET NAME.py` for every program (or the NAMEs
# given), each under a timeout (KJIT_REALPROG_TIMEOUT seconds, default 120),
# and classes it:
#   exact    exits 0 and prints exactly NAME.expected
#   wrong    exits 0 and prints something else (a silently wrong answer)
#   refused  kjit stops at compile time (exit 1, an `error:` line): the first
#            error line is kept
#   crashed  anything else: an uncaught exception (exit 1, `file:L:C: Kind:
#            message`) or another run-time error (3), a fault (70), a
#            timeout; the first line of stderr is kept
# It prints a table, the blockers ranked (the message of each refused or
# crashed program's first error, less its location and with numbers as N,
# grouped, most common first) and ends with
# `realprog: N of M exact on TARGET`.
#
# --list    only list the programs.
# --check   (the meson tests, suite realprog) also fail (exit 1) when a
#           program listed in exact.TARGET is not exact, or when a program is
#           wrong and not listed in known-wrong.TARGET (with its reason).
set -u

die() { echo "run.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: run.sh KJIT [--target cpu|parallel|cuda] [--list] [--check] [NAME...]"
kjit=$(realpath "$1") || die "no kjit at $1"
shift
target=cpu list=0 check=0 names=()
while [ $# -gt 0 ]; do
    case "$1" in
        --target) [ $# -ge 2 ] || die "--target needs a value"; target=$2; shift ;;
        --target=*) target=${1#--target=} ;;
        --list) list=1 ;;
        --check) check=1 ;;
        -*) die "unknown option $1" ;;
        *) names+=("${1%.py}") ;;
    esac
    shift
done
case "$target" in cpu|parallel|cuda) ;; *) die "unknown target '$target'" ;; esac

here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 2
if [ ${#names[@]} -eq 0 ]; then
    for f in *.py; do names+=("${f%.py}"); done
fi
if [ "$list" = 1 ]; then
    printf '%s\n' "${names[@]}"
    exit 0
fi

tmo=${KJIT_REALPROG_TIMEOUT:-120}
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

# first_error FILE: the first diagnostic line of FILE, less `NAME.py:L:C: `.
first_error() {
    local line
    line=$(grep -m1 -E '(error|Error|Exception)' "$1" || head -n1 "$1")
    printf '%s' "$line" | sed -E 's/^[^ :]+\.py:[0-9]+:[0-9]+: //'
}

# blocker_of: a first error as its construct: less `kjit: error: ` or
# `error: `, less the type that follows `, not ` (a kernel argument's
# tuple type), numbers as N.
blocker_of() {
    sed -E -e 's/^(kjit: )?error: //' -e 's/, not .*$//' -e 's/[0-9]+/N/g'
}

declare -A class note
n_exact=0 total=0
for name in "${names[@]}"; do
    [ -f "$name.py" ] || die "no program $name.py"
    [ -f "$name.expected" ] || die "no $name.expected"
    total=$((total + 1))
    timeout "$tmo" "$kjit" run --target "$target" --diag-format=short "$name.py" \
        >"$work/out" 2>"$work/err" </dev/null
    rc=$?
    if [ "$rc" = 0 ]; then
        if cmp -s "$work/out" "$name.expected"; then
            class[$name]=exact note[$name]=""
            n_exact=$((n_exact + 1))
        else
            class[$name]=wrong
            note[$name]="output differs: $(diff "$name.expected" "$work/out" | grep -m1 '^[<>]')"
        fi
    elif [ "$rc" = 1 ] && grep -q -m1 -E '(^|: )error: ' "$work/err"; then
        class[$name]=refused note[$name]=$(first_error "$work/err")
    elif [ "$rc" = 124 ]; then
        class[$name]=crashed note[$name]="timeout after ${tmo}s"
    else
        class[$name]=crashed note[$name]="exit $rc: $(first_error "$work/err")"
    fi
    printf '%-48s %-8s %s\n' "$name" "${class[$name]}" "${note[$name]}"
done

echo
echo "blockers on $target (programs stopped by each first error, most common first):"
for name in "${names[@]}"; do
    case "${class[$name]}" in refused|crashed)
        printf '%s\n' "${note[$name]}" | blocker_of ;;
    esac
done | sort | uniq -c | sort -k1,1nr -k2 | sed 's/^/  /'

status=0
if [ "$check" = 1 ]; then
    if [ -f "exact.$target" ]; then
        while read -r name _; do
            case "$name" in ''|'#'*) continue ;; esac
            [ -f "$name.py" ] || { echo "FAIL: exact.$target lists $name, which has no $name.py"; status=1; continue; }
            [ -n "${class[$name]:-}" ] || continue # not among the NAMEs run
            if [ "${class[$name]}" != exact ]; then
                echo "FAIL: $name is listed in exact.$target but is ${class[$name]}"
                status=1
            fi
        done <"exact.$target"
    fi
    for name in "${names[@]}"; do
        [ "${class[$name]}" = wrong ] || continue
        if ! grep -qs "^$name " "known-wrong.$target"; then
            echo "FAIL: $name prints a wrong answer on $target (${note[$name]})"
            status=1
        fi
    done
fi
echo "realprog: $n_exact of $total exact on $target"
exit "$status"
