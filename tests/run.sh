#!/usr/bin/env bash
# run.sh: the whole test suite (`make test` builds first, then runs this).
# Each test is a shell function named t_*; its output goes to
# build/test-logs/<name>.log and is shown when it fails. Ends with the line
# "N passed, N failed". Run one test: tests/run.sh t_greeting_intact
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
B=$ROOT/build
RUN="$B/bin/skifrun"
LOGS=$B/test-logs
mkdir -p "$LOGS"
export SKIF_ROOT=$ROOT

# ---------------------------------------------------------------- helpers
fail() { echo "FAIL: $*"; return 1; }
# expect_rc WANT CMD...: run CMD with a time limit (a hang guard, not a
# speed check: EXPECT_LIMIT seconds, 120 unless a test sets more), its status
# must be WANT.
expect_rc() {
    local want=$1; shift
    timeout "${EXPECT_LIMIT:-120}" "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    cat "$T/out" "$T/err"
    [ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want"
}
# has FILE TEXT: FILE must contain TEXT.
has() { grep -qF -- "$2" "$1" || fail "expected '$2' in $(basename "$1")"; }

# ---------------------------------------------------------------- build/lint
t_hw_header_matches_rtl() { make -s check-hw; }
t_rtl_lint_wall() {
    # the adapter network on a ring of 2 and of 16, a 3x3 and a 2x3x4 torus
    local p
    for p in "-GNDims=1 -GSizeX=2 -GSizeY=1" "-GNDims=1 -GSizeX=16 -GSizeY=1" \
             "-GNDims=2 -GSizeX=3 -GSizeY=3" "-GNDims=3 -GSizeX=2 -GSizeY=3 -GSizeZ=4"; do
        echo "lint skif_torus_net $p"
        verilator --lint-only -Wall -Irtl rtl/lint.vlt $(cat rtl/files.txt) \
            --top-module skif_torus_net $p || return 1
    done
}
t_c_format_clean() { make -s lint | tail -1; }
t_rtl_bad_parameter_rejected() {
    # a torus size outside 2..16 must stop elaboration with a message naming it
    ! verilator --lint-only -Irtl rtl/lint.vlt $(cat rtl/files.txt) \
        --top-module skif_torus_net -GNDims=1 -GSizeX=1 -GSizeY=1 >"$T/out" 2>&1 || return 1
    cat "$T/out"; grep -q "SizeX=1 out of range" "$T/out"
}

# ---------------------------------------------------------------- unit (C)
t_unit_opts_and_fifo() { "$B/unit/test_opts"; }
t_unit_parts_cover_balance_no_race() { "$B/unit/test_parts"; } # (ThreadSanitizer build)

# ---------------------------------------------------------------- RTL (Icarus)
# TB_TESTS: the testbench runs; each builds and runs in build/tb[v]/<block>
# alone, so the runner gives them a lane of their own (see the runner).
TB_TESTS=""
for blk in $(cat tb/blocks.txt 2>/dev/null); do
    eval "t_icarus_$blk() { tb/run_icarus.sh $blk; }"
    TB_TESTS="$TB_TESTS t_icarus_$blk"
done
# The same testbenches under Verilator (--binary --timing), first parameter set
# each; tb/verilator-skip.txt lists the ones Verilator 5.006 cannot run, with why.
for blk in $(grep -vxF -f <(sed 's/ *#.*//' tb/verilator-skip.txt 2>/dev/null | grep .) tb/blocks.txt 2>/dev/null); do
    eval "t_verilator_tb_$blk() { tb/run_verilator.sh $blk; }"
    TB_TESTS="$TB_TESTS t_verilator_tb_$blk"
done

# ---------------------------------------------------------------- end to end
t_greeting_intact() {
    expect_rc 0 "$RUN" -n 4 "$B/bin/greeting" || return 1
    for r in 0 1 2 3; do
        has "$T/out" "node $r: received \"Hello from node $(( (r + 3) % 4 ))\"" || return 1
    done
    [ "$(wc -l <"$T/out")" -eq 4 ] || fail "expected 4 lines of output"
}
t_greeting_deterministic() {
    "$RUN" -n 3 --stats "$T/s1.json" "$B/bin/greeting" >"$T/o1" 2>/dev/null || return 1
    "$RUN" -n 3 --stats "$T/s2.json" "$B/bin/greeting" >"$T/o2" 2>/dev/null || return 1
    cmp "$T/o1" "$T/o2" || fail "outputs differ" || return 1
    c1=$(grep -o '"cycles": [0-9]*' "$T/s1.json"); c2=$(grep -o '"cycles": [0-9]*' "$T/s2.json")
    echo "run 1 $c1, run 2 $c2"
    [ -n "$c1" ] && [ "$c1" = "$c2" ] || fail "cycle counts differ"
}
t_order_deterministic() {
    "$RUN" -n 4 --stats "$T/s1.json" "$B/tests/t_order" 100 >"$T/o1" 2>/dev/null || return 1
    "$RUN" -n 4 --stats "$T/s2.json" "$B/tests/t_order" 100 >"$T/o2" 2>/dev/null || return 1
    cat "$T/o1"
    cmp "$T/o1" "$T/o2" || fail "outputs differ" || return 1
    [ "$(grep -o '"cycles": [0-9]*' "$T/s1.json")" = "$(grep -o '"cycles": [0-9]*' "$T/s2.json")" ] \
        || fail "cycle counts differ"
}
t_driver_registers_dma_rings() {
    expect_rc 0 "$RUN" -n 2 "$B/tests/t_driver" || return 1
    has "$T/out" "t_driver: node 0 ok" && has "$T/out" "t_driver: node 1 ok" || return 1
    # the simulator names each rejected access
    has "$T/err" "register read at offset 0x800 rejected" &&
        has "$T/err" "register write 0x00000000 to offset 0x500 rejected" &&
        has "$T/err" "register write 0x00000007 to offset 0x000 rejected"
}
t_sizes_0_to_max_intact() {
    expect_rc 0 "$RUN" -n 2 "$B/tests/t_sizes" || return 1
    has "$T/out" "node 1 received sizes 0..2048 intact"
}
t_sizes_across_the_ring() {
    # node 0 -> node 1 on a 5-ring with small sizes and a long host latency
    expect_rc 0 "$RUN" -n 5 --host-latency 400 "$B/tests/t_sizes" 300 || return 1
    has "$T/out" "node 1 received sizes 0..300 intact"
}
# ---------------------------------------------------------------- SkifCh channels (issue 4)
t_channels_isolation_close_wrap_partial_errors() {
    expect_rc 0 "$RUN" -n 3 "$B/tests/t_chan" || return 1
    has "$T/out" "isolated and in order, close with 10 pending" &&
        has "$T/out" "t_chan: node 1: sent ok" && has "$T/out" "t_chan: node 2: sent ok" &&
        has "$T/err" "4 messages to closed channels"
}
t_alltoall_3d_scoreboard() {
    expect_rc 0 "$RUN" --dims 2x2x2 "$B/bin/alltoall" 120 7 3 || return 1
    has "$T/out" "alltoall: 8 nodes, 120 messages each, 3 channels: all delivered once, intact, in order" || return 1
    # some messages must have gone out in parts (partial sends), or the
    # reassembly path was not tested
    grep -q "sent 120 ([1-9][0-9]* sent in parts)" "$T/out" || fail "no partial send happened"
}
t_alltoall_deterministic() {
    "$RUN" -n 3 -q --stats "$T/a.json" "$B/bin/alltoall" 80 3 >"$T/a.out" 2>&1 || return 1
    "$RUN" -n 3 -q --stats "$T/b.json" "$B/bin/alltoall" 80 3 >"$T/b.out" 2>&1 || return 1
    cmp "$T/a.out" "$T/b.out" || fail "outputs differ" || return 1
    local ca cb
    ca=$(grep -o '"cycles": [0-9]*' "$T/a.json"); cb=$(grep -o '"cycles": [0-9]*' "$T/b.json")
    [ -n "$ca" ] && [ "$ca" = "$cb" ] || fail "cycle counts differ: $ca / $cb"
}
t_skifch_programs_run() {
    expect_rc 0 "$RUN" -n 2 "$B/bin/pingpong" 50 8 || return 1
    grep -Eq "pingpong: 8 bytes, 50 round trips: one-way [0-9.]+ cycles = [0-9.]+ us at 250 MHz" "$T/out" ||
        fail "pingpong line" || return 1
    expect_rc 0 "$RUN" -n 2 "$B/bin/msgrate" 2000 8 || return 1
    grep -Eq "msgrate: 2000 x 8 bytes in [0-9]+ cycles: 0\.[0-9]+ msgs/cycle" "$T/out" ||
        fail "msgrate line" || return 1
    expect_rc 0 "$RUN" -n 2 "$B/bin/bandwidth" 50 64 2048 || return 1
    has "$T/out" "size,messages,cycles,bytes_per_cycle,gbytes_per_s" && grep -q "^2048,50," "$T/out"
}
t_chanblock_head_of_line() {
    # the adapter alone (SKIFCH_CREDITS=0): a full channel blocks the node's
    # other channels exactly when its ring is full (256 entries); with
    # credits (the default) A's sender stops instead and B gets all its
    # messages while A is unread; nothing is lost or reordered either way
    # (docs/skifch.md)
    SKIFCH_CREDITS=0 expect_rc 0 "$RUN" -n 2 "$B/bin/chanblock" 1200 3000 || return 1
    has "$T/out" "chanblock: B got 256 of 600 while A (256-entry ring) was unread" &&
        has "$T/out" "all 1200 messages in order by cycle" || return 1
    expect_rc 0 "$RUN" -n 2 "$B/bin/chanblock" 1200 3000 || return 1
    has "$T/out" "chanblock: B got all 600 while A (256-entry ring) was unread" &&
        has "$T/out" "all 1200 messages in order by cycle"
}
t_skifch_programs_help_and_bad_args() {
    for p in pingpong msgrate bandwidth alltoall chanblock msgcost stream; do
        "$B/bin/$p" --help >"$T/out" 2>&1 || fail "$p --help exited non-zero" || return 1
        has "$T/out" "usage:" || return 1
    done
    # bad arguments: usage and exit 2 (under skifrun: the run fails, naming the status)
    expect_rc 2 "$B/bin/pingpong" 10 99999 || return 1
    has "$T/err" "pingpong: bad arguments" || return 1
    expect_rc 2 "$B/bin/msgrate" 10 513 || return 1
    expect_rc 2 "$B/bin/bandwidth" 10 0 || return 1
    has "$T/err" "bandwidth: bad SIZE '0'" || return 1
    expect_rc 2 "$B/bin/alltoall" 10 1 99 || return 1
    expect_rc 2 "$RUN" -n 2 "$B/bin/msgrate" 10 513 || return 1
    has "$T/err" "exited with status 2" || return 1
    expect_rc 2 "$RUN" -n 2 "$B/bin/pingpong" 10 8 5 || return 1
    has "$T/err" "PEER 5 is not a rank of this run"
}
t_order_per_sender() {
    expect_rc 0 "$RUN" -n 5 "$B/tests/t_order" 300 || return 1
    has "$T/out" "got 1200 messages from 4 senders in order"
}
t_greeting_under_valgrind() {
    command -v valgrind >/dev/null || fail "valgrind missing" || return 1
    expect_rc 0 "$RUN" -n 2 valgrind -q --error-exitcode=9 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect "$B/bin/greeting" || return 1
    has "$T/out" "node 1: received"
}
t_simulator_under_valgrind() {
    # the simulator's own C (kernel, host model, DPI) leaks nothing and reads
    # no uninitialised memory on a whole run
    expect_rc 0 valgrind -q --error-exitcode=9 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect \
        "$B/models/n1/skifsim" -n 2 "$B/bin/greeting" || return 1
    has "$T/out" "node 0: received"
}
t_wave_window_and_node() {
    rm -f "$T/w.fst"
    expect_rc 0 "$RUN" -n 3 --wave "$T/w.fst" --trace-from 100 --trace-to 400 --trace-node 1 \
        "$B/bin/greeting" || return 1
    [ -s "$T/w.fst" ] || fail "no waveform written" || return 1
    fst2vcd "$T/w.fst" >"$T/w.vcd" 2>/dev/null || fail "fst2vcd cannot read it" || return 1
    grep -q 'scope module g_node\[1\]' "$T/w.vcd" || fail "node 1 not traced" || return 1
    ! grep -q 'scope module g_node\[0\]' "$T/w.vcd" || fail "node 0 traced too" || return 1
    first=$(grep -m1 '^#' "$T/w.vcd" | tr -d '#'); last=$(grep '^#' "$T/w.vcd" | tail -1 | tr -d '#')
    echo "trace time $first..$last ps"
    # 250 MHz: 4000 ps per cycle; window 100..400
    [ "$first" -ge 400000 ] && [ "$last" -le 1604000 ] || fail "window not respected"
}
t_wave_deterministic() {
    "$RUN" -n 2 -q --wave "$T/a.fst" "$B/bin/greeting" >/dev/null 2>&1 || return 1
    "$RUN" -n 2 -q --wave "$T/b.fst" "$B/bin/greeting" >/dev/null 2>&1 || return 1
    fst2vcd "$T/b.fst" 2>/dev/null | sed '/\$date/,/\$end/d' >"$T/b.vcd"
    fst2vcd "$T/a.fst" 2>/dev/null | sed '/\$date/,/\$end/d' >"$T/a.vcd"
    [ -s "$T/a.vcd" ] && cmp "$T/a.vcd" "$T/b.vcd" || fail "waveforms differ"
}
t_gtkw_signals_exist() {
    # every signal the save file names exists in a trace of the model
    "$RUN" -n 2 -q --wave "$T/g.fst" "$B/bin/greeting" >/dev/null 2>&1 || return 1
    local f
    for f in sim/tools/gtkw/*.gtkw; do tests/check_gtkw.sh "$f" "$T/g.fst" || return 1; done
}
t_gtkw_missing_signal_caught() {
    "$RUN" -n 2 -q --wave "$T/g.fst" "$B/bin/greeting" >/dev/null 2>&1 || return 1
    { cat sim/tools/gtkw/node.gtkw; echo "g_node[0].skif_node_top.u_node.u_adapter.no_such_sig"; } >"$T/bad.gtkw"
    ! tests/check_gtkw.sh "$T/bad.gtkw" "$T/g.fst" >"$T/out" 2>&1 || fail "not caught" || return 1
    cat "$T/out"; has "$T/out" "names g_node[0].skif_node_top.u_node.u_adapter.no_such_sig"
}

# ---------------------------------------------------------------- torus (router) runs
t_torus_3x3_greeting_and_order() {
    expect_rc 0 "$RUN" --dims 3x3 "$B/bin/greeting" || return 1
    for r in 0 1 2 3 4 5 6 7 8; do
        has "$T/out" "node $r: received \"Hello from node $(( (r + 8) % 9 ))\"" || return 1
    done
    expect_rc 0 "$RUN" --dims 3x3 "$B/tests/t_order" 100 || return 1
    has "$T/out" "got 800 messages from 8 senders in order"
}
t_torus_bad_dims_rejected() {
    local line
    for line in "--dims 1x4" "--dims 4x17" "--dims 2x2x2x2x2" "--dims 16x16x16x2" "-n 17" "-n 8 --dims 3x3"; do
        timeout 20 "$RUN" $line "$B/bin/greeting" >"$T/out" 2>"$T/err"
        rc=$?
        echo "skifrun $line -> $rc: $(head -1 "$T/err")"
        [ $rc -eq 2 ] || fail "'skifrun $line' exited $rc, expected 2" || return 1
    done
}
# skifnet: the torus fabric alone under synthetic traffic with a scoreboard
# (every packet once, intact, right node, in order per pair) and a watchdog;
# one node model per node, built once per number of dimensions.
skifnet_for() { # dims [-prev] -> the skifnet of that many dimensions (-prev: the router before the throughput work)
    local x=${1//[^x]/}
    echo "$B/netbench/n$(( ${#x} + 1 ))${2:-}/skifnet"
}
skifnet_run() { # dims args...
    local dims=$1; shift
    expect_rc 0 "$(skifnet_for "$dims")" --dims "$dims" --warmup 500 --measure 3000 "$@"
}
for dims in 5 3x3 2x3x4 2x2x2x2; do
    t=${dims//x/_}
    eval "t_skifnet_${t}_uniform_past_saturation() { skifnet_run $dims --pattern uniform --load 0.9 --size 4 --drain 4000 && has \"\$T/out\" 'packets measured'; }"
    p=tornado; [ $dims = 2x2x2x2 ] && p=bitcomp   # tornado needs a ring of 3 or more
    eval "t_skifnet_${t}_${p}_and_bad_dst() { skifnet_run $dims --pattern $p --load 0.8 --size 8 --bad-dst 20 --drain 4000 && has \"\$T/out\" 'bad-dst packets dropped'; }"
done
t_skifnet_node_model_matches_flattened_record() {
    # the same packets, latencies, throughput and cycle counts as the
    # whole-network builds of each size gave (tests/ref/skifnet_flat.txt),
    # with idle routers skipped (the default), with every router evaluated
    # every cycle (--no-skip), and in 2 and 3 threads (used every cycle:
    # SKIF_THREADS_ADAPT=0; the next test runs the default); the record was made
    # with the router before the throughput work, so the node models are
    # its -prev variants
    local dims args want got skip n=0
    while IFS='|' read -r dims args want; do
        case $dims in '#'* | '') continue ;; esac
        for skip in "" --no-skip "--threads 2" "--threads 3 --no-skip"; do
            SKIF_THREADS_ADAPT=0 "$(skifnet_for "$dims" -prev)" --dims "$dims" --warmup 500 \
                --measure 3000 $args $skip >"$T/out"
            got=$(head -1 "$T/out" | sed 's/, [0-9]* cycles\/s//')
            [ "$got" = "$want" ] || fail "$dims $args $skip: got '$got', recorded '$want'" || return 1
            grep "router-cycles evaluated" "$T/out"
        done
        n=$((n + 1))
    done < tests/ref/skifnet_flat.txt
    echo "$n runs as recorded"
    [ "$n" -ge 15 ] || fail "only $n runs compared"
}
t_skifnet_order_past_saturation_every_torus_and_pattern() {
    # the scoreboard (every packet once, intact, in order per pair) and the
    # watchdog (no deadlock) past saturation, today's router, each run with
    # and without idle-router skipping and in 2 threads: the same output line
    local dims p out1 out2 n=0
    for dims in 5 3x3 2x3x4 2x2x2x2 4x4x4 8x8; do
        for p in uniform transpose tornado hotspot; do
            case $p/$dims in transpose/3x3 | transpose/2x2x2x2 | transpose/8x8 | [uh]*/* | tornado/*) ;; *) continue ;; esac
            # tornado on rings of 2 sends every packet to its own node (refused)
            [ "$p/$dims" = tornado/2x2x2x2 ] && continue
            for skip in "" --no-skip "--threads 2"; do
                timeout 300 "$(skifnet_for "$dims")" --dims "$dims" --pattern $p --load 0.95 --size 4 \
                    --warmup 300 --measure 1500 --drain 8000 $skip >"$T/out" 2>&1 ||
                    { cat "$T/out"; fail "$dims $p $skip: skifnet failed"; return 1; }
                out2=$(head -1 "$T/out" | sed 's/, [0-9]* cycles\/s//')
                [ -z "$skip" ] && out1=$out2
                [ "$skip" != "--threads 2" ] || has "$T/out" "router-cycles evaluated (the rest idle, skipped), 2 threads" || return 1
                [ "$out1" = "$out2" ] || fail "$dims $p: $skip gave '$out2', by default '$out1'" || return 1
            done
            echo "$out1"
            case $out1 in *" 0 packets measured"*) fail "$dims $p: no packets measured"; return 1 ;; esac
            n=$((n + 1))
        done
    done
    [ $n -eq 20 ] || fail "$n torus/pattern runs, expected 20"
}
t_skifnet_bad_input() {
    local D="$B/netbench/n2/skifnet" line
    for line in "--dims 4x4x4" "--dims 3x17" "--dims 3x3 --load 0" "--dims 3x3 --load 2" "--dims 3x3 --size 0" \
                "--dims 3x3 --pattern zigzag" "--dims 3x3 --bogus 1" "--dims 3x3 --pattern transpose --load" \
                "--dims 2x2 --pattern tornado" "--dims 3x3 --threads 0" "--dims 3x3 --threads 65" \
                "--dims 3x3 --threads two" ; do
        timeout 20 "$D" $line >"$T/out" 2>"$T/err"
        rc=$?
        echo "skifnet $line -> $rc: $(head -1 "$T/err")"
        [ $rc -eq 2 ] || fail "'skifnet $line' exited $rc, expected 2" || return 1
    done
    "$D" --dims 3x3 --threads 0 >"$T/out" 2>&1
    has "$T/out" "skifnet: --threads '0': expected a number of threads, 1..64" || return 1
    "$D" --dims 4x4x4 >"$T/out" 2>&1
    has "$T/out" "this model is for 2-dimensional tori, --dims has 3 dimensions (use build/netbench/n3/skifnet)"
}

# ---------------------------------------------------------------- Icarus (4-state) path
t_icarus_greeting_same_as_verilator() {
    "$RUN" -n 3 --stats "$T/v.json" "$B/bin/greeting" >"$T/v" 2>/dev/null || return 1
    "$RUN" -n 3 --sim icarus --stats "$T/i.json" "$B/bin/greeting" >"$T/i" 2>"$T/err" || return 1
    cat "$T/i"
    cmp "$T/v" "$T/i" || fail "outputs differ" || return 1
    [ "$(grep -o '"cycles": [0-9]*' "$T/v.json")" = "$(grep -o '"cycles": [0-9]*' "$T/i.json")" ] \
        || fail "cycle counts differ"
}
t_icarus_driver_and_messages() {
    expect_rc 0 "$RUN" -n 2 --sim icarus "$B/tests/t_driver" || return 1
    has "$T/out" "t_driver: node 1 ok" || return 1
    expect_rc 0 "$RUN" -n 2 --sim icarus "$B/tests/t_sizes" 300 || return 1
    has "$T/out" "node 1 received sizes 0..300 intact"
}
t_icarus_skifch_order_3_nodes() {
    # a SkifCh program (sw/skifch.h) on 3 nodes under Icarus: two senders
    # interleave at rank 0, each in order; bounded to 300 k cycles (~12 s;
    # the run takes about 5 k)
    expect_rc 0 "$RUN" -n 3 --sim icarus --max-cycles 300000 --stats "$T/s.json" \
        "$B/tests/t_order" 100 || return 1
    has "$T/out" "got 200 messages from 2 senders in order" || return 1
    grep -o '"cycles": [0-9]*' "$T/s.json"
}
t_icarus_x_check_names_signal() {
    SKIF_X_INJECT=100 expect_rc 5 "$RUN" -n 2 --sim icarus "$B/bin/greeting" || return 1
    has "$T/err" "X check: node 0" &&
        has "$T/err" "u_shim.dma_req_wdata_i carries X/Z into the host"
}
t_make_sim_bad_sim_value() {
    expect_rc 2 make -s sim SIM=bogus || return 1
    has "$T/err" "SIM='bogus' is not one of"
}

# ---------------------------------------------------------------- SystemC / TLM-2.0 path
t_systemc_platform() { sim/systemc/test.sh; }
t_make_sim_systemc() {
    expect_rc 0 make -s sim SIM=systemc NODES=2 || return 1
    has "$T/out" "PASS skif_sc_platform"
}

# ---------------------------------------------------------------- waveform tools
t_flitdec_fields_match_format() {
    local D="$B/bin/skif_flitdec"
    # header flits built field by field from docs/packet-format.md
    hdr() { printf '%016x' $(( ($1 << 60) | ($2 << 44) | ($3 << 28) | ($4 << 20) | ($5 << 8) | $6 )); }
    local got
    got=$("$D" "$(hdr 0 3 1 5 17 0)"); [ "$got" = "MSG (1,0,0)>(3,0,0) ch5 len17" ] || fail "MSG: '$got'" || return 1
    got=$("$D" "$(hdr 0 0x321 0xf 255 2048 0)"); [ "$got" = "MSG (15,0,0)>(1,2,3) ch255 len2048" ] || fail "MSG max: '$got'" || return 1
    got=$("$D" "$(hdr 0 1 2 0 2049 0)"); [ "$got" = "MSG (2,0,0)>(1,0,0) ch0 len2049 ?bad" ] || fail "oversize: '$got'" || return 1
    # collective header: [59:44] node, [43:40] cmd, [39:36] type, [35] err, [27:20] tree, [7:3] rid, [2:0] op
    chdr() { printf '%016x' $(( ($1 << 60) | ($2 << 44) | ($3 << 40) | ($4 << 36) | ($5 << 35) | ($6 << 20) | ($7 << 8) | ($8 << 3) | $9 )); }
    got=$("$D" "$(chdr 1 0 1 2 0 7 8 31 2)"); [ "$got" = "COLL_UP allreduce u64 node (0,0,0) tree7 red31 max len8" ] || fail "COLL_UP: '$got'" || return 1
    got=$("$D" "$(chdr 2 0x21 2 1 0 3 16 0 1)"); [ "$got" = "COLL_DOWN reduce s32 node (1,2,0) tree3 red0 min len16" ] || fail "COLL_DOWN: '$got'" || return 1
    got=$("$D" "$(chdr 2 5 0 0 1 4 0 0 0)"); [ "$got" = "COLL_DOWN bcast u32 node (5,0,0) tree4 red0 sum len0 err" ] || fail "COLL_DOWN err: '$got'" || return 1
    got=$("$D" "$(chdr 1 0 5 7 0 4 8 0 0)"); [ "$got" = "COLL_UP cmd? type? node (0,0,0) tree4 red0 sum len8 ?bad" ] || fail "COLL bad cmd: '$got'" || return 1
    got=$("$D" "0x$(hdr 0 3 1 5 17 0)"); [ "$got" = "MSG (1,0,0)>(3,0,0) ch5 len17" ] || fail "0x prefix: '$got'" || return 1
    got=$("$D" "$(hdr 9 1 1 1 1 0)"); case "$got" in "?kind9 "*) ;; *) fail "unknown kind: '$got'"; return 1;; esac
    echo "decoded fields ok"
}
t_flitdec_malformed_values_raw() {
    local D="$B/bin/skif_flitdec" long
    long=$(head -c 6000 /dev/zero | tr '\0' 'a')
    printf '%s\n' xxxxxxxxxxxxxxxx 12g4 00000000000000000 "" "$long" 0000000000000000 \
        | timeout 10 "$D" >"$T/out" || fail "decoder failed" || return 1
    cat "$T/out"
    [ "$(wc -l <"$T/out")" -eq 6 ] || fail "expected one answer per line" || return 1
    [ "$(sed -n 1p "$T/out")" = "?xxxxxxxxxxxxxxxx" ] && [ "$(sed -n 2p "$T/out")" = "?12g4" ] &&
        [ "$(sed -n 3p "$T/out")" = "?00000000000000000" ] && [ "$(sed -n 4p "$T/out")" = "?" ] &&
        sed -n 5p "$T/out" | grep -q '^?aaaa' &&
        [ "$(sed -n 6p "$T/out")" = "MSG (0,0,0)>(0,0,0) ch0 len0" ] || fail "wrong answers"
}

# ---------------------------------------------------------------- bad input
t_bad_command_lines() {
    local bad=("" "-n 0 $B/bin/greeting" "-n 99 $B/bin/greeting" "-n x $B/bin/greeting"
               "--dims 2x0 $B/bin/greeting" "--frob $B/bin/greeting"
               "-n 2" "-n 2 /nonexistent/prog" "-n 2 --wave out.vcd $B/bin/greeting")
    for line in "${bad[@]}"; do
        timeout 20 "$RUN" $line >"$T/out" 2>"$T/err"
        rc=$?
        echo "skifrun $line -> $rc: $(head -1 "$T/err")"
        [ $rc -eq 2 ] || fail "'skifrun $line' exited $rc, expected 2" || return 1
        [ -s "$T/err" ] || fail "no message for '$line'" || return 1
    done
    "$RUN" --help | grep -q "usage: skifrun" || fail "--help"
}
t_program_crash_named() {
    expect_rc 139 "$RUN" -n 3 "$B/tests/t_fail" crash 1 || return 1
    has "$T/err" "node 1 (pid" && has "$T/err" "killed by signal 11" || return 1
    sleep 0.2; ! pgrep -f "$B/tests/t_fail" || fail "programs left running"
}
t_program_exit_status_named() {
    expect_rc 3 "$RUN" -n 2 "$B/tests/t_fail" exit 0 || return 1
    has "$T/err" "node 0 (pid" && has "$T/err" "exited with status 3"
}
t_watchdog_names_stuck_nodes() {
    expect_rc 4 "$RUN" -n 2 --watchdog 20000 "$B/tests/t_fail" stuck || return 1
    has "$T/err" "watchdog: no program progressed for 20000 cycles" &&
        has "$T/err" "node 0: waiting for a device event" &&
        has "$T/err" "node 1: waiting for a device event" && has "$T/err" "STATUS=0x"
}
t_watchdog_names_stuck_router_vcs() {
    # node 1 never receives: its RX ring fills, packets back up into the
    # routers, the network stops; the report names the buffers that hold them
    # (the adapter alone: with credits the senders stop before the ring fills)
    SKIFCH_CREDITS=0 expect_rc 4 "$RUN" -n 3 --watchdog 20000 "$B/tests/t_fail" flood || return 1
    has "$T/err" "RX ring full" && has "$T/err" "stuck: router of node 1 (id 0x1) input port"
}
t_max_cycles_stops() {
    expect_rc 3 "$RUN" -n 2 --max-cycles 5000 "$B/tests/t_fail" stuck || return 1
    has "$T/err" "--max-cycles reached at cycle 5000"
}
t_spinning_program_noticed() {
    expect_rc 0 "$RUN" -n 2 --stall-warn 1 "$B/tests/t_fail" spin 1 || return 1
    has "$T/err" "node 1" && has "$T/err" "without entering the driver"
}
t_simulator_death_ends_programs() {
    "$RUN" -n 3 --watchdog 100000000000 "$B/tests/t_fail" wait >"$T/out" 2>"$T/err" &
    local pid=$!
    sleep 1.5
    kill -9 $pid   # skifrun exec'd the simulator: same pid
    local i
    for i in $(seq 50); do pgrep -f "$B/tests/t_fail wait" >/dev/null || break; sleep 0.1; done
    wait $pid 2>/dev/null
    cat "$T/err"
    ! pgrep -f "$B/tests/t_fail wait" || { pkill -9 -f "$B/tests/t_fail wait"; fail "programs hang"; } || return 1
    has "$T/err" "lost the connection to the simulator" && has "$T/err" "SkifCh_Recv: Broken pipe"
}
t_not_under_skifrun() {
    expect_rc 1 "$B/bin/greeting" || return 1
    has "$T/err" "must be started by skifrun"
}

# launcher, build and outputs (issues 15, 16)
source tests/launcher.sh
# SkifCh library (issue 16)
source tests/skifch_tests.sh
# collectives (issue 10)
source tests/coll.sh
source tests/mpi.sh   # MPI over SkifCh (docs/mpi.md)
source tests/shmem.sh # OpenSHMEM on the RMA engine (docs/shmem.md)
# one node model for every torus size, threads, big tori (issue 11)
source tests/scale.sh

# ---------------------------------------------------------------- runner
# Two lanes on a machine of two or more cores (SKIF_TEST_JOBS=1: one): every
# test but the RTL testbenches, in the order written, in one lane, one at a
# time (they share build/ outputs and look for their programs by name); the
# RTL testbenches (TB_TESTS, each self-contained) from a queue that the other
# lane joins when its own tests are done.
tests=$(declare -F | awk '{print $3}' | grep '^t_')
[ $# -gt 0 ] && tests="$*"
jobs=${SKIF_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]*) echo "run.sh: SKIF_TEST_JOBS='$jobs' is not a number" >&2; exit 2 ;; esac
results=$(mktemp "$B/results.XXXXXX")
lane_main=()
: >"$results.tbq"
for t in $tests; do
    if [ "$jobs" -gt 1 ] && [[ " $TB_TESTS " == *" $t "* ]]; then echo "$t" >>"$results.tbq"; else lane_main+=("$t"); fi
done
# run_one TEST: run it, print its line (whole, under a lock) and append
# "ok NAME" or "FAIL NAME" to $results.
run_one() {
    local t=$1 T start res
    T=$(mktemp -d "$B/tmp.XXXXXX")
    start=$(date +%s.%N)
    if ( set -o pipefail; $t ) >"$LOGS/$t.log" 2>&1; then res=ok; else res=FAIL; fi
    {
        flock 8
        printf '%-4s %-40s %6.1fs\n' "$res" "$t" "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN{print b-a}')"
        if [ $res = FAIL ]; then sed 's/^/    | /' "$LOGS/$t.log" | tail -40; fi
        echo "$res $t" >>"$results"
    } 8>>"$results.lock"
    rm -rf "$T"
}
# next_tb: take the next testbench test off the queue (empty: none left).
next_tb() {
    {
        flock 9
        head -1 "$results.tbq"
        sed -i 1d "$results.tbq"
    } 9>>"$results.tbq.lock"
}
tb_lane() {
    local t
    while t=$(next_tb) && [ -n "$t" ]; do run_one "$t"; done
}
tbpid=
if [ -s "$results.tbq" ]; then tb_lane & tbpid=$!; fi
trap '[ -n "$tbpid" ] && kill $tbpid 2>/dev/null; rm -f "$results" "$results".*' EXIT
for t in "${lane_main[@]}"; do run_one "$t"; done
tb_lane
[ -n "$tbpid" ] && wait $tbpid
pass=$(grep -c '^ok ' "$results"); failn=$(grep -c '^FAIL ' "$results")
failed=$(sed -n 's/^FAIL //p' "$results" | paste -sd' ')
[ "$failn" -gt 0 ] && echo "failed: $failed"
echo "$pass passed, $failn failed"
[ "$failn" -eq 0 ] && [ $((pass + failn)) -eq $(echo $tests | wc -w) ]
