#!/usr/bin/env bash
# bench.sh: `make bench-shmem`: the OpenSHMEM figures of docs/shmem.md (a
# benchmark, not a test). Two PEs on a ring of 2 nodes, PE 0 against PE 1;
# all times simulated (shmemx_cycle, the adapter's cycles; us at its stated
# clock, 250 MHz unless CLOCK_MHZ says otherwise), host latency HOST_LATENCY
# cycles (default 128, skifrun's). Writes under build/bench/shmem:
# osu-put-rate.txt, osu-latency.txt, osu-put-bw.txt, osu-get-bw.txt
# (OSU-style tables), put-bw.csv and get-bw.csv, bw.png (gnuplot, if
# installed) and summary.txt (the targets: 8-byte put rate >= 0.4 per cycle;
# latencies; the size at which the put bandwidth reaches half its peak).
# Rate and put bandwidth are measured twice: with the library's default (no
# in-flight limit: the answer network keeps requests and answers out of
# deadlock, docs/shmem.md "In flight") and with the optional limit of the
# former default, SHMEM_RMA_BUDGET=48 flits, for comparison; files of the
# latter end in -budget48.
set -eu
cd "$(dirname "$0")/../../.."
B=build/bench/shmem
mkdir -p "$B"
export SKIF_ROOT=$PWD
OSHRUN=build/shmem/bin/oshrun
SB=build/shmem/bench/shmembench
HL=${HOST_LATENCY:-128}
MHZ=${CLOCK_MHZ:-250}
make -s model MODEL=n1 # the ring's model (built once)
run() { $OSHRUN -np 2 --host-latency "$HL" --clock-mhz "$MHZ" -q $SB "$@"; }

echo "== conditions: 2 PEs (a ring of 2 nodes), host latency $HL cycles, clock $MHZ MHz"
echo "== 8-byte put rate (default: no limit, then SHMEM_RMA_BUDGET=48)"
run rate 4000 | tee $B/osu-put-rate.txt
SHMEM_RMA_BUDGET=48 run rate 4000 | tee $B/osu-put-rate-budget48.txt
echo "== latency"
run latency 50 | tee $B/osu-latency.txt
echo "== put bandwidth"
run bw 65536 | tee $B/osu-put-bw.txt
SHMEM_RMA_BUDGET=48 run bw 65536 | tee $B/osu-put-budget48-bw.txt
echo "== get bandwidth"
run getbw 16384 | tee $B/osu-get-bw.txt

for k in put put-budget48 get; do
    {
        echo "size,ops,cycles,bytes_per_cycle,mb_per_s"
        awk '/^  [0-9]/ { print $1 "," $2 "," $3 "," $4 "," $5 }' $B/osu-$k-bw.txt
    } >$B/$k-bw.csv
done

lat() { awk -v op="$1" 'index($0, op) == 3 { n = split($0, f, " "); print f[n - 1] " cycles = " f[n] " us" }' $B/osu-latency.txt; }
{
    echo "conditions: 2 PEs on a ring of 2 nodes, host latency $HL cycles, clock $MHZ MHz, simulated time"
    for f in "" -budget48; do
        r=$(sed -n 's/^rate: .* cycles: \([0-9.]*\) puts\/cycle.*/\1/p' $B/osu-put-rate$f.txt)
        sed -n "s/^rate: \(.*\)/8-byte put rate${f:+ (SHMEM_RMA_BUDGET=48)}: \1/p" $B/osu-put-rate$f.txt
        echo "  target >= 0.4 puts/cycle: $(awk -v r="$r" 'BEGIN { printf "%s (%.2f of it)", (r + 0 >= 0.4 ? "met" : "NOT met"), r / 0.4 }')"
    done
    echo "put 8 B + quiet latency: $(lat "put 8 B + quiet")"
    echo "get 8 B latency: $(lat "get 8 B")"
    echo "fetch-add 64 latency: $(lat "fetch-add 64")"
    echo "compare-swap 32 latency: $(lat "compare-swap 32")"
    sed -n 's/^bw: \(.*\)/put bandwidth: \1/p' $B/osu-put-bw.txt
    sed -n 's/^bw: \(.*\)/put bandwidth (SHMEM_RMA_BUDGET=48): \1/p' $B/osu-put-budget48-bw.txt
    sed -n 's/^getbw: \(.*\)/get bandwidth (blocking gets): \1/p' $B/osu-get-bw.txt
} | tee $B/summary.txt

if command -v gnuplot >/dev/null; then
    gnuplot <<GP
set terminal pngcairo size 900,480 noenhanced
set output "$B/bw.png"
set datafile separator ","
set title "OpenSHMEM put and get bandwidth, PE 0 -> PE 1, $MHZ MHz, host latency $HL cycles"
set logscale xy 2
set xlabel "size, bytes"
set ylabel "bytes per cycle (simulated)"
set grid
set key bottom right
plot "< tail -n +2 $B/put-bw.csv" using 1:4 with linespoints title "put (window, then quiet)", \
     "< tail -n +2 $B/put-budget48-bw.csv" using 1:4 with linespoints title "put, SHMEM_RMA_BUDGET=48", \
     "< tail -n +2 $B/get-bw.csv" using 1:4 with linespoints title "get (blocking)"
GP
    echo "plot: $B/bw.png"
fi
