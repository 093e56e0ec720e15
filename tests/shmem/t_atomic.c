/* SPDX-License-Identifier: Apache-2.0 */
/* t_atomic: OpenSHMEM atomics under contention, exact, on 2 or more PEs
 * (run: oshrun -np N build/tests/shmem/t_atomic [K]). K (default 16) is the
 * number of operations each PE issues per part.
 *
 *  - fetch-and-add and fetch-and-increment from every PE on one word of
 *    PE 0 and of the last PE (int, long, long long; 1.4 names, the old
 *    names fadd/finc and the C11 generic one): the old values, gathered at
 *    PE 0, are a permutation of 0..n*K-1, and the word ends at n*K;
 *  - add and inc (1.4 and old names) from every PE, also on two 32-bit
 *    words sharing one 64-bit word: exact final values;
 *  - swap, compare-swap, fetch, set on 32 and 64 bits (int, long, long
 *    long, int32, int64, uint32, uint64, the old names, shmem_swap),
 *    float and double swap/fetch/set (shmem_double_swap), and the bitwise
 *    atomics; a contended swap chain (the values swapped in plus the first
 *    are the values swapped out plus the last) and a compare-swap counter
 *    (every PE adds K by fetch then cswap until it succeeds);
 *  - a PE's atomics on its own word mixed with another PE's on the same
 *    word: its own old values count its own increments exactly.
 *
 * Every PE prints "t_atomic: PE i: all N checks passed"; a failure prints
 * the check, the PE and the values on stderr and exits 1. */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int npes, K;

#define TEST_NAME "t_atomic"
#include "shmem_check.h"

#define MAXPE 256
#define MAXK 64
static long long gathered[MAXPE * MAXK + 8]; /* at PE 0: every PE's old values */
static long long mine[MAXK];

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* Every PE's K old values to PE 0 (after a barrier they are there). */
static void gather(void)
{
    shmem_putmem(&gathered[me * K], mine, (size_t)K * sizeof mine[0], 0);
    shmem_barrier_all();
}

/* At PE 0: the n*K gathered values are 0..n*K-1, each once. */
static void check_permutation(const char *name, int target)
{
    if (me != 0)
        return;
    long long n = (long long)npes * K;
    qsort(gathered, (size_t)n, sizeof gathered[0], cmp_ll);
    for (long long i = 0; i < n; i++)
        CHECK(gathered[i] == i, name,
              "word of PE %d: the sorted old values hold %lld at %lld (a value seen twice or "
              "missed)",
              target, gathered[i], i);
}

/* Symmetric words */
static int w_int, w_int2[2];
static long w_long;
static long long w_ll;
static _Alignas(8) int pair[2];

/* PERM(NAME, T, WORD, CALL): every PE does CALL (an expression using
 * WORD and `target`, returning the old value) K times on WORD at `target`;
 * the old values are a permutation and the word ends at n*K. */
#define PERM(NAME, T, WORD, CALL)                                                                  \
    do {                                                                                           \
        WORD = 0;                                                                                  \
        shmem_barrier_all();                                                                       \
        for (int k = 0; k < K; k++)                                                                \
            mine[k] = (long long)(CALL);                                                           \
        shmem_barrier_all();                                                                       \
        if (me == target)                                                                          \
            CHECK(WORD == (T)npes * K, NAME, "final value %lld, expected %lld", (long long)WORD,   \
                  (long long)npes * K);                                                            \
        gather();                                                                                  \
        check_permutation(NAME, target);                                                           \
        shmem_barrier_all();                                                                       \
    } while (0)

static void fetch_add_perm(void)
{
    int targets[2] = {0, npes - 1};
    for (int t = 0; t < 2; t++) {
        int target = targets[t];
        PERM("shmem_long_atomic_fetch_add", long, w_long,
             shmem_long_atomic_fetch_add(&w_long, 1, target));
        PERM("shmem_int_fadd (old name)", int, w_int, shmem_int_fadd(&w_int, 1, target));
        PERM("shmem_longlong_atomic_fetch_inc", long long, w_ll,
             shmem_longlong_atomic_fetch_inc(&w_ll, target));
        PERM("shmem_long_finc (old name)", long, w_long, shmem_long_finc(&w_long, target));
        PERM("shmem_int_atomic_fetch_inc", int, w_int, shmem_int_atomic_fetch_inc(&w_int, target));
        PERM("shmem_atomic_fetch_add (generic, long long)", long long, w_ll,
             shmem_atomic_fetch_add(&w_ll, 1LL, target));
        PERM("shmem_longlong_fadd (old name)", long long, w_ll,
             shmem_longlong_fadd(&w_ll, 1, target));
        if (me == 0)
            printf("t_atomic: fetch-add/fetch-inc on PE %d: every old value once, final exact\n",
                   target);
    }
}

/* add and inc: exact final values, on a word of PE 0 and of the last PE,
 * and on two 32-bit halves of one 64-bit word (each PE alternates) */
static void add_inc(void)
{
    int targets[2] = {0, npes - 1};
    long long sum = 0; /* sum over PEs of (pe + 1) */
    for (int p = 0; p < npes; p++)
        sum += p + 1;
    for (int t = 0; t < 2; t++) {
        int target = targets[t];
        w_int = 5;
        w_long = -7;
        w_ll = 1LL << 40;
        pair[0] = 100;
        pair[1] = -100;
        shmem_barrier_all();
        for (int k = 0; k < K; k++) {
            shmem_int_atomic_add(&w_int, me + 1, target);
            shmem_long_add(&w_long, me + 1, target); /* old name */
            shmem_longlong_atomic_inc(&w_ll, target);
            shmem_int_inc(&pair[k & 1], target); /* old name */
            shmem_int_atomic_add(&pair[!(k & 1)], -2, target);
        }
        shmem_barrier_all();
        if (me == target) {
            CHECK(w_int == 5 + K * sum, "shmem_int_atomic_add", "PE %d: %d, expected %lld", target,
                  w_int, 5 + K * sum);
            CHECK(w_long == -7 + K * sum, "shmem_long_add (old name)", "PE %d: %ld, expected %lld",
                  target, w_long, -7 + K * sum);
            CHECK(w_ll == (1LL << 40) + (long long)K * npes, "shmem_longlong_atomic_inc",
                  "PE %d: %lld, expected %lld", target, w_ll, (1LL << 40) + (long long)K * npes);
            /* each half got ceil(K/2) or floor(K/2) incs and the rest -2s */
            long long i0 = (K + 1) / 2, i1 = K / 2;
            long long want0 = 100 + npes * (i0 - 2 * (K - i0)),
                      want1 = -100 + npes * (i1 - 2 * (K - i1));
            CHECK(pair[0] == want0 && pair[1] == want1,
                  "32-bit atomics on the two halves of one 64-bit word",
                  "PE %d: %d and %d, expected %lld and %lld", target, pair[0], pair[1], want0,
                  want1);
        }
        /* and as another PE reads them with atomic fetch */
        int other = (target + 1) % npes;
        if (me == other) {
            CHECK(shmem_int_atomic_fetch(&w_int, target) == 5 + K * sum, "shmem_int_atomic_fetch",
                  "PE %d's word", target);
            CHECK(shmem_long_fetch(&w_long, target) == -7 + K * sum, "shmem_long_fetch (old name)",
                  "PE %d's word", target);
        }
        shmem_barrier_all();
    }
    if (me == 0)
        printf("t_atomic: add and inc from every PE: exact\n");
}

/* swap, cswap, fetch, set of one type on the word of `to` (no
 * contention: each PE has its own target). */
#define SWAPS(NAME, T, WORD, A, B, C)                                                              \
    do {                                                                                           \
        int to = (me + 1) % npes;                                                                  \
        shmem_barrier_all();                                                                       \
        shmem_##NAME##_atomic_set(&WORD, (T)(A), to);                                              \
        T v = shmem_##NAME##_atomic_fetch(&WORD, to);                                              \
        CHECK(v == (T)(A), "shmem_" #NAME "_atomic_set/fetch", "PE %d: fetched %g, set %g", to,    \
              (double)v, (double)(T)(A));                                                          \
        v = shmem_##NAME##_atomic_swap(&WORD, (T)(B), to);                                         \
        CHECK(v == (T)(A), "shmem_" #NAME "_atomic_swap", "PE %d: old %g, expected %g", to,        \
              (double)v, (double)(T)(A));                                                          \
        v = shmem_##NAME##_atomic_compare_swap(&WORD, (T)(A), (T)(C), to);                         \
        CHECK(v == (T)(B), "shmem_" #NAME "_atomic_compare_swap (miss)",                           \
              "PE %d: old %g, expected %g", to, (double)v, (double)(T)(B));                        \
        v = shmem_##NAME##_atomic_fetch(&WORD, to);                                                \
        CHECK(v == (T)(B), "shmem_" #NAME "_atomic_compare_swap (miss)",                           \
              "PE %d: the word changed to %g, expected %g", to, (double)v, (double)(T)(B));        \
        v = shmem_##NAME##_atomic_compare_swap(&WORD, (T)(B), (T)(C), to);                         \
        CHECK(v == (T)(B), "shmem_" #NAME "_atomic_compare_swap (hit)",                            \
              "PE %d: old %g, expected %g", to, (double)v, (double)(T)(B));                        \
        shmem_barrier_all();                                                                       \
        CHECK(WORD == (T)(C), "shmem_" #NAME "_atomic_compare_swap (hit)",                         \
              "the word is %g, expected %g (written by PE %d)", (double)WORD, (double)(T)(C),      \
              (me + npes - 1) % npes);                                                             \
    } while (0)

static int32_t w_i32[2];
static int64_t w_i64;
static uint32_t w_u32[2];
static uint64_t w_u64;
static unsigned int w_uint;
static unsigned long w_ulong;
static unsigned long long w_ull;
static _Alignas(8) float w_float[2];
static double w_double;

static void swaps(void)
{
    SWAPS(int, int, w_int, -12345, 77, 1 << 30);
    SWAPS(long, long, w_long, -(1L << 40), 5, 0x7fffffffffffL);
    SWAPS(longlong, long long, w_ll, 3, -3, 1LL << 62);
    SWAPS(int32, int32_t, w_i32[1], INT32_MIN, -1, 42);
    SWAPS(int64, int64_t, w_i64, INT64_MIN, -1, 42);
    SWAPS(uint32, uint32_t, w_u32[0], 0xdeadbeefu, 1, 0xffffffffu);
    SWAPS(uint64, uint64_t, w_u64, 0xdeadbeefcafef00dull, 1, ~0ull);
    SWAPS(uint, unsigned int, w_uint, 7u, 8u, 9u);
    SWAPS(ulong, unsigned long, w_ulong, 1ul << 63, 2ul, 3ul);
    SWAPS(ulonglong, unsigned long long, w_ull, 11ull, 12ull, 13ull);

    /* float and double: set, fetch, swap (1.4 and old names) */
    int to = (me + 1) % npes;
    shmem_barrier_all();
    shmem_float_atomic_set(&w_float[1], 1.5f, to);
    shmem_double_set(&w_double, -2.25, to); /* old name */
    float f = shmem_float_atomic_fetch(&w_float[1], to);
    CHECK(f == 1.5f, "shmem_float_atomic_set/fetch", "PE %d: %g", to, (double)f);
    f = shmem_float_swap(&w_float[1], 3.0f, to);
    CHECK(f == 1.5f, "shmem_float_swap (old name)", "PE %d: old %g", to, (double)f);
    double d = shmem_double_swap(&w_double, 1e300, to);
    CHECK(d == -2.25, "shmem_double_swap", "PE %d: old %g", to, d);
    d = shmem_double_atomic_swap(&w_double, 0.125, to);
    CHECK(d == 1e300, "shmem_double_atomic_swap", "PE %d: old %g", to, d);
    d = shmem_double_fetch(&w_double, to);
    CHECK(d == 0.125, "shmem_double_fetch (old name)", "PE %d: %g", to, d);
    shmem_barrier_all();
    CHECK(w_float[1] == 3.0f && w_double == 0.125, "float/double swap", "words %g and %g",
          (double)w_float[1], w_double);

    /* the old names of int, long, long long and SHMEM 1.0's shmem_swap */
    shmem_barrier_all();
    shmem_int_set(&w_int, 10, to);
    CHECK(shmem_int_swap(&w_int, 11, to) == 10, "shmem_int_swap (old name)", "PE %d", to);
    CHECK(shmem_int_cswap(&w_int, 11, 12, to) == 11, "shmem_int_cswap (old name)", "PE %d", to);
    CHECK(shmem_int_fetch(&w_int, to) == 12, "shmem_int_fetch (old name)", "PE %d", to);
    shmem_long_set(&w_long, 20, to);
    CHECK(shmem_long_swap(&w_long, 21, to) == 20, "shmem_long_swap (old name)", "PE %d", to);
    CHECK(shmem_long_cswap(&w_long, 0, 99, to) == 21, "shmem_long_cswap (old name, miss)", "PE %d",
          to);
    CHECK(shmem_swap(&w_long, 22, to) == 21, "shmem_swap (SHMEM 1.0)", "PE %d", to);
    shmem_longlong_set(&w_ll, 30, to);
    CHECK(shmem_longlong_swap(&w_ll, 31, to) == 30, "shmem_longlong_swap (old name)", "PE %d", to);
    CHECK(shmem_longlong_cswap(&w_ll, 31, -31, to) == 31, "shmem_longlong_cswap (old name)",
          "PE %d", to);
    CHECK(shmem_longlong_fetch(&w_ll, to) == -31, "shmem_longlong_fetch (old name)", "PE %d", to);
    CHECK(shmem_atomic_swap(&w_ll, 32LL, to) == -31, "shmem_atomic_swap (generic)", "PE %d", to);
    CHECK(shmem_atomic_compare_swap(&w_ll, 32LL, 33LL, to) == 32,
          "shmem_atomic_compare_swap (generic)", "PE %d", to);
    shmem_barrier_all();
    CHECK(w_int == 12 && w_long == 22 && w_ll == 33, "old names",
          "words %d, %ld, %lld; expected 12, 22, 33", w_int, w_long, w_ll);

    /* bitwise atomics, 32 and 64 bits */
    shmem_barrier_all();
    shmem_uint32_atomic_set(&w_u32[1], 0xf0f0f0f0u, to);
    CHECK(shmem_uint32_atomic_fetch_and(&w_u32[1], 0xff00ff00u, to) == 0xf0f0f0f0u,
          "shmem_uint32_atomic_fetch_and", "PE %d", to);
    CHECK(shmem_uint32_atomic_fetch_or(&w_u32[1], 0x0000000fu, to) == 0xf000f000u,
          "shmem_uint32_atomic_fetch_or", "PE %d", to);
    CHECK(shmem_uint32_atomic_fetch_xor(&w_u32[1], 0xffffffffu, to) == 0xf000f00fu,
          "shmem_uint32_atomic_fetch_xor", "PE %d", to);
    shmem_uint64_atomic_set(&w_u64, 0x00ff00ff00ff00ffull, to);
    shmem_uint64_atomic_and(&w_u64, 0x0f0f0f0f0f0f0f0full, to);
    shmem_uint64_atomic_or(&w_u64, 0x8000000000000000ull, to);
    shmem_uint64_atomic_xor(&w_u64, 0x0000000000000001ull, to);
    uint64_t u = shmem_uint64_atomic_fetch(&w_u64, to);
    CHECK(u == 0x800f000f000f000eull, "shmem_uint64_atomic_and/or/xor", "PE %d: 0x%llx", to,
          (unsigned long long)u);
    shmem_barrier_all();
    CHECK(w_u32[1] == 0x0fff0ff0u, "shmem_uint32_atomic_fetch_xor",
          "word 0x%x, expected 0x0fff0ff0", w_u32[1]);
    if (me == 0)
        printf("t_atomic: swap, cswap, fetch, set, bitwise, 32 and 64 bits, old names: ok\n");
}

/* Contended swap chain on PE 0 and a cswap counter on the last PE */
static void contended_swaps(void)
{
    /* swap chain: the values swapped in (me * K + k + 1) and the first (0)
     * are the old values returned and the last, each once */
    w_long = 0;
    shmem_barrier_all();
    for (int k = 0; k < K; k++)
        mine[k] = shmem_long_atomic_swap(&w_long, (long)me * K + k + 1, 0);
    shmem_barrier_all();
    gather();
    if (me == 0) {
        long long n = (long long)npes * K;
        gathered[n] = w_long; /* the last value */
        qsort(gathered, (size_t)n + 1, sizeof gathered[0], cmp_ll);
        for (long long i = 0; i <= n; i++)
            CHECK(gathered[i] == i, "contended shmem_long_atomic_swap",
                  "old values and the last value sorted hold %lld at %lld", gathered[i], i);
    }
    shmem_barrier_all();
    /* cswap counter: add 1 K times by fetch + compare-swap, retrying */
    int target = npes - 1;
    w_int2[1] = 0;
    shmem_barrier_all();
    long retries = 0;
    for (int k = 0; k < K; k++) {
        int v = shmem_int_atomic_fetch(&w_int2[1], target);
        for (;;) {
            int old = shmem_int_atomic_compare_swap(&w_int2[1], v, v + 1, target);
            if (old == v)
                break;
            CHECK(old > v, "contended shmem_int_atomic_compare_swap",
                  "PE %d's counter went back from %d to %d", target, v, old);
            v = old;
            retries++;
        }
    }
    shmem_barrier_all();
    if (me == target)
        CHECK(w_int2[1] == npes * K, "contended shmem_int_atomic_compare_swap",
              "counter %d, expected %d", w_int2[1], npes * K);
    shmem_barrier_all();
    if (me == 0)
        printf("t_atomic: contended swap chain and compare-swap counter: exact\n");
}

/* A PE's atomics on its own word mixed with its neighbour's on it: own
 * fetch-add 1 (its old values modulo 1000 count its own increments: 0, 1,
 * ...), the neighbour's add 1000; final K + 1000 K. */
static long w_mix;
static void own_and_remote(void)
{
    w_mix = 0;
    shmem_barrier_all();
    int to = (me + 1) % npes;
    long prev = -1;
    for (int k = 0; k < K; k++) {
        long old = shmem_long_atomic_fetch_add(&w_mix, 1, me);
        CHECK(old % 1000 == k && old > prev, "own fetch-add mixed with remote adds",
              "fetch-add %d on my own word returned %ld (previous %ld)", k, old, prev);
        prev = old;
        if (npes > 1)
            shmem_long_atomic_add(&w_mix, 1000, to);
    }
    shmem_barrier_all();
    CHECK(w_mix == K + (npes > 1 ? 1000L * K : 0), "own fetch-add mixed with remote adds",
          "final %ld, expected %ld", w_mix, K + (npes > 1 ? 1000L * K : 0));
    shmem_barrier_all();
    if (me == 0)
        printf("t_atomic: own-word atomics mixed with remote ones: exact\n");
}

static int usage(const char *cmd, int rc)
{
    fprintf(rc ? stderr : stdout,
            "usage: oshrun -np N %s [K]\n"
            "Contended atomics from every PE (K each per part, default 16, at most %d):\n"
            "fetch-add (every old value once), add, inc, swap, compare-swap, fetch, set,\n"
            "float/double swap, bitwise, the old names; own-word atomics mixed with remote.\n",
            cmd, MAXK);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
        return usage(argv[0], 0);
    K = argc > 1 ? atoi(argv[1]) : 16;
    if (argc > 2 || K < 2 || K > MAXK)
        return usage(argv[0], 2);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > MAXPE) {
        fprintf(stderr, "t_atomic: at most %d PEs\n", MAXPE);
        return 2;
    }
    fetch_add_perm();
    add_inc();
    swaps();
    contended_swaps();
    own_and_remote();
    printf("t_atomic: PE %d: all %ld checks passed\n", me, checks);
    shmem_finalize();
    return 0;
}
