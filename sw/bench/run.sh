#!/usr/bin/env bash
# run.sh: `make bench`: the simulator's own figures, then the SkifCh figures
# (sw/bench/skifch.sh: latency, bandwidth, message rate, instructions per call). Writes
# build/bench/sim.csv, build/bench/sim.json and build/bench/sim.png, and prints
# the table. Conditions: default host latency (128 cycles) and clock (250 MHz),
# one simulator process on one core, programs released one at a time.
set -eu
cd "$(dirname "$0")/../.."
B=build/bench
mkdir -p $B
RUN=build/bin/skifrun
export SKIF_ROOT=$PWD
make -s build/tests/t_fail build/bin/stream build/bin/greeting
make -s model MODEL=n1   # every ring

csv=$B/sim.csv
echo "run,nodes,msg_bytes,messages,cycles,msgs_per_cycle,bytes_per_cycle,cycles_per_s,startup_s,wall_s" >$csv
field() { grep -o "\"$2\": [0-9.]*" "$1" | awk '{print $2}'; }

# the greeting on 2 and 8 nodes (start-up of the launcher: fork/exec of N programs)
for n in 2 8; do
    best=""
    for rep in 1 2 3; do
        $RUN -n $n -q --stats $B/g.json build/bin/greeting >/dev/null
        s=$(field $B/g.json startup_s)
        if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN{exit !(a<b)}'; then
            best=$s; cp $B/g.json $B/g-best.json
        fi
    done
    echo "greeting,$n,17,$n,$(field $B/g-best.json cycles),,,$(field $B/g-best.json cycles_per_s),$best,$(field $B/g-best.json wall_s)" >>$csv
done

# a stream of messages between two nodes, by size: about 400,000 cycles each
# (~0.4 s of wall time), long enough that start-up and exit do not count
for len in 8 16 32 64 128 256 512 1024 2048; do
    out=$($RUN -n 2 -q --stats $B/s.json build/bin/stream $((3200000 / (len + 8))) $len)
    set -- $out
    echo "stream,2,$len,$2,$(field $B/s.json cycles),$6,$7,$(field $B/s.json cycles_per_s),$(field $B/s.json startup_s),$(field $B/s.json wall_s)" >>$csv
done

# idle network: the model alone, no releases (upper bound on cycles/s)
for n in 2 8; do
    $RUN -n $n -q --max-cycles 2000000 --stats $B/i.json build/tests/t_fail stuck >/dev/null 2>&1 || true
    echo "idle,$n,0,0,$(field $B/i.json cycles),,,$(field $B/i.json cycles_per_s),$(field $B/i.json startup_s),$(field $B/i.json wall_s)" >>$csv
done

sw/bench/csv2json.sh $csv >$B/sim.json

column -t -s, $csv
if command -v gnuplot >/dev/null; then
    gnuplot <<GP
set terminal pngcairo size 900,420 noenhanced
set output "$B/sim.png"
set datafile separator ","
set multiplot layout 1,2 title "skifsim, 2-node ring, host latency 128 cycles"
set logscale x 2
set xtics ("8" 8, "32" 32, "128" 128, "512" 512, "2048" 2048)
set xlabel "message size, bytes"
set ylabel "messages per cycle"
set y2label "link use, fraction of 8 bytes/cycle"
set ytics nomirror
set y2tics 0.2
set yrange [0:*]
set y2range [0:1.05]
set grid
set key center right
plot "< grep ^stream $csv" using 3:6 with linespoints axes x1y1 title "messages/cycle (left)", \
     "" using 3:(\$7/8) with linespoints axes x1y2 title "link use (right)"
unset y2tics
unset y2label
set ytics mirror
set ylabel "simulated cycles per wall second"
set autoscale y
set format y "%.1s%c"
set yrange [0:*]
set key right bottom
plot "< grep ^stream $csv" using 3:8 with linespoints title "cycles/s under traffic", \
     1000000 with lines dt 2 title "target 1M"
unset multiplot
GP
    echo "plot: $B/sim.png"
fi
awk -F, '$1=="greeting" && $2==8 {printf "start-up for 8 nodes: %.3f s (target < 1 s)\n", $9}
         $1=="stream" && $3==8 {printf "2-node stream of 8-byte messages: %.3f msgs/cycle, %.0f cycles/s (target >= 1000000)\n", $6, $8}
         $1=="idle" && $2==2 {printf "2-node idle model: %.0f cycles/s\n", $8}' $csv
sw/bench/skifch.sh
