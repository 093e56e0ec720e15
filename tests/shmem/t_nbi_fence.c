/* SPDX-License-Identifier: Apache-2.0 */
/* t_nbi_fence: non-blocking puts and gets, shmem_quiet, shmem_fence and
 * point-to-point synchronisation, on 2 or more PEs (run: oshrun -np N
 * build/tests/shmem/t_nbi_fence [ROUNDS]). Every PE writes to PE
 * (me + 1) % n and reads from PE (me + n - 1) % n.
 *
 *  - nbi puts (putmem_nbi of many sizes and alignments, int/long/double
 *    put_nbi, put32/put64_nbi) then shmem_quiet; right after it the sender
 *    puts a flag to a third PE, (me + 2) % n (itself on 2 PEs), which waits
 *    for the flag and then gets the data back from the target: quiet made
 *    the data visible to anyone; after a barrier the target checks its own
 *    memory too;
 *  - nbi gets (getmem_nbi, typed and sized) in flight together, checked
 *    after shmem_quiet;
 *  - fence: ROUNDS times (default 20) a PE puts a block of data (several
 *    puts and nbi puts of up to 3000 bytes), shmem_fence, then a flag
 *    (shmem_long_p); the target waits for the flag (wait_until) and must see
 *    that round's data; it answers with an acknowledgement the sender waits
 *    for before the next round;
 *  - wait_until and test with every SHMEM_CMP_* for int, long and long long
 *    (the writer first stores a value just short of the condition, fences,
 *    then the value that meets it; signed values), test on every edge, and
 *    the 1.0 forms shmem_wait, shmem_int_wait, shmem_wait_until.
 *
 * Every PE prints "t_nbi_fence: PE i: all N checks passed"; a failure
 * prints the check, the PE and what differs on stderr and exits 1. */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int npes, to, from, third;

#define TEST_NAME "t_nbi_fence"
#include "shmem_check.h"

static unsigned char pat(size_t i, int pe, int round)
{
    uint32_t h = (uint32_t)(i + 1) * 0x9E3779B1u ^ (uint32_t)(pe + 1) * 0x85EBCA6Bu ^
                 (uint32_t)(round + 1) * 0xC2B2AE35u;
    return (unsigned char)(h >> 13 ^ h >> 3);
}
#define GUARD 0xA5

/* ------------------------------------------------------------ nbi puts */
#define NBI_AREA 16384
static _Alignas(16) unsigned char nbi_area[NBI_AREA];
static _Alignas(8) int nbi_int[64];
static _Alignas(8) long nbi_long[64];
static _Alignas(8) double nbi_double[64];
static _Alignas(8) uint64_t nbi_sized[64];
static long flag3;

struct piece {
    size_t off, len, shift;
};
static struct piece pieces[64];
static int npieces;

static void make_pieces(void)
{
    static const size_t lens[] = {1, 3, 8, 13, 64, 200, 2047, 2048, 2049, 4000, 7, 1000};
    size_t off = 8;
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        off += k % 8;
        pieces[npieces].off = off;
        pieces[npieces].len = lens[k];
        pieces[npieces].shift = k * 11;
        npieces++;
        off = (off + lens[k] + 8 + 7) & ~(size_t)7;
    }
}

/* What nbi_area of PE `pe`'s target holds when written by PE `pe` (and
 * the typed arrays): ref (NBI_AREA bytes). */
static void nbi_reference(unsigned char *ref, int pe)
{
    memset(ref, GUARD, NBI_AREA);
    for (int k = 0; k < npieces; k++)
        for (size_t j = 0; j < pieces[k].len; j++)
            ref[pieces[k].off + j] = pat(pieces[k].shift + j, pe, 0);
}
#define NBI_VAL(pe, i) ((pe)*1000 + (i) + 1)

static void check_nbi(const char *how, int writer, const unsigned char *area, const int *ni,
                      const long *nl, const double *nd, const uint64_t *ns)
{
    unsigned char *ref = malloc(NBI_AREA);
    nbi_reference(ref, writer);
    size_t bad = 0;
    while (bad < NBI_AREA && area[bad] == ref[bad])
        bad++;
    CHECK(bad == NBI_AREA, how, "putmem_nbi data from PE %d: byte %zu is 0x%02x, expected 0x%02x",
          writer, bad, area[bad], ref[bad]);
    free(ref);
    for (int i = 0; i < 64; i++) {
        CHECK(ni[i] == (i < 40 ? NBI_VAL(writer, i) : -1), how,
              "shmem_int_put_nbi from PE %d: element %d is %d", writer, i, ni[i]);
        CHECK(nl[i] == (i < 33 ? 3L * NBI_VAL(writer, i) : -1L), how,
              "shmem_long_put_nbi from PE %d: element %d is %ld", writer, i, nl[i]);
        CHECK(nd[i] == (i < 17 ? 0.5 * NBI_VAL(writer, i) : -1.0), how,
              "shmem_double_put_nbi from PE %d: element %d is %g", writer, i, nd[i]);
        uint64_t want = i < 20   ? (uint64_t)NBI_VAL(writer, i) << 32 | (uint32_t)(7 * i)
                        : i < 25 ? (uint64_t)(uint32_t)(9 * i) << 32 | (uint32_t)(5 * i)
                                 : ~(uint64_t)0;
        CHECK(ns[i] == want, how, "shmem_put64_nbi/put32_nbi from PE %d: element %d is 0x%llx",
              writer, i, (unsigned long long)ns[i]);
    }
}

static void nbi_puts(void)
{
    make_pieces();
    memset(nbi_area, GUARD, NBI_AREA);
    for (int i = 0; i < 64; i++) {
        nbi_int[i] = -1;
        nbi_long[i] = -1;
        nbi_double[i] = -1.0;
        nbi_sized[i] = ~(uint64_t)0;
    }
    flag3 = 0;
    unsigned char *src = malloc(NBI_AREA);
    for (size_t i = 0; i < NBI_AREA; i++)
        src[i] = pat(i, me, 0);
    int li[64];
    long ll[64];
    double ld[64];
    uint64_t ls[64];
    uint32_t l32[16];
    for (int i = 0; i < 64; i++) {
        li[i] = NBI_VAL(me, i);
        ll[i] = 3L * NBI_VAL(me, i);
        ld[i] = 0.5 * NBI_VAL(me, i);
        ls[i] = (uint64_t)NBI_VAL(me, i) << 32 | (uint32_t)(7 * i);
    }
    for (int i = 0; i < 5; i++) { /* elements 20..24 by put32_nbi: low, high words */
        l32[2 * i] = (uint32_t)(5 * (20 + i));
        l32[2 * i + 1] = (uint32_t)(9 * (20 + i));
    }
    shmem_barrier_all();
    for (int k = 0; k < npieces; k++)
        shmem_putmem_nbi(nbi_area + pieces[k].off, src + pieces[k].shift, pieces[k].len, to);
    shmem_int_put_nbi(nbi_int, li, 40, to);
    shmem_long_put_nbi(nbi_long, ll, 33, to);
    shmem_double_put_nbi(nbi_double, ld, 17, to);
    shmem_put64_nbi(nbi_sized, ls, 20, to);
    shmem_put32_nbi(nbi_sized + 20, l32, 10, to);
    /* the source may be reused only after quiet; it is left alone */
    shmem_quiet();
    shmem_long_p(&flag3, 1, third); /* "my puts to `to` are done" */
    /* the PE whose writer is (me + n - 2) % n checks that writer's target */
    int writer = (me + npes - 2) % npes, target = (me + npes - 1) % npes;
    shmem_long_wait_until(&flag3, SHMEM_CMP_EQ, 1);
    unsigned char *got = malloc(NBI_AREA);
    int gi[64];
    long gl[64];
    double gd[64];
    uint64_t gs[64];
    shmem_getmem(got, nbi_area, NBI_AREA, target);
    shmem_int_get(gi, nbi_int, 64, target);
    shmem_long_get(gl, nbi_long, 64, target);
    shmem_double_get(gd, nbi_double, 64, target);
    shmem_get64(gs, nbi_sized, 64, target);
    check_nbi("nbi puts visible after quiet (read by a third PE)", writer, got, gi, gl, gd, gs);
    shmem_barrier_all();
    check_nbi("nbi puts at the target after a barrier", from, nbi_area, nbi_int, nbi_long,
              nbi_double, nbi_sized);
    free(got);
    free(src);
    shmem_barrier_all();
}

/* ------------------------------------------------------------ nbi gets */
static _Alignas(16) unsigned char gsrc[NBI_AREA];
static int gsrc_int[64];
static long gsrc_long[64];
static double gsrc_double[64];
static uint64_t gsrc_sized[64];

static void nbi_gets(void)
{
    for (size_t i = 0; i < NBI_AREA; i++)
        gsrc[i] = pat(i, me, 1);
    for (int i = 0; i < 64; i++) {
        gsrc_int[i] = -NBI_VAL(me, i);
        gsrc_long[i] = 5L * NBI_VAL(me, i);
        gsrc_double[i] = 0.25 * NBI_VAL(me, i);
        gsrc_sized[i] = (uint64_t)NBI_VAL(me, i) * 0x100000001ull;
    }
    shmem_barrier_all();
    unsigned char *got = malloc(NBI_AREA + 64);
    int gi[66];
    long gl[66];
    double gd[66];
    uint64_t gs[66];
    uint32_t g32[20];
    memset(got, GUARD, NBI_AREA + 64);
    for (int i = 0; i < 66; i++) {
        gi[i] = 7;
        gl[i] = 7;
        gd[i] = 7.0;
        gs[i] = 7;
    }
    memset(g32, 0xEE, sizeof g32);
    /* many gets in flight; nothing is looked at before the quiet */
    for (int k = 0; k < npieces; k++)
        shmem_getmem_nbi(got + pieces[k].off, gsrc + pieces[k].shift, pieces[k].len, from);
    shmem_int_get_nbi(gi + 1, gsrc_int, 64, from);
    shmem_long_get_nbi(gl + 1, gsrc_long + 3, 50, from);
    shmem_double_get_nbi(gd + 1, gsrc_double, 63, from);
    shmem_get64_nbi(gs + 1, gsrc_sized, 64, from);
    shmem_get32_nbi(g32 + 1, gsrc_sized + 10, 4, from);
    shmem_quiet();
    unsigned char *ref = malloc(NBI_AREA + 64);
    memset(ref, GUARD, NBI_AREA + 64);
    for (int k = 0; k < npieces; k++)
        for (size_t j = 0; j < pieces[k].len; j++)
            ref[pieces[k].off + j] = pat(pieces[k].shift + j, from, 1);
    size_t bad = 0;
    while (bad < NBI_AREA + 64 && got[bad] == ref[bad])
        bad++;
    CHECK(bad == NBI_AREA + 64, "getmem_nbi after quiet",
          "data from PE %d: byte %zu is 0x%02x, expected 0x%02x", from, bad, got[bad], ref[bad]);
    for (int i = 0; i < 66; i++) {
        int wi = i >= 1 && i <= 64 ? -NBI_VAL(from, i - 1) : 7;
        long wl = i >= 1 && i <= 50 ? 5L * NBI_VAL(from, i + 2) : 7;
        double wd = i >= 1 && i <= 63 ? 0.25 * NBI_VAL(from, i - 1) : 7.0;
        uint64_t ws = i >= 1 && i <= 64 ? (uint64_t)NBI_VAL(from, i - 1) * 0x100000001ull : 7;
        CHECK(gi[i] == wi, "shmem_int_get_nbi after quiet", "element %d is %d, expected %d", i,
              gi[i], wi);
        CHECK(gl[i] == wl, "shmem_long_get_nbi after quiet", "element %d is %ld, expected %ld", i,
              gl[i], wl);
        CHECK(gd[i] == wd, "shmem_double_get_nbi after quiet", "element %d is %g, expected %g", i,
              gd[i], wd);
        CHECK(gs[i] == ws, "shmem_get64_nbi after quiet", "element %d is 0x%llx, expected 0x%llx",
              i, (unsigned long long)gs[i], (unsigned long long)ws);
    }
    for (int i = 0; i < 20; i++) {
        uint32_t w = i >= 1 && i <= 4 ? (uint32_t)NBI_VAL(from, 10 + (i - 1) / 2) : 0xEEEEEEEEu;
        CHECK(g32[i] == w, "shmem_get32_nbi after quiet", "element %d is 0x%x, expected 0x%x", i,
              g32[i], w);
    }
    free(ref);
    free(got);
    shmem_barrier_all();
}

/* -------------------------------------------------------------- fence */
#define FBLOCK 3000
static _Alignas(8) unsigned char fdata[4][FBLOCK];
static long fflag, fack;

static void fence_rounds(int rounds)
{
    unsigned char *src = malloc(4 * FBLOCK);
    fflag = 0;
    fack = 0;
    shmem_barrier_all();
    for (int r = 1; r <= rounds; r++) {
        /* sender side: this round's data, fence, flag */
        for (size_t i = 0; i < 4 * FBLOCK; i++)
            src[i] = pat(i, me, r + 10);
        shmem_putmem(fdata[0], src, FBLOCK, to);
        shmem_putmem_nbi(fdata[1], src + FBLOCK, FBLOCK, to);
        shmem_putmem(fdata[2] + r % 8, src + 2 * FBLOCK + r % 8, (size_t)(100 * r % FBLOCK) + 1,
                     to);
        shmem_putmem_nbi(fdata[3], src + 3 * FBLOCK, 8, to);
        shmem_fence();
        shmem_long_p(&fflag, r, to);
        /* target side: wait for the flag of round r from `from`, check */
        shmem_long_wait_until(&fflag, SHMEM_CMP_GE, r);
        CHECK(fflag == r, "fence: flag", "round %d: flag from PE %d is %ld", r, from, fflag);
        size_t n2 = (size_t)(100 * r % FBLOCK) + 1;
        for (size_t i = 0; i < FBLOCK; i++) {
            CHECK(fdata[0][i] == pat(i, from, r + 10), "fence: put before the flag",
                  "round %d, block 0 byte %zu from PE %d is 0x%02x, expected 0x%02x", r, i, from,
                  fdata[0][i], pat(i, from, r + 10));
            CHECK(fdata[1][i] == pat(i + FBLOCK, from, r + 10), "fence: nbi put before the flag",
                  "round %d, block 1 byte %zu from PE %d is 0x%02x, expected 0x%02x", r, i, from,
                  fdata[1][i], pat(i + FBLOCK, from, r + 10));
        }
        for (size_t i = (size_t)(r % 8); i < (size_t)(r % 8) + n2; i++)
            CHECK(fdata[2][i] == pat(i + 2 * FBLOCK, from, r + 10),
                  "fence: unaligned put before the flag",
                  "round %d, block 2 byte %zu from PE %d is 0x%02x, expected 0x%02x", r, i, from,
                  fdata[2][i], pat(i + 2 * FBLOCK, from, r + 10));
        for (size_t i = 0; i < 8; i++)
            CHECK(fdata[3][i] == pat(i + 3 * FBLOCK, from, r + 10),
                  "fence: 8-byte nbi put before the flag",
                  "round %d, block 3 byte %zu from PE %d is 0x%02x, expected 0x%02x", r, i, from,
                  fdata[3][i], pat(i + 3 * FBLOCK, from, r + 10));
        /* acknowledge to the sender, wait for ours before the next round */
        shmem_long_p(&fack, r, from);
        shmem_long_wait_until(&fack, SHMEM_CMP_EQ, r);
    }
    free(src);
    shmem_barrier_all();
}

/* ------------------------------------------------------- wait and test */
/* cmp, the comparison value, the value just short of it, the value that
 * meets it (from the initial 10) */
static const struct {
    int cmp;
    long cv, almost, meet;
    const char *name;
} conds[6] = {
    {SHMEM_CMP_EQ, 20, 19, 20, "SHMEM_CMP_EQ"}, {SHMEM_CMP_NE, 10, 10, 11, "SHMEM_CMP_NE"},
    {SHMEM_CMP_GT, 15, 15, 16, "SHMEM_CMP_GT"}, {SHMEM_CMP_LE, -5, -4, -5, "SHMEM_CMP_LE"},
    {SHMEM_CMP_LT, -3, -3, -4, "SHMEM_CMP_LT"}, {SHMEM_CMP_GE, 15, 14, 15, "SHMEM_CMP_GE"},
};

static int holds(int cmp, long long v, long long cv)
{
    switch (cmp) {
    case SHMEM_CMP_EQ:
        return v == cv;
    case SHMEM_CMP_NE:
        return v != cv;
    case SHMEM_CMP_GT:
        return v > cv;
    case SHMEM_CMP_LE:
        return v <= cv;
    case SHMEM_CMP_LT:
        return v < cv;
    default:
        return v >= cv;
    }
}

static int w_int[6];
static long w_long[6];
static long long w_ll[6];
static int w1_int;
static long w1_long, w1_wu;

#define WAIT_TYPE(N, T, ARR)                                                                       \
    static void wait_##N(void)                                                                     \
    {                                                                                              \
        char name[80];                                                                             \
        for (int c = 0; c < 6; c++)                                                                \
            ARR[c] = 10;                                                                           \
        /* test() on every edge, on this PE's own variable */                                      \
        for (int c = 0; c < 6; c++)                                                                \
            for (long d = -2; d <= 2; d++) {                                                       \
                T v = (T)(conds[c].cv + d), keep = ARR[c];                                         \
                ARR[c] = v;                                                                        \
                int got = shmem_##N##_test(&ARR[c], conds[c].cmp, (T)conds[c].cv);                 \
                ARR[c] = keep;                                                                     \
                snprintf(name, sizeof name, "shmem_" #N "_test %s", conds[c].name);                \
                CHECK(got == holds(conds[c].cmp, (long long)v, conds[c].cv), name,                 \
                      "value %lld against %ld: %d", (long long)v, conds[c].cv, got);               \
            }                                                                                      \
        for (int c = 0; c < 6; c++) {                                                              \
            snprintf(name, sizeof name, "shmem_" #N "_test %s before the writes", conds[c].name);  \
            CHECK(!shmem_##N##_test(&ARR[c], conds[c].cmp, (T)conds[c].cv), name,                  \
                  "10 against %ld: holds", conds[c].cv);                                           \
        }                                                                                          \
        shmem_barrier_all();                                                                       \
        /* writer: to `to`, for each condition the value short of it, fence,                       \
         * the value meeting it; a get in between to let the waiter wait */                        \
        for (int c = 0; c < 6; c++) {                                                              \
            shmem_##N##_p(&ARR[c], (T)conds[c].almost, to);                                        \
            shmem_fence();                                                                         \
            (void)shmem_##N##_g(&ARR[c], to);                                                      \
            shmem_##N##_p(&ARR[c], (T)conds[c].meet, to);                                          \
        }                                                                                          \
        /* waiter: this PE's variables, written by `from` */                                       \
        for (int c = 0; c < 6; c++) {                                                              \
            shmem_##N##_wait_until(&ARR[c], conds[c].cmp, (T)conds[c].cv);                         \
            T v = ARR[c];                                                                          \
            snprintf(name, sizeof name, "shmem_" #N "_wait_until %s", conds[c].name);              \
            CHECK(v == (T)conds[c].meet, name,                                                     \
                  "returned with the variable at %lld (written by PE %d: %ld, then %ld) "          \
                  "against %ld",                                                                   \
                  (long long)v, from, conds[c].almost, conds[c].meet, conds[c].cv);                \
            snprintf(name, sizeof name, "shmem_" #N "_test %s after the writes", conds[c].name);   \
            CHECK(shmem_##N##_test(&ARR[c], conds[c].cmp, (T)conds[c].cv) == 1, name,              \
                  "%lld against %ld: does not hold", (long long)v, conds[c].cv);                   \
        }                                                                                          \
        shmem_barrier_all();                                                                       \
    }
WAIT_TYPE(int, int, w_int)
WAIT_TYPE(long, long, w_long)
WAIT_TYPE(longlong, long long, w_ll)

/* the SHMEM 1.0 forms: shmem_int_wait / shmem_wait (until != value),
 * shmem_wait_until (long) */
static void wait_old(void)
{
    w1_int = 3;
    w1_long = 3;
    w1_wu = 0;
    shmem_barrier_all();
    shmem_int_p(&w1_int, 4 + me, to);
    shmem_long_p(&w1_long, -4 - me, to);
    shmem_long_p(&w1_wu, 100 + me, to);
    shmem_int_wait(&w1_int, 3);
    CHECK(w1_int == 4 + from, "shmem_int_wait", "variable %d, expected %d", w1_int, 4 + from);
    shmem_wait(&w1_long, 3);
    CHECK(w1_long == -4 - from, "shmem_wait", "variable %ld, expected %d", w1_long, -4 - from);
    shmem_wait_until(&w1_wu, SHMEM_CMP_GE, 100);
    CHECK(w1_wu == 100 + from, "shmem_wait_until", "variable %ld, expected %d", w1_wu, 100 + from);
    CHECK(shmem_test(&w1_int, SHMEM_CMP_EQ, 4 + from) == 1, "shmem_test (generic)",
          "int %d == %d does not hold", w1_int, 4 + from);
    shmem_barrier_all();
}

static int usage(const char *cmd, int rc)
{
    fprintf(rc ? stderr : stdout,
            "usage: oshrun -np N %s [ROUNDS]\n"
            "nbi puts and gets completed by shmem_quiet, shmem_fence ordering (ROUNDS rounds,\n"
            "default 20), wait_until and test with every comparison; N >= 2.\n",
            cmd);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
        return usage(argv[0], 0);
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    if (argc > 2 || rounds < 1)
        return usage(argv[0], 2);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes < 2) {
        fprintf(stderr, "t_nbi_fence: needs 2 or more PEs\n");
        return 2;
    }
    to = (me + 1) % npes;
    from = (me + npes - 1) % npes;
    third = (me + 2) % npes;
    nbi_puts();
    if (me == 0)
        printf("t_nbi_fence: nbi puts complete after quiet ok\n");
    nbi_gets();
    if (me == 0)
        printf("t_nbi_fence: nbi gets complete after quiet ok\n");
    fence_rounds(rounds);
    if (me == 0)
        printf("t_nbi_fence: fence: %d rounds of data, fence, flag ok\n", rounds);
    wait_int();
    wait_long();
    wait_longlong();
    wait_old();
    if (me == 0)
        printf("t_nbi_fence: wait_until and test, every comparison, int, long, long long ok\n");
    printf("t_nbi_fence: PE %d: all %ld checks passed\n", me, checks);
    shmem_finalize();
    return 0;
}
