#!/bin/sh
# Bash completion for kjit, generated from the command's own help text so
# that it knows every command and option `kjit --help` lists: the commands
# (the first word of each line of the "commands:" section), the options
# (each --name or -X word of the "options:" section, with = when it takes a
# value), the values of --target and --diag-format, and .k files.
#   scripts/gen-completion.sh KJIT OUT
set -eu
kjit=$1
out=$2
help=$("$kjit" --help)
cmds=$(printf '%s\n' "$help" | awk '/^commands:$/ {s = 1; next} /^[a-z].*:$/ || /^$/ {s = 0} s && /^  [a-z]/ {print $1}' |
    sort -u | tr '\n' ' ')
opts=$(printf '%s\n' "$help" | awk '/^options:$/ {s = 1; next} /^$/ {s = 0} s' |
    grep -oE '(^|[ ,])--?[a-zA-Z0-9][a-zA-Z0-9-]*=?' | tr -d ' ,' | sort -u | tr '\n' ' ')
# the values an option lists as --name=a|b|c
values() {
    printf '%s\n' "$help" | grep -oE -- "--$1=[a-z|]+" | head -1 | sed "s/^--$1=//; s/|/ /g"
}
# a command's word argument as the help shows it: "  cache [clear]"
subwords() {
    printf '%s\n' "$help" | awk -v c="$1" '$1 == c && $2 ~ /^\[[a-z]+\]$/ {gsub(/[][]/, "", $2); print $2; exit}'
}
cache_words=$(subwords cache)
targets=$(values target)
formats=$(values diag-format)
[ -n "$cmds" ] && [ -n "$opts" ] || { echo "gen-completion.sh: no commands or options in $kjit --help" >&2; exit 1; }
cat >"$out.tmp" <<EOT
# bash completion for kjit (generated from \`kjit --help\` by scripts/gen-completion.sh)
_kjit() {
    local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} i cmd=
    for ((i = 1; i < COMP_CWORD; i++)); do
        case \${COMP_WORDS[i]} in -*) ;; *) cmd=\${COMP_WORDS[i]}; break ;; esac
    done
    [ "\$prev" = = ] && prev=\${COMP_WORDS[COMP_CWORD-2]} # bash splits --target=cpu at the =
    case \$prev in
    --target) COMPREPLY=(\$(compgen -W "$targets" -- "\$cur")); return ;;
    --diag-format) COMPREPLY=(\$(compgen -W "$formats" -- "\$cur")); return ;;
    --plot|--json|--csv) COMPREPLY=(\$(compgen -f -- "\$cur")); return ;;
    esac
    case \$cur in
    --target=*) COMPREPLY=(\$(compgen -P --target= -W "$targets" -- "\${cur#--target=}")); return ;;
    --diag-format=*) COMPREPLY=(\$(compgen -P --diag-format= -W "$formats" -- "\${cur#--diag-format=}")); return ;;
    -*) COMPREPLY=(\$(compgen -W "$opts" -- "\$cur")); compopt -o nospace 2>/dev/null
        [[ \${COMPREPLY[*]} == *= ]] || compopt +o nospace 2>/dev/null; return ;;
    esac
    if [ -z "\$cmd" ] || [ "\$cmd" = help ]; then
        COMPREPLY=(\$(compgen -W "$cmds" -- "\$cur"))
    elif [ "\$cmd" = cache ]; then
        COMPREPLY=(\$(compgen -W "$cache_words" -- "\$cur"))
    else
        COMPREPLY=(\$(compgen -f -X '!*.k' -- "\$cur") \$(compgen -d -- "\$cur"))
    fi
}
complete -F _kjit kjit
EOT
mv "$out.tmp" "$out"
