# tests/shmem.sh: the OpenSHMEM tests (docs/shmem.md), sourced by tests/run.sh.
# Programs: build/tests/shmem/* (tests/shmem/*.c) and build/shmem/examples/*
# (sw/shmem/examples/*.c), built by our oshcc and run by our oshrun. Each
# test program checks itself against its own reference and ends with one
# line per PE "PE i: all N checks passed" (shmem_passed counts them).
OSHRUN=$B/shmem/bin/oshrun
OSHCC=$B/shmem/bin/oshcc
ST=$B/tests/shmem
SX=$B/shmem/examples
# shmem_np N: the oshrun options for N PEs (8 on the 2x2x2 torus)
shmem_np() {
    case $1 in
    8) echo "-np 8 --dims 2x2x2" ;;
    *) echo "-np $1" ;;
    esac
}
# shmem_passed PROG N: PROG's line "PE i: all N checks passed" from each of N PEs
shmem_passed() {
    local i
    for ((i = 0; i < $2; i++)); do
        grep -Eq "^$1: PE $i: all [0-9]+ checks passed" "$T/out" || fail "$1: PE $i did not pass" || return 1
    done
}

t_shmem_wrappers() {
    "$OSHCC" -show -O2 x.c -o x >"$T/show" || return 1
    cat "$T/show"
    has "$T/show" "-I$B/shmem/include -O2 x.c -o x $B/lib/libskifshmem.a $B/lib/libskif.a" || return 1
    "$OSHCC" -show -c x.c | grep -q "libskif" && fail "-c must not link" && return 1
    "$OSHCC" --help | grep -q "usage: oshcc" || fail "oshcc --help" || return 1
    # a program compiled by oshcc from a file outside the tree, C11 generic calls included
    printf '#include <shmem.h>\n#include <stdio.h>\nstatic long x;\nint main(void) { shmem_init(); int me = shmem_my_pe(), n = shmem_n_pes();\nshmem_p(&x, (long)me, (me + 1) %% n); shmem_barrier_all();\nprintf("PE %%d of %%d got %%ld\\n", me, n, x); shmem_finalize(); return 0; }\n' >"$T/p.c"
    "$OSHCC" -std=c11 -Wall -Wextra -Werror "$T/p.c" -o "$T/p" || fail "oshcc could not build a program" || return 1
    expect_rc 0 "$OSHRUN" -np 3 -q "$T/p" || return 1
    has "$T/out" "PE 2 of 3 got 1" && has "$T/out" "PE 0 of 3 got 2" || return 1
    expect_rc 0 "$OSHRUN" -n 2 -q "$T/p" || return 1 # -n as -np
    has "$T/out" "PE 1 of 2 got 0" || return 1
    "$OSHRUN" --help | grep -q "usage: oshrun" || fail "oshrun --help" || return 1
    expect_rc 2 "$OSHRUN" "$T/p" && has "$T/err" "give the number of PEs" || return 1
    expect_rc 2 "$OSHRUN" -np x "$T/p" && has "$T/err" "-np 'x' is not a number" || return 1
    expect_rc 2 "$OSHRUN" -np 2 && has "$T/err" "no program to run" || return 1
    expect_rc 2 "$OSHCC" && has "$T/err" "no input files"
}

# The examples on 2 to 4 PEs (and 8 on a torus); one PE: t_shmem_one_pe
shmem_examples_on() { # N: PEs
    local np=$1 p
    expect_rc 0 "$OSHRUN" -np $np -q "$SX/hello" || return 1
    for ((p = 0; p < np; p++)); do has "$T/out" "Hello from PE $p of $np" || return 1; done
    expect_rc 0 "$OSHRUN" -np $np -q "$SX/shift" 100 || return 1
    [ "$(grep -c "^shift: PE [0-9]* got 100 ints from PE [0-9]* (correct)" "$T/out")" -eq $np ] ||
        fail "shift on $np PEs: not every PE correct" || return 1
    has "$T/out" "shift: PE 0 got 100 ints from PE $((np - 1)) (correct)" || return 1
    expect_rc 0 "$OSHRUN" -np $np -q "$SX/counter" 12 || return 1
    has "$T/out" "counter: $np PEs took 12 tickets each: total $((12 * np)), tickets 0..$((12 * np - 1)) each once (correct)"
}
t_shmem_examples() {
    local np
    for np in 2 3 4; do shmem_examples_on $np || return 1; done
    expect_rc 0 "$OSHRUN" -np 2 -q "$SX/pingpong" 50 || return 1
    grep -Eq "^pingpong: 50 round trips of 8 bytes: [0-9.]+ cycles = [0-9.]+ us per round trip at [0-9]+ MHz \(data correct\)" "$T/out" ||
        fail "pingpong line" || return 1
    expect_rc 0 "$OSHRUN" -np 3 -q "$SX/pingpong" 20 2048 || return 1
    has "$T/out" "pingpong: 20 round trips of 2048 bytes" && has "$T/out" "(data correct)" || return 1
    expect_rc 0 "$OSHRUN" -np 8 --dims 2x2x2 -q "$SX/counter" 5 || return 1
    has "$T/out" "counter: 8 PEs took 5 tickets each: total 40, tickets 0..39 each once (correct)"
}
# One PE: a program of one PE runs on one simulated node (oshrun -np 1)
t_shmem_one_pe() { shmem_examples_on 1; }

# Puts and gets: every size 1..300 at every alignment, a few to 20000
# bytes, heap, bss and data, typed and sized (t_rma); the torus run smaller.
t_shmem_rma_2_pes() { expect_rc 0 "$OSHRUN" -np 2 -q "$ST/t_rma" && shmem_passed t_rma 2; }
t_shmem_rma_3_pes() { expect_rc 0 "$OSHRUN" -np 3 -q "$ST/t_rma" && shmem_passed t_rma 3; }
t_shmem_rma_8_pes_torus() {
    expect_rc 0 "$OSHRUN" $(shmem_np 8) -q "$ST/t_rma" 40 4100 8 && shmem_passed t_rma 8
}
# nbi puts and gets completed by quiet, fence ordering, wait_until/test
t_shmem_nbi_fence_2_pes() { expect_rc 0 "$OSHRUN" -np 2 -q "$ST/t_nbi_fence" && shmem_passed t_nbi_fence 2; }
t_shmem_nbi_fence_3_pes() { expect_rc 0 "$OSHRUN" -np 3 -q "$ST/t_nbi_fence" 10 && shmem_passed t_nbi_fence 3; }
# contended atomics, exact
t_shmem_atomic_3_pes() { expect_rc 0 "$OSHRUN" -np 3 -q "$ST/t_atomic" && shmem_passed t_atomic 3; }
t_shmem_atomic_8_pes() { expect_rc 0 "$OSHRUN" $(shmem_np 8) -q "$ST/t_atomic" 8 && shmem_passed t_atomic 8; }
# every collective on the active sets that fit
for np in 4 5 8; do
    eval "t_shmem_collectives_${np}_pes() {
        expect_rc 0 \"\$OSHRUN\" $(shmem_np $np) -q \"\$ST/t_coll\" && shmem_passed t_coll $np; }"
done

# Bad requests (t_bad): one line from the library naming the call, the
# address and the PE, exit status 1; malloc beyond the heap: NULL, a
# message, the program goes on; forged raw puts around the heap: refused
# and counted by the target, nothing written, named at the sender.
t_shmem_bad_requests() {
    local addr
    expect_rc 1 "$OSHRUN" -np 2 -q "$ST/t_bad" nonsym || return 1
    addr=$(sed -n 's/^t_bad: PE 0 puts to its stack address \(0x[0-9a-f]*\) at PE 1$/\1/p' "$T/out")
    [ -n "$addr" ] || fail "nonsym: no address printed" || return 1
    has "$T/err" "shmem: PE 0: shmem_putmem: dest $addr (8 bytes) for PE 1 is not symmetric" || return 1
    expect_rc 1 "$OSHRUN" -np 2 -q "$ST/t_bad" pe && has "$T/err" "shmem: PE 0: shmem_putmem: PE 2 out of range" || return 1
    expect_rc 1 "$OSHRUN" -np 3 -q "$ST/t_bad" pe && has "$T/err" "shmem: PE 0: shmem_putmem: PE 3 out of range" || return 1
    expect_rc 1 "$OSHRUN" -np 2 -q "$ST/t_bad" before && has "$T/err" "shmem: shmem_putmem: called before shmem_init" || return 1
    expect_rc 1 "$OSHRUN" -np 2 -q "$ST/t_bad" align || return 1
    addr=$(sed -n 's/^t_bad: PE 0 fetch-adds at \(0x[0-9a-f]*\) at PE 1$/\1/p' "$T/out")
    has "$T/err" "shmem: PE 0: shmem_long_atomic_fetch_add: dest $addr is not aligned" || return 1
    expect_rc 1 "$OSHRUN" -np 2 -q "$ST/t_bad" set && has "$T/err" "shmem_barrier: active set PE_start 0, logPE_stride 0, PE_size 3 does not fit" || return 1
    # every error above is one line from the library, and the run's status names it
    has "$T/err" "exited with status 1" || return 1
    expect_rc 0 "$OSHRUN" -np 2 -q "$ST/t_bad" malloc || return 1
    has "$T/err" "shmem: PE 0: shmem_malloc: 1099511627776 bytes do not fit in the symmetric heap" &&
        has "$T/out" "t_bad: malloc: PE 1: NULL beyond the heap, the heap still works" || return 1
    expect_rc 2 "$ST/t_bad" nosuchmode && has "$T/err" "modes:"
}
t_shmem_forged_requests_refused() {
    expect_rc 0 "$OSHRUN" -np 2 -q "$ST/t_bad" forged || return 1
    has "$T/out" "t_bad: forged: PE 1 refused 3 requests" || return 1
    has "$T/out" "t_bad: forged: PE 0: all checks passed" && has "$T/out" "t_bad: forged: PE 1: all checks passed"
}

# every PE puts, gets and adds to the others at once, with no in-flight
# limit (the default): the answer network keeps the request-answer deadlock
# out (docs/shmem.md, "In flight"); and with the optional limit
t_shmem_twoway_4_pes() { expect_rc 0 "$OSHRUN" -np 4 -q "$ST/t_twoway" && shmem_passed t_twoway 4; }
t_shmem_twoway_9_pes_3x3() {
    expect_rc 0 "$OSHRUN" -np 9 --dims 3x3 -q "$ST/t_twoway" 300 && shmem_passed t_twoway 9
}
t_shmem_twoway_2_pes() {
    # the scenarios of the old budget's note: 40 8-byte puts each way, gets
    # of 2048-byte pieces each way, all at once
    expect_rc 0 "$OSHRUN" -np 2 -q "$ST/t_twoway" 40 && shmem_passed t_twoway 2
}
t_shmem_twoway_4_pes_with_budget() {
    SHMEM_RMA_BUDGET=48 expect_rc 0 "$OSHRUN" -np 4 -q "$ST/t_twoway" && shmem_passed t_twoway 4
}

# the library leaks nothing and touches no memory it should not, on a whole
# run (the data segment mapped into host memory included)
t_shmem_under_valgrind() {
    command -v valgrind >/dev/null || fail "valgrind missing" || return 1
    expect_rc 0 "$OSHRUN" -np 2 -q valgrind -q --error-exitcode=9 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect "$ST/t_atomic" 4 || return 1
    shmem_passed t_atomic 2
}

# the library's settings: a bad value is named at shmem_init, exit 1
t_shmem_settings_refused() {
    SHMEM_SYMMETRIC_SIZE=lots expect_rc 1 "$OSHRUN" -np 2 -q "$SX/hello" || return 1
    has "$T/err" "shmem: shmem_init: SHMEM_SYMMETRIC_SIZE='lots' is not a size" || return 1
    SHMEM_SYMMETRIC_SIZE=64M expect_rc 1 "$OSHRUN" -np 2 -q "$SX/hello" || return 1
    has "$T/err" "a symmetric heap of 67108864 bytes (SHMEM_SYMMETRIC_SIZE) does not fit" &&
        has "$T/err" "raise skifrun's --mem-mb" || return 1
    SHMEM_SYMMETRIC_SIZE=64M expect_rc 0 "$OSHRUN" -np 2 --mem-mb 96 -q "$SX/hello" || return 1
    SHMEM_RMA_BUDGET=5 expect_rc 1 "$OSHRUN" -np 2 -q "$SX/hello" || return 1
    has "$T/err" "SHMEM_RMA_BUDGET='5' is not 0 (no limit) or a number of flits 16..100000" || return 1
    SHMEM_RMA_BUDGET=0 expect_rc 0 "$OSHRUN" -np 2 -q "$ST/t_atomic" && shmem_passed t_atomic 2
}

t_shmem_programs_help() {
    local p
    for p in "$SX"/* "$ST"/*; do
        "$p" --help >"$T/h" 2>&1 || fail "$p --help exited non-zero" || return 1
        grep -q "usage:" "$T/h" || fail "$p --help: no usage" || return 1
    done
}
