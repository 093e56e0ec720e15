# tests/mpi.sh: the MPI tests (docs/mpi.md), sourced by tests/run.sh.
# Programs: build/tests/mpi/* (tests/mpi/*.c) and build/mpi/examples/*
# (sw/mpi/examples/*.c), built by our mpicc and run by our mpirun.
MPIRUN=$B/mpi/bin/mpirun
MPICC=$B/mpi/bin/mpicc
MT=$B/tests/mpi
MX=$B/mpi/examples
# mpi_np N: the mpirun options for N ranks (8 and 9 on the 2x2x2 and 3x3 tori)
mpi_np() {
    case $1 in
    8) echo "-np 8 --dims 2x2x2" ;;
    9) echo "-np 9 --dims 3x3" ;;
    *) echo "-np $1" ;;
    esac
}

t_mpi_wrappers() {
    "$MPICC" -show -O2 x.c -o x >"$T/show" || return 1
    cat "$T/show"
    has "$T/show" "-I$B/mpi/include -O2 x.c -o x $B/lib/libskifmpi.a $B/lib/libskif.a" || return 1
    "$MPICC" -show -c x.c | grep -q "libskif" && fail "-c must not link" && return 1
    "$MPICC" --help | grep -q "usage: mpicc" || fail "mpicc --help" || return 1
    # a program compiled by mpicc from a file outside the tree
    printf '#include <mpi.h>\n#include <stdio.h>\nint main(int c, char **v) { int r, s; MPI_Init(&c, &v);\nMPI_Comm_rank(MPI_COMM_WORLD, &r); MPI_Comm_size(MPI_COMM_WORLD, &s);\nprintf("rank %%d of %%d\\n", r, s); MPI_Finalize(); return 0; }\n' >"$T/p.c"
    "$MPICC" -Wall -Werror "$T/p.c" -o "$T/p" || fail "mpicc could not build a program" || return 1
    expect_rc 0 "$MPIRUN" -np 3 -q "$T/p" || return 1
    has "$T/out" "rank 2 of 3" || return 1
    expect_rc 0 "$B/mpi/bin/mpiexec" -n 2 -q "$T/p" || return 1
    has "$T/out" "rank 1 of 2" || return 1
    expect_rc 0 "$MPIRUN" -np 1 "$T/p" || return 1 # a singleton, outside the simulator
    has "$T/out" "rank 0 of 1" || return 1
    "$MPIRUN" --help | grep -q "usage: mpirun" || fail "mpirun --help" || return 1
    expect_rc 2 "$MPIRUN" "$T/p" && has "$T/err" "give the number of ranks" || return 1
    expect_rc 2 "$MPIRUN" -np x "$T/p" && has "$T/err" "-np 'x' is not a number" || return 1
    expect_rc 2 "$MPIRUN" -np 2 && has "$T/err" "no program to run" || return 1
    expect_rc 2 "$MPICC" && has "$T/err" "no input files"
}

t_mpi_examples() {
    expect_rc 0 "$MPIRUN" -np 4 -q "$MX/hello" || return 1
    local r
    for r in 0 1 2 3; do has "$T/out" "Hello from rank $r of 4" || return 1; done
    expect_rc 0 "$MPIRUN" -np 3 -q "$MX/ring" 4 && has "$T/out" "token 12 after 4 laps of 3 ranks (correct)" || return 1
    expect_rc 0 "$MPIRUN" -np 4 -q "$MX/pi" 20000 || return 1
    awk '/pi is approximately/ { e = $6; sub(",", "", e); if (e + 0 > 1e-9 || e + 0 == 0) exit 1 }' "$T/out" ||
        fail "pi off" || return 1
    local np sums=""
    for np in 1 2 3; do # the same residual and checksum on any number of ranks
        expect_rc 0 "$MPIRUN" -np $np -q "$MX/jacobi" 24 40 || return 1
        sums="$sums$(sed -n 's/.*residual \(.*\)/\1/p' "$T/out")
"
    done
    echo "$sums"
    [ "$(echo "$sums" | grep -c .)" -eq 3 ] && [ "$(echo "$sums" | sort -u | grep -c .)" -eq 1 ] ||
        fail "jacobi differs between rank counts"
}

t_mpi_p2p_2_ranks() { expect_rc 0 "$MPIRUN" -np 2 -q "$MT/t_p2p" && has "$T/out" "all " ; }
t_mpi_p2p_3_ranks() { expect_rc 0 "$MPIRUN" -np 3 -q "$MT/t_p2p" && has "$T/out" "all " ; }
for np in 1 2 3 8 9; do
    eval "t_mpi_collectives_${np}_ranks() {
        expect_rc 0 \"\$MPIRUN\" $(mpi_np $np) -q \"\$MT/t_coll\" && has \"\$T/out\" \"passed on $np ranks\"; }"
done

# The collectives on the adapter's engine (docs/mpi.md, "Collectives"): the
# same t_coll (every type and op against its own reference) with the engine
# (the default) and with SKIFMPI_COLL=sw; SKIFMPI_COLL_REPORT=1 counts, per
# rank, the collectives done on the engine and in software: with the engine
# every rank uses it (integer sum/min/max, barriers, broadcasts of
# MPI_COMM_WORLD) and falls back for the rest (floats, MPI_PROD, logical and
# bitwise ops); the dup of MPI_COMM_WORLD shares its tree, and each half of
# the split (even and odd ranks) with 2 or more ranks gets a tree of its own
# (every rank reports the number of trees made: 1 on 3 ranks, whose odd half
# is one rank, else 2); with SKIFMPI_COLL=sw the engine is never used.
coll_paths() { # N: ranks
    local np=$1 r trees=2
    [ "$np" -lt 4 ] && trees=1
    SKIFMPI_COLL_REPORT=1 expect_rc 0 "$MPIRUN" $(mpi_np $np) -q "$MT/t_coll" || return 1
    has "$T/out" "passed on $np ranks" || return 1
    [ "$(grep -c "skifmpi: rank .*: collectives on the engine [1-9][0-9]*, in software [1-9][0-9]*; trees for split communicators $trees\$" "$T/err")" -eq "$np" ] ||
        fail "not every rank used both the engine and the fallback, with $trees split trees" || return 1
    SKIFMPI_COLL=sw SKIFMPI_COLL_REPORT=1 expect_rc 0 "$MPIRUN" $(mpi_np $np) -q "$MT/t_coll" || return 1
    has "$T/out" "passed on $np ranks" || return 1
    [ "$(grep -c "skifmpi: rank .*: collectives on the engine 0, in software 0; trees for split communicators 0" "$T/err")" -eq "$np" ] ||
        fail "SKIFMPI_COLL=sw: the engine was used" || return 1
}
t_mpi_coll_engine_3_ranks() { coll_paths 3; }
t_mpi_coll_engine_8_ranks() { coll_paths 8; }
t_mpi_coll_engine_9_ranks() { coll_paths 9; }

# Every bad input of issue 12: the default handler ends the job with one
# line naming the call and the rank and a non-zero exit; MPI_ERRORS_RETURN
# gives the standard class (t_err checks it and exits 0).
t_mpi_bad_input() {
    local c line
    while read -r c line; do
        # MPI_Abort's error code is the job's exit status (skifrun passes the
        # first failing rank's status through, as mpirun does)
        local want=1
        [ "$c" = abort ] && want=7
        expect_rc $want "$MPIRUN" -np 2 -q "$MT/t_err" "$c" || return 1
        has "$T/err" "$line" || return 1
        [ "$(grep -c "^MPI" "$T/err")" -eq 1 ] || fail "$c: not one line" || return 1
    done <<'CASES'
before-init MPI error: MPI_Send on rank 0: MPI_ERR_OTHER: called before MPI_Init
after-finalize MPI error: MPI_Send on rank 1: MPI_ERR_OTHER: called after MPI_Finalize
rank MPI error: MPI_Send on rank 1: MPI_ERR_RANK: invalid destination rank 2
tag MPI error: MPI_Send on rank 1: MPI_ERR_TAG: invalid tag -5
count MPI error: MPI_Send on rank 1: MPI_ERR_COUNT: negative count -1
datatype MPI error: MPI_Send on rank 1: MPI_ERR_TYPE: invalid datatype
op MPI_Allreduce on rank 0: MPI_ERR_OP: invalid operation
root MPI_Bcast on rank 0: MPI_ERR_ROOT: invalid root 2
comm MPI error: MPI_Send on rank 1: MPI_ERR_COMM: invalid communicator
truncate MPI error: MPI_Recv on rank 1: MPI_ERR_TRUNCATE: message of 16 bytes from rank 0 (tag 9) into a buffer of 8 bytes
no-finalize MPI error: rank 1: the program ended (returned from main or called exit) without MPI_Finalize
abort MPI_Abort: rank 1 aborts the job with error code 7
unsupported MPI error: MPI_Scan on rank 1: MPI_ERR_OTHER: not supported
type-op MPI_Allreduce on rank 0: MPI_ERR_OP: operation 1 is not defined on datatype 1
CASES
    for c in after-finalize rank tag count datatype op root comm truncate unsupported type-op; do
        expect_rc 0 "$MPIRUN" -np 2 -q "$MT/t_err" "$c" return || return 1
        has "$T/out" "returned" || return 1
    done
    # no-finalize and abort end the job under either handler
    expect_rc 1 "$MPIRUN" -np 2 -q "$MT/t_err" no-finalize return && has "$T/err" "without MPI_Finalize" || return 1
    expect_rc 7 "$MPIRUN" -np 2 -q "$MT/t_err" abort return && has "$T/err" "exited with status 7" || return 1
    expect_rc 2 "$MT/t_err" nosuchcase && has "$T/out" "cases:"
}

t_mpi_under_valgrind() {
    # the library frees what it allocates (requests, queues, communicators)
    expect_rc 0 "$MPIRUN" -np 2 -q valgrind -q --leak-check=full --errors-for-leak-kinds=all \
        --error-exitcode=9 "$MX/ring" 3 || return 1
    has "$T/out" "(correct)" || return 1
    expect_rc 0 "$MPIRUN" -np 3 -q valgrind -q --leak-check=full --errors-for-leak-kinds=all \
        --error-exitcode=9 "$MT/t_err" truncate return
}

t_mpi_programs_help() {
    local p
    for p in "$MX"/* "$MT"/*; do
        "$p" --help >"$T/h" 2>&1 || fail "$p --help exited non-zero" || return 1
        grep -q "usage:" "$T/h" || fail "$p --help: no usage" || return 1
    done
}
