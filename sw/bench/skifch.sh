#!/usr/bin/env bash
# skifch.sh: the SkifCh figures of docs/skifch.md (part of `make bench`).
# Conditions: 2 nodes (neighbours on a ring of 2), host latency 128 cycles,
# 250 MHz, 64 KiB rings. Writes build/bench/skifch.csv, .json and .png (one-way
# latency and bandwidth against message size) and prints the table with the
# issue's targets; instruction counts come from sw/bench/msgcost.sh.
set -eu
cd "$(dirname "$0")/../.."
B=build/bench
mkdir -p $B
RUN=build/bin/skifrun
export SKIF_ROOT=$PWD
make -s build/bin/skifrun build/bin/pingpong build/bin/bandwidth build/bin/msgrate \
    build/bin/stream build/bin/msgcost build/models/n1/skifsim
csv=$B/skifch.csv
echo "size,one_way_cycles,one_way_us,bandwidth_bytes_per_cycle,bandwidth_gb_per_s" >$csv
$RUN -n 2 -q build/bin/bandwidth 300 8 64 256 1024 2048 >$B/bw.txt
for len in 8 64 256 1024 2048; do
    lat=$($RUN -n 2 -q build/bin/pingpong 200 $len | sed -n 's/.*one-way \([0-9.]*\) cycles = \([0-9.]*\) us.*/\1,\2/p')
    bw=$(awk -F, -v s=$len '$1==s {print $4 "," $5}' $B/bw.txt)
    echo "$len,$lat,$bw" >>$csv
done
rate=$($RUN -n 2 -q build/bin/msgrate 20000 8 | sed -n 's/.*: \([0-9.]*\) msgs\/cycle.*/\1/p')
steady=$($RUN -n 2 -q build/bin/stream 10000 8 | awk '{print $6}')
sw/bench/csv2json.sh $csv >$B/skifch.json
column -t -s, $csv
echo "message rate, 8-byte messages, one sender: msgrate $rate msgs/cycle, steady state $steady msgs/cycle (target >= 0.5, the link limit: 2 flits per message)"
sw/bench/msgcost.sh 2000 | tail -3
if command -v gnuplot >/dev/null; then
    gnuplot <<GP
set terminal pngcairo size 1100,460 noenhanced
set output "$B/skifch.png"
set datafile separator ","
set multiplot layout 1,2 title "SkifCh, 2 neighbours, host latency 128 cycles, 250 MHz"
set logscale x 2
set xtics ("8" 8, "32" 32, "128" 128, "512" 512, "2048" 2048)
set xlabel "message size, bytes"
set grid
set title "one-way latency = pingpong round trip / 2\\n(program to program, simulated cycles)"
set ylabel "one-way latency, cycles"
set y2label "microseconds at 250 MHz"
set yrange [0:*]
set link y2 via y/250.0 inverse y*250.0
set ytics nomirror
set y2tics
plot "< tail -n +2 $csv" using 1:2 with linespoints title "pingpong / 2"
unset link y2
unset y2tics
unset y2label
set ytics mirror
set title "bandwidth: bytes delivered per cycle, one sender"
set ylabel "bytes per cycle"
set yrange [0:9]
plot "< tail -n +2 $csv" using 1:4 with linespoints title "bandwidth", 8 with lines dt 2 title "link: 8 bytes/cycle"
unset multiplot
GP
    echo "plot: $B/skifch.png"
fi
