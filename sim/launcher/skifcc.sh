#!/usr/bin/env bash
# skifcc: compile and link a SkifCh program, like mpicc: runs the C compiler
# ($SKIFCC_CC, else $CC, else cc) with the SkifCh headers and the library.
#   skifcc -o prog prog.c         compile and link
#   skifcc -c prog.c              compile only
#   skifcc -show ...              print the command instead of running it
#   skifcc --help
# Works from the source tree (build/bin/skifcc: sw/, driver/, include/, build/lib/) and
# from an installed tree (PREFIX/bin/skifcc: PREFIX/include/skifsim,
# PREFIX/lib). `pkg-config --cflags --libs skifch` gives the same flags.
set -u
self=$(readlink -f "$0")
bin=$(dirname "$self")
if [ -f "$bin/../include/skifsim/skifch.h" ]; then
    inc=("-I$(readlink -f "$bin/../include/skifsim")")
    lib=$(readlink -f "$bin/../lib")
elif [ -f "$bin/../../sw/skifch.h" ]; then
    root=$(readlink -f "$bin/../..")
    inc=("-I$root/sw" "-I$root/driver" "-I$root/include")
    lib=$root/build/lib
else
    echo "skifcc: cannot find the SkifCh headers next to $self" >&2
    exit 2
fi
cc=${SKIFCC_CC:-${CC:-cc}}
show=0
args=()
for a in "$@"; do
    case $a in
    -show | --show | -showme | --showme) show=1 ;;
    -h | --help)
        sed -n '2,10s/^# \{0,1\}//p' "$self"
        exit 0 ;;
    *) args+=("$a") ;;
    esac
done
[ ${#args[@]} -gt 0 ] || [ $show -eq 1 ] || { echo "skifcc: no input files (see skifcc --help)" >&2; exit 2; }
cmd=("$cc" -std=gnu11 "${inc[@]}" "${args[@]}" "-L$lib" -lskif)
if [ $show -eq 1 ]; then
    echo "${cmd[*]}"
    exit 0
fi
exec "${cmd[@]}"
