#!/usr/bin/env bash
# net_speed.sh: `make bench-net-speed`: how fast skifnet (the torus fabric
# alone, sim/netbench) simulates, in router-cycles per second, today's build
# against the build of an earlier commit, measured in one run on one machine.
# Conditions: uniform traffic, 4-flit packets, each offered load of NET_LOADS
# (default "0.1 0.3") on each torus of NET_DIMS (default "8x8 8x8x8"); 1000
# cycles of warm-up and 4000 measured (plus the drain); today's build in 1
# and 2 threads (--threads), the reference in one (it has no threads).
# The runs alternate (reference, today 1 thread, today 2 threads, and again,
# NET_REPS times, default 3), so a change of the machine's speed during the
# bench reaches every build alike; the figure of each is the median.
# The reference: NET_REF, default be9800c, the last skifnet on one Verilator
# build of the whole fabric per torus size (build/netbench/<dims>/skifnet),
# routers only, before the collective engine joined the fabric: the build the
# one-node-model work started from (its router unchanged since 64339d6).
# A commit from 203b5ed on builds skifnet as one node model per node
# (build/netbench/nD/skifnet); either is found. The reference is exported
# with `git archive` into build/ref/<commit> and built there by its own
# Makefile (once; later runs reuse it; the whole 8x8x8 fabric took about
# 7 minutes and 9 GB to build on this 2-core VM, 8x8 one minute).
# Output: build/bench/net-speed.csv (every run), net-speed-summary.csv (the
# medians and the ratio to the reference), the same as .json, and
# net-speed.png (router-cycles per second, one group of bars per torus and load).
set -eu
cd "$(dirname "$0")/../.."
B=build/bench
mkdir -p $B
ref=${NET_REF:-be9800c}
dims_list=${NET_DIMS:-8x8 8x8x8}
loads=${NET_LOADS:-0.1 0.3}
reps=${NET_REPS:-3}
[[ $reps =~ ^[1-9][0-9]?$ ]] || { echo "net_speed: NET_REPS '$reps': expected 1..99" >&2; exit 2; }
for l in $loads; do
    [[ $l =~ ^(0?\.[0-9]+|1(\.0*)?)$ ]] && [ "$l" != 0 ] ||
        { echo "net_speed: NET_LOADS: '$l' is not an offered load (0 < F <= 1)" >&2; exit 2; }
done
sha=$(git rev-parse --verify -q "$ref^{commit}") ||
    { echo "net_speed: NET_REF '$ref' is not a commit of this repository (a shallow clone lacks old ones)" >&2; exit 2; }
sha=${sha:0:12}
. sw/bench/dims.sh
make -s build/bin/skif_dims
dims_check net_speed NET_DIMS $dims_list
rdir=build/ref/$sha
mkdir -p "$rdir"
[ -f "$rdir/Makefile" ] || git archive "$sha" | tar -x -C "$rdir"
# ref_netbench D: the reference's skifnet for D: its node model's (nD), or,
# before 203b5ed, the build of the whole fabric of that size
ref_netbench() {
    if grep -qs skif_fabric_node_top "$rdir"/sim/build_netbench.sh "$rdir"/sim/tools/build_netbench.sh; then
        netbench_of "$1" "$rdir"
    else echo "$rdir/build/netbench/$1/skifnet"; fi
}
for d in $dims_list; do
    make -s "$(netbench_of "$d")"
    if [ ! -x "$(ref_netbench "$d")" ]; then
        echo "net_speed: building the reference $sha's skifnet for $d in $rdir (once; about 7 minutes and 9 GB for a whole 8x8x8 fabric)" >&2
        t=$(ref_netbench "$d")
        make -s -C "$rdir" "${t#"$rdir"/}" >"$rdir/build.log" 2>&1 ||
            { tail -20 "$rdir/build.log"; echo "net_speed: the reference $sha did not build (log: $rdir/build.log)" >&2; exit 1; }
    fi
done
csv=$B/net-speed.csv
echo "dims,nodes,load,build,threads,rep,cycles,cycles_per_s,router_cycles_per_s" >$csv
total=$(( $(wc -w <<<"$dims_list") * $(wc -w <<<"$loads") * reps * 3 )) k=0
for d in $dims_list; do
    nodes=$(dims_nodes "$d")
    for l in $loads; do
        for r in $(seq "$reps"); do
            for run in "ref 1" "now 1" "now 2"; do
                read -r build t <<<"$run"
                k=$((k + 1))
                printf '\r%-60s' "[$k/$total] $d load $l, $build, $t thread(s)" >&2
                bin=$(netbench_of "$d") args=()
                [ "$build" = ref ] && bin=$(ref_netbench "$d") || args=(--threads "$t")
                out=$("$bin" --dims "$d" --pattern uniform --size 4 --load "$l" --warmup 1000 \
                    --measure 4000 --drain 8000 "${args[@]}" | head -1) ||
                    { echo; echo "net_speed: skifnet ($build) failed on $d load $l" >&2; exit 1; }
                read -r cyc cps <<<"$(sed -n 's/.*; \([0-9]*\) cycles, \([0-9]*\) cycles\/s$/\1 \2/p' <<<"$out")"
                [ -n "$cps" ] || { echo; echo "net_speed: no speed in skifnet's line: $out" >&2; exit 1; }
                echo "$d,$nodes,$l,$build,$t,$r,$cyc,$cps,$((cps * nodes))" >>$csv
            done
        done
    done
done
echo >&2
sum=$B/net-speed-summary.csv
awk -F, -v ref="$sha" 'NR > 1 {k = $1 "," $2 "," $3 "," $4 "," $5; v[k] = v[k] " " $9; if (!(k in seen)) {seen[k] = 1; ord[++n] = k}}
    function median(s,   a, m, i, j, t) {m = split(s, a, " ")
        for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {t = a[j]; a[j] = a[j - 1]; a[j - 1] = t}
        return a[int((m + 1) / 2)]}
    END {print "dims,nodes,load,build,threads,runs,router_cycles_per_s,ratio_to_reference,reference"
        for (i = 1; i <= n; i++) {split(ord[i], f, ","); r = f[1] "," f[2] "," f[3] ",ref,1"
            printf "%s,%d,%d,%.3f,%s\n", ord[i], split(v[ord[i]], x, " "), median(v[ord[i]]),
                median(v[ord[i]]) / median(v[r]), ref}}' $csv >$sum
sw/bench/csv2json.sh $csv --wrap runs reference="$sha" reps="$reps" warmup=1000 measure=4000 \
    pattern=uniform size=4 >$B/net-speed.json
sw/bench/csv2json.sh $sum --wrap figures reference="$sha" target_ratio=4.5 >$B/net-speed-summary.json
echo "CSV: $csv, $sum; JSON: $B/net-speed.json, $B/net-speed-summary.json"
printf '%-7s %-5s %-10s %-8s %14s %10s\n' torus load build threads router-cycles/s "x $sha"
tail -n +2 $sum | awk -F, '{printf "%-7s %-5s %-10s %-8s %14d %10.2f\n", $1, $3, ($4 == "ref" ? "reference" : "today"), $5, $7, $8}'
echo "the issue's target: 4.5 times the reference's router-cycles per second at loads up to 0.3"
if command -v gnuplot >/dev/null; then
    # one line per torus and load: reference, today 1 thread, today 2 threads
    awk -F, 'NR > 1 {k = $1 " load " $3; if (!(k in v)) ord[++n] = k
                     v[k] = v[k] " " $7 / 1e6}
             END {for (i = 1; i <= n; i++) printf "\"%s\"%s\n", ord[i], v[ord[i]]}' $sum >$B/net-speed.dat
    gnuplot <<GP
set terminal pngcairo size 1000,560 noenhanced
set output "$B/net-speed.png"
set title "skifnet speed, uniform traffic, 4-flit packets (medians of $reps alternating runs)"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "million router-cycles per second"
set grid ytics
set key top right
set yrange [0:*]
plot "$B/net-speed.dat" using 2:xtic(1) title "reference $sha" lc rgb "gray60", \
     "" using 3 title "today, 1 thread" lc rgb "#1f77b4", \
     "" using 4 title "today, 2 threads" lc rgb "#2ca02c", \
     "" using 0:(\$2 * 4.5) with points pt 7 ps 1.5 lc rgb "red" title "target: 4.5 x reference"
GP
    echo "plot: $B/net-speed.png"
fi
