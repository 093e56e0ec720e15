/* SPDX-License-Identifier: Apache-2.0 */
/* t_coll: every MPI collective with every datatype and every operation,
 * against a reference each rank computes alone (it knows what every rank
 * contributes), on MPI_COMM_WORLD, a duplicate of it, and the two halves of
 * a split (even and odd ranks, keys reversed); every (type, op) pair MPI
 * defines (the others are bad input: t_err type-op). Any mismatch names the call,
 * type, op and element and exits 1. Run: mpirun -np N build/tests/mpi/t_coll */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int wrank, checks;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "t_coll: rank %d: line %d: ", wrank, __LINE__);                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                          \
        }                                                                                          \
    } while (0)

enum { NT = 12, NO = 8, N = 7 };
static const MPI_Datatype types[NT] = {
    MPI_CHAR,     MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE,      MPI_SHORT, MPI_INT,
    MPI_UNSIGNED, MPI_LONG,        MPI_UNSIGNED_LONG, MPI_LONG_LONG, MPI_FLOAT, MPI_DOUBLE};
static const char *const tnames[NT] = {"CHAR",          "SIGNED_CHAR", "UNSIGNED_CHAR", "BYTE",
                                       "SHORT",         "INT",         "UNSIGNED",      "LONG",
                                       "UNSIGNED_LONG", "LONG_LONG",   "FLOAT",         "DOUBLE"};
static const MPI_Op ops[NO] = {MPI_SUM,  MPI_PROD, MPI_MIN,  MPI_MAX,
                               MPI_LAND, MPI_LOR,  MPI_BAND, MPI_BOR};
static const char *const onames[NO] = {"SUM", "PROD", "MIN", "MAX", "LAND", "LOR", "BAND", "BOR"};

static int is_float(int t)
{
    return t >= 10;
}

/* MPI's rules: integers all ops; floating point arithmetic only; BYTE
 * bitwise only; CHAR none. */
static int valid(int t, int o)
{
    if (t == 0)
        return 0;
    if (t == 3)
        return o >= 6;
    if (is_float(t))
        return o < 4;
    return 1;
}

/* What rank r contributes at element i for op o (chosen so that no result
 * overflows the smallest type). */
static long long val(int o, int r, int i)
{
    switch (o) {
    case 0:
        return (r * 3 + i) % 5;
    case 1:
        return r < 6 ? 1 + (r + i) % 2 : 1;
    case 2:
    case 3:
        return (r * 7 + i * 3) % 11;
    case 4:
    case 5:
        return (r + i) % 3 != 0;
    default:
        return 1ll << ((r + i) % 7);
    }
}

static void put(int t, void *buf, int i, long long v)
{
    switch (t) {
    case 0:
    case 1:
        ((signed char *)buf)[i] = (signed char)v;
        break;
    case 2:
    case 3:
        ((unsigned char *)buf)[i] = (unsigned char)v;
        break;
    case 4:
        ((short *)buf)[i] = (short)v;
        break;
    case 5:
        ((int *)buf)[i] = (int)v;
        break;
    case 6:
        ((unsigned *)buf)[i] = (unsigned)v;
        break;
    case 7:
        ((long *)buf)[i] = (long)v;
        break;
    case 8:
        ((unsigned long *)buf)[i] = (unsigned long)v;
        break;
    case 9:
        ((long long *)buf)[i] = v;
        break;
    case 10:
        ((float *)buf)[i] = (float)v;
        break;
    default:
        ((double *)buf)[i] = (double)v;
    }
}

static long long get(int t, const void *buf, int i)
{
    switch (t) {
    case 0:
    case 1:
        return ((const signed char *)buf)[i];
    case 2:
    case 3:
        return ((const unsigned char *)buf)[i];
    case 4:
        return ((const short *)buf)[i];
    case 5:
        return ((const int *)buf)[i];
    case 6:
        return ((const unsigned *)buf)[i];
    case 7:
        return ((const long *)buf)[i];
    case 8:
        return (long long)((const unsigned long *)buf)[i];
    case 9:
        return ((const long long *)buf)[i];
    case 10:
        return (long long)((const float *)buf)[i];
    default:
        return (long long)((const double *)buf)[i];
    }
}

/* The reference: op over the world ranks members[0..n) at element i. */
static long long ref(int o, const int *members, int n, int i)
{
    long long a = val(o, members[0], i);
    for (int k = 1; k < n; k++) {
        long long b = val(o, members[k], i);
        switch (o) {
        case 0:
            a += b;
            break;
        case 1:
            a *= b;
            break;
        case 2:
            a = b < a ? b : a;
            break;
        case 3:
            a = b > a ? b : a;
            break;
        case 4:
            a = a && b;
            break;
        case 5:
            a = a || b;
            break;
        case 6:
            a &= b;
            break;
        default:
            a |= b;
        }
    }
    return a;
}

static void test_comm(MPI_Comm comm, const char *cname)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    /* world ranks of the members, in comm order */
    int *members = malloc(sizeof(int) * (size_t)size);
    MPI_Allgather(&wrank, 1, MPI_INT, members, 1, MPI_INT, comm);
    long long buf_in[N], buf_out[N + 1];
    for (int t = 0; t < NT; t++) {
        int ts;
        MPI_Type_size(types[t], &ts);
        for (int o = 0; o < NO; o++) {
            if (!valid(t, o)) /* not defined by MPI: tests/mpi/t_err.c type-op */
                continue;
            for (int i = 0; i < N; i++)
                put(t, buf_in, i, val(o, wrank, i));
            int root = (t + o) % size;
            memset(buf_out, 0x5a, sizeof(buf_out));
            MPI_Reduce(buf_in, buf_out, N, types[t], ops[o], root, comm);
            if (rank == root)
                for (int i = 0; i < N; i++)
                    CHECK(get(t, buf_out, i) == ref(o, members, size, i),
                          "%s: Reduce %s %s root %d element %d: %lld, expected %lld", cname,
                          tnames[t], onames[o], root, i, get(t, buf_out, i),
                          ref(o, members, size, i));
            memset(buf_out, 0x5a, sizeof(buf_out));
            MPI_Allreduce(buf_in, buf_out, N, types[t], ops[o], comm);
            for (int i = 0; i < N; i++)
                CHECK(get(t, buf_out, i) == ref(o, members, size, i),
                      "%s: Allreduce %s %s element %d: %lld, expected %lld", cname, tnames[t],
                      onames[o], i, get(t, buf_out, i), ref(o, members, size, i));
            /* MPI_IN_PLACE: the input is in the receive buffer */
            memcpy(buf_out, buf_in, sizeof(buf_in));
            MPI_Allreduce(MPI_IN_PLACE, buf_out, N, types[t], ops[o], comm);
            for (int i = 0; i < N; i++)
                CHECK(get(t, buf_out, i) == ref(o, members, size, i),
                      "%s: Allreduce IN_PLACE %s %s element %d", cname, tnames[t], onames[o], i);
            if (rank == root) {
                memcpy(buf_out, buf_in, sizeof(buf_in));
                MPI_Reduce(MPI_IN_PLACE, buf_out, N, types[t], ops[o], root, comm);
                for (int i = 0; i < N; i++)
                    CHECK(get(t, buf_out, i) == ref(o, members, size, i),
                          "%s: Reduce IN_PLACE %s %s element %d", cname, tnames[t], onames[o], i);
            } else {
                MPI_Reduce(buf_in, NULL, N, types[t], ops[o], root, comm);
            }
        }
        /* data movement: Bcast, Gather, Scatter, Allgather, Alltoall */
        int root = t % size;
        long long b[N];
        for (int i = 0; i < N; i++)
            put(t, b, i, rank == root ? 3 * i + t : 0);
        MPI_Bcast(b, N, types[t], root, comm);
        for (int i = 0; i < N; i++)
            CHECK(get(t, b, i) == 3 * i + t, "%s: Bcast %s root %d element %d", cname, tnames[t],
                  root, i);
        char *all = malloc((size_t)ts * 3 * (size_t)size),
             *all2 = malloc((size_t)ts * 3 * (size_t)size);
        long long mine[3];
        for (int i = 0; i < 3; i++)
            put(t, mine, i, (wrank * 3 + i) % 100);
        MPI_Gather(mine, 3, types[t], all, 3, types[t], root, comm);
        if (rank == root)
            for (int k = 0; k < 3 * size; k++)
                CHECK(get(t, all, k) == (members[k / 3] * 3 + k % 3) % 100,
                      "%s: Gather %s element %d", cname, tnames[t], k);
        MPI_Allgather(mine, 3, types[t], all2, 3, types[t], comm);
        for (int k = 0; k < 3 * size; k++)
            CHECK(get(t, all2, k) == (members[k / 3] * 3 + k % 3) % 100,
                  "%s: Allgather %s element %d", cname, tnames[t], k);
        /* scatter back what was gathered */
        long long got[3];
        MPI_Scatter(all2, 3, types[t], got, 3, types[t], root, comm);
        for (int i = 0; i < 3; i++)
            CHECK(get(t, got, i) == (wrank * 3 + i) % 100, "%s: Scatter %s element %d", cname,
                  tnames[t], i);
        /* alltoall: block for rank d from rank s holds s * 10 + d (mod 100) */
        for (int d = 0; d < size; d++)
            for (int i = 0; i < 3; i++)
                put(t, all, d * 3 + i, (rank * 10 + d + i) % 100);
        MPI_Alltoall(all, 3, types[t], all2, 3, types[t], comm);
        for (int s = 0; s < size; s++)
            for (int i = 0; i < 3; i++)
                CHECK(get(t, all2, s * 3 + i) == (s * 10 + rank + i) % 100,
                      "%s: Alltoall %s from %d element %d", cname, tnames[t], s, i);
        free(all);
        free(all2);
    }
    /* big (on MPI_COMM_WORLD only, to keep the run short): a 256 KiB
     * broadcast and a 16 Ki-element allreduce */
    enum { BIG = 1 << 18, BN = 1 << 14 };
    if (comm != MPI_COMM_WORLD) {
        MPI_Barrier(comm);
        free(members);
        return;
    }
    unsigned char *bb = malloc(BIG);
    for (int i = 0; i < BIG; i++)
        bb[i] = rank == size - 1 ? (unsigned char)(i * 7 + 1) : 0;
    MPI_Bcast(bb, BIG, MPI_BYTE, size - 1, comm);
    for (int i = 0; i < BIG; i++)
        CHECK(bb[i] == (unsigned char)(i * 7 + 1), "%s: big Bcast byte %d", cname, i);
    int *bi = malloc(sizeof(int) * BN), *bo = malloc(sizeof(int) * BN);
    for (int i = 0; i < BN; i++)
        bi[i] = wrank + i;
    MPI_Allreduce(bi, bo, BN, MPI_INT, MPI_SUM, comm);
    long long msum = 0;
    for (int k = 0; k < size; k++)
        msum += members[k];
    for (int i = 0; i < BN; i++)
        CHECK(bo[i] == msum + (long long)size * i, "%s: big Allreduce element %d", cname, i);
    free(bb);
    free(bi);
    free(bo);
    MPI_Barrier(comm);
    free(members);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        printf("usage: mpirun -np N %s\nEvery collective with every datatype and op against a "
               "reference; exits 1 on a mismatch.\n",
               argv[0]);
        return strcmp(argv[1], "--help") && strcmp(argv[1], "-h") ? 2 : 0;
    }
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_comm(MPI_COMM_WORLD, "WORLD");
    MPI_Comm dup, half;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    test_comm(dup, "dup(WORLD)");
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, -wrank, &half);
    test_comm(half, wrank % 2 ? "odd half" : "even half");
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
    int all = 0;
    MPI_Reduce(&checks, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("t_coll: all %d checks passed on %d ranks (WORLD, dup, split halves)\n", all, size);
    MPI_Finalize();
    return 0;
}
