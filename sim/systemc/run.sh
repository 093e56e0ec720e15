#!/usr/bin/env bash
# run.sh: build (if needed) and run the SystemC/TLM-2.0 example platform.
#   sim/systemc/run.sh [--nodes N] [skif_sc_platform options...]
# The RTL's Nodes is fixed at Verilation, so each N has its own binary,
# build/systemc/nodesN/skif_sc_platform (built on first use, ~15 s).
# Exit status: the platform's (0 PASS, 1 FAIL, 2 bad command line).
set -u
cd "$(dirname "$0")/../.." || exit 2
n=2
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    if [ "${args[$i]}" = "--nodes" ] && [ $((i + 1)) -lt ${#args[@]} ]; then
        n=${args[$((i + 1))]}
    fi
done
case $n in
    [2-9] | 1[0-6]) ;;
    *) echo "run.sh: --nodes must be 2..16, not '$n'" >&2; exit 2 ;;
esac
make -s -f sim/systemc/Makefile.inc "build/systemc/nodes$n/skif_sc_platform" >&2 || exit 1
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 exec "build/systemc/nodes$n/skif_sc_platform" --nodes "$n" "$@"
