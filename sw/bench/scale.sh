#!/usr/bin/env bash
# scale.sh: `make bench-scale`: how the simulator scales with the torus size,
# with one Verilated model per node (docs/scale.md). Writes build/bench/scale.csv,
# scale.json and scale.png (node-cycles per second against node count), and
# prints the table. A benchmark, not a test.
#
# Conditions: host latency 128 cycles, this machine (its CPU count and load
# average are printed and stored), each run once, stopped by --max-cycles
# after about SCALE_WORK node-cycles (default 2,000,000; at least 200 cycles):
#   idle:     every node set up and waiting (build/tests/t_fail stuck)
#   alltoall: every node sends messages of 0 to 2 KiB to random nodes
#             (build/bin/alltoall, enough of them for traffic the whole run)
#   sustained: the all-to-all after its programs have started (below)
#   evaluate: every node evaluated every cycle, programs asleep (below)
#   instructions: callgrind's instructions per node-cycle (below)
#   footprint: the cache lines of data a node-cycle touches (below)
# Sizes: SCALE_DIMS (default "2 2x2x2 4x4x4 8x8x8 16x16x16"), threads
# SCALE_THREADS (default "1 2"), MPI ranks SCALE_RANKS (default "2 4", one
# thread each, skipped where the slowest dimension has fewer planes; all on
# this machine, so they share its cores with the programs). Columns: start-up (forking and starting every
# program), simulated cycles per wall second of the run after start-up, node-
# cycles per second (cycles/s x nodes), the simulator's peak memory per
# node, and simulated cycles per second of the simulator's own CPU time
# (--stats run_cpu_s: its threads, not its programs; over MPI ranks the sum of
# theirs), which on a busy machine or one with slow process switches says
# what the model alone costs; for the rows of pairs (sustained, evaluate) also
# the wall time per program release that the simulator did not spend on its
# own CPU (us_per_release_outside_sim: the program's work and the two process
# switches of its hand-over, on the one CPU of the run); for the sustained
# rows also the same cost without the simulator, N plain processes released in
# turn (machine_us_per_release, build/bin/skif_handover); for the footprint
# row the cache lines of data a node-cycle touches (data_lines_per_node_cycle).
# The model build time of each number of dimensions is measured first
# (SCALE_BUILD=0 skips it). Every run of one rank runs on CPU SCALE_CPU
# (default 0; "here": the CPU it starts on), so that its rows compare: the
# two vCPUs of a VM can differ in speed by 1.6 times, hour by hour
# (docs/scale.md); runs over MPI ranks are left to the machine.
set -eu
cd "$(dirname "$0")/../.."
B=build/bench
mkdir -p $B
RUN=build/bin/skifrun
export SKIF_ROOT=$PWD
WORK=${SCALE_WORK:-2000000}
DIMS=${SCALE_DIMS:-2 2x2x2 4x4x4 8x8x8 16x16x16}
THREADS=${SCALE_THREADS:-1 2}
RANKS=${SCALE_RANKS:-2 4}
CPU=${SCALE_CPU:-0}
[[ $CPU =~ ^([0-9]{1,4}|here)$ ]] ||
    { echo "scale: SCALE_CPU '$CPU': expected a CPU number or 'here'" >&2; exit 2; }
PIN=() # (--cpu for the runs of one rank)
[ "$CPU" = here ] || PIN=(--cpu "$CPU")
make -s build/bin/skifrun build/bin/skif_dims build/bin/skif_handover build/tests/t_fail build/bin/alltoall
# every size given, read by the one --dims parser, before any run
. sw/bench/dims.sh
for v in SCALE_DIMS:"$DIMS" SCALE_SUSTAIN:"${SCALE_SUSTAIN-4x4x4 8x8x8}" SCALE_EVAL:"${SCALE_EVAL-4x4x4 8x8x8 16x16x16}"; do
    dims_check scale "${v%%:*}" ${v#*:}
done
field() { jq -r ".$2" "$1"; }

csv=$B/scale.csv
echo "what,dims,nodes,threads,ranks,cycles,startup_s,run_s,cycles_per_s,node_cycles_per_s,rss_mb_per_node,build_s,instr_per_node_cycle,cycles_per_sim_cpu_s,us_per_release_outside_sim,machine_us_per_release,data_lines_per_node_cycle" >$csv
load=$(cut -d' ' -f1-3 /proc/loadavg)

# build time of each node model used (from scratch)
for d in $DIMS; do dims_nd "$d"; done | sort -u | while read -r nd; do
    if [ "${SCALE_BUILD:-1}" != 0 ]; then
        rm -rf build/models/n$nd
        t0=$(date +%s.%N)
        make -s model MODEL=n$nd >/dev/null 2>&1
        echo "build,n$nd,,,,,,,,,,$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')," >>$csv
    else
        make -s model MODEL=n$nd >/dev/null
    fi
done

run() { # what dims threads ranks program...
    local what=$1 d=$2 t=$3 k=$4; shift 4
    local n cyc rk=
    local pin=("${PIN[@]}")
    [ "$k" -gt 1 ] && rk="--ranks $k" pin=()
    n=$(dims_nodes "$d")
    cyc=$((WORK / n)); [ $cyc -ge 200 ] || cyc=200
    echo "scale: $what on $d ($n nodes), $t thread(s), $k rank(s), $cyc cycles..." >&2
    rm -f $B/sc.json
    $RUN --dims "$d" -q "${pin[@]}" --threads "$t" $rk --max-cycles $cyc --stats $B/sc.json "$@" >/dev/null 2>&1 || true
    [ -s $B/sc.json ] || { echo "scale: $what on $d left no statistics" >&2; exit 1; }
    local c s r cps rss cpu
    c=$(field $B/sc.json cycles); s=$(field $B/sc.json startup_s); r=$(field $B/sc.json run_s)
    cps=$(field $B/sc.json cycles_per_s); rss=$(field $B/sc.json max_rss_kb)
    cpu=$(field $B/sc.json run_cpu_s)
    echo "$what,$d,$n,$t,$k,$c,$s,$r,$cps,$(awk -v a="$cps" -v n="$n" 'BEGIN{printf "%.0f", a*n}'),$(awk -v k="$rss" -v n="$n" 'BEGIN{printf "%.3f", k/1024/n}'),,,$(awk -v c="$c" -v u="$cpu" 'BEGIN{if (u > 0) printf "%.1f", c/u}')" >>$csv
}
for d in $DIMS; do
    # messages enough to keep every node sending past --max-cycles (a
    # message is about 100 cycles of one link), no more: every rank plans
    # all ranks' messages at start
    n=$(dims_nodes "$d")
    m=$((WORK / n / 50)); [ $m -ge 20 ] || m=20
    planes=${d##*x}
    for tk in $(for t in $THREADS; do echo "$t:1"; done; for k in $RANKS; do echo "1:$k"; done); do
        t=${tk%:*} k=${tk#*:}
        [ "$k" -le "$planes" ] || continue
        run idle "$d" "$t" "$k" build/tests/t_fail stuck
        run alltoall "$d" "$t" "$k" build/bin/alltoall $m 1 2
    done
done

# rate_of C1 C2 FIELD: cycles per second of FIELD between the runs of
# $B/scC1.json and $B/scC2.json
rate_of() {
    jq -n --slurpfile a $B/sc$1.json --slurpfile b $B/sc$2.json \
        "((\$b[0].cycles - \$a[0].cycles) / (\$b[0].$3 - \$a[0].$3))"
}
# outside_of C1 C2: microseconds of wall time per program release between the
# two runs that the simulator did not spend on its own CPU: the programs'
# work and the process switches of their hand-overs (one CPU: the runs are
# pinned), or nothing if no program was released
outside_of() {
    jq -n --slurpfile a $B/sc$1.json --slurpfile b $B/sc$2.json \
        "(\$b[0].releases - \$a[0].releases) as \$n | if \$n > 0 then
         ((\$b[0].run_s - \$a[0].run_s) - (\$b[0].run_cpu_s - \$a[0].run_cpu_s)) * 1e6 / \$n
         else 0 end"
}
# median_of "R1 R2 ...": the median of the positive rates ("none" if none),
# and how many were not positive
median_of() {
    tr ' ' '\n' <<<"$1" | grep . | sort -g |
        awk '$1 > 0 {v[++k] = $1} $1 <= 0 {o++} END {print (k ? v[int((k + 1) / 2)] : "none"), o + 0}'
}
# pair WHAT DIMS C1 C2 OPTIONS -- PROGRAM...: the rate once every program has
# started (the runs above are short, so on big tori they are mostly the
# programs' start): two runs that differ only in --max-cycles (the simulation
# is deterministic, so the longer one repeats the shorter one first); the rate
# is the extra cycles over the extra run time, the median of SCALE_REPEAT
# pairs (default 3), one thread. Adds a row (PAIR_MACHINE: its last column,
# machine_us_per_release).
pair() {
    local what=$1 d=$2 c1=$3 c2=$4; shift 4
    local opts=() n rates= cpu_rates= outs= med cpu_med out_med i c
    while [ "$1" != -- ]; do opts+=("$1"); shift; done; shift
    n=$(dims_nodes "$d")
    for i in $(seq "${SCALE_REPEAT:-3}"); do
        for c in "$c1" "$c2"; do
            echo "scale: $what on $d ($n nodes), $c cycles, pair $i..." >&2
            rm -f $B/sc$c.json
            $RUN --dims "$d" -q "${PIN[@]}" "${opts[@]}" --max-cycles "$c" --stats $B/sc$c.json "$@" \
                >/dev/null 2>&1 || true
            [ -s $B/sc$c.json ] || { echo "scale: $what on $d left no statistics" >&2; exit 1; }
        done
        # the extra cycles over the extra wall time, and over the extra CPU
        # time of the simulator (its programs' left out)
        rates="$rates $(rate_of $c1 $c2 run_s)"
        cpu_rates="$cpu_rates $(rate_of $c1 $c2 run_cpu_s)"
        outs="$outs $(outside_of $c1 $c2)"
    done
    # A pair whose longer run took less time than its shorter one (the
    # machine's speed changed between them: seen on a shared VM) gives no
    # rate; it is named and left out of the median.
    local out=0
    read -r med out <<<"$(median_of "$rates")"
    read -r cpu_med _ <<<"$(median_of "$cpu_rates")"
    [ "$cpu_med" != none ] || cpu_med=
    read -r out_med _ <<<"$(median_of "$outs")"
    [ "$out_med" != none ] || out_med=
    echo "scale: $what on $d: cycles/s of each pair:$rates, median $med;" \
         "per second of the simulator's CPU:$cpu_rates, median ${cpu_med:-none};" \
         "microseconds per release outside the simulator:$outs, median ${out_med:-none}" >&2
    [ "$out" = 0 ] || echo "scale: $out pair(s) left out: the longer run was not the slower, the machine's speed changed" >&2
    [ "$med" != none ] || { echo "scale: $what on $d: no pair gave a rate; run again on a quieter machine" >&2; return 0; }
    echo "$what,$d,$n,1,1,$((c2 - c1)),$(field $B/sc$c2.json startup_s),$(awk -v c="$med" -v k=$((c2 - c1)) 'BEGIN{printf "%.3f", k/c}'),$(awk -v c="$med" 'BEGIN{printf "%.1f", c}'),$(awk -v a="$med" -v n="$n" 'BEGIN{printf "%.0f", a*n}'),$(awk -v k="$(field $B/sc$c2.json max_rss_kb)" -v n="$n" 'BEGIN{printf "%.3f", k/1024/n}'),,,$(awk -v c="$cpu_med" 'BEGIN{if (c != "") printf "%.1f", c}'),$(awk -v u="$out_med" 'BEGIN{if (u != "") printf "%.1f", u}'),${PAIR_MACHINE-}" >>$csv
}
# sustained: the all-to-all from cycle 4000 to 10000, 78 messages per rank
# (every node still sending at cycle 10000); SCALE_SUSTAIN sizes (default
# "4x4x4 8x8x8": the cost per node-cycle under traffic from 64 to 512 nodes;
# on 16x16x16 the programs are still starting at cycle 4000).
# Beside each: what a hand-over costs on this machine without the simulator,
# as many plain processes as the torus has programs, released in turn on the
# same CPU (build/bin/skif_handover; column machine_us_per_release).
hcpu=$CPU
[ "$hcpu" != here ] || hcpu=$(awk '{print $39}' /proc/self/stat)
for d in ${SCALE_SUSTAIN-4x4x4 8x8x8}; do
    n=$(dims_nodes "$d")
    echo "scale: a hand-over among $n plain processes on CPU $hcpu..." >&2
    PAIR_MACHINE=$(build/bin/skif_handover --procs "$n" --cpu "$hcpu" -q) ||
        { echo "scale: build/bin/skif_handover --procs $n failed" >&2; exit 1; }
    pair sustained "$d" 4000 10000 -- build/bin/alltoall 78 1 2
done
PAIR_MACHINE=
# evaluate: the simulator's own cost per node-cycle against size, every node
# evaluated each cycle (--no-skip) with its program set up and asleep
# (t_fail sleep: in SkifCh_Wait, no polling, so no program takes the CPU
# from the simulator; t_fail stuck's polls every 256 cycles cost 4096 nodes
# 40% of their rate), from cycle 1000 (the programs' start is over) for 4
# million more node-cycles; SCALE_EVAL sizes (default "4x4x4 8x8x8
# 16x16x16").
for d in ${SCALE_EVAL-4x4x4 8x8x8 16x16x16}; do
    n=$(dims_nodes "$d")
    pair evaluate "$d" 1000 $((1000 + 4000000 / n)) --no-skip -- build/tests/t_fail sleep
done

# instructions: the one figure here that the machine's load does not move
# (on a shared VM the same binary's cycles/s varied by two times between
# runs): callgrind's count of the simulator's instructions per node-cycle of
# the 4x4x4 all-to-all under sustained traffic, cycles 3000 to 6000 (78
# messages per rank; two runs, the difference), one thread. Under callgrind
# the run is about 50 times slower: 4x4x4, not 8x8x8. Needs valgrind (make
# deps installs it); SCALE_INSTR=0 skips it and the footprint (about 3
# minutes together).
# cg_count OUT EVENTS CALLGRIND_OPTIONS -- SKIFSIM_ARGS: runs
# build/models/n3/skifsim under callgrind (output $B/OUT) and prints the sum
# of the named events' totals (EVENTS: names separated by spaces, as in the
# output's "events:" line).
cg_count() {
    local out=$B/$1 ev=$2 opts=() rc=0 v
    shift 2
    while [ "$1" != -- ]; do opts+=("$1"); shift; done; shift
    valgrind --tool=callgrind "${opts[@]}" --callgrind-out-file="$out" build/models/n3/skifsim "$@" \
        >/dev/null 2>$B/cg.err || rc=$?
    # (3: stopped by --max-cycles, as meant)
    [ "$rc" = 0 ] || [ "$rc" = 3 ] ||
        { echo "scale: the callgrind run exited $rc: $(grep -v '^==' $B/cg.err | tail -3)" >&2; return 1; }
    v=$(awk -v ev="$ev" '/^events:/ {for (i = 2; i <= NF; i++) k[$i] = i}
        /^totals:/ {n = split(ev, e, " "); s = 0
                    for (j = 1; j <= n; j++) {if (!k[e[j]]) exit; s += $k[e[j]]}
                    print s}' "$out")
    [ -n "$v" ] || { echo "scale: callgrind left no count of $ev in $out" >&2; return 1; }
    echo "$v"
}
if [ "${SCALE_INSTR:-1}" != 0 ]; then
    make -s model MODEL=n3 >/dev/null
    ir=()
    for c in 3000 6000; do
        echo "scale: instructions of the 4x4x4 all-to-all, $c cycles, under callgrind..." >&2
        ir+=("$(cg_count cg$c.out Ir -- --dims 4x4x4 -q --max-cycles $c build/bin/alltoall 78 1 2)") || exit 1
    done
    echo "instructions,4x4x4,64,1,1,3000,,,,,,,$(( (ir[1] - ir[0]) / (64 * 3000) ))" >>$csv
    # footprint: the distinct cache lines of data a node-cycle touches (the
    # state of its model that the evaluation reads or writes, and the
    # kernel's data of that node), the evaluate row's condition (every node
    # evaluated, programs asleep) on 4x4x4, cycles 1000 to 1200 (two runs,
    # the difference), under callgrind's cache simulation with a last-level
    # cache of 128 KB: a node-cycle's own lines (about 6 KB) stay in it, and
    # one cycle's lines of all 64 nodes (about 400 KB) do not, so each line
    # a node-cycle touches misses it once a cycle (last-level read and
    # write misses, DLmr + DLmw). What a cycle of N nodes streams through
    # the caches is N times this many lines of 64 bytes: the figure that
    # decides where the cost per node-cycle rises with size (docs/scale.md,
    # "What a node-cycle touches"). Deterministic, as the instruction count.
    dl=()
    for c in 1000 1200; do
        echo "scale: data lines of a node-cycle of 4x4x4, $c cycles, under callgrind's cache simulation..." >&2
        dl+=("$(cg_count cgl$c.out "DLmr DLmw" --cache-sim=yes --LL=131072,8,64 -- \
            --dims 4x4x4 -q --no-skip --max-cycles $c build/tests/t_fail sleep)") || exit 1
    done
    echo "footprint,4x4x4,64,1,1,200,,,,,,,,,,,$(awk -v a="${dl[0]}" -v b="${dl[1]}" 'BEGIN{printf "%.1f", (b - a) / (64 * 200)}')" >>$csv
fi

sw/bench/csv2json.sh $csv --wrap runs date="$(date -u +%Y-%m-%dT%H:%MZ)" load_average="$load" \
    cpus="$(nproc)" cpu="$CPU" host_latency=128 node_cycles="$WORK" >$B/scale.json
column -t -s, $csv
echo "($(date -u +%Y-%m-%d), $(nproc) CPUs, runs of one rank on CPU $CPU, load average $load before the runs)"
echo "csv: $csv  json: $B/scale.json"
if ! awk -F, 'NR > 1 && $10 != "" {f = 1} END {exit !f}' $csv; then
    echo "plot: none (no row of node-cycles per second)"
elif command -v gnuplot >/dev/null; then
    gnuplot <<GP
set terminal pngcairo size 900,480 noenhanced
set output "$B/scale.png"
set datafile separator ","
set logscale x 2
set logscale y
set key top right
set xlabel "nodes"
set ylabel "node-cycles per second (wall clock unless said)"
set title "skifsim: one model per node, speed against torus size (host latency 128)"
plot "< awk -F, '\$1==\"idle\" && \$4==1 && \$5==1' $csv" using 3:10 with linespoints title "idle, 1 thread", \
     "< awk -F, '\$1==\"idle\" && \$4==2' $csv" using 3:10 with linespoints title "idle, 2 threads", \
     "< awk -F, '\$1==\"idle\" && \$5==2' $csv" using 3:10 with linespoints title "idle, 2 MPI ranks", \
     "< awk -F, '\$1==\"alltoall\" && \$4==1 && \$5==1' $csv" using 3:10 with linespoints title "all-to-all, 1 thread", \
     "< awk -F, '\$1==\"alltoall\" && \$4==2' $csv" using 3:10 with linespoints title "all-to-all, 2 threads", \
     "< awk -F, '\$1==\"alltoall\" && \$5==2' $csv" using 3:10 with linespoints title "all-to-all, 2 MPI ranks", \
     "< awk -F, '\$1==\"alltoall\" && \$5==4' $csv" using 3:10 with linespoints title "all-to-all, 4 MPI ranks", \
     "< awk -F, '\$1==\"sustained\"' $csv" using 3:10 with points pointsize 2 title "all-to-all after start-up, 1 thread", \
     "< awk -F, '\$1==\"sustained\" && \$14!=\"\"' $csv" using 3:(\$14*\$3) with points pointsize 2 pointtype 6 title "the same, per second of the simulator's own CPU (programs not counted)", \
     "< awk -F, '\$1==\"evaluate\"' $csv" using 3:10 with linespoints linewidth 2 title "every node evaluated (--no-skip), after start-up, 1 thread"
GP
    echo "plot: $B/scale.png"
fi
