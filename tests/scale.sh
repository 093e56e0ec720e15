# scale.sh: sourced by tests/run.sh. The one-node model (sim/hdl/skif_node_top.sv,
# sim/kernel/sim_main.cpp): the same results as the whole-network models, any size
# from one build, --threads, big tori.

# tests/ref/flat_runs.txt: runs recorded with the whole-network Verilator
# models of version 0.3.0 (one build per torus size), before the simulator
# moved to one model per node: arguments | exit status | md5 of the output
# (first 12 digits) | summary line. Only runs without collectives (the
# collective engine has changed since). A change to the router or adapter
# that changes timing makes this record out of date: say so when you update it
# (the file's comment lines say which lines were re-recorded, and why).
# The runs were recorded before SkifCh's end-to-end credits (on by default
# since): they run with SKIFCH_CREDITS=0, the library as it was then; what
# they check is the simulator.
t_node_model_matches_flattened_record() {
    local args rc md sum n=0
    while IFS='|' read -r args rc md sum; do
        case $args in '#'*) continue ;; esac
        local out r m s
        out=$(SKIFCH_CREDITS=0 "$RUN" $args 2>"$T/err"); r=$?
        m=$(printf '%s' "$out" | md5sum | cut -c1-12)
        s=$(grep '^skifsim: .* cycles' "$T/err" | sed 's/; wall.*//')
        echo "$args: $s"
        [ "$r|$m|$s" = "$rc|$md|$sum" ] ||
            fail "skifrun $args: got '$r|$m|$s', recorded '$rc|$md|$sum'" || return 1
        n=$((n + 1))
    done <tests/ref/flat_runs.txt
    [ $n -ge 8 ] || fail "only $n recorded runs"
}

# The Icarus model is still the whole network of one size (rtl/net/
# skif_torus_net): the same run gives the same output and cycles.
t_node_model_same_as_icarus_network_2x2() {
    expect_rc 0 "$RUN" --dims 2x2 --stats "$T/v.json" "$B/bin/alltoall" 8 3 2 || return 1
    mv "$T/out" "$T/v.out"
    expect_rc 0 "$RUN" --dims 2x2 --sim icarus --stats "$T/i.json" "$B/bin/alltoall" 8 3 2 || return 1
    cmp "$T/v.out" "$T/out" || fail "outputs differ" || return 1
    has "$T/out" "all delivered once, intact, in order" || return 1
    [ "$(grep -o '"cycles": [0-9]*' "$T/v.json")" = "$(grep -o '"cycles": [0-9]*' "$T/i.json")" ] ||
        fail "cycle counts differ"
}

# --threads T: the same output, cycles and waveform as one thread; with the
# threads used every cycle (SKIF_THREADS_ADAPT=0, "2") and only while they
# pay (the default, "2a": parts.h switches between the two as it goes).
t_threads_same_result_and_waveform() {
    local t e
    for t in 1 2 2a; do
        e=SKIF_THREADS_ADAPT=0
        [ "$t" = 2a ] && e=SKIF_THREADS_ADAPT=1
        expect_rc 0 env $e "$RUN" --dims 3x3 --threads ${t%a} --stats "$T/s$t.json" \
            "$B/bin/alltoall" 30 5 3 || return 1
        mv "$T/out" "$T/o$t"
        grep -o '"cycles": [0-9]*' "$T/s$t.json" >"$T/c$t"
        [ "$t" = 1 ] || has "$T/err" "; 2 threads, used in " || return 1
        expect_rc 0 env $e "$RUN" --dims 2x2 --threads ${t%a} --wave "$T/w$t.fst" --trace-from 1000 \
            --trace-to 3000 "$B/bin/alltoall" 10 2 2 || return 1
        fst2vcd "$T/w$t.fst" 2>/dev/null | sed '/^\$date/,/^\$end/d' | md5sum >"$T/w$t"
    done
    has "$T/o1" "all delivered once, intact, in order" || return 1
    jq -e '.in_parts == 0' "$T/s1.json" >/dev/null || fail "one thread: in_parts not 0" || return 1
    jq -e '.in_parts == 1' "$T/s2.json" >/dev/null ||
        fail "SKIF_THREADS_ADAPT=0: threads not used every cycle ($(jq .in_parts "$T/s2.json"))" || return 1
    jq .in_parts "$T/s2a.json"
    for t in 2 2a; do
        cmp "$T/o1" "$T/o$t" || fail "--threads $t: output differs" || return 1
        cmp "$T/c1" "$T/c$t" || fail "--threads $t: cycles differ" || return 1
        cmp "$T/w1" "$T/w$t" || fail "--threads $t: waveform differs" || return 1
    done
    # the old name of two threads still works
    expect_rc 0 "$RUN" -n 2 --sim verilator-mt "$B/bin/greeting"
}
# A threaded run on CPU 1 (--cpu 1): the simulator's own thread and its
# programs on CPU 1 only, its one worker on the other CPUs (sim_pin_worker,
# sim/kernel/kernel.c), and no other thread (Verilator's own pool is not
# started); with --cpu any nothing is pinned. Read from /proc while the run
# waits on a program that never ends.
t_threads_pinned_apart() {
    local cpus
    cpus=$(taskset -pc $$ | sed 's/.*: //')
    [ "$cpus" = "0-1" ] || [ "$cpus" = "0,1" ] || {
        echo "this test wants CPUs 0 and 1 (this shell may use $cpus): not run"
        return 0
    }
    local cpu want_main want_worker pid k main worker progs
    for cpu in 1 any; do
        if [ $cpu = 1 ]; then want_main=1 want_worker=0; else want_main=0-1 want_worker=0-1; fi
        # (not under timeout: $! must be the simulator; it is killed below)
        SKIF_THREADS_ADAPT=0 "$RUN" --dims 2x2 --threads 2 --cpu $cpu -q \
            --max-cycles 100000000 "$B/tests/t_fail" stuck >"$T/out" 2>"$T/err" &
        pid=$!
        # until the worker thread and the four programs are there (10 s at most)
        for k in $(seq 100); do
            [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -ge 2 ] &&
                [ "$(cat /proc/$pid/task/*/children 2>/dev/null | wc -w)" -ge 4 ] && break
            sleep 0.1
        done
        main=$(sed -n 's/^Cpus_allowed_list:\t//p' /proc/$pid/status)
        worker=$(for k in /proc/$pid/task/*; do
            [ "${k##*/}" = "$pid" ] || sed -n 's/^Cpus_allowed_list:\t//p' $k/status
        done | tr '\n' ' ')
        progs=$(for k in $(cat /proc/$pid/task/*/children); do
            sed -n 's/^Cpus_allowed_list:\t//p' /proc/$k/status
        done | sort -u | tr '\n' ' ')
        kill $pid
        wait $pid
        echo "--cpu $cpu: simulator $main, worker $worker, programs $progs"
        [ "$main" = "$want_main" ] || fail "--cpu $cpu: simulator thread on '$main'" || return 1
        [ "$worker" = "$want_worker " ] || fail "--cpu $cpu: threads other than the simulator's own on '$worker' (one worker wanted)" || return 1
        [ "$progs" = "$want_main " ] || fail "--cpu $cpu: programs on '$progs'" || return 1
    done
}
t_threads_bad_values_refused() {
    local v
    for v in 0 65 -1 two 2x; do
        expect_rc 2 "$RUN" -n 2 --threads "$v" "$B/bin/greeting" || return 1
        has "$T/err" "--threads '$v': expected a number of threads, 1..64" || return 1
    done
    expect_rc 2 "$RUN" -n 2 --sim icarus --threads 2 "$B/bin/greeting" || return 1
    has "$T/err" "--threads 2: only the Verilator models run in threads"
}

# Skipping quiet nodes (sim/kernel/sim_main.cpp): a node whose state stopped
# changing, with idle links and host, is not evaluated until something
# reaches it; and an evaluated node's collective engine is clocked only at
# the edges its wake output asks for (sim/kernel/node_links.h). Every run
# must give what evaluating every node with every engine clocked gives
# (--no-skip): the same output, cycles, packets, flits and releases; the idle
# run must skip most node-cycles and each run must gate a least share of
# node-cycles, the all-to-all runs half (so a skipping or gating that stopped
# working fails).
skip_same() { # MIN_SKIPPED MIN_GATED WANT_RC skifrun-args...
    local min=$1 gmin=$2 want=$3 r; shift 3
    for r in skip noskip; do
        local flag=
        [ $r = noskip ] && flag=--no-skip
        expect_rc "$want" "$RUN" $flag --stats "$T/$r.json" "$@" >/dev/null || return 1
        mv "$T/out" "$T/$r.out"
        jq -c '{cycles, packets, flits, releases, exit}' "$T/$r.json" >"$T/$r.sum"
    done
    echo "$*: $(cat "$T/skip.sum"), skipped $(jq .skipped "$T/skip.json"), gated $(jq .gated "$T/skip.json")"
    cmp "$T/skip.out" "$T/noskip.out" || fail "$*: outputs differ" || return 1
    cmp "$T/skip.sum" "$T/noskip.sum" || fail "$*: statistics differ" || return 1
    jq -e '.skipped == 0 and .gated == 0' "$T/noskip.json" >/dev/null ||
        fail "--no-skip skipped nodes or gated engines" || return 1
    jq -e ".skipped >= $min" "$T/skip.json" >/dev/null ||
        fail "$*: skipped $(jq .skipped "$T/skip.json"), expected at least $min" || return 1
    jq -e ".gated >= $gmin" "$T/skip.json" >/dev/null ||
        fail "$*: engine clock gated $(jq .gated "$T/skip.json"), expected at least $gmin"
}
t_skip_quiet_nodes_same_results() {
    skip_same 0.5 0.01 3 --dims 4x4 --max-cycles 20000 "$B/tests/t_fail" stuck || return 1
    skip_same 0.2 0.2 0 -n 3 "$B/tests/t_rma" || return 1
    skip_same 0.05 0.3 0 --dims 3x3 "$B/bin/coll" || return 1
    skip_same 0 0.3 0 --dims 2x2x2 --threads 2 "$B/bin/coll" || return 1
    skip_same 0 0.5 0 --dims 2x2x2 --threads 2 "$B/bin/alltoall" 30 5 3 || return 1
    skip_same 0 0.5 0 --dims 2x3 "$B/bin/alltoall" 40 3 2
}
# The waveform too: a window where the nodes had been asleep, one under
# traffic, one of collectives and one of remote memory accesses (their
# engines' clocks gated off between operations before it), the same as with
# every node and engine evaluated.
t_skip_quiet_nodes_same_waveform() {
    local r w
    for w in "8000 8400 --max-cycles 9000 $B/tests/t_fail stuck" "1000 3000 $B/bin/alltoall 10 2 2" \
        "5000 6500 $B/bin/coll" "20000 21000 $B/tests/t_rma"; do
        set -- $w
        for r in skip noskip; do
            local flag=
            [ $r = noskip ] && flag=--no-skip
            expect_rc "$([ "$3" = --max-cycles ] && echo 3 || echo 0)" "$RUN" $flag --dims 2x2 \
                --stats "$T/$r.json" --wave "$T/$r.fst" --trace-from "$1" --trace-to "$2" \
                "${@:3}" >/dev/null || return 1
            fst2vcd "$T/$r.fst" 2>/dev/null | sed '/^\$date/,/^\$end/d' >"$T/$r.vcd"
        done
        echo "window $1..$2 of ${*:3}: skipped $(jq .skipped "$T/skip.json")"
        [ "$(grep -c '^#' "$T/skip.vcd")" -gt 100 ] || fail "the trace holds too few times" || return 1
        cmp "$T/skip.vcd" "$T/noskip.vcd" || fail "waveforms differ" || return 1
    done
}
t_skip_bad_use_refused() {
    expect_rc 2 "$RUN" -n 2 --no-skip=1 "$B/bin/greeting" || return 1
    has "$T/err" "no-skip"
}

# make bench-scale's evaluate row runs t_fail sleep so that its programs take
# no CPU from the simulator: after their start none of them asks anything
# again (t_fail stuck, polling, asks every 256 cycles to the end).
# waiting_since MODE: run t_fail MODE on 4x4 to cycle 6000; print the cycle
# each node has waited since (the --max-cycles report), one per node (the
# run's own output to stderr, into the test's log)
waiting_since() {
    expect_rc 3 "$RUN" --dims 4x4 --max-cycles 6000 "$B/tests/t_fail" "$1" >&2 || return 1
    sed -n 's/.*waiting for a device event since cycle \([0-9]*\).*/\1/p' "$T/err"
}
t_sleeping_programs_do_not_poll() {
    local since c
    since=$(waiting_since sleep) || return 1
    [ "$(wc -w <<<"$since")" = 16 ] || fail "16 waiting nodes expected: $since" || return 1
    for c in $since; do [ "$c" -lt 2000 ] || fail "a sleeping program asked at cycle $c" || return 1; done
    since=$(waiting_since stuck) || return 1
    [ "$(wc -w <<<"$since")" = 16 ] || fail "16 waiting nodes expected: $since" || return 1
    for c in $since; do [ "$c" -ge 5000 ] || fail "stuck's node last asked at cycle $c" || return 1; done
}

# Sizes beyond the old limit of 256 nodes, from the same build.
t_torus_16x16_greeting() {
    expect_rc 0 "$RUN" --dims 16x16 "$B/bin/greeting" || return 1
    has "$T/out" 'node 255: received "Hello from node 254" at cycle' &&
        has "$T/err" "256 nodes (torus 16x16)"
}
t_torus_8x8x8_alltoall_scoreboard() {
    # 512 programs on 2 cores: 30 s alone, 90 s beside the testbench lane
    # (credit requests: a share is 16 bytes on 512 ranks); the guard is 300 s
    EXPECT_LIMIT=300 expect_rc 0 "$RUN" --dims 8x8x8 --threads 2 "$B/bin/alltoall" 4 11 2 || return 1
    has "$T/out" "alltoall: 512 nodes, 4 messages each, 2 channels: all delivered once, intact, in order"
}

# --ranks K (sim/kernel/ranks.h, skifsim-mpi on Open MPI): the torus in K slabs, one
# process each, the slab-boundary links exchanged as MPI messages. With the
# normal link latency at the cut, every run must give what one process gives:
# the program output, the cycles, packets, flits and releases, and the
# watchdog's report (node by node, routers, collective engines). (4 ranks on
# 2 cores are slow, about 20 us per cycle for the ranks to meet: the runs are
# short.)
ranks_same() { # WANT_RC skifrun-args...
    # (4 ranks oversubscribe the 2 cores beside the other test lanes: room
    # for a slow machine; a hang still ends at the watchdog)
    local want=$1 k EXPECT_LIMIT=300; shift
    for k in 1 2 4; do
        local flag=
        [ $k -gt 1 ] && flag="--ranks $k"
        expect_rc "$want" "$RUN" $flag --stats "$T/r$k.json" "$@" >"$T/r$k.log" ||
            { tail -20 "$T/r$k.log"; return 1; }
        sort "$T/out" >"$T/r$k.out" # (the ranks' programs print side by side)
        grep -v '^skifsim: [0-9]* nodes' "$T/err" >"$T/r$k.err"
        jq -c '{cycles, packets, flits, releases, exit, skipped}' "$T/r$k.json" >"$T/r$k.sum"
    done
    echo "$*: $(cat "$T/r1.sum")"
    jq -e '.ranks == 4 and .cut_latency == 1' "$T/r4.json" >/dev/null ||
        fail "the statistics do not name 4 ranks" || return 1
    for k in 2 4; do
        cmp "$T/r1.out" "$T/r$k.out" || fail "$* --ranks $k: outputs differ" || return 1
        cmp "$T/r1.sum" "$T/r$k.sum" || fail "$* --ranks $k: statistics differ" || return 1
        diff "$T/r1.err" "$T/r$k.err" || fail "$* --ranks $k: messages differ" || return 1
    done
}
t_ranks_same_results_1_2_4() {
    ranks_same 0 --dims 3x2x4 "$B/bin/alltoall" 8 4 2 || return 1
    has "$T/r1.out" "all delivered once, intact, in order" || return 1
    ranks_same 0 --dims 2x2x4 "$B/bin/coll" || return 1
    ranks_same 0 --dims 2x4 "$B/shmem/examples/counter" || return 1 # (RMA atomics)
    ranks_same 4 --dims 2x2x4 --watchdog 3000 "$B/tests/t_fail" stuck || return 1
    has "$T/r4.err" "node 15: waiting for a device event" || return 1
    ranks_same 3 --dims 4x4 --max-cycles 3000 "$B/bin/alltoall" 200 5 2
}
# A program that fails on another rank than 0 stops every rank's programs at
# the same cycle; the run exits with its status, as in one process.
t_ranks_program_failure_stops_all() {
    expect_rc 139 "$RUN" --ranks 2 --dims 2x2x4 "$B/tests/t_fail" crash 13 || return 1
    has "$T/err" "skifsim: node 13 (pid" && has "$T/err" "killed by signal 11" || return 1
    grep -o 'at cycle [0-9]*' "$T/err" | head -1 >"$T/c2"
    expect_rc 139 "$RUN" --dims 2x2x4 "$B/tests/t_fail" crash 13 || return 1
    grep -o 'at cycle [0-9]*' "$T/err" | head -1 | cmp - "$T/c2" || fail "failed at another cycle"
}
# Threads inside ranks: the same again.
t_ranks_with_threads_same_results() {
    expect_rc 0 "$RUN" --dims 2x2x4 --stats "$T/a.json" "$B/bin/coll" >/dev/null || return 1
    sort "$T/out" >"$T/a.out"
    expect_rc 0 "$RUN" --ranks 2 --threads 2 --dims 2x2x4 --stats "$T/b.json" "$B/bin/coll" \
        >/dev/null || return 1
    sort "$T/out" | cmp - "$T/a.out" || fail "outputs differ" || return 1
    [ "$(jq -c '{cycles, packets, flits}' "$T/a.json")" = "$(jq -c '{cycles, packets, flits}' "$T/b.json")" ] ||
        fail "statistics differ"
}
# --cut-latency C: the links across the slab boundary take C cycles, the
# ranks meet every C cycles; the programs' results still hold, the timing is
# another (and stated).
t_ranks_cut_latency_stated_and_correct() {
    expect_rc 0 "$RUN" --dims 3x2x4 --stats "$T/a.json" "$B/bin/alltoall" 20 4 2 >/dev/null || return 1
    expect_rc 0 "$RUN" --ranks 2 --cut-latency 16 --dims 3x2x4 --stats "$T/b.json" \
        "$B/bin/alltoall" 20 4 2 || return 1
    has "$T/out" "all delivered once, intact, in order" || return 1
    has "$T/err" "2 MPI ranks, 16-cycle links across slabs" || return 1
    jq -e '.cut_latency == 16' "$T/b.json" >/dev/null || fail "stats: cut_latency" || return 1
    local a b
    a=$(jq .cycles "$T/a.json"); b=$(jq .cycles "$T/b.json")
    echo "cycles: $a with 1-cycle links, $b with 16-cycle links across the cut"
    [ "$b" -gt "$a" ] || fail "longer links across the cut took no longer"
}
# Waveforms under ranks: one FST per rank, or the traced node's rank alone.
t_ranks_waveform_per_rank() {
    expect_rc 0 "$RUN" --ranks 2 --dims 2x2x4 --wave "$T/w.fst" --trace-to 400 "$B/bin/greeting" ||
        return 1
    [ -s "$T/w-rank0.fst" ] && [ -s "$T/w-rank1.fst" ] || fail "no FST per rank" || return 1
    fst2vcd "$T/w-rank1.fst" >"$T/w1.vcd" 2>/dev/null
    grep -q 'scope module g_node\[15\]' "$T/w1.vcd" || fail "rank 1 lacks node 15" || return 1
    ! grep -q 'scope module g_node\[0\]' "$T/w1.vcd" || fail "rank 1 traced node 0" || return 1
    expect_rc 0 "$RUN" --ranks 2 --dims 2x2x4 --wave "$T/n.fst" --trace-node 12 --trace-to 400 \
        "$B/bin/greeting" || return 1
    [ ! -e "$T/n-rank0.fst" ] && [ ! -e "$T/n-rank1.fst" ] || fail "FST per rank with --trace-node" ||
        return 1
    fst2vcd "$T/n.fst" >"$T/n.vcd" 2>/dev/null
    grep -q 'scope module g_node\[12\]' "$T/n.vcd" || fail "node 12 not traced"
}
t_ranks_bad_values_refused() {
    local v
    for v in 0 65 -1 two; do
        expect_rc 2 "$RUN" --dims 2x2x4 --ranks "$v" "$B/bin/greeting" || return 1
        has "$T/err" "--ranks '$v': expected a number of MPI ranks, 1..64" || return 1
    done
    for v in 0 1025 x; do
        expect_rc 2 "$RUN" --dims 2x2x4 --ranks 2 --cut-latency "$v" "$B/bin/greeting" || return 1
        has "$T/err" "--cut-latency '$v': expected a number of cycles, 1..1024" || return 1
    done
    expect_rc 2 "$RUN" --dims 4x4x2 --ranks 3 "$B/bin/greeting" || return 1
    has "$T/err" "--ranks 3: the torus has only 2 planes along its slowest dimension" || return 1
    expect_rc 2 "$RUN" --dims 2x2x4 --cut-latency 4 "$B/bin/greeting" || return 1
    has "$T/err" "--cut-latency 4: there is no slab boundary in one process" || return 1
    expect_rc 2 "$RUN" --dims 2x2x4 --ranks 2 --sim icarus "$B/bin/greeting" || return 1
    has "$T/err" "need the Verilator model" || return 1
    # the simulator itself: one process asked for ranks; a job of another size
    expect_rc 2 "$B/models/n3/skifsim" --dims 2x2x4 --ranks 2 "$B/bin/greeting" || return 1
    has "$T/err" "this simulator is one process; run it as skifrun --ranks 2" || return 1
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 expect_rc 2 \
        "$(cat "$B/models/n3/skifsim-mpi.launcher")" -q --oversubscribe -np 2 \
        "$B/models/n3/skifsim-mpi" --ranks 4 --dims 2x2x4 "$B/bin/greeting" || return 1
    has "$T/err" "--ranks 4, but the MPI job has 2 processes"
}
# skifsim-mpi under valgrind, every rank: no error and no leak of the
# simulator's own. Open MPI's are its own: records whose stack passes through
# MPI_Init or MPI_Finalize (sim/kernel/ranks_mpi.c is the only caller of MPI) or
# holds no frame of the simulator's sources (Open MPI's threads) are set
# aside and counted.
t_ranks_under_valgrind() {
    command -v valgrind >/dev/null || fail "valgrind missing" || return 1
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 EXPECT_LIMIT=300 expect_rc 0 \
        "$(cat "$B/models/n3/skifsim-mpi.launcher")" -q --oversubscribe -np 2 \
        valgrind -q --num-callers=40 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --log-file="$T/vg.%p" "$B/models/n3/skifsim-mpi" --dims 2x2x2 "$B/bin/greeting" \
        >/dev/null || return 1
    has "$T/out" 'node 7: received "Hello from node 6"' || return 1
    # one log per rank: on a shared stderr the two ranks' records interleave,
    # and a piece of an Open MPI record cut off by the other rank's blank line
    # looked like one of the simulator's
    ls "$T"/vg.* >/dev/null || return 1
    awk 'FNR == 1 { if (rec != "") print_rec(); rec = "" }
         /^==[0-9]+== $/ { if (rec != "") print_rec(); rec = ""; next }
         /^==[0-9]+== / { rec = rec $0 "\n" }
         function print_rec() {
             if (rec ~ /ranks_mpi\.c|ompi_mpi_(init|finalize)/ ||
                 rec !~ /\((kernel|hostmem|loop|fifo|skif_opts|ranks_none|sim_main|node_links)\.(c|cpp|h):/)
                 mpi++
             else { printf "%s\n", rec; ours++ }
         }
         END { if (rec != "") print_rec();
               printf "valgrind: %d records of Open MPI set aside, %d of the simulator\n", mpi, ours
               exit ours > 0 }' "$T"/vg.*
}
