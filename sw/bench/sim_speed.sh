#!/usr/bin/env bash
# sim_speed.sh: `make bench-sim`: simulated cycles per wall second of the same
# runs under each simulator, as a table, build/bench/sim-speed.csv/.json and a
# PNG, with the ratio to single-threaded Verilator on the same workload.
# Conditions: host latency 128 cycles, this machine, each run REPEAT times
# (default 3), the fastest kept (the machine is shared: the load average is
# printed with the table).
#   idle:    2-node torus (a ring of 2 torus routers), the model alone: every
#            node set up and waiting (skifrun: t_fail stuck, stopped by
#            --max-cycles; SystemC: --messages 0 --idle-cycles)
#   idle16:  the same on a 4x4 torus (16 nodes; IDLE16=0 leaves it out, and
#            its four models unbuilt)
#   stream:  2-node torus, 1000 messages of 64 bytes from node 0 to node 1
#            (skifrun: sw/bench/stream.c through SkifCh; SystemC: the example
#            CPU model's --stream --size 64, the same traffic without the library)
set -eu
cd "$(dirname "$0")/../.."
B=build/bench
mkdir -p $B
RUN=build/bin/skifrun
REPEAT=${REPEAT:-3}
export SKIF_ROOT=$PWD SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
make -s build/bin/skifrun build/tests/t_fail build/bin/stream
tori=(t2)
[ "${IDLE16:-1}" = 0 ] || tori+=(t4x4)
for t in "${tori[@]}"; do
    # Verilator: the one-node model of its number of dimensions (verilator-mt:
    # the same model, --threads 2); SystemC: its node model of that many
    # dimensions; Icarus: the whole network
    nd=$(awk -F x '{print NF}' <<<"${t#t}")
    make -s build/models/n$nd/skifsim build/models/$t-icarus/skifsim.vvp \
        build/systemc/n$nd/skif_sc_platform
done
field() { grep -o "\"$2\": [0-9.]*" "$1" | awk '{print $2}'; }
csv=$B/sim-speed.csv
# best ROW...: the row (workload,simulator,cycles,wall_s,cycles_per_s) with the most cycles/s
best() { printf '%s\n' "$@" | sort -t, -k5,5 -g | tail -1; }
run() { # workload simulator dims max-cycles program...
    local w=$1 s=$2 d=$3 m=$4; shift 4
    local mc=() rows=() i
    [ "$m" -gt 0 ] && mc=(--max-cycles "$m")
    for ((i = 0; i < REPEAT; i++)); do
        rm -f $B/sp.json
        $RUN --dims "$d" -q --sim "$s" "${mc[@]}" --stats $B/sp.json "$@" >/dev/null 2>&1 || true
        [ -s $B/sp.json ] || { echo "sim_speed: $w under $s left no statistics" >&2; exit 1; }
        rows+=("$w,$s,$(field $B/sp.json cycles),$(field $B/sp.json run_s),$(field $B/sp.json cycles_per_s)")
    done
    best "${rows[@]}"
}
run_sc() { # workload dims platform-options...
    local w=$1 d=$2; shift 2
    local out rows=() i
    for ((i = 0; i < REPEAT; i++)); do
        out=$(build/systemc/n$(awk -F x "{print NF}" <<<"$d")/skif_sc_platform --dims "$d" --quiet "$@" 2>&1) ||
            { echo "$out" >&2; echo "sim_speed: SystemC $w failed" >&2; exit 1; }
        # "simulated N cycles (T us) in W s wall: C cycles/s"
        rows+=("$(echo "$out" | awk -v w="$w" '/^simulated/ {print w ",systemc," $2 "," $7 "," $10}')")
    done
    best "${rows[@]}"
}
load=$(cut -d' ' -f1-3 /proc/loadavg)
{
    run idle verilator 2 2000000 build/tests/t_fail stuck
    run idle verilator-mt 2 300000 build/tests/t_fail stuck
    run idle icarus 2 20000 build/tests/t_fail stuck
    run_sc idle 2 --messages 0 --idle-cycles 500000
    if [ "${IDLE16:-1}" != 0 ]; then
        run idle16 verilator 4x4 300000 build/tests/t_fail stuck
        run idle16 verilator-mt 4x4 30000 build/tests/t_fail stuck
        run idle16 icarus 4x4 3000 build/tests/t_fail stuck
        run_sc idle16 4x4 --messages 0 --idle-cycles 100000
    fi
    run stream verilator 2 0 build/bin/stream 1000 64
    run stream verilator-mt 2 0 build/bin/stream 1000 64
    run stream icarus 2 0 build/bin/stream 1000 64
    run_sc stream 2 --stream --size 64 --messages 1000
} >$B/sp.rows
echo "workload,simulator,cycles,wall_s,cycles_per_s,ratio_to_verilator" >$csv
awk -F, '$2=="verilator" {base[$1]=$5} {rows[NR]=$0; w[NR]=$1; c[NR]=$5}
    END {for (i=1;i<=NR;i++) printf "%s,%.4f\n", rows[i], (base[w[i]]>0 ? c[i]/base[w[i]] : 0)}' \
    $B/sp.rows >>$csv
sw/bench/csv2json.sh $csv --wrap runs date="$(date -u +%Y-%m-%dT%H:%MZ)" load_average="$load" \
    cpus="$(nproc)" host_latency=128 repeat="$REPEAT" >$B/sim-speed.json
column -t -s, $csv
echo "($(date -u +%Y-%m-%d), $(nproc) CPUs, load average $load before the runs, best of $REPEAT;"
echo " SystemC runs the example CPU model instead of SkifCh programs: same RTL, same traffic)"
echo "csv: $csv  json: $B/sim-speed.json"
if command -v gnuplot >/dev/null; then
    gnuplot <<GP
set terminal pngcairo size 800,420 noenhanced
set output "$B/sim-speed.png"
set datafile separator ","
set style data histograms
set style fill solid 0.7
set logscale y
set ylabel "simulated cycles per wall second"
set title "skifsim simulator speed: 2-node torus (idle, stream), 4x4 torus (idle16); log scale"
set xtics rotate by -30
plot "< tail -n +2 $csv" using 5:xticlabels(stringcolumn(1)." ".stringcolumn(2)) notitle
GP
    echo "plot: $B/sim-speed.png"
fi
