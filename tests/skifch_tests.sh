# skifch_tests.sh: SkifCh library tests of issue 16 (sourced by tests/run.sh;
# uses its helpers expect_rc, has, fail and the variables RUN, B, T).

t_skifch_conformance_defects() {
    # Channels before Open, reopen after the last Close, closed handles
    # stay invalid, iovec sums as writev, channel range of the addresses
    expect_rc 0 "$RUN" -n 2 "$B/tests/t_conform" || return 1
    has "$T/out" "t_conform: node 0: ok" && has "$T/out" "t_conform: node 1: ok"
}
t_skifch_no_program_behind_node() {
    # messages to a node whose program never opened SkifCh or has exited
    # are discarded and counted; the run ends on its own (before the fix:
    # the link back-pressured and the watchdog ended it with 4)
    # (the adapter's part: without credits, SKIFCH_CREDITS=0)
    SKIFCH_CREDITS=0 expect_rc 0 "$RUN" -n 3 --watchdog 200000 "$B/tests/t_gone" 300 || return 1
    has "$T/out" "t_gone: node 0: sent 300 to node 1 (no program) and 300 to node 2 (exited)" ||
        return 1
    local d
    d=$(sed -n 's/.* \([0-9]*\) messages to closed channels.*/\1/p' "$T/err")
    echo "discarded: $d"
    [ -n "$d" ] && [ "$d" -ge $((300 + 300 - 1 - 63)) ] || fail "expected >= 536 discarded" ||
        return 1
    # with credits (the default) the sender stops at its share: EAGAIN, and
    # the run still ends on its own
    expect_rc 0 "$RUN" -n 3 --watchdog 200000 "$B/tests/t_gone" 300 credits || return 1
    has "$T/out" "t_gone: node 0: node 1 (no program) took" &&
        has "$T/out" "t_gone: node 0: sent 1 to node 2, closed"
}
t_readme_example_runs_and_fails_cleanly() {
    # the README's example, compiled as a user would: it runs on a ring of
    # 3, and outside skifrun it fails at once with a message (before: it
    # retried every error for ever)
    sed -n '/^```c$/,/^```$/p' README.md | sed '1d;$d' >"$T/readme.c"
    grep -q "SkifCh_Open" "$T/readme.c" || fail "no example in README.md" || return 1
    cc -std=c11 -Wall -Wextra -Werror -Iinclude -Idriver -Isw "$T/readme.c" "$B/lib/libskif.a" \
        -o "$T/readme" || fail "the example does not compile" || return 1
    expect_rc 0 "$RUN" -n 3 "$T/readme" || return 1
    has "$T/out" "node 0 got hi" && has "$T/out" "node 2 got hi" || return 1
    expect_rc 1 env -u SKIF_SOCK_FD "$T/readme" || return 1
    has "$T/err" "SkifCh_Open"
}
t_alltoall_asan_extreme_arguments() {
    # the scoreboard program under AddressSanitizer at the ends of every
    # argument it accepts: NCH 1 and 8 (before: a heap overflow at NCH 8),
    # COUNT 0, SEED 0 and 2^30
    cc -std=c11 -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -Iinclude -Idriver -Isw \
        sw/examples/alltoall.c sw/skifch.c sw/skifch_util.c driver/skif_dev.c \
        driver/backend_sim.c -o "$T/alltoall" || return 1
    local args
    for args in "40 1 8" "40 1073741824 8" "0 0 8" "40 0 1" "1 1 8"; do
        echo "alltoall $args"
        ASAN_OPTIONS=detect_leaks=1 expect_rc 0 "$RUN" --dims 2x2x2 "$T/alltoall" $args || return 1
        has "$T/out" "all delivered once, intact, in order" || return 1
    done
}

# ---- end-to-end credits (on by default; SKIFCH_CREDITS=0 turns them off;
# docs/skifch.md "Credits")
# t_stuck's figures: B's count while A was unread, the cycle A was first
# read, and C's first and last arrival.
stuck_figures() { # file -> "BALONE TA CFIRST CLAST"
    local b ta cf cl
    b=$(sed -n 's/.*node 1: B got \([0-9]*\) of.*/\1/p' "$1")
    ta=$(sed -n 's/.*A read from cycle \([0-9]*\);.*/\1/p' "$1")
    cf=$(sed -n 's/.*node 2: C got [0-9]* in order, first at cycle \([0-9]*\),.*/\1/p' "$1")
    cl=$(sed -n 's/.*node 2: C got .*, last at cycle \([0-9]*\)$/\1/p' "$1")
    echo "$b $ta $cf $cl"
}
t_credits_stuck_channel_others_flow() {
    # ring of 5: node 1's channel A is never read while node 0 sends to A,
    # to node 1's channel B and to node 2's channel C (through node 1).
    # With credits B gets all of its messages and C all of its, at no less
    # than the rate C has when A is read (reference run without credits,
    # as before credits existed); without credits (SKIFCH_CREDITS=0, the
    # adapter alone) both wait for A to be read.
    local N=1000 ref stuck plain
    SKIFCH_CREDITS=0 expect_rc 0 "$RUN" -n 5 "$B/tests/t_stuck" $N 3000 read || return 1
    ref=($(stuck_figures "$T/out"))
    expect_rc 0 "$RUN" -n 5 "$B/tests/t_stuck" $N 3000 || return 1
    stuck=($(stuck_figures "$T/out"))
    SKIFCH_CREDITS=0 expect_rc 0 "$RUN" -n 5 "$B/tests/t_stuck" $N 3000 || return 1
    plain=($(stuck_figures "$T/out"))
    echo "reference (A read): ${ref[*]}; credits, A stuck: ${stuck[*]}; no credits, A stuck: ${plain[*]}"
    [ "${stuck[0]}" = "$N" ] || fail "with credits B got ${stuck[0]} of $N while A was unread" || return 1
    [ "${stuck[3]}" -lt "${stuck[1]}" ] || fail "with credits C finished after A was read" || return 1
    # C's rate, messages per 1000 cycles: stuck >= reference
    local r_ref=$(( N * 1000 / (ref[3] - ref[2]) )) r_stuck=$(( N * 1000 / (stuck[3] - stuck[2]) ))
    echo "C's rate: $r_stuck per 1000 cycles with A stuck (credits), $r_ref with A read"
    [ "$r_stuck" -ge "$r_ref" ] || fail "C slower with A stuck" || return 1
    # the same without credits: B stops at A's full ring and C waits with it
    [ "${plain[0]}" -lt "$N" ] && [ "${plain[3]}" -gt "${plain[1]}" ] ||
        fail "without credits nothing was held up: the test shows nothing"
}
t_credits_many_senders_one_receiver() {
    # 8 senders x 4 channels (3x3 torus) to node 0's 4 KiB rings, every
    # message checked; with credits and without
    expect_rc 0 "$RUN" --dims 3x3 "$B/tests/t_many" 150 4 || return 1
    has "$T/out" "t_many: node 0: got 8 x 4 x 150 messages from 8 senders on 4 channels, in order" ||
        return 1
    SKIFCH_CREDITS=0 expect_rc 0 "$RUN" --dims 3x3 "$B/tests/t_many" 150 4 || return 1
    has "$T/out" "t_many: node 0: got 8 x 4 x 150 messages from 8 senders on 4 channels, in order"
}
t_credits_64_senders_one_receiver() {
    # 64 senders x 2 channels (5x13 torus) to node 0's 4 KiB rings with credits
    expect_rc 0 "$RUN" --dims 5x13 "$B/tests/t_many" 20 2 || return 1
    has "$T/out" "t_many: node 0: got 64 x 2 x 20 messages from 64 senders on 2 channels, in order"
}
t_credits_overcommitted_rings_no_storm() {
    # 512 ranks' 16-byte shares are twice a 4 KiB ring (over-committed). The
    # pool still keeps half the ring, so a request is served from it and
    # asks nothing back from the other senders. (Before, with no pool left,
    # every request sent a REVOKE to all 512 senders: this greeting took
    # 518,664 packets and 8,578 cycles.) Each node sends its greeting, asks
    # for credits before it and again after it, and gets a grant for each:
    # at most 5 packets a node. Every node gets its neighbour's greeting.
    SKIFCH_RING_LOG2=12 expect_rc 0 "$RUN" --dims 8x8x8 --stats "$T/s.json" \
        "$B/bin/greeting" || return 1
    jq -c '{cycles, packets, dropped, closed_drops}' "$T/s.json"
    sed 's/ at cycle [0-9]*$//' "$T/out" | sort >"$T/got"
    local r
    for r in $(seq 0 511); do
        echo "node $r: received \"Hello from node $(( (r + 511) % 512 ))\""
    done | sort >"$T/want"
    cmp "$T/want" "$T/got" || fail "greetings differ from node R-1's to node R" || return 1
    jq -e '.packets <= 5 * 512 and .dropped == 0 and .closed_drops == 0' "$T/s.json" >/dev/null ||
        fail "more than 5 packets a node, or messages dropped: a credit storm"
}
t_credits_overcommitted_alltoall_scoreboard() {
    # the same over-commit under all-to-all traffic (4 KiB rings, 512 ranks):
    # the ring may fill (the adapter then holds the link), nothing is lost
    SKIFCH_RING_LOG2=12 EXPECT_LIMIT=300 expect_rc 0 "$RUN" --dims 8x8x8 --threads 2 \
        "$B/bin/alltoall" 4 11 2 || return 1
    has "$T/out" "alltoall: 512 nodes, 4 messages each, 2 channels: all delivered once, intact, in order"
}
t_credits_alltoall_small_rings() {
    # the scoreboard with credits, 4 KiB rings and every channel count's end,
    # on 2x2x2 and on 4x4x4
    local nch
    for nch in 1 8; do
        SKIFCH_RING_LOG2=12 expect_rc 0 "$RUN" --dims 2x2x2 "$B/bin/alltoall" \
            150 5 $nch || return 1
        has "$T/out" "alltoall: 8 nodes, 150 messages each, $nch channels: all delivered once" ||
            return 1
    done
    # 64 nodes (4x4x4): shares of 32 bytes per sender, everything else
    # through requests and the pool
    SKIFCH_RING_LOG2=12 expect_rc 0 "$RUN" --dims 4x4x4 "$B/bin/alltoall" 60 7 4 || return 1
    has "$T/out" "alltoall: 64 nodes, 60 messages each, 4 channels: all delivered once"
}
t_credits_bad_env_and_reserved_channel() {
    # SKIFCH_CREDITS other than 0/1: Open fails with EINVAL (the program says so)
    SKIFCH_CREDITS=2 expect_rc 1 "$RUN" -n 2 "$B/bin/greeting" || return 1
    has "$T/err" "Invalid argument" || return 1
    # credits off (0) and on (1, the default, as elsewhere) by name
    SKIFCH_CREDITS=0 expect_rc 0 "$RUN" -n 5 "$B/tests/t_order" 200 || return 1
    has "$T/out" "got 800 messages from 4 senders in order" || return 1
    SKIFCH_CREDITS=1 expect_rc 0 "$RUN" -n 5 "$B/tests/t_order" 200 || return 1
    has "$T/out" "got 800 messages from 4 senders in order"
}
t_credits_reopen_under_valgrind() {
    # credits set up and torn down with the device, several times (t_conform
    # closes its last channel and opens again): no leak, no bad access
    command -v valgrind >/dev/null || fail "valgrind missing" || return 1
    expect_rc 0 "$RUN" -n 2 valgrind -q --error-exitcode=9 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect "$B/tests/t_conform" || return 1
    has "$T/out" "t_conform: node 0: ok" && has "$T/out" "t_conform: node 1: ok"
}

# ---- RMA through the driver (driver/skif_rma.h; docs/rma.md "Driver")
t_rma_put_get_atomic_through_skifrun() {
    # node 0 puts 1..2048 B at every alignment into node 1's window and gets
    # them back against a reference copy; every node fetch-adds on one word
    # of node 1 (exact final value, each old value once); 32/64-bit SWAP,
    # CSWAP, FETCH, FADD, ADD; refused put/get counted at node 0 with node
    # and address named, at node 1 as refused, memory unchanged; bad
    # arguments refused by the driver with nothing posted
    local n
    for n in 2 3; do
        echo "t_rma on $n nodes"
        expect_rc 0 "$RUN" -n $n "$B/tests/t_rma" || return 1
        has "$T/out" "t_rma: node 0: ok" && has "$T/out" "t_rma: node 1: ok" || return 1
        has "$T/out" "fetch-adds on node 1's word: final $((n * 16)), every old value 0..$((n * 16 - 1)) once" ||
            return 1
        has "$T/out" "t_rma: node 1: served" || return 1
        has "$T/out" "refused 3 (last: kind 4 from node 0)" || return 1
        has "$T/out" "get of 64 B at" || return 1
        grep -q "t_rma: node 0: latency" "$T/out" || fail "no latency line" || return 1
    done
    [ $n -lt 3 ] || has "$T/out" "t_rma: node 2: ok"
}
