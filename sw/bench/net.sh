#!/usr/bin/env bash
# net.sh: `make bench-net`: synthetic traffic on the torus fabric (skifnet):
# for each torus, pattern, packet size and offered load, the average and 99th
# percentile latency (cycles, from packet creation at the source queue to its
# last flit leaving the network) and the accepted throughput (flits/node/cycle
# and as a fraction of the ideal capacity of that torus for that pattern).
# Ideal capacity = 1 / the largest expected load on any link (or ejection
# port) when every node injects 1 flit/cycle under the router's dimension-order
# routing (shortest way, plus at half): skifnet computes it exactly.
# Output: build/bench/net.csv, build/bench/net.png (latency vs offered load),
# and a summary. Usage: sw/bench/net.sh [quick]
set -eu
cd "$(dirname "$0")/../.."
B=build/bench
mkdir -p $B
quick=${1:-}
tori="4x4x4 8x8"
patterns="uniform transpose bitcomp tornado neighbor hotspot"
sizes="1 4 32"
loads="0.05 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0"
if [ "$quick" = quick ]; then patterns="uniform tornado"; sizes="4"; loads="0.1 0.3 0.5 0.7 0.9"; fi
for t in $tori; do make -s build/netbench/$t/skifnet; done
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
                build/netbench/$t/skifnet --dims $t --pattern $p --size $s --load $l \
                    --warmup 1000 --measure 4000 --drain 8000 --csv $csv -q ||
                    { echo; echo "net.sh: skifnet failed on $t $p size $s load $l" >&2; exit 1; }
            done
        done
    done
done
echo >&2
echo "CSV: $csv"
# saturation throughput: the largest accepted throughput per torus/pattern/size
awk -F, 'NR>1 {k=$1","$3","$5; if ($11>best[k]) {best[k]=$11; acc[k]=$9; id[k]=$10}}
    END {printf "%-8s %-10s %-5s %-10s %-8s %s\n", "torus", "pattern", "size", "accepted", "ideal", "fraction";
         for (k in best) {split(k, a, ","); printf "%-8s %-10s %-5s %-10.4f %-8.4f %.1f%%\n", a[1], a[2], a[3], acc[k], id[k], 100*best[k]}}' $csv | sort
awk -F, 'NR>1 && $3=="uniform" && $5==4 && $4<=0.1 {printf "zero-load latency %s uniform size 4 load %s: %s cycles avg\n", $1, $4, $7}' $csv
if command -v gnuplot >/dev/null; then
    for t in $tori; do
        gnuplot <<GP
set terminal pngcairo size 1000,600 noenhanced
set output "$B/net-$t.png"
set datafile separator ","
set title "skifnet $t torus: latency vs offered load (4-flit packets)"
set xlabel "offered load, flits/node/cycle"
set ylabel "average latency, cycles"
set logscale y
set grid
set key outside right
plot for [p in "$patterns"] "< awk -F, '\$1==\"$t\" && \$3==\"".p."\" && \$5==4' $csv" using 4:7 with linespoints title p
GP
        echo "plot: $B/net-$t.png"
    done
fi
