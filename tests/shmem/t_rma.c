/* SPDX-License-Identifier: Apache-2.0 */
/* t_rma: OpenSHMEM puts and gets against a reference, on 2 or more PEs
 * (run: oshrun -np N build/tests/shmem/t_rma [MAXSMALL [MAXLARGE [SWEEP]]]). Every
 * PE writes to PE (me + 1) % n and reads from PE (me + n - 1) % n.
 *
 * Bytes (shmem_putmem, shmem_getmem): every size 1..MAXSMALL (default 300)
 * with source and destination byte alignments that run through all 64
 * pairs (size s: source s % 8, destination s / 8 % 8), every size 1..SWEEP
 * (default 17) at every one of the 64 pairs, and a few large sizes up to MAXLARGE (default
 * 20000, beyond one packet of 2048), in three kinds of symmetric memory:
 * the symmetric heap (shmem_malloc), a static array in bss and a global
 * array in the data segment. Puts go one after another into one region of
 * the target, 8 guard bytes apart; after a barrier the target compares its
 * whole region (data and guards) against the reference it builds itself
 * from the sender's pattern. Gets land in a local buffer with guard bytes.
 *
 * Typed: put, get, p, g, iput, iget of char, short, int, long, long long,
 * float and double on global arrays and on the heap; put/get 8..128
 * (sized) and iput/iget 32, 64, 128.
 *
 * Every PE prints "t_rma: PE i: all N checks passed"; a failure prints the
 * check, the PE and what differs on stderr and exits 1. */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int npes, to, from;

#define TEST_NAME "t_rma"
#include "shmem_check.h"

/* The byte i of PE pe's pattern. */
static unsigned char pat(size_t i, int pe)
{
    uint32_t h = (uint32_t)(i + 1) * 0x9E3779B1u ^ (uint32_t)(pe + 1) * 0x85EBCA6Bu;
    return (unsigned char)(h >> 13 ^ h >> 3);
}
#define GUARD 0xA5
#define GGUARD 0x5A

/* ------------------------------------------------------------ byte cases */
struct rcase {
    size_t size, off; /* off: the destination offset in the region (its low 3 bits: da) */
    int sa, da;       /* source and destination alignment */
    size_t shift;     /* the source starts at pattern byte shift + sa */
};
static struct rcase *cases;
static int ncases;
static size_t region_size;

static void add_case(size_t size, int sa, int da)
{
    static size_t next;
    if (ncases == 0)
        next = 8;
    struct rcase *c = &cases[ncases];
    c->size = size;
    c->sa = sa;
    c->da = da;
    c->shift = (size_t)(ncases * 8) % 96;
    c->off = next + (size_t)da;
    next = (c->off + size + 8 + 7) & ~(size_t)7; /* at least 8 guard bytes */
    region_size = next + 8;
    ncases++;
}

static void make_cases(size_t maxsmall, size_t maxlarge, size_t sweep)
{
    static const size_t large[] = {511, 2047, 2048, 2049, 4095, 4096, 6151, 8197, 12000, 20000};
    cases = calloc(maxsmall + sweep * 64 + 16, sizeof *cases);
    for (size_t s = 1; s <= maxsmall; s++)
        add_case(s, (int)(s % 8), (int)(s / 8 % 8));
    for (size_t s = 1; s <= sweep && s <= maxsmall; s++)
        for (int sa = 0; sa < 8; sa++)
            for (int da = 0; da < 8; da++)
                add_case(s, sa, da);
    for (size_t k = 0; k < sizeof large / sizeof large[0]; k++)
        if (large[k] <= maxlarge && large[k] > maxsmall)
            add_case(large[k], (int)(k * 3 % 8), (int)(k * 5 % 8));
    if (maxlarge > maxsmall && maxlarge != large[sizeof large / sizeof large[0] - 1])
        add_case(maxlarge, 7, 1);
}

/* The three kinds of symmetric memory: heap, bss, data */
#define GSIZE 180000
static _Alignas(16) unsigned char bss_region[GSIZE];
_Alignas(16) unsigned char data_region[GSIZE] = {1};
static _Alignas(16) unsigned char bss_src[24 * 1024];
_Alignas(16) unsigned char data_src[24 * 1024] = {2};

/* What region `region` of this PE must hold after PE from's puts. */
static void reference(unsigned char *ref)
{
    memset(ref, GUARD, region_size);
    for (int k = 0; k < ncases; k++)
        for (size_t j = 0; j < cases[k].size; j++)
            ref[cases[k].off + j] = pat(cases[k].shift + (size_t)cases[k].sa + j, from);
}

static void check_region(const char *what, const unsigned char *got, const unsigned char *ref)
{
    checks++;
    if (!memcmp(got, ref, region_size))
        return;
    size_t i = 0;
    while (got[i] == ref[i])
        i++;
    int k = 0;
    while (k < ncases && cases[k].off + cases[k].size + 8 <= i)
        k++;
    char name[64];
    snprintf(name, sizeof name, "putmem %s", what);
    if (k < ncases && i >= cases[k].off)
        failf(name,
              "region byte %zu = byte %zu of the put of %zu bytes (source alignment %d, "
              "destination alignment %d) from PE %d: got 0x%02x, expected 0x%02x",
              i, i - cases[k].off, cases[k].size, cases[k].sa, cases[k].da, from, got[i], ref[i]);
    failf(name,
          "region byte %zu (a guard byte before the put of %zu bytes, source alignment %d, "
          "destination alignment %d, from PE %d) changed: got 0x%02x, expected 0x%02x",
          i, k < ncases ? cases[k].size : 0, k < ncases ? cases[k].sa : 0,
          k < ncases ? cases[k].da : 0, from, got[i], ref[i]);
}

static void byte_puts(const char *what, unsigned char *region, const unsigned char *src)
{
    memset(region, GUARD, region_size);
    shmem_barrier_all(); /* every target is ready */
    for (int k = 0; k < ncases; k++)
        shmem_putmem(region + cases[k].off, src + cases[k].shift + (size_t)cases[k].sa,
                     cases[k].size, to);
    shmem_quiet();
    shmem_barrier_all();
    unsigned char *ref = malloc(region_size);
    reference(ref);
    check_region(what, region, ref);
    free(ref);
}

/* Gets of the cases from `from`'s source area (pattern of `from`), into a
 * local buffer with guards. */
static void byte_gets(const char *what, const unsigned char *srcarea, size_t srcsize,
                      unsigned char *local, int every)
{
    char name[64];
    snprintf(name, sizeof name, "getmem %s", what);
    for (int k = 0; k < ncases; k += every) {
        const struct rcase *c = &cases[k];
        size_t soff = c->shift + (size_t)c->da; /* the source side of a get: any offset */
        if (soff + c->size > srcsize)
            soff = (size_t)c->da;
        if (soff + c->size > srcsize)
            continue;
        memset(local, GGUARD, c->size + 32);
        shmem_getmem(local + 8 + c->sa, srcarea + soff, c->size, from);
        size_t bad = (size_t)-1;
        for (size_t i = 0; i < c->size + 32 && bad == (size_t)-1; i++) {
            unsigned char want = GGUARD;
            if (i >= 8 + (size_t)c->sa && i < 8 + (size_t)c->sa + c->size)
                want = pat(soff + i - 8 - (size_t)c->sa, from);
            if (local[i] != want)
                bad = i;
        }
        CHECK(bad == (size_t)-1, name,
              "get of %zu bytes from offset %zu at PE %d into alignment %d: local byte %zd "
              "(relative to the destination) is 0x%02x, expected 0x%02x",
              c->size, soff, from, c->sa, (ssize_t)bad - 8 - c->sa, local[bad],
              bad >= 8 + (size_t)c->sa && bad < 8 + (size_t)c->sa + c->size
                  ? pat(soff + bad - 8 - (size_t)c->sa, from)
                  : GGUARD);
    }
}

/* -------------------------------------------------------------- typed */
/* The value of element i of PE pe's typed data (exact in every type). */
#define VAL(T, pe, i) ((T)(((pe)*37 + (i)*3 + 1) % 100 + 1))
#define TN 48

/* TYPED(N, T): put, get, p, g, iput, iget of shmem_N_* on symmetric arrays
 * dst (written by `from`, TN + 3 * TN elements) and src (TN elements,
 * holding this PE's values), named `where`. */
#define TYPED(N, T)                                                                                \
    static void typed_##N(const char *where, T *dst, T *src)                                       \
    {                                                                                              \
        char name[80];                                                                             \
        T loc[3 * TN], got[3 * TN];                                                                \
        for (int i = 0; i < 4 * TN; i++)                                                           \
            dst[i] = (T)-1;                                                                        \
        for (int i = 0; i < TN; i++) {                                                             \
            src[i] = VAL(T, me, i);                                                                \
            loc[i] = VAL(T, me, i + 200);                                                          \
        }                                                                                          \
        for (int i = TN; i < 3 * TN; i++)                                                          \
            loc[i] = VAL(T, me, i + 200);                                                          \
        shmem_barrier_all();                                                                       \
        /* put of 1..TN-8 elements at element 0, p of the next 8 */                                \
        shmem_##N##_put(dst, loc, TN - 8, to);                                                     \
        for (int i = TN - 8; i < TN; i++)                                                          \
            shmem_##N##_p(&dst[i], VAL(T, me, i + 517), to);                                       \
        /* iput: dst[TN + 3 i] = loc[2 i], i < TN - 1 */                                           \
        shmem_##N##_iput(dst + TN, loc, 3, 2, TN - 1, to);                                         \
        shmem_barrier_all();                                                                       \
        for (int i = 0; i < 4 * TN; i++) {                                                         \
            T want = (T)-1;                                                                        \
            if (i < TN - 8)                                                                        \
                want = VAL(T, from, i + 200);                                                      \
            else if (i < TN)                                                                       \
                want = VAL(T, from, i + 517);                                                      \
            else if ((i - TN) % 3 == 0 && (i - TN) / 3 < TN - 1)                                   \
                want = VAL(T, from, 2 * ((i - TN) / 3) + 200);                                     \
            snprintf(name, sizeof name, "shmem_" #N "_put/p/iput %s", where);                      \
            CHECK(dst[i] == want, name, "element %d: got %g, expected %g (from PE %d)", i,         \
                  (double)dst[i], (double)want, from);                                             \
        }                                                                                          \
        /* get of TN - 5 elements at element 2 into got[1..] */                                    \
        for (int i = 0; i < 3 * TN; i++)                                                           \
            got[i] = (T)-1;                                                                        \
        shmem_##N##_get(got + 1, src + 2, TN - 5, from);                                           \
        for (int i = 0; i < TN; i++) {                                                             \
            T want = i >= 1 && i < TN - 4 ? VAL(T, from, i + 1) : (T)-1;                           \
            snprintf(name, sizeof name, "shmem_" #N "_get %s", where);                             \
            CHECK(got[i] == want, name, "element %d: got %g, expected %g (from PE %d)", i,         \
                  (double)got[i], (double)want, from);                                             \
        }                                                                                          \
        for (int i = 0; i < TN; i += 5) {                                                          \
            T g = shmem_##N##_g(&src[i], from);                                                    \
            snprintf(name, sizeof name, "shmem_" #N "_g %s", where);                               \
            CHECK(g == VAL(T, from, i), name, "element %d: got %g, expected %g (from PE %d)", i,   \
                  (double)g, (double)VAL(T, from, i), from);                                       \
        }                                                                                          \
        /* iget: got[2 i] = src[3 i], i < TN / 3 */                                                \
        for (int i = 0; i < 3 * TN; i++)                                                           \
            got[i] = (T)-1;                                                                        \
        shmem_##N##_iget(got, src, 2, 3, TN / 3, from);                                            \
        for (int i = 0; i < TN; i++) {                                                             \
            T want = i % 2 == 0 && i / 2 < TN / 3 ? VAL(T, from, 3 * (i / 2)) : (T)-1;             \
            snprintf(name, sizeof name, "shmem_" #N "_iget %s", where);                            \
            CHECK(got[i] == want, name, "element %d: got %g, expected %g (from PE %d)", i,         \
                  (double)got[i], (double)want, from);                                             \
        }                                                                                          \
        shmem_barrier_all(); /* src and dst are reused by the next caller */                       \
    }
TYPED(char, char)
TYPED(short, short)
TYPED(int, int)
TYPED(long, long)
TYPED(longlong, long long)
TYPED(float, float)
TYPED(double, double)

#define TYPES(X)                                                                                   \
    X(char, char)                                                                                  \
    X(short, short)                                                                                \
    X(int, int) X(long, long) X(longlong, long long) X(float, float) X(double, double)
#define GLOBALS(N, T) static T gdst_##N[4 * TN], gsrc_##N[TN];
TYPES(GLOBALS)

static void typed_all(void)
{
#define RUN_GLOBAL(N, T) typed_##N("on global arrays", gdst_##N, gsrc_##N);
    TYPES(RUN_GLOBAL)
    /* the same on the heap, at offsets that are not the allocation's start */
    unsigned char *h = shmem_malloc(5 * TN * 8 + 64);
#define RUN_HEAP(N, T) typed_##N("on the heap", (T *)(h + 16), (T *)(h + 16 + 4 * TN * 8));
    TYPES(RUN_HEAP)
    shmem_free(h);
}

/* Sized forms: put/get 8, 16, 32, 64, 128 bits and iput/iget 32, 64, 128 */
static _Alignas(16) unsigned char sz_dst[5][1024], sz_src[1024];

static void sized(void)
{
    static const int bits[5] = {8, 16, 32, 64, 128};
    unsigned char loc[1024], got[1024];
    char name[64];
    for (size_t i = 0; i < sizeof loc; i++) {
        loc[i] = pat(i + 7000, me);
        sz_src[i] = pat(i + 9000, me);
    }
    memset(sz_dst, GUARD, sizeof sz_dst);
    shmem_barrier_all();
    /* element counts 13 (8, 16, 32, 64 bits) and 7 (128), at element 1 */
    shmem_put8(sz_dst[0] + 1, loc, 13, to);
    shmem_put16(sz_dst[1] + 2, loc, 13, to);
    shmem_put32(sz_dst[2] + 4, loc, 13, to);
    shmem_put64(sz_dst[3] + 8, loc, 13, to);
    shmem_put128(sz_dst[4] + 16, loc, 7, to);
    /* strided at 512: element i of loc (stride 2) to element 3 i */
    shmem_iput32(sz_dst[2] + 512, loc, 3, 2, 9, to);
    shmem_iput64(sz_dst[3] + 512, loc, 3, 2, 9, to);
    shmem_iput128(sz_dst[4] + 512, loc, 3, 2, 9, to);
    shmem_barrier_all();
    for (int b = 0; b < 5; b++) {
        size_t w = (size_t)bits[b] / 8, n = b == 4 ? 7 : 13;
        for (size_t i = 0; i < 1024; i++) {
            unsigned char want = GUARD;
            if (i >= w && i < w + n * w)
                want = pat(i - w + 7000, from);
            if (b >= 2 && i >= 512) {
                size_t e = (i - 512) / w;
                want = e % 3 == 0 && e / 3 < 9 ? pat(2 * (e / 3) * w + (i - 512) % w + 7000, from)
                                               : GUARD;
            }
            snprintf(name, sizeof name, "shmem_put%d/iput%d", bits[b], bits[b]);
            CHECK(sz_dst[b][i] == want, name, "byte %zu: got 0x%02x, expected 0x%02x (from PE %d)",
                  i, sz_dst[b][i], want, from);
        }
    }
    for (int b = 0; b < 5; b++) {
        size_t w = (size_t)bits[b] / 8, n = b == 4 ? 7 : 11;
        memset(got, GGUARD, sizeof got);
        switch (b) {
        case 0:
            shmem_get8(got + w, sz_src + 3 * w, n, from);
            break;
        case 1:
            shmem_get16(got + w, sz_src + 3 * w, n, from);
            break;
        case 2:
            shmem_get32(got + w, sz_src + 3 * w, n, from);
            break;
        case 3:
            shmem_get64(got + w, sz_src + 3 * w, n, from);
            break;
        default:
            shmem_get128(got + w, sz_src + 3 * w, n, from);
            break;
        }
        for (size_t i = 0; i < 4 * w + n * w; i++) {
            unsigned char want = i >= w && i < w + n * w ? pat(i + 2 * w + 9000, from) : GGUARD;
            snprintf(name, sizeof name, "shmem_get%d", bits[b]);
            CHECK(got[i] == want, name, "byte %zu: got 0x%02x, expected 0x%02x (from PE %d)", i,
                  got[i], want, from);
        }
        if (b < 2)
            continue;
        /* iget: got[2 e] = src[3 e], 8 elements */
        memset(got, GGUARD, sizeof got);
        switch (b) {
        case 2:
            shmem_iget32(got, sz_src, 2, 3, 8, from);
            break;
        case 3:
            shmem_iget64(got, sz_src, 2, 3, 8, from);
            break;
        default:
            shmem_iget128(got, sz_src, 2, 3, 8, from);
            break;
        }
        for (size_t i = 0; i < 20 * w; i++) {
            size_t e = i / w;
            unsigned char want =
                e % 2 == 0 && e / 2 < 8 ? pat(3 * (e / 2) * w + i % w + 9000, from) : GGUARD;
            snprintf(name, sizeof name, "shmem_iget%d", bits[b]);
            CHECK(got[i] == want, name, "byte %zu: got 0x%02x, expected 0x%02x (from PE %d)", i,
                  got[i], want, from);
        }
    }
    shmem_barrier_all();
}

static int usage(const char *cmd, int rc)
{
    fprintf(rc ? stderr : stdout,
            "usage: oshrun -np N %s [MAXSMALL [MAXLARGE [SWEEP]]]\n"
            "Puts and gets of every size 1..MAXSMALL (default 300) and a few up to MAXLARGE\n"
            "(default 20000) bytes at every byte alignment, on the symmetric heap and on\n"
            "global arrays (data and bss), and the typed and sized forms, each PE to PE + 1\n"
            "and from PE - 1, checked against a reference. Sizes 1..SWEEP (default 17) at\n"
            "each of the 64 pairs of source and destination alignments. N >= 2.\n",
            cmd);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
        return usage(argv[0], 0);
    long maxsmall = argc > 1 ? atol(argv[1]) : 300, maxlarge = argc > 2 ? atol(argv[2]) : 20000;
    long sweep = argc > 3 ? atol(argv[3]) : 17;
    if (argc > 4 || maxsmall < 1 || maxsmall > 2048 || maxlarge < 1 || maxlarge > 20000 ||
        sweep < 0 || sweep > 64)
        return usage(argv[0], 2);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes < 2) {
        fprintf(stderr, "t_rma: needs 2 or more PEs\n");
        return 2;
    }
    to = (me + 1) % npes;
    from = (me + npes - 1) % npes;
    make_cases((size_t)maxsmall, (size_t)maxlarge, (size_t)sweep);
    if (region_size > GSIZE) {
        fprintf(stderr, "t_rma: the cases need %zu bytes, more than %d\n", region_size, GSIZE);
        return 2;
    }

    /* the source of the puts: this PE's pattern, not symmetric */
    size_t srcsize = 20000 + 256;
    unsigned char *src = malloc(srcsize), *local = malloc(srcsize + 64);
    for (size_t i = 0; i < srcsize; i++)
        src[i] = pat(i, me);

    unsigned char *heap_region = shmem_malloc(region_size);
    unsigned char *heap_src = shmem_malloc(24 * 1024);
    CHECK(heap_region && heap_src, "shmem_malloc", "%zu and %d bytes: NULL", region_size,
          24 * 1024);
    byte_puts("on the heap", heap_region, src);
    byte_puts("on a static array (bss)", bss_region, src);
    byte_puts("on a global array (data)", data_region, src);
    if (me == 0)
        printf("t_rma: putmem: %d puts of 1..%zu bytes into heap, bss and data ok\n", ncases,
               cases[ncases - 1].size);

    for (size_t i = 0; i < 24 * 1024; i++)
        heap_src[i] = bss_src[i] = data_src[i] = pat(i, me);
    shmem_barrier_all();
    byte_gets("from the heap", heap_src, 24 * 1024, local, 1);
    byte_gets("from a static array (bss)", bss_src, 24 * 1024, local, 3);
    byte_gets("from a global array (data)", data_src, 24 * 1024, local, 3);
    shmem_barrier_all();
    if (me == 0)
        printf("t_rma: getmem: from heap, bss and data ok\n");

    typed_all();
    if (me == 0)
        printf("t_rma: typed put, get, p, g, iput, iget ok\n");
    sized();
    if (me == 0)
        printf("t_rma: put/get 8..128, iput/iget 32..128 ok\n");

    shmem_free(heap_src);
    shmem_free(heap_region);
    free(src);
    free(local);
    free(cases);
    printf("t_rma: PE %d: all %ld checks passed\n", me, checks);
    shmem_finalize();
    return 0;
}
