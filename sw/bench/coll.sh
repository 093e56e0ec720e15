#!/usr/bin/env bash
# coll.sh: `make bench-coll`, the collective figures of issue 10
# (docs/collectives.md, "Library"): a benchmark, not a test. Conditions: the
# default host latency (128 cycles) and clock (250 MHz), 64 KiB rings.
#   bcast 8 bytes on 3x3: posted at the root to the last node's result
#   bcast 64 KiB on 3x3: bandwidth
#   allreduce 8 bytes on 3x3, 2x2x2, 4x4x4, 8x8: hardware against the better
#     software version (recursive doubling, or binomial reduce + broadcast)
#   barrier on 4x4x4: hardware (double synchronising reduce) and software
#     (dissemination)
# Hardware rows: mode hw posts reduces by programmed I/O (the COLL_PIO window,
# SkifColl's default), hw-ring through the TX ring (SKIFCOLL_INJECT=ring).
# Hardware rows print "n/a (hardware path not built)" where the adapter has
# no collective subnet. Writes build/bench/coll.csv, .json and .png (cycles
# against node count). COLL_ITERS sets the repetitions (default 20);
# COLL_DIMS the tori of the allreduce rows (default "3x3 2x2x2 4x4x4 8x8").
set -eu
cd "$(dirname "$0")/../.."
B=build/bench
mkdir -p $B
RUN=build/bin/skifrun
export SKIF_ROOT=$PWD
ITERS=${COLL_ITERS:-20}
DIMS_AR=${COLL_DIMS:-3x3 2x2x2 4x4x4 8x8}
make -s build/bin/skifrun build/bin/collbench
for m in n1 n2 n3; do make -s model MODEL=$m; done   # every torus of 1 to 3 dimensions

csv=$B/coll.csv
echo "figure,dims,nodes,mode,bytes,cycles,us,note" >$csv
NA="n/a (hardware path not built)"

# row FIGURE DIMS OP MODE BYTES: one collbench run, appended to the CSV
# (MODE hw-ring: collbench's hw with SKIFCOLL_INJECT=ring)
row() {
    local fig=$1 dims=$2 op=$3 mode=$4 bytes=$5 out nodes bmode=$4 inj=pio
    [ "$mode" = hw-ring ] && bmode=hw inj=ring
    nodes=$(echo "$dims" | tr x '\n' | awk 'BEGIN{p=1} {p*=$1} END{print p}')
    if out=$(SKIFCOLL_INJECT=$inj $RUN --dims "$dims" -q build/bin/collbench "$op" "$bmode" "$ITERS" "$bytes" 2>$B/coll.err); then
        local cyc us note
        cyc=$(echo "$out" | sed -n 's/.* cycles=\([0-9.]*\).*/\1/p')
        us=$(echo "$out" | sed -n 's/.* us=\([0-9.]*\).*/\1/p')
        note=$(echo "$out" | sed -n 's/.* \(bytes_per_cycle=[0-9.]*\) \(gbit_s=[0-9.]*\).*/\1 \2/p')
        echo "$fig,$dims,$nodes,$mode,$bytes,$cyc,$us,$note" >>$csv
    elif grep -q "hardware path is not built" $B/coll.err; then
        echo "$fig,$dims,$nodes,$mode,$bytes,n/a,n/a,$NA" >>$csv
    else
        cat $B/coll.err >&2
        echo "coll.sh: collbench $op $mode on $dims failed" >&2
        exit 1
    fi
}

row bcast8 3x3 bcast hw 8
row bcast8 3x3 bcast sw 8
row bcast64k 3x3 bcast hw 65536
row bcast64k 3x3 bcast sw 65536
for d in $DIMS_AR; do
    row allreduce8 $d allreduce hw 8
    row allreduce8 $d allreduce hw-ring 8
    row allreduce8 $d allreduce sw-rd 8
    row allreduce8 $d allreduce sw-tree 8
done
row barrier 4x4x4 barrier hw 0
row barrier 4x4x4 barrier hw-ring 0
row barrier 4x4x4 barrier sw 0

sw/bench/csv2json.sh $csv >$B/coll.json
column -t -s, $csv
# the issue's targets against what was measured
awk -F, '
    $1=="bcast8" && $4=="hw" { print "bcast 8 bytes on 3x3, hardware: " ($6=="n/a" ? $8 : $7 " us") " (target <= 1.5 us; the paper: 3.1 us)" }
    $1=="bcast64k" && $4=="hw" { print "bcast 64 KiB on 3x3, hardware: " ($6=="n/a" ? $8 : $8) " (target >= 75% of the link: 6 bytes/cycle)" }
    $1=="allreduce8" { k=$2; if ($4=="hw") hw[k]=$6; else if ($4=="hw-ring") ring[k]=$6; else if (!(k in sw) || $6+0 < sw[k]+0) sw[k]=$6; order[k]=NR }
    END { for (k in order) printf "allreduce 8 bytes on %s: best software %s cycles, hardware %s%s (TX ring: %s)\n", k, sw[k], hw[k], (hw[k]=="n/a" ? "" : sprintf(", %.2fx", sw[k]/hw[k])), ring[k] }
' $csv
echo "(target: hardware at least 8x faster than software on 4x4x4)"
if command -v gnuplot >/dev/null; then
    gnuplot <<GP
set terminal pngcairo size 900,420 noenhanced
set output "$B/coll.png"
set datafile separator ","
set datafile missing "n/a"
set title "8-byte allreduce on the whole torus (default host latency, 250 MHz)"
set xlabel "nodes"
set ylabel "cycles per allreduce"
set key left top
set grid
set xrange [0:70]
set yrange [0:*]
plot "< grep '^allreduce8,.*,sw-rd,' $csv | sort -t, -k3 -n" using 3:6 with linespoints title "software, recursive doubling", \
     "< grep '^allreduce8,.*,sw-tree,' $csv | sort -t, -k3 -n" using 3:6 with linespoints title "software, binomial reduce + broadcast", \
     "< grep '^allreduce8,.*,hw-ring,' $csv | sort -t, -k3 -n" using 3:6 with linespoints title "hardware, posted through the TX ring", \
     "< grep '^allreduce8,.*,hw,' $csv | sort -t, -k3 -n" using 3:6 with linespoints title "hardware, posted by programmed I/O"
GP
    echo "plot: $B/coll.png"
fi
