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
    expect_rc 0 "$RUN" -n 3 --watchdog 200000 "$B/tests/t_gone" 300 || return 1
    has "$T/out" "t_gone: node 0: sent 300 to node 1 (no program) and 300 to node 2 (exited)" ||
        return 1
    local d
    d=$(sed -n 's/.* \([0-9]*\) messages to closed channels.*/\1/p' "$T/err")
    echo "discarded: $d"
    [ -n "$d" ] && [ "$d" -ge $((300 + 300 - 1 - 63)) ] || fail "expected >= 536 discarded"
}
t_readme_example_runs_and_fails_cleanly() {
    # the README's example, compiled as a user would: it runs on a ring of
    # 3, and outside skifrun it fails at once with a message (before: it
    # retried every error for ever)
    sed -n '/^```c$/,/^```$/p' README.md | sed '1d;$d' >"$T/readme.c"
    grep -q "SkifCh_Open" "$T/readme.c" || fail "no example in README.md" || return 1
    cc -std=c11 -Wall -Wextra -Werror -Idriver -Isw "$T/readme.c" "$B/lib/libskif.a" \
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
    cc -std=c11 -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -Idriver -Isw \
        sw/examples/alltoall.c sw/skifch.c sw/skifch_util.c driver/skif_dev.c \
        driver/backend_sim.c -o "$T/alltoall" || return 1
    local args
    for args in "40 1 8" "40 1073741824 8" "0 0 8" "40 0 1" "1 1 8"; do
        echo "alltoall $args"
        ASAN_OPTIONS=detect_leaks=1 expect_rc 0 "$RUN" --dims 2x2x2 "$T/alltoall" $args || return 1
        has "$T/out" "all delivered once, intact, in order" || return 1
    done
}
