/* SPDX-License-Identifier: Apache-2.0 */
/* t_coll: OpenSHMEM collectives with active sets against a reference, on
 * any number of PEs (run: oshrun -np N build/tests/shmem/t_coll [quick]).
 *
 * Active sets (those that fit in N PEs): every PE; PE_start 0 and 1 with
 * logPE_stride 0, 1 and 2 and as many members as fit; PE_start 1, stride
 * 1, two PEs fewer than fit (not one of the adapter's stride trees); a set
 * of one PE. On each:
 *  - shmem_barrier and shmem_sync: every member puts to the next member
 *    before (sync: after a quiet) and sees the put of the previous one
 *    after; shmem_barrier_all and shmem_sync_all the same over all PEs;
 *  - broadcast32/64 from several roots (the first, the last and a middle
 *    member): every other member gets the root's data, the root's dest and
 *    every non-member's are unchanged;
 *  - collect32/64 with a different count on each member (some 0),
 *    fcollect32/64, alltoall32/64;
 *  - the *_to_all reductions of short, int, long, long long, float and
 *    double with sum, prod, min, max, and for the integer types and, or,
 *    xor; on the set of every PE each of them for 1 and 37 elements (one
 *    of each pair in place, dest == source), on the other sets one
 *    operation per type (all of them in turn). Values: sums of small
 *    integers and products of 1, -1 and 2, so float results are exact.
 * Non-members' buffers must be untouched. Finally pSync reused back to
 * back: reductions, broadcasts, collects and barriers on one pSync array,
 * one after another without anything between them.
 * "quick" tests only the set of every PE and two others.
 *
 * Every PE prints "t_coll: PE i: all N checks passed"; a failure prints
 * the check, the active set, the PE and the values on stderr and exits 1. */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int npes;

#define TEST_NAME "t_coll"
#include "shmem_check.h"

/* ---------------------------------------------------------- active sets */
struct aset {
    int start, logstride, size;
    char name[64];
};
static struct aset sets[16];
static int nsets;

static void add_set(int start, int ls, int size)
{
    if (size < 1 || start + ((size - 1) << ls) >= npes)
        return;
    for (int i = 0; i < nsets; i++)
        if (sets[i].start == start && sets[i].logstride == ls && sets[i].size == size)
            return;
    struct aset *s = &sets[nsets++];
    s->start = start;
    s->logstride = ls;
    s->size = size;
    snprintf(s->name, sizeof s->name, "set (start %d, logstride %d, size %d)", start, ls, size);
}
/* members from `start` with stride 2^ls that fit */
static int fit(int start, int ls)
{
    return start < npes ? (npes - 1 - start) / (1 << ls) + 1 : 0;
}
static void make_sets(int quick)
{
    add_set(0, 0, npes);
    if (!quick) {
        add_set(0, 1, fit(0, 1));
        add_set(0, 2, fit(0, 2));
        add_set(1, 0, fit(1, 0));
        add_set(1, 1, fit(1, 1));
        add_set(1, 2, fit(1, 2));
    }
    /* not a stride tree: PE 1 on, the last PEs left out */
    int sz = fit(1, 0) - 2;
    add_set(1, 0, sz >= 2 ? sz : fit(1, 0) - 1);
    add_set(npes > 2 ? 2 : 0, 0, 1); /* one PE */
}
static int idx_of(const struct aset *s, int pe)
{
    int d = pe - s->start;
    if (d < 0 || d % (1 << s->logstride))
        return -1;
    d >>= s->logstride;
    return d < s->size ? d : -1;
}
static int pe_of(const struct aset *s, int i)
{
    return s->start + (i << s->logstride);
}

/* pSync arrays (symmetric, SHMEM_SYNC_VALUE) and the work array */
#define PSYNC_SIZE 8
static long psync[4][PSYNC_SIZE];
static long reuse_sync[PSYNC_SIZE];
static _Alignas(16) unsigned char wrk[8 * 512];

static void check_psync(const char *what, const struct aset *s)
{
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < PSYNC_SIZE; i++)
            CHECK(psync[k][i] == SHMEM_SYNC_VALUE, what, "%s: pSync[%d][%d] left at %ld", s->name,
                  k, i, psync[k][i]);
}

/* ------------------------------------------------------ barrier / sync */
static int bar_slot[64]; /* slot[round] written by the previous member */

static void barriers(const struct aset *s)
{
    int i = idx_of(s, me);
    memset(bar_slot, 0, sizeof bar_slot);
    shmem_barrier_all();
    for (int r = 0; r < 4; r++) {
        if (i >= 0) {
            int next = pe_of(s, (i + 1) % s->size);
            int prev = pe_of(s, (i + s->size - 1) % s->size);
            shmem_int_p(&bar_slot[r], 1000 * r + me + 1, next);
            if (r % 2 == 0)
                shmem_barrier(s->start, s->logstride, s->size, psync[0]);
            else {
                shmem_quiet();
                shmem_sync(s->start, s->logstride, s->size, psync[0]);
            }
            CHECK(bar_slot[r] == 1000 * r + prev + 1, r % 2 ? "shmem_sync" : "shmem_barrier",
                  "%s, round %d: the put of PE %d before it is not here after it (%d)", s->name, r,
                  prev, bar_slot[r]);
        }
    }
    shmem_barrier_all();
    check_psync("barrier/sync leave pSync at SHMEM_SYNC_VALUE", s);
}

static void barriers_all(void)
{
    int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
    memset(bar_slot, 0, sizeof bar_slot);
    shmem_barrier_all();
    for (int r = 0; r < 6; r++) {
        shmem_int_p(&bar_slot[r], 77 * r + me + 1, next);
        if (r % 2 == 0)
            shmem_barrier_all();
        else {
            shmem_quiet();
            shmem_sync_all();
        }
        CHECK(bar_slot[r] == 77 * r + prev + 1, r % 2 ? "shmem_sync_all" : "shmem_barrier_all",
              "round %d: the put of PE %d before it is not here after it (%d)", r, prev,
              bar_slot[r]);
    }
    shmem_barrier_all();
}

/* -------------------------------------------- broadcast, collect, alltoall */
#define NE 512
static _Alignas(16) uint64_t csrc[NE], cdst[NE * 4];
#define GUARD64 0xDEADBEEFDEADBEEFull
#define GUARD32 0xDEADBEEFu
static uint64_t v64(int pe, int i)
{
    return (uint64_t)(pe + 1) << 40 | (uint64_t)(i + 1) << 8 | 0x5Au;
}
static uint32_t v32(int pe, int i)
{
    return (uint32_t)(pe + 1) << 24 | (uint32_t)(i + 1) << 4 | 0x3u;
}

static void fill(int bits)
{
    for (int i = 0; i < NE; i++) {
        if (bits == 64)
            csrc[i] = v64(me, i);
        else
            ((uint32_t *)csrc)[i] = v32(me, i);
    }
    for (int i = 0; i < NE * 4; i++)
        cdst[i] = GUARD64;
}
static uint64_t got_el(int bits, int i)
{
    return bits == 64 ? cdst[i] : ((uint32_t *)cdst)[i];
}
static uint64_t guard_el(int bits)
{
    return bits == 64 ? GUARD64 : GUARD32;
}

static void broadcasts(const struct aset *s)
{
    int roots[3] = {0, s->size - 1, s->size / 2};
    int i = idx_of(s, me);
    for (int bits = 32; bits <= 64; bits += 32)
        for (int r = 0; r < 3; r++) {
            int root = roots[r];
            if (r > 0 && root == roots[r - 1])
                continue;
            int n = bits == 64 ? 33 + r : 77 + 2 * r;
            fill(bits);
            shmem_barrier_all();
            if (i >= 0) {
                if (bits == 32)
                    shmem_broadcast32(cdst, csrc, (size_t)n, root, s->start, s->logstride, s->size,
                                      psync[r % 2]);
                else
                    shmem_broadcast64(cdst, csrc, (size_t)n, root, s->start, s->logstride, s->size,
                                      psync[r % 2]);
            }
            shmem_barrier_all();
            int rpe = pe_of(s, root);
            for (int e = 0; e < n + 8; e++) {
                uint64_t want = guard_el(bits);
                if (i >= 0 && i != root && e < n)
                    want = bits == 64 ? v64(rpe, e) : v32(rpe, e);
                CHECK(got_el(bits, e) == want,
                      bits == 64 ? "shmem_broadcast64" : "shmem_broadcast32",
                      "%s, root %d (PE %d), %d elements, %s: element %d is 0x%llx, expected 0x%llx",
                      s->name, root, rpe, n,
                      i < 0       ? "not a member"
                      : i == root ? "the root"
                                  : "a member",
                      e, (unsigned long long)got_el(bits, e), (unsigned long long)want);
            }
        }
    shmem_barrier_all();
    check_psync("broadcast leaves pSync at SHMEM_SYNC_VALUE", s);
}

/* collect: member k contributes count(k) elements (some 0) */
static int ccount(int k, int round)
{
    return (k * 3 + round) % 5;
}

static void collects(const struct aset *s)
{
    int i = idx_of(s, me);
    for (int bits = 32; bits <= 64; bits += 32)
        for (int round = 0; round < 2; round++) {
            /* collect, varying counts */
            fill(bits);
            shmem_barrier_all();
            int n = i >= 0 ? ccount(i, round) : 0;
            if (i >= 0) {
                if (bits == 32)
                    shmem_collect32(cdst, csrc, (size_t)n, s->start, s->logstride, s->size,
                                    psync[round]);
                else
                    shmem_collect64(cdst, csrc, (size_t)n, s->start, s->logstride, s->size,
                                    psync[round]);
            }
            shmem_barrier_all();
            int e = 0;
            for (int k = 0; k < s->size && i >= 0; k++)
                for (int j = 0; j < ccount(k, round); j++, e++) {
                    uint64_t want = bits == 64 ? v64(pe_of(s, k), j) : v32(pe_of(s, k), j);
                    CHECK(got_el(bits, e) == want,
                          bits == 64 ? "shmem_collect64" : "shmem_collect32",
                          "%s, round %d: element %d (element %d of member %d) is 0x%llx, expected "
                          "0x%llx",
                          s->name, round, e, j, k, (unsigned long long)got_el(bits, e),
                          (unsigned long long)want);
                }
            for (int g = e; g < e + 8; g++)
                CHECK(got_el(bits, g) == guard_el(bits),
                      bits == 64 ? "shmem_collect64" : "shmem_collect32",
                      "%s, round %d, %s: element %d beyond the data changed to 0x%llx", s->name,
                      round, i < 0 ? "not a member" : "a member", g,
                      (unsigned long long)got_el(bits, g));

            /* fcollect: every member nf elements */
            int nf = round ? 19 : 1;
            fill(bits);
            shmem_barrier_all();
            if (i >= 0) {
                if (bits == 32)
                    shmem_fcollect32(cdst, csrc, (size_t)nf, s->start, s->logstride, s->size,
                                     psync[2 + round]);
                else
                    shmem_fcollect64(cdst, csrc, (size_t)nf, s->start, s->logstride, s->size,
                                     psync[2 + round]);
            }
            shmem_barrier_all();
            for (int g = 0; g < s->size * nf + 8; g++) {
                uint64_t want = guard_el(bits);
                if (i >= 0 && g < s->size * nf)
                    want =
                        bits == 64 ? v64(pe_of(s, g / nf), g % nf) : v32(pe_of(s, g / nf), g % nf);
                CHECK(got_el(bits, g) == want, bits == 64 ? "shmem_fcollect64" : "shmem_fcollect32",
                      "%s, %d each, %s: element %d is 0x%llx, expected 0x%llx", s->name, nf,
                      i < 0 ? "not a member" : "a member", g, (unsigned long long)got_el(bits, g),
                      (unsigned long long)want);
            }

            /* alltoall: block j of member k's source goes to member j's
             * dest at block k */
            int na = round ? 5 : 1;
            fill(bits);
            shmem_barrier_all();
            if (i >= 0) {
                if (bits == 32)
                    shmem_alltoall32(cdst, csrc, (size_t)na, s->start, s->logstride, s->size,
                                     psync[round]);
                else
                    shmem_alltoall64(cdst, csrc, (size_t)na, s->start, s->logstride, s->size,
                                     psync[round]);
            }
            shmem_barrier_all();
            for (int g = 0; g < s->size * na + 8; g++) {
                uint64_t want = guard_el(bits);
                if (i >= 0 && g < s->size * na) {
                    int k = g / na, el = i * na + g % na;
                    want = bits == 64 ? v64(pe_of(s, k), el) : v32(pe_of(s, k), el);
                }
                CHECK(got_el(bits, g) == want, bits == 64 ? "shmem_alltoall64" : "shmem_alltoall32",
                      "%s, %d each, %s: element %d is 0x%llx, expected 0x%llx", s->name, na,
                      i < 0 ? "not a member" : "a member", g, (unsigned long long)got_el(bits, g),
                      (unsigned long long)want);
            }
        }
    shmem_barrier_all();
    check_psync("collect/fcollect/alltoall leave pSync at SHMEM_SYNC_VALUE", s);
}

/* ----------------------------------------------------------- reductions */
enum { OP_SUM, OP_PROD, OP_MIN, OP_MAX, OP_AND, OP_OR, OP_XOR, NOPS };
static const char *op_names[NOPS] = {"sum", "prod", "min", "max", "and", "or", "xor"};

/* The value of element i at PE pe for op (in the range of every type). */
static long long rval(int op, int pe, int i)
{
    switch (op) {
    case OP_SUM:
        return (pe * 7 + i * 3) % 21 - 10;
    case OP_PROD: {
        static const int f[3] = {1, -1, 2};
        return f[(pe + 2 * i) % 3];
    }
    case OP_MIN:
    case OP_MAX:
        return (pe * 37 + i * 11) % 201 - 100;
    case OP_AND:
        return 0x7fff & ~(1 << ((pe + i) % 15));
    case OP_OR:
        return 1 << ((pe * 3 + i) % 15);
    default:
        return (pe * 0x1234 + i * 0x357 + 0x11) & 0x7fff;
    }
}
static long long rref(int op, const struct aset *s, int i)
{
    long long r = rval(op, pe_of(s, 0), i);
    for (int k = 1; k < s->size; k++) {
        long long v = rval(op, pe_of(s, k), i);
        switch (op) {
        case OP_SUM:
            r += v;
            break;
        case OP_PROD:
            r *= v;
            break;
        case OP_MIN:
            r = v < r ? v : r;
            break;
        case OP_MAX:
            r = v > r ? v : r;
            break;
        case OP_AND:
            r &= v;
            break;
        case OP_OR:
            r |= v;
            break;
        default:
            r ^= v;
            break;
        }
    }
    return r;
}

static _Alignas(16) unsigned char rsrc[8 * 512], rdst[8 * 512];

/* RED(N, T, ISINT): reduce_N(op, set, nreduce, inplace, pSync): every PE
 * fills its source, members reduce, every PE checks. */
#define CALL_ARITH(N)                                                                              \
    case OP_SUM:                                                                                   \
        shmem_##N##_sum_to_all(d, src, nr, s->start, s->logstride, s->size, w, ps);                \
        break;                                                                                     \
    case OP_PROD:                                                                                  \
        shmem_##N##_prod_to_all(d, src, nr, s->start, s->logstride, s->size, w, ps);               \
        break;                                                                                     \
    case OP_MIN:                                                                                   \
        shmem_##N##_min_to_all(d, src, nr, s->start, s->logstride, s->size, w, ps);                \
        break;                                                                                     \
    case OP_MAX:                                                                                   \
        shmem_##N##_max_to_all(d, src, nr, s->start, s->logstride, s->size, w, ps);                \
        break;
#define CALL_BITS(N)                                                                               \
    case OP_AND:                                                                                   \
        shmem_##N##_and_to_all(d, src, nr, s->start, s->logstride, s->size, w, ps);                \
        break;                                                                                     \
    case OP_OR:                                                                                    \
        shmem_##N##_or_to_all(d, src, nr, s->start, s->logstride, s->size, w, ps);                 \
        break;                                                                                     \
    case OP_XOR:                                                                                   \
        shmem_##N##_xor_to_all(d, src, nr, s->start, s->logstride, s->size, w, ps);                \
        break;
#define RED(N, T, BITS)                                                                            \
    static void reduce_##N(int op, const struct aset *s, int nr, int inplace, long *ps)            \
    {                                                                                              \
        T *src = (T *)rsrc, *d = inplace ? (T *)rsrc : (T *)rdst, *w = (T *)wrk;                   \
        T *out = inplace ? (T *)rsrc : (T *)rdst;                                                  \
        int i = idx_of(s, me);                                                                     \
        char name[96];                                                                             \
        snprintf(name, sizeof name, "shmem_" #N "_%s_to_all%s", op_names[op],                      \
                 inplace ? " (dest == source)" : "");                                              \
        for (int e = 0; e < 512; e++) {                                                            \
            src[e] = (T)rval(op, me, e);                                                           \
            if (!inplace)                                                                          \
                d[e] = (T)-99;                                                                     \
        }                                                                                          \
        shmem_barrier_all();                                                                       \
        if (i >= 0)                                                                                \
            switch (op) {                                                                          \
                CALL_ARITH(N)                                                                      \
                BITS default : break;                                                              \
            }                                                                                      \
        shmem_barrier_all();                                                                       \
        for (int e = 0; e < nr + 4; e++) {                                                         \
            T want;                                                                                \
            if (i >= 0 && e < nr)                                                                  \
                want = (T)rref(op, s, e);                                                          \
            else if (inplace)                                                                      \
                want = (T)rval(op, me, e);                                                         \
            else                                                                                   \
                want = (T)-99;                                                                     \
            CHECK(out[e] == want, name, "%s, %d elements, %s: element %d is %g, expected %g",      \
                  s->name, nr, i < 0 ? "not a member" : "a member", e, (double)out[e],             \
                  (double)want);                                                                   \
        }                                                                                          \
    }
RED(short, short, CALL_BITS(short))
RED(int, int, CALL_BITS(int))
RED(long, long, CALL_BITS(long))
RED(longlong, long long, CALL_BITS(longlong))
RED(float, float, )
RED(double, double, )

static void reduce_any(int type, int op, const struct aset *s, int nr, int inplace, long *ps)
{
    switch (type) {
    case 0:
        reduce_short(op, s, nr, inplace, ps);
        break;
    case 1:
        reduce_int(op, s, nr, inplace, ps);
        break;
    case 2:
        reduce_long(op, s, nr, inplace, ps);
        break;
    case 3:
        reduce_longlong(op, s, nr, inplace, ps);
        break;
    case 4:
        reduce_float(op, s, nr, inplace, ps);
        break;
    default:
        reduce_double(op, s, nr, inplace, ps);
        break;
    }
}

static void reductions(const struct aset *s, int full, int *turn)
{
    for (int type = 0; type < 6; type++) {
        int nops = type < 4 ? NOPS : 4;
        if (full) {
            for (int op = 0; op < nops; op++) {
                reduce_any(type, op, s, 1, op % 2, psync[op % 2]);
                reduce_any(type, op, s, 37, !(op % 2), psync[2 + op % 2]);
            }
        } else {
            int op = (*turn)++ % nops;
            reduce_any(type, op, s, 7, type % 2, psync[type % 4]);
        }
    }
    shmem_barrier_all();
    check_psync("reductions leave pSync at SHMEM_SYNC_VALUE", s);
}

/* ------------------------------------------------- pSync back to back */
static _Alignas(16) long bb_src[64], bb_sum[64], bb_max[64], bb_bc[64], bb_fc[64 * 64];
static int bb_slot[8];

static void back_to_back(void)
{
    int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
    for (int e = 0; e < 64; e++) {
        bb_src[e] = rval(OP_SUM, me, e);
        bb_sum[e] = bb_max[e] = bb_bc[e] = -99;
    }
    for (int e = 0; e < 64 * 64; e++)
        bb_fc[e] = -99;
    memset(bb_slot, 0, sizeof bb_slot);
    shmem_barrier_all();
    /* one pSync for everything, nothing in between */
    shmem_long_sum_to_all(bb_sum, bb_src, 5, 0, 0, npes, (long *)wrk, reuse_sync);
    shmem_long_max_to_all(bb_max, bb_src, 6, 0, 0, npes, (long *)wrk, reuse_sync);
    shmem_broadcast64(bb_bc, bb_src, 7, npes - 1, 0, 0, npes, reuse_sync);
    shmem_fcollect64(bb_fc, bb_src, 3, 0, 0, npes, reuse_sync);
    shmem_long_sum_to_all(bb_src, bb_src, 4, 0, 0, npes, (long *)wrk, reuse_sync);
    shmem_int_p(&bb_slot[0], me + 1, next);
    shmem_barrier(0, 0, npes, reuse_sync);
    shmem_barrier(0, 0, npes, reuse_sync);
    shmem_int_p(&bb_slot[1], me + 2, next);
    shmem_barrier(0, 0, npes, reuse_sync);
    const char *c = "pSync reused back to back";
    for (int e = 0; e < 7; e++) {
        struct aset all = {0, 0, npes, "all PEs"};
        if (e < 5)
            CHECK(bb_sum[e] == rref(OP_SUM, &all, e), c, "long sum element %d: %ld", e, bb_sum[e]);
        if (e < 6) {
            long mx = rval(OP_SUM, 0, e);
            for (int p = 1; p < npes; p++)
                if (rval(OP_SUM, p, e) > mx)
                    mx = rval(OP_SUM, p, e);
            CHECK(bb_max[e] == mx, c, "long max element %d: %ld, expected %ld", e, bb_max[e], mx);
        }
        long wbc = me == npes - 1 ? -99 : rval(OP_SUM, npes - 1, e);
        CHECK(bb_bc[e] == wbc, c, "broadcast64 element %d: %ld, expected %ld", e, bb_bc[e], wbc);
        if (e < 4)
            CHECK(bb_src[e] == rref(OP_SUM, &all, e), c, "in-place long sum element %d: %ld", e,
                  bb_src[e]);
    }
    for (int p = 0; p < npes; p++)
        for (int e = 0; e < 3; e++)
            CHECK(bb_fc[p * 3 + e] == rval(OP_SUM, p, e), c, "fcollect64 element %d of PE %d: %ld",
                  e, p, bb_fc[p * 3 + e]);
    CHECK(bb_slot[0] == prev + 1 && bb_slot[1] == prev + 2, c,
          "barriers: the puts of PE %d are %d and %d", prev, bb_slot[0], bb_slot[1]);
    for (int i = 0; i < PSYNC_SIZE; i++)
        CHECK(reuse_sync[i] == SHMEM_SYNC_VALUE, c, "pSync[%d] left at %ld", i, reuse_sync[i]);
    shmem_barrier_all();
}

static int usage(const char *cmd, int rc)
{
    fprintf(rc ? stderr : stdout,
            "usage: oshrun -np N %s [quick]\n"
            "Every collective (barrier, sync, broadcast, collect, fcollect, alltoall, every\n"
            "reduction) on the active sets that fit in N PEs, against a reference; quick: the\n"
            "set of all PEs and two others only.\n",
            cmd);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
        return usage(argv[0], 0);
    int quick = argc > 1 && !strcmp(argv[1], "quick");
    if (argc > 2 || (argc == 2 && !quick))
        return usage(argv[0], 2);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > 64) {
        fprintf(stderr, "t_coll: at most 64 PEs\n");
        return 2;
    }
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < PSYNC_SIZE; i++)
            psync[k][i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < PSYNC_SIZE; i++)
        reuse_sync[i] = SHMEM_SYNC_VALUE;
    make_sets(quick);
    barriers_all();
    if (me == 0)
        printf("t_coll: barrier_all, sync_all ok\n");
    int turn = 0;
    for (int k = 0; k < nsets; k++) {
        const struct aset *s = &sets[k];
        shmem_barrier_all();
        barriers(s);
        broadcasts(s);
        collects(s);
        reductions(s, k == 0, &turn);
        if (me == 0)
            printf("t_coll: %s: barrier, sync, broadcast, collect, fcollect, alltoall, "
                   "reductions ok\n",
                   s->name);
    }
    back_to_back();
    if (me == 0)
        printf("t_coll: pSync reused back to back ok\n");
    printf("t_coll: PE %d: all %ld checks passed on %d PEs\n", me, checks, npes);
    shmem_finalize();
    return 0;
}
