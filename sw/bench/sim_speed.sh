#!/usr/bin/env bash
# sim_speed.sh: `make bench-sim`: simulated cycles per wall second of the same
# runs under each simulator, as a table, build/bench/sim-speed.csv/.json and a
# PNG, with the ratio to single-threaded Verilator. Conditions: 2-node ring,
# host latency 128 cycles, this machine (2 cores), one run each.
#   idle:    the model alone, no messages (t_fail stuck, stopped by --max-cycles)
#   stream:  1000 messages of 64 bytes from node 0 to node 1 (sw/bench/stream.c)
#   systemc: the SystemC example platform's own traffic (200 messages per node,
#            sizes 0..2048) -- the same RTL, a C++ CPU model instead of programs
set -eu
cd "$(dirname "$0")/../.."
B=build/bench
mkdir -p $B
RUN=build/bin/skifrun
export SKIF_ROOT=$PWD
make -s build/models/t2/skifsim build/models/t2-mt/skifsim \
    build/models/t2-icarus/skifsim.vvp build/systemc/nodes2/skif_sc_platform build/tests/t_fail
field() { grep -o "\"$2\": [0-9.]*" "$1" | awk '{print $2}'; }
csv=$B/sim-speed.csv
echo "workload,simulator,cycles,wall_s,cycles_per_s,ratio_to_verilator" >$csv
run() { # workload simulator max-cycles program...
    local w=$1 s=$2 m=$3; shift 3
    local mc=()
    [ "$m" -gt 0 ] && mc=(--max-cycles "$m")
    $RUN -n 2 -q --sim "$s" "${mc[@]}" --stats $B/sp.json "$@" >/dev/null 2>&1 || true
    echo "$w,$s,$(field $B/sp.json cycles),$(field $B/sp.json run_s),$(field $B/sp.json cycles_per_s)"
}
{
    run idle verilator 2000000 build/tests/t_fail stuck
    run idle verilator-mt 300000 build/tests/t_fail stuck
    run idle icarus 20000 build/tests/t_fail stuck
    run stream verilator 0 build/bin/stream 1000 64
    run stream verilator-mt 0 build/bin/stream 1000 64
    run stream icarus 0 build/bin/stream 1000 64
    out=$(SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 build/systemc/nodes2/skif_sc_platform --nodes 2 --messages 200 2>&1 | grep 'cycles/s')
    echo "$out" | awk '{gsub(/[()]/,""); print "systemc-traffic,systemc," $2 "," $7 "," $10}'
} >$B/sp.rows
awk -F, '$2=="verilator" {base[$1]=$5} {rows[NR]=$0; w[NR]=$1; c[NR]=$5}
    END {for (i=1;i<=NR;i++) {b=base[w[i]]; if (b=="") b=base["stream"];
         printf "%s,%.3f\n", rows[i], (b>0 ? c[i]/b : 0)}}' $B/sp.rows >>$csv
awk -F, 'NR==1{print "["; next} {printf "%s  {\"workload\": \"%s\", \"simulator\": \"%s\", \"cycles\": %s, \"wall_s\": %s, \"cycles_per_s\": %s, \"ratio_to_verilator\": %s}", (NR>2?",\n":""), $1,$2,$3,$4,$5,$6} END{print "\n]"}' $csv >$B/sim-speed.json
column -t -s, $csv
echo "(systemc-traffic is compared with the Verilator stream run: different traffic, same RTL)"
if command -v gnuplot >/dev/null; then
    gnuplot <<GP
set terminal pngcairo size 800,420 noenhanced
set output "$B/sim-speed.png"
set datafile separator ","
set style data histograms
set style fill solid 0.7
set logscale y
set ylabel "simulated cycles per wall second"
set title "skifsim simulator speed, 2-node ring (log scale)"
set xtics rotate by -30
plot "< tail -n +2 $csv" using 5:xticlabels(stringcolumn(1)." ".stringcolumn(2)) notitle
GP
    echo "plot: $B/sim-speed.png"
fi
