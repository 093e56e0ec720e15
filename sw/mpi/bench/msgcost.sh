#!/usr/bin/env bash
# msgcost.sh: host instructions per 8-byte MPI message (MPI_Send, and
# MPI_Recv of a message already in the ring), by callgrind, the same way as
# sw/bench/msgcost.sh counts SkifCh's: only the measured loops of
# build/mpi/bench/mpibench msgcost are collected, minus the loops' own
# instructions, divided by N. Prints "MPI_Send,I" and "MPI_Recv,I".
# Usage: sw/mpi/bench/msgcost.sh [N]
set -eu
cd "$(dirname "$0")/../../.."
N=${1:-2000}
B=build/bench/mpi
mkdir -p "$B/cg"
export SKIF_ROOT=$PWD
rm -f "$B"/cg/cg.*
build/bin/skifrun -n 2 -q valgrind --tool=callgrind --callgrind-out-file="$B/cg/cg.%p" \
    --collect-atstart=no --toggle-collect='measure_send*' --toggle-collect='measure_recv*' \
    build/mpi/bench/mpibench msgcost "$N" >"$B/cg/out.txt" 2>"$B/cg/err.txt" ||
    { cat "$B/cg/err.txt" >&2; exit 1; }
self() { callgrind_annotate "$1" 2>/dev/null |
    awk -v re="$2" '$0 ~ re {gsub(",", "", $1); s += $1} END {print s + 0}'; }
total() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'; }
for f in "$B"/cg/cg.*; do
    t=$(total "$f")
    if [ "$(self "$f" 'measure_send')" -gt 0 ]; then
        awk -v t="$t" -v l="$(self "$f" 'measure_send')" -v n="$N" 'BEGIN {printf "MPI_Send,%.1f\n", (t - l) / n}'
    elif [ "$(self "$f" 'measure_recv')" -gt 0 ]; then
        awk -v t="$t" -v l="$(self "$f" 'measure_recv')" -v n="$N" 'BEGIN {printf "MPI_Recv,%.1f\n", (t - l) / n}'
    fi
done | sort
