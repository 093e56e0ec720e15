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
# Every run is made twice: with today's router (build/netbench/nD/skifnet) and
# with the router before the throughput work (nD-prev: half-ring ties always
# PLUS, plain round-robin switch allocation), column `router`.
# The fabric is built with its default router configuration (NumVcs, VcDepth
# of rtl/net/skif_torus_fabric.sv, the same as skif_torus_net's).
# Output: build/bench/net.csv (every run), build/bench/net-saturation.csv (per
# torus, pattern and size: ideal capacity, saturation throughput in
# flits/node/cycle and as a fraction of the ideal, zero-load latency per hop
# (the slope of latency over hops at load 0.05; empty where every packet
# crosses the same number of hops), today's router and the
# previous one side by side), build/bench/net-<torus>.png (latency vs offered
# load, 4-flit packets, one line per pattern), and skifnet's speed (cycles/s)
# at load 0.5 on 8, 27 and 64 nodes.
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
routers="now prev"
case $mode in
all) ;;
uniform) patterns="uniform"; sizes="4" ;;
quick) patterns="uniform tornado"; sizes="4"; loads="0.05 0.3 0.5 0.7 0.9" ;;
*) echo "usage: sw/bench/net.sh [all|uniform|quick]" >&2; exit 2 ;;
esac
# skifnet of a torus: the model of its number of dimensions (built once);
# router "prev": the variant with the router before the throughput work
. sw/bench/dims.sh
make -s build/bin/skif_dims
net() { netbench_of "$1" . "${2/now/}"; }
for t in $tori; do for r in $routers; do make -s "$(net "$t" "$r")"; done; done
csv=$B/net.csv
echo "dims,nodes,pattern,load,size,packets,lat_avg,lat_p99,accepted,ideal,fraction_of_ideal,saturated,cycles,cycles_per_s,lat_per_hop,router" >$csv
n=0
for t in $tori; do
    for p in $patterns; do
        [ "$p" = transpose ] && [ "$t" = 4x4x4 ] && continue   # transpose needs X == Y in 2-D/4-D
        for s in $sizes; do
            for l in $loads; do
                for r in $routers; do
                    n=$((n + 1))
                    printf '\r%-70s' "[$n] $t $p size $s load $l router $r" >&2
                    "$(net "$t" "$r")" --dims $t --pattern $p --size $s --load $l \
                        --warmup 1000 --measure 4000 --drain 8000 --csv $B/net.run -q ||
                        { echo; echo "net.sh: skifnet ($r) failed on $t $p size $s load $l" >&2; exit 1; }
                    sed "s/\$/,$r/" $B/net.run >>$csv
                    rm -f $B/net.run
                done
            done
        done
    done
done
echo >&2
echo "CSV: $csv"
# saturation throughput: the largest accepted throughput per torus/pattern/
# size and router; zero-load latency per hop at the lowest load
sat=$B/net-saturation.csv
awk -F, 'NR>1 {k=$1","$3","$5","$16; if ($11>best[k]) {best[k]=$11; acc[k]=$9; id[k]=$10}
               if (!(k in lo) || $4<lo[k]) {lo[k]=$4; ph[k]=$15}}
    END {print "dims,pattern,size,ideal,saturation,fraction_of_ideal,lat_per_hop,prev_ideal,prev_saturation,prev_fraction_of_ideal,prev_lat_per_hop,saturation_ratio"
         for (k in best) {split(k, a, ","); if (a[4]!="now") continue
             q=a[1]","a[2]","a[3]",prev"
             printf "%s,%s,%s,%.4f,%.4f,%.4f,%s,%.4f,%.4f,%.4f,%s,%.3f\n", a[1], a[2], a[3], id[k], acc[k], best[k], ph[k],
                 id[q], acc[q], best[q], ph[q], (acc[q] > 0 ? acc[k]/acc[q] : 0)}}' $csv |
    { read -r h; echo "$h"; sort; } >$sat
echo "saturation: $sat"
printf "%-7s %-10s %-4s | %-6s %-9s %-8s %-7s | %-6s %-9s %-8s %-7s | %s\n" torus pattern size ideal saturation fraction "c/hop" \
    ideal saturation fraction "c/hop" "today/previous"
printf "%-7s %-10s %-4s | %-42s | %-42s |\n" "" "" "" "today's router" "previous router (ties PLUS, round-robin)"
tail -n +2 $sat | awk -F, '{printf "%-7s %-10s %-4s | %-6.4f %-9.4f %-8.1f %-7s | %-6.4f %-9.4f %-8.1f %-7s | %.3f\n",
    $1, $2, $3, $4, $5, 100*$6, $7, $8, $9, 100*$10, $11, $12}'
# simulation speed of skifnet under load
for t in 2x2x2 3x3x3 4x4x4; do
    for r in $routers; do
        make -s "$(net "$t" "$r")"
        "$(net "$t" "$r")" --dims $t --pattern uniform --size 4 --load 0.5 --warmup 1000 \
            --measure 4000 --drain 8000 | sed -n 's/.*ideal [0-9.]*;.*; \([0-9]*\) cycles, \([0-9]*\) cycles\/s/'"$t"' uniform load 0.5, router '"$r"': \2 cycles\/s (\1 cycles)/p'
    done
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
stats "< awk -F, '\$1==\"$t\" && \$5==4 && \$16==\"now\"' $csv" using 7 nooutput
set yrange [0:STATS_min * 8]
set link y2 via y/250.0 inverse y*250.0
set ytics nomirror
set y2tics
plot for [i=1:words(pats)] "< awk -F, '\$1==\"$t\" && \$3==\"".word(pats,i)."\" && \$5==4 && \$16==\"now\"' $csv" using 4:7 with linespoints lc i title word(pats,i), \
     for [i=1:words(pats)] "< awk -F, '\$1==\"$t\" && \$3==\"".word(pats,i)."\" && \$5==4 && \$16==\"now\" && \$12==1' $csv" using 4:7 with points pt 6 ps 2 lc rgb "black" notitle
unset link y2
unset y2tics
unset y2label
set ytics mirror
set title "accepted vs offered throughput; dashed: ideal capacity of each pattern"
set ylabel "accepted throughput, flits/node/cycle"
set yrange [0:1.05]
plot for [i=1:words(pats)] "< awk -F, '\$1==\"$t\" && \$3==\"".word(pats,i)."\" && \$5==4 && \$16==\"now\"' $csv" using 4:9 with linespoints lc i title word(pats,i), \
     for [i=1:words(pats)] "< awk -F, '\$1==\"$t\" && \$3==\"".word(pats,i)."\" && \$5==4 && \$16==\"now\"' $csv" using 4:10 with lines dt 2 lc i notitle, \
     for [i=1:words(pats)] "< awk -F, '\$1==\"$t\" && \$3==\"".word(pats,i)."\" && \$5==4 && \$16==\"now\" && \$12==1' $csv" using 4:9 with points pt 6 ps 2 lc rgb "black" notitle, \
     "< awk -F, '\$1==\"$t\" && \$3==\"uniform\" && \$5==4 && \$16==\"prev\"' $csv" using 4:9 with linespoints lc rgb "gray40" dt 4 title "uniform, previous router", \
     x with lines dt 3 lc rgb "gray" title "accepted = offered"
unset multiplot
GP
        echo "plot: $B/net-$t.png"
    done
fi
