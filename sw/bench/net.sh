#!/usr/bin/env bash
# net.sh: `make bench-net`: synthetic traffic on the torus fabric (skifnet):
# for each torus, pattern, packet size and offered load, the average and 99th
# percentile latency (cycles, from packet creation at the source queue to its
# last flit leaving the network) and the accepted throughput (flits/node/cycle
# and as a fraction of the ideal capacity of that torus for that pattern).
# Ideal capacity = 1 / max(largest expected load on any link, largest expected
# load on any ejection port) when every node offers 1 flit/cycle, under the
# router's dimension-order routing (shortest way, plus at half): skifnet
# computes it exactly; fraction_of_ideal = accepted / ideal. Saturation
# throughput = the largest accepted throughput over the offered loads.
# The fabric is built with its default router configuration (NumVcs, VcDepth
# of rtl/net/skif_torus_fabric.sv, the same as skif_torus_net's).
# Output: build/bench/net.csv, build/bench/net-<torus>.png (latency vs offered
# load, 4-flit packets, one line per pattern), a saturation summary, and
# skifnet's speed (cycles/s) at load 0.5 on 8, 27 and 64 nodes.
# Usage: sw/bench/net.sh [all|uniform|quick]   (default all: every pattern,
# packet sizes 1, 4, 32; uniform: uniform traffic, 4-flit packets, all loads)
set -eu
cd "$(dirname "$0")/../.."
B=build/bench
mkdir -p $B
mode=${1:-all}
tori="4x4x4 8x8"
patterns="uniform transpose bitcomp tornado neighbor hotspot"
sizes="1 4 32"
loads="0.05 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0"
case $mode in
all) ;;
uniform) patterns="uniform"; sizes="4" ;;
quick) patterns="uniform tornado"; sizes="4"; loads="0.1 0.3 0.5 0.7 0.9" ;;
*) echo "usage: sw/bench/net.sh [all|uniform|quick]" >&2; exit 2 ;;
esac
# skifnet of a torus: the model of its number of dimensions (built once)
net() { local x=${1//[^x]/}; echo "build/netbench/n$(( ${#x} + 1 ))/skifnet"; }
for t in $tori; do make -s "$(net "$t")"; done
csv=$B/net.csv
echo "dims,nodes,pattern,load,size,packets,lat_avg,lat_p99,accepted,ideal,fraction_of_ideal,saturated,cycles,cycles_per_s" >$csv
n=0
for t in $tori; do
    for p in $patterns; do
        [ "$p" = transpose ] && [ "$t" = 4x4x4 ] && continue   # transpose needs X == Y in 2-D/4-D
        for s in $sizes; do
            for l in $loads; do
                n=$((n + 1))
                printf '\r%-60s' "[$n] $t $p size $s load $l" >&2
                "$(net "$t")" --dims $t --pattern $p --size $s --load $l \
                    --warmup 1000 --measure 4000 --drain 8000 --csv $csv -q ||
                    { echo; echo "net.sh: skifnet failed on $t $p size $s load $l" >&2; exit 1; }
            done
        done
    done
done
echo >&2
echo "CSV: $csv"
# saturation throughput: the largest accepted throughput per torus/pattern/size
printf "%-8s %-10s %-5s %-10s %-8s %s\n" torus pattern size accepted ideal "fraction (saturation)"
awk -F, 'NR>1 {k=$1","$3","$5; if ($11>best[k]) {best[k]=$11; acc[k]=$9; id[k]=$10}}
    END {for (k in best) {split(k, a, ","); printf "%-8s %-10s %-5s %-10.4f %-8.4f %.1f%%\n", a[1], a[2], a[3], acc[k], id[k], 100*best[k]}}' $csv | sort
awk -F, 'NR>1 && $3=="uniform" && $5==4 && $4<=0.1 {printf "low-load latency %s uniform size 4 load %s: %s cycles avg\n", $1, $4, $7}' $csv
# simulation speed of skifnet under load
for t in 2x2x2 3x3x3 4x4x4; do
    make -s "$(net "$t")"
    "$(net "$t")" --dims $t --pattern uniform --size 4 --load 0.5 --warmup 1000 \
        --measure 4000 --drain 8000 | sed -n 's/.*ideal [0-9.]*;.*; \([0-9]*\) cycles, \([0-9]*\) cycles\/s/'"$t"' uniform load 0.5: \2 cycles\/s (\1 cycles)/p'
done
if command -v gnuplot >/dev/null; then
    for t in $tori; do
        gnuplot <<GP
set terminal pngcairo size 1400,600 noenhanced
set output "$B/net-$t.png"
set datafile separator ","
pats = "$patterns"
set multiplot layout 1,2 title "skifnet $t torus, 4-flit packets, dimension-order routing; open circles: past saturation (source queues growing)"
set grid
set key top left
set xlabel "offered load, flits/node/cycle"
set xrange [0:1.05]
set xtics 0.1
set title "latency: from packet creation at the source queue\\nto its last flit leaving the network (cut at 8x the lowest)"
set ylabel "average latency, cycles"
set y2label "average latency, microseconds at 250 MHz"
# linear, cut at 8x the lowest latency: past saturation latency grows without bound
stats "< awk -F, '\$1==\"$t\" && \$5==4' $csv" using 7 nooutput
set yrange [0:STATS_min * 8]
set link y2 via y/250.0 inverse y*250.0
set ytics nomirror
set y2tics
plot for [i=1:words(pats)] "< awk -F, '\$1==\"$t\" && \$3==\"".word(pats,i)."\" && \$5==4' $csv" using 4:7 with linespoints lc i title word(pats,i), \
     for [i=1:words(pats)] "< awk -F, '\$1==\"$t\" && \$3==\"".word(pats,i)."\" && \$5==4 && \$12==1' $csv" using 4:7 with points pt 6 ps 2 lc rgb "black" notitle
unset link y2
unset y2tics
unset y2label
set ytics mirror
set title "accepted vs offered throughput; dashed: ideal capacity of each pattern"
set ylabel "accepted throughput, flits/node/cycle"
set yrange [0:1.05]
plot for [i=1:words(pats)] "< awk -F, '\$1==\"$t\" && \$3==\"".word(pats,i)."\" && \$5==4' $csv" using 4:9 with linespoints lc i title word(pats,i), \
     for [i=1:words(pats)] "< awk -F, '\$1==\"$t\" && \$3==\"".word(pats,i)."\" && \$5==4' $csv" using 4:10 with lines dt 2 lc i notitle, \
     for [i=1:words(pats)] "< awk -F, '\$1==\"$t\" && \$3==\"".word(pats,i)."\" && \$5==4 && \$12==1' $csv" using 4:9 with points pt 6 ps 2 lc rgb "black" notitle, \
     x with lines dt 3 lc rgb "gray" title "accepted = offered"
unset multiplot
GP
        echo "plot: $B/net-$t.png"
    done
fi
