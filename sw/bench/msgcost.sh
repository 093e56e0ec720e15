#!/usr/bin/env bash
# msgcost.sh: instructions per SkifCh call, counted by callgrind on the
# library alone (sw/bench/msgcost.c: 2 nodes, N 8-byte messages, no refused
# send and no empty receive). Prints a table and writes build/bench/msgcost.csv
# and .json. Targets (issue 4): Send <= 100, Recv + RecvComp <= 60.
# Usage: sw/bench/msgcost.sh [N]
set -eu
cd "$(dirname "$0")/../.."
N=${1:-2000}
B=build/bench
mkdir -p "$B/cg"
export SKIF_ROOT=$PWD
make -s build/bin/skifrun build/bin/msgcost build/models/n1/skifsim
rm -f "$B"/cg/cg.*
build/bin/skifrun -n 2 -q valgrind --tool=callgrind --callgrind-out-file="$B/cg/cg.%p" \
    --collect-atstart=no --toggle-collect='measure_send*' --toggle-collect='measure_recv*' \
    --toggle-collect='measure_account*' \
    build/bin/msgcost "$N" >"$B/cg/out.txt" 2>"$B/cg/err.txt" ||
    { cat "$B/cg/err.txt"; exit 1; }
cat "$B/cg/out.txt"
# Only the measured loops are collected (rank 0: N sends, rank 1: N receives
# and completions, after a barrier, so none waits). Per call: the self cost
# of every part of the call (inlined driver code included), the callees it
# makes (memcpy, the doorbell) and the loop's own share, divided by N.
self() { # FILE FUNCTION-REGEX: summed self instructions of matching functions
    callgrind_annotate "$1" 2>/dev/null |
        awk -v re="$2" '$0 ~ re {gsub(",", "", $1); s += $1} END {print s + 0}'; }
incl() { # FILE FUNCTION-REGEX: inclusive instructions of the matching function
    callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
        awk -v re="$2" '$0 ~ re {gsub(",", "", $1); print $1; exit} END {}' | grep . || echo 0; }
total() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'; }
send=0 recv=0 comp=0 tsend=0 trecv=0 lsend=0 lrecv=0 acct=0
for f in "$B"/cg/cg.*; do
    t=$(total "$f")
    if [ "$(self "$f" 'measure_send')" -gt 0 ]; then
        tsend=$t; lsend=$(self "$f" 'measure_send')
    else
        trecv=$t; lrecv=$(self "$f" 'measure_recv'); acct=$(incl "$f" 'measure_account')
    fi
done
awk -v n="$N" -v ts="$tsend" -v tr="$trecv" -v ls="$lsend" -v lr="$lrecv" -v a="$acct" 'BEGIN {
    s = (ts - ls) / n; rc = (tr - lr - a) / n
    printf "SkifCh_Send (8 bytes),%.1f,100,%.2f\n", s, s / 100
    printf "SkifCh_Recv + SkifCh_RecvComp,%.1f,60,%.2f\n", rc, rc / 60
    printf "credit accounting at the next wait (per message),%.1f,,\n", a / n
}' | tee "$B/msgcost.csv.body" | column -t -s,
{ echo "call,instructions_per_call,target,ratio_to_target"; cat "$B/msgcost.csv.body"; } >"$B/msgcost.csv"
rm -f "$B/msgcost.csv.body"
sw/bench/csv2json.sh "$B/msgcost.csv" >"$B/msgcost.json"
echo "(N=$N messages; callgrind, collecting only the measured loops, minus the loops' own instructions, / N; build/bench/msgcost.csv)"
