# coll.sh: the collective tests (issue 10; docs/collectives.md), sourced by
# tests/run.sh. Trees and the driver's formats are unit tests; the software
# collectives run through skifrun on several tori.

t_unit_coll_trees_and_rules() { "$B/unit/test_coll_tree"; }
t_unit_coll_driver_formats() { "$B/unit/test_coll_driver"; }

# every op and type on random data against a reference, whole tori, stride
# trees and random subgroups (seed, groups)
coll_sw_on() {
    local dims=$1 seed=$2 groups=$3
    timeout 600 "$RUN" --dims "$dims" "$B/tests/t_coll_sw" "$seed" "$groups" >"$T/out" 2>"$T/err"
    local rc=$?
    cat "$T/out" "$T/err"
    [ $rc -eq 0 ] || fail "t_coll_sw on $dims exited $rc" || return 1
    grep -Eq "^t_coll_sw: [0-9]+ nodes, [1-9][0-9]* checks passed" "$T/out" || fail "no summary line"
}
t_coll_sw_3x3() { coll_sw_on 3x3 1 3; }
t_coll_sw_2x2x2() { coll_sw_on 2x2x2 2 3; }
t_coll_sw_4x4() { coll_sw_on 4x4 3 2; }
t_coll_sw_2x3x4() { coll_sw_on 2x3x4 4 2; }

t_coll_example_sw_and_no_hw() {
    expect_rc 0 "$RUN" --dims 3x3 "$B/bin/coll" --sw || return 1
    for r in 0 4 8; do
        has "$T/out" "node $r: broadcast from node 0: \"SkifColl on a 3x3 torus\"" || return 1
        has "$T/out" "node $r: allreduce: sum of ranks 36, min 0, max 8, sum of squares 204" || return 1
    done
    [ "$(grep -c "^node [0-9]: " "$T/out")" -eq 18 ] || fail "expected 18 lines" || return 1
    "$B/bin/coll" --help >"$T/out" 2>&1 && has "$T/out" "usage:" || return 1
    expect_rc 2 "$B/bin/coll" --bogus || return 1
    has "$T/err" "coll: unknown argument '--bogus'" || return 1
    # the hardware path: runs where the adapter has the subnet; otherwise a
    # clear refusal
    timeout 300 "$RUN" --dims 3x3 "$B/bin/coll" >"$T/out" 2>"$T/err"
    local rc=$?
    cat "$T/out" "$T/err"
    if [ $rc -eq 0 ]; then
        has "$T/out" "node 8: allreduce: sum of ranks 36, min 0, max 8, sum of squares 204"
    else
        has "$T/err" "coll: the hardware path is not built"
    fi
}
t_collbench_help_and_bad_args() {
    "$B/bin/collbench" --help >"$T/out" 2>&1 && has "$T/out" "usage:" || return 1
    expect_rc 2 "$B/bin/collbench" nosuchop sw 10 || return 1
    has "$T/err" "collbench: unknown OP 'nosuchop'" || return 1
    expect_rc 2 "$B/bin/collbench" allreduce hw 0 || return 1
    has "$T/err" "collbench: bad ITERS '0'" || return 1
    expect_rc 0 "$RUN" --dims 3x3 "$B/bin/collbench" allreduce sw-rd 20 || return 1
    grep -Eq "^collbench allreduce sw-rd nodes=9 bytes=8 iters=20 cycles=[0-9.]+ us=[0-9.]+$" "$T/out" ||
        fail "collbench line"
}
t_coll_sw_under_valgrind() {
    command -v valgrind >/dev/null || fail "valgrind missing" || return 1
    expect_rc 0 "$RUN" -n 3 valgrind -q --error-exitcode=9 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect "$B/tests/t_coll_sw" 5 1 || return 1
    grep -Eq "^t_coll_sw: 3 nodes, [1-9][0-9]* checks passed" "$T/out" || fail "no summary line"
}

# ---------------------------------------------------------------- hardware path
# The collective subnet through SkifColl: every op and type against the
# reference, stride trees with transit nodes, random subgroups, 40 reduces
# posted at once, two trees at once, barriers, then the adapter's own checks
# (mismatch error results, forwarding-check drops, refused table entries).
# (SKIFCOLL_INJECT in the environment: pio, the default, or ring)
coll_hw_on() {
    local dims=$1 seed=$2 groups=$3 bars=$4
    timeout 900 "$RUN" --dims "$dims" "$B/tests/t_coll_hw" "$seed" "$groups" "$bars" >"$T/out" 2>"$T/err"
    local rc=$?
    cat "$T/out"; grep -v "rejected by the adapter" "$T/err"
    [ $rc -eq 0 ] || fail "t_coll_hw on $dims exited $rc" || return 1
    grep -Eq "^t_coll_hw: [0-9]+ nodes, [1-9][0-9]* checks passed \(reduces by ${SKIFCOLL_INJECT:-pio}\)" \
        "$T/out" || fail "no summary line"
}
t_coll_hw_3x3_1000_barriers() { coll_hw_on 3x3 11 2 1000; }
t_coll_hw_2x2x2() { coll_hw_on 2x2x2 12 2 20; }
t_coll_hw_4x4() { coll_hw_on 4x4 13 1 20; }
t_coll_hw_2x3x4() { coll_hw_on 2x3x4 14 1 20; }
t_coll_hw_ring_5() { coll_hw_on 5 15 1 20; }
# The same random reduces, allreduces, broadcasts and barriers against the
# reference through both injection paths: the COLL_PIO window (programmed
# I/O, the default) and the TX ring; each run also checks the PIO window
# directly (a 64-byte allreduce with no TX ring entry, a bad op launched by
# PIO ending in error results counted in COLL_ERRS with STATUS.COLL_ERR,
# descriptors the window refuses with REG_ERR and nothing launched).
t_coll_hw_inject_pio_and_ring() {
    local dims inj
    for dims in 3x3 2x2x2; do
        for inj in pio ring; do
            SKIFCOLL_INJECT=$inj coll_hw_on "$dims" 21 1 50 || return 1
        done
    done
    expect_rc 1 env SKIFCOLL_INJECT=dma "$RUN" --dims 3x3 "$B/tests/t_coll_hw" 21 1 5 || return 1
    has "$T/err" "SkifColl_Init: SKIFCOLL_INJECT='dma' (expected pio or ring)"
}
t_coll_watchdog_names_missing_program() {
    expect_rc 4 "$RUN" --dims 3x3 --watchdog 20000 "$B/tests/t_coll_hw" stall || return 1
    has "$T/err" "collective: tree 0 reduce id 0 is incomplete; contributions missing from the programs of node(s): 1"
}
t_unit_coll_library_hw_path() {
    # the library's hardware path against a fake adapter (tests/unit/test_coll_lib.c)
    "$B/unit/test_coll_lib" || return 1
    SKIFCOLL_INJECT=ring "$B/unit/test_coll_lib" || return 1
}
