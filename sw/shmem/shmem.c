/* SPDX-License-Identifier: Apache-2.0 */
/* shmem.c: OpenSHMEM on the adapter's remote memory access engine
 * (docs/shmem.md). Puts, gets and atomics are RMA requests posted in the TX
 * ring (driver/skif_rma.h); barriers, broadcasts and integer reductions of
 * stride active sets go through the collective subnet (sw/skifcoll.h); the
 * rest is software over puts, gets and atomics.
 *
 * Symmetric addresses: the symmetric heap is one block of the node's host
 * memory; the program's data and bss segments are moved into another at
 * shmem_init (the pages are copied there and the block is mapped over them
 * with skif_dma_map_at,
 * so the program's variables live where the adapter reaches them). A
 * symmetric address becomes, at PE p, the bus address of p's block plus the
 * same offset. Windows: 0 the heap, 1 data and bss (read, write, atomic),
 * 2 the library's scratch (write: where gets into private memory and the
 * old values of atomics land). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmem.h"
#include "shmemx.h"
#include "skif_dev.h"
#include "skif_hw.h"
#include "skif_rma.h"
#include "skifch.h"
#include "skifcoll.h"

extern struct skif_dev *skifch__device(void);
/* the executable's data segment and the end of its bss (crt1.o, ld) */
extern char __data_start[], _end[];

#define HEAP_DEFAULT (4u << 20)
#define SCRATCH_SIZE (64u << 10)
#define WIN_HEAP 0
#define WIN_DATA 1
#define WIN_SCRATCH 2
#define MAX_BLOCKS 4096
/* No in-flight limit by default: the network carries answers in a virtual
 * network of their own, so requests and answers cannot deadlock (docs/shmem.md,
 * "In flight"); SHMEM_RMA_BUDGET sets an optional limit in flits. */
#define BUDGET_DEFAULT 0u

struct block {
    size_t off, size;
    int used;
};
struct bounce { /* a get into private memory, copied out at quiet */
    void *dest;
    size_t off, len;
};

static struct {
    int up, done, me, n;
    struct skif_dev *dev;
    struct skif_rma *rma;
    uint8_t *heap; /* the symmetric heap here */
    size_t heap_size;
    uintptr_t data_lo, data_hi; /* data and bss, page-aligned */
    uint8_t *scr;               /* scratch */
    uint64_t scr_bus;
    size_t scr_used;
    uint64_t *heap_bus, *data_bus; /* per PE */
    uint32_t *node;                /* per PE */
    struct block *blk;             /* the heap's blocks in address order */
    int nblk;
    struct bounce *bnc;
    int nbnc, cbnc;
    SkifCollTree *all;
    unsigned budget, used; /* flits of requests and answers in flight: limit, spent */
    size_t chunk;          /* bytes of data per put or get request */
} g;

/* the collect's counts, one per member (symmetric: in bss) */
#define COLL_MAX_PES 4096
static long coll_cnt[COLL_MAX_PES];

/* ---------------------------------------------------------------- errors */
static void fatal(const char *who, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
static void fatal(const char *who, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (g.up)
        fprintf(stderr, "shmem: PE %d: %s: ", g.me, who);
    else
        fprintf(stderr, "shmem: %s: ", who);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stdout);
    g.done = 1; /* no finalize at exit */
    exit(1);
}

static void need_up(const char *who)
{
    if (!g.up)
        fatal(who, "called before shmem_init (or after shmem_finalize)");
}

static void need_pe(const char *who, int pe)
{
    need_up(who);
    if (pe < 0 || pe >= g.n)
        fatal(who, "PE %d out of range (this program has PEs 0..%d)", pe, g.n - 1);
}

static void dev_fail(const char *who, int rc)
{
    if (rc == -EPIPE)
        fatal(who, "the simulator is gone");
    fatal(who, "the driver failed: %s", strerror(-rc));
}

/* Let the simulator run: until a device event or `cycles` pass. */
static void idle(const char *who, uint64_t cycles)
{
    int rc = skif_dev_wait(g.dev, cycles);
    if (rc < 0)
        dev_fail(who, rc);
}

/* ---------------------------------------------------- symmetric addresses */
/* The bus address at PE pe of the n bytes at p (symmetric here), or -1. */
static int xlate(const void *p, size_t n, int pe, uint64_t *bus)
{
    uintptr_t a = (uintptr_t)p, h = (uintptr_t)g.heap;
    if (a >= h && n <= g.heap_size && a - h <= g.heap_size - n) {
        *bus = g.heap_bus[pe] + (a - h);
        return 0;
    }
    if (a >= g.data_lo && n <= g.data_hi - g.data_lo &&
        a - g.data_lo <= g.data_hi - g.data_lo - n) {
        *bus = g.data_bus[pe] + (a - g.data_lo);
        return 0;
    }
    return -1;
}

static uint64_t remote(const char *who, const char *what, const void *p, size_t n, int pe)
{
    uint64_t b;
    need_pe(who, pe);
    if (xlate(p, n, pe, &b) < 0)
        fatal(who,
              "%s %p (%zu bytes) for PE %d is not symmetric (not in the symmetric heap, "
              "nor in the program's global or static data)",
              what, p, n, pe);
    return b;
}

static int pe_of_node(uint32_t node)
{
    for (int p = 0; p < g.n; p++)
        if (g.node[p] == node)
            return p;
    return -1;
}

static const char *err_name(unsigned code)
{
    switch (code) {
    case SKIF_RMA_ERR_WIN:
        return "outside every window of its adapter, or without the permission";
    case SKIF_RMA_ERR_LEN:
        return "bad length";
    case SKIF_RMA_ERR_OP:
        return "bad atomic operation";
    case SKIF_RMA_ERR_FORMAT:
        return "bad packet";
    case SKIF_RMA_ERR_DMA:
        return "host memory error";
    }
    return "unknown error";
}

/* ------------------------------------------------------------- completion */
static void quiet(const char *who)
{
    int rc = skif_rma_quiet(g.rma, 0);
    if (rc == -EIO) {
        struct skif_rma_error e;
        if (skif_rma_last_error(g.rma, &e) == 0) {
            const char *k = e.kind == SKIF_KIND_RMA_PUT   ? "put"
                            : e.kind == SKIF_KIND_RMA_GET ? "get"
                                                          : "atomic";
            fatal(who, "a %s of %zu bytes at address 0x%" PRIx64 " of PE %d failed: %s", k, e.len,
                  e.raddr, pe_of_node(e.node), err_name(e.code));
        }
        fatal(who, "a request failed at its target");
    }
    if (rc < 0)
        dev_fail(who, rc);
    for (int i = 0; i < g.nbnc; i++)
        memcpy(g.bnc[i].dest, g.scr + g.bnc[i].off, g.bnc[i].len);
    g.nbnc = 0;
    g.scr_used = 0;
    g.used = 0;
}

/* The optional in-flight limit (SHMEM_RMA_BUDGET; docs/shmem.md, "In
 * flight"): at most g.budget flits of this PE's requests and their answers
 * are in flight; a request that would pass it waits until all before it
 * are complete. Requests to this PE never enter the network. */
static void spend(const char *who, int pe, unsigned flits)
{
    if (!g.budget || pe == g.me)
        return;
    if (g.used + flits > g.budget)
        quiet(who);
    g.used += flits;
}

/* Room for len bytes in the scratch (8-aligned): its offset. Completes
 * everything outstanding first when the scratch is full. */
static size_t scratch(const char *who, size_t len)
{
    size_t a = (len + 7u) & ~(size_t)7u;
    if (g.scr_used + a > SCRATCH_SIZE)
        quiet(who);
    size_t off = g.scr_used;
    g.scr_used += a;
    return off;
}

/* Post until the TX ring takes it. */
#define POST(who, call)                                                                            \
    do {                                                                                           \
        int rc_;                                                                                   \
        while ((rc_ = (call)) == -EAGAIN)                                                          \
            idle(who, 256);                                                                        \
        if (rc_ < 0)                                                                               \
            dev_fail(who, rc_);                                                                    \
    } while (0)

/* ------------------------------------------------------------- put, get */
static void put(const char *who, void *dest, const void *src, size_t n, int pe)
{
    uint64_t b = remote(who, "dest", dest, n, pe);
    if (n == 0)
        return;
    if (pe == g.me) {
        memmove(dest, src, n);
        return;
    }
    const uint8_t *s = src;
    while (n) {
        size_t k = n < g.chunk ? n : g.chunk;
        spend(who, pe, 3u + (unsigned)((k + 7) / 8)); /* header, address, data; ACK */
        POST(who, skif_rma_put(g.rma, g.node[pe], b, s, k));
        s += k;
        b += k;
        n -= k;
    }
}

static void get(const char *who, void *dest, const void *src, size_t n, int pe, int nbi)
{
    uint64_t b = remote(who, "source", src, n, pe), l;
    if (n == 0)
        return;
    if (pe == g.me) {
        memmove(dest, src, n);
        return;
    }
    uint8_t *d = dest;
    int direct = xlate(dest, n, g.me, &l) == 0;
    while (n) {
        size_t k = n < g.chunk ? n : g.chunk;
        spend(who, pe, 5u + (unsigned)((k + 7) / 8)); /* 3 flits; GET_RESP 2 + data */
        if (direct) {
            POST(who, skif_rma_get(g.rma, g.node[pe], l, b, k));
            l += k;
        } else {
            size_t off = scratch(who, k);
            POST(who, skif_rma_get(g.rma, g.node[pe], g.scr_bus + off, b, k));
            if (g.nbnc == g.cbnc) {
                int c = g.cbnc ? 2 * g.cbnc : 64;
                struct bounce *nb = realloc(g.bnc, (size_t)c * sizeof(*nb));
                if (!nb)
                    fatal(who, "out of memory");
                g.bnc = nb;
                g.cbnc = c;
            }
            g.bnc[g.nbnc++] = (struct bounce){d, off, k};
        }
        d += k;
        b += k;
        n -= k;
    }
    if (!nbi)
        quiet(who);
}

static void iput(const char *who, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                 size_t n, size_t w, int pe)
{
    for (size_t i = 0; i < n; i++)
        put(who, (char *)dest + (ptrdiff_t)i * dst * (ptrdiff_t)w,
            (const char *)src + (ptrdiff_t)i * sst * (ptrdiff_t)w, w, pe);
}

static void iget(const char *who, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                 size_t n, size_t w, int pe)
{
    need_pe(who, pe);
    for (size_t i = 0; i < n; i++)
        get(who, (char *)dest + (ptrdiff_t)i * dst * (ptrdiff_t)w,
            (const char *)src + (ptrdiff_t)i * sst * (ptrdiff_t)w, w, pe, 1);
    quiet(who);
}

/* -------------------------------------------------------------- atomics */
/* An atomic of width w (4, 8) on dest at pe, executed by pe's adapter
 * (also for this PE). fetch: wait and return the old value; otherwise
 * complete at the next quiet. */
static uint64_t amo(const char *who, unsigned op, unsigned w, const void *dest, uint64_t v,
                    uint64_t cmp, int pe, int fetch)
{
    uint64_t b = remote(who, "dest", dest, w, pe);
    if ((uintptr_t)dest % w)
        fatal(who, "dest %p is not aligned to its %u bytes", dest, w);
    size_t off = op == SKIF_RMA_OP_ADD ? 0 : scratch(who, 8);
    spend(who, pe, 7u); /* header, address, operand, compare; ACK with its value */
    POST(who, skif_rma_atomic(g.rma, g.node[pe], op, w, b, v, cmp, g.scr_bus + off));
    if (!fetch)
        return 0;
    quiet(who);
    uint64_t old = 0;
    memcpy(&old, g.scr + off, w); /* little-endian */
    return old;
}

static uint64_t bits_of(const void *p, unsigned w)
{
    uint64_t v = 0;
    memcpy(&v, p, w);
    return v;
}

/* Bitwise atomics: a compare-swap loop at the target. */
static uint64_t amo_bits(const char *who, int kind, unsigned w, void *dest, uint64_t v, int pe)
{
    uint64_t mask = w == 8 ? ~0ull : 0xffffffffull;
    uint64_t old = amo(who, SKIF_RMA_OP_FETCH, w, dest, 0, 0, pe, 1);
    for (;;) {
        uint64_t nw = kind == 0 ? (old & v) : kind == 1 ? (old | v) : (old ^ v);
        uint64_t seen = amo(who, SKIF_RMA_OP_CSWAP, w, dest, nw & mask, old, pe, 1);
        if (seen == old)
            return old;
        old = seen;
    }
}

/* ----------------------------------------------------------------- setup */
static size_t parse_size(const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return 0;
    unsigned long long m = 1;
    if (*end == 'k' || *end == 'K')
        m = 1ull << 10;
    else if (*end == 'm' || *end == 'M')
        m = 1ull << 20;
    else if (*end == 'g' || *end == 'G')
        m = 1ull << 30;
    if (m != 1)
        end++;
    if (*end == 'b' || *end == 'B')
        end++;
    if (*end || v == 0 || v > (1ull << 40) / m)
        return 0;
    return (size_t)(v * m);
}

/* Copy whole pages word by word, past AddressSanitizer's red zones between
 * globals (volatile: the compiler must not make it a memcpy call, which
 * the sanitizer checks). */
__attribute__((no_sanitize_address)) static void copy_pages(uint64_t *d, const uint64_t *s,
                                                            size_t n)
{
    volatile uint64_t *vd = d;
    for (size_t i = 0; i < n / 8; i++)
        vd[i] = s[i];
}

/* Move the program's data and bss into host memory: copy the pages into a
 * block, then map the block over them. */
static void move_data(const char *who)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)__data_start & ~(uintptr_t)(pg - 1);
    uintptr_t hi = ((uintptr_t)_end + pg - 1) & ~(uintptr_t)(pg - 1);
    struct skif_dma m;
    int rc = skif_dma_alloc(g.dev, hi - lo, pg, &m);
    if (rc < 0)
        fatal(who,
              "the program's global and static data (%zu bytes) do not fit in the node's host "
              "memory: raise skifrun's --mem-mb",
              (size_t)(hi - lo));
    /* From here to the mapping nothing may write the data segment. */
    copy_pages(m.va, (const uint64_t *)lo, hi - lo);
    if ((rc = skif_dma_map_at(g.dev, &m, (void *)lo)) < 0)
        fatal(who, "could not map host memory over the data segment: %s", strerror(-rc));
    g.data_lo = lo;
    g.data_hi = hi;
    g.data_bus[g.me] = m.bus;
}

static void finalize_at_exit(void)
{
    if (g.up && !g.done)
        shmem_finalize();
}

void shmem_init(void)
{
    static const char who[] = "shmem_init";
    if (g.up)
        return;
    if (g.done)
        fatal(who, "called again after shmem_finalize");
    size_t hs = HEAP_DEFAULT;
    const char *e = getenv("SHMEM_SYMMETRIC_SIZE");
    if (e && !(hs = parse_size(e)))
        fatal(who, "SHMEM_SYMMETRIC_SIZE='%s' is not a size (bytes, or with K, M, G)", e);
    hs = (hs + 4095u) & ~(size_t)4095u;
    unsigned budget = BUDGET_DEFAULT;
    if ((e = getenv("SHMEM_RMA_BUDGET"))) {
        char *end;
        unsigned long b = strtoul(e, &end, 10);
        if (end == e || *end || (b && (b < 16 || b > 100000)))
            fatal(who, "SHMEM_RMA_BUDGET='%s' is not 0 (no limit) or a number of flits 16..100000",
                  e);
        budget = (unsigned)b;
    }
    g.budget = budget;
    /* a request's data: what fits in the budget with its answer */
    g.chunk = budget ? (size_t)(budget - 6u) * 8u : SKIF_MAX_MSG;
    if (g.chunk > SKIF_MAX_MSG)
        g.chunk = SKIF_MAX_MSG;
    if (SkifColl_Init(0) < 0)
        fatal(who, "could not start (%s); run the program with oshrun", strerror(errno));
    struct skif_dev *dev = skifch__device();
    int me = SkifCh_Rank(), n = SkifCh_Size();
    if (!dev || me < 0 || n < 1)
        fatal(who, "no simulated node under SkifCh");
    struct skif_rma *rma;
    int rc = skif_rma_open(dev, &rma);
    if (rc < 0)
        fatal(who, "the adapter's RMA engine did not open: %s", strerror(-rc));
    uint64_t *tab = calloc(2 * (size_t)n, sizeof(uint64_t));
    uint64_t *sum = calloc(2 * (size_t)n, sizeof(uint64_t));
    uint32_t *node = calloc((size_t)n, sizeof(uint32_t));
    if (!tab || !sum || !node)
        fatal(who, "out of memory");
    struct skif_dma hm, sm;
    /* one page more than the window: a guard no window covers, so a request
     * just past the heap's end is refused, not taken by the next block */
    if ((rc = skif_dma_alloc(dev, hs + 4096, 4096, &hm)) < 0)
        fatal(who,
              "a symmetric heap of %zu bytes (SHMEM_SYMMETRIC_SIZE) does not fit in the node's "
              "host memory: lower it or raise skifrun's --mem-mb",
              hs);
    if ((rc = skif_dma_alloc(dev, SCRATCH_SIZE, 4096, &sm)) < 0)
        fatal(who, "no host memory for the library's scratch: raise skifrun's --mem-mb");
    memset(hm.va, 0, hs);
    g.dev = dev;
    g.rma = rma;
    g.me = me;
    g.n = n;
    g.heap = hm.va;
    g.heap_size = hs;
    g.scr = sm.va;
    g.scr_bus = sm.bus;
    g.heap_bus = tab;
    g.data_bus = tab + n;
    g.node = node;
    g.heap_bus[me] = hm.bus;
    move_data(who);
    if (skif_rma_windows(rma) < 3)
        fatal(who, "the adapter has %d RMA windows; the library needs 3", skif_rma_windows(rma));
    const unsigned rwa = SKIF_RMA_PERM_R | SKIF_RMA_PERM_W | SKIF_RMA_PERM_A;
    if (skif_rma_win_set(rma, WIN_HEAP, hm.bus, hs, rwa) < 0 ||
        skif_rma_win_set(rma, WIN_DATA, g.data_bus[me], g.data_hi - g.data_lo, rwa) < 0 ||
        skif_rma_win_set(rma, WIN_SCRATCH, sm.bus, SCRATCH_SIZE, SKIF_RMA_PERM_W) < 0)
        fatal(who, "the adapter refused a window");
    for (int p = 0; p < n; p++)
        if (skif_dev_rank_node(dev, p, &node[p]) < 0)
            fatal(who, "no node for PE %d", p);
    /* every PE's block addresses, by a sum of vectors holding one's own */
    g.all = SkifColl_Stride(0, 0);
    if (!g.all ||
        SkifCollSw_Allreduce(g.all, tab, sum, 2 * (size_t)n, SKIFCOLL_U64, SKIFCOLL_SUM) < 0)
        fatal(who, "could not exchange the symmetric addresses: %s", strerror(errno));
    memcpy(tab, sum, 2 * (size_t)n * sizeof(uint64_t));
    free(sum);
    g.blk = malloc(MAX_BLOCKS * sizeof(*g.blk));
    if (!g.blk)
        fatal(who, "out of memory");
    g.blk[0] = (struct block){0, hs, 0};
    g.nblk = 1;
    g.up = 1;
    static int registered;
    if (!registered++)
        atexit(finalize_at_exit);
}

int shmem_init_thread(int requested, int *provided)
{
    (void)requested;
    shmem_init();
    if (provided)
        *provided = SHMEM_THREAD_SINGLE;
    return 0;
}

void shmem_query_thread(int *provided)
{
    need_up("shmem_query_thread");
    *provided = SHMEM_THREAD_SINGLE;
}

void shmem_finalize(void)
{
    if (!g.up)
        return;
    shmem_barrier_all();
    g.up = 0;
    g.done = 1;
    SkifColl_Finalize();
    free(g.heap_bus); /* data_bus is its second half */
    free(g.node);
    free(g.blk);
    free(g.bnc);
    g.heap_bus = g.data_bus = NULL;
    g.node = NULL;
    g.blk = NULL;
    g.bnc = NULL;
}

void start_pes(int npes)
{
    (void)npes;
    shmem_init();
}

int shmem_my_pe(void)
{
    need_up("shmem_my_pe");
    return g.me;
}
int shmem_n_pes(void)
{
    need_up("shmem_n_pes");
    return g.n;
}
int _my_pe(void)
{
    return shmem_my_pe();
}
int _num_pes(void)
{
    return shmem_n_pes();
}
int my_pe(void)
{
    return shmem_my_pe();
}
int num_pes(void)
{
    return shmem_n_pes();
}

int shmem_pe_accessible(int pe)
{
    need_up("shmem_pe_accessible");
    return pe >= 0 && pe < g.n;
}

int shmem_addr_accessible(const void *addr, int pe)
{
    uint64_t b;
    need_up("shmem_addr_accessible");
    return pe >= 0 && pe < g.n && xlate(addr, 1, pe, &b) == 0;
}

void *shmem_ptr(const void *dest, int pe)
{
    uint64_t b;
    need_up("shmem_ptr");
    return pe == g.me && xlate(dest, 1, pe, &b) == 0 ? (void *)(uintptr_t)dest : NULL;
}

void shmem_global_exit(int status)
{
    fflush(stdout);
    fflush(stderr);
    g.done = 1;
    /* skifrun stops every other PE when one exits non-zero */
    exit(status);
}

void shmem_info_get_version(int *major, int *minor)
{
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char *name)
{
    snprintf(name, SHMEM_MAX_NAME_LEN, "%s", "skifsim OpenSHMEM");
}

/* ------------------------------------------------------------ extensions */
struct skif_rma *shmemx_rma_handle(void)
{
    need_up("shmemx_rma_handle");
    return g.rma;
}
struct skif_dev *shmemx_dev_handle(void)
{
    need_up("shmemx_dev_handle");
    return g.dev;
}
void shmemx_heap_bounds(int pe, void **base, size_t *size, uint64_t *bus)
{
    need_pe("shmemx_heap_bounds", pe);
    *base = g.heap;
    *size = g.heap_size;
    *bus = g.heap_bus[pe];
}
uint32_t shmemx_pe_node(int pe)
{
    need_pe("shmemx_pe_node", pe);
    return g.node[pe];
}
uint64_t shmemx_cycle(void)
{
    need_up("shmemx_cycle");
    return skif_dev_cycle(g.dev);
}
unsigned shmemx_clock_mhz(void)
{
    need_up("shmemx_clock_mhz");
    return skif_dev_clock_mhz(g.dev);
}

/* ------------------------------------------------------ symmetric heap */
/* First fit over the blocks; every PE makes the same calls, so the same
 * offsets. */
static void *heap_alloc(const char *who, size_t align, size_t size)
{
    if (align < 16)
        align = 16;
    if (align & (align - 1))
        fatal(who, "alignment %zu is not a power of two", align);
    size = size ? (size + 15u) & ~(size_t)15u : 16u;
    for (int i = 0; i < g.nblk; i++) {
        struct block *b = &g.blk[i];
        if (b->used)
            continue;
        size_t start = (b->off + align - 1) & ~(align - 1), pad = start - b->off;
        if (pad > b->size || b->size - pad < size)
            continue;
        if (g.nblk + 2 > MAX_BLOCKS)
            break;
        if (pad) { /* a free block before */
            memmove(b + 1, b, (size_t)(g.nblk - i) * sizeof(*b));
            g.nblk++;
            b->size = pad;
            b++;
            i++;
            b->off = start;
            b->size -= pad;
        }
        if (b->size > size) { /* a free block after */
            memmove(b + 1, b, (size_t)(g.nblk - i) * sizeof(*b));
            g.nblk++;
            b[1] = (struct block){b->off + size, b->size - size, 0};
            b->size = size;
        }
        b->used = 1;
        return g.heap + b->off;
    }
    size_t big = 0;
    for (int i = 0; i < g.nblk; i++)
        if (!g.blk[i].used && g.blk[i].size > big)
            big = g.blk[i].size;
    fprintf(stderr,
            "shmem: PE %d: %s: %zu bytes do not fit in the symmetric heap (%zu bytes, the "
            "largest free block %zu): set SHMEM_SYMMETRIC_SIZE\n",
            g.me, who, size, g.heap_size, big);
    return NULL;
}

static int heap_find(const void *p)
{
    for (int i = 0; i < g.nblk; i++)
        if (g.blk[i].used && g.heap + g.blk[i].off == p)
            return i;
    return -1;
}

static void heap_release(int i)
{
    g.blk[i].used = 0;
    if (i + 1 < g.nblk && !g.blk[i + 1].used) {
        g.blk[i].size += g.blk[i + 1].size;
        memmove(&g.blk[i + 1], &g.blk[i + 2], (size_t)(g.nblk - i - 2) * sizeof(g.blk[0]));
        g.nblk--;
    }
    if (i > 0 && !g.blk[i - 1].used) {
        g.blk[i - 1].size += g.blk[i].size;
        memmove(&g.blk[i], &g.blk[i + 1], (size_t)(g.nblk - i - 1) * sizeof(g.blk[0]));
        g.nblk--;
    }
}

void *shmem_align(size_t alignment, size_t size)
{
    need_up("shmem_align");
    void *p = heap_alloc("shmem_align", alignment, size);
    shmem_barrier_all();
    return p;
}

void *shmem_malloc(size_t size)
{
    need_up("shmem_malloc");
    void *p = heap_alloc("shmem_malloc", 16, size);
    shmem_barrier_all();
    return p;
}

void *shmem_calloc(size_t count, size_t size)
{
    need_up("shmem_calloc");
    void *p = NULL;
    if (size && count > SIZE_MAX / size)
        fprintf(stderr, "shmem: PE %d: shmem_calloc: %zu x %zu bytes overflow\n", g.me, count,
                size);
    else if ((p = heap_alloc("shmem_calloc", 16, count * size)))
        memset(p, 0, count * size);
    shmem_barrier_all();
    return p;
}

void shmem_free(void *ptr)
{
    need_up("shmem_free");
    shmem_barrier_all();
    if (!ptr)
        return;
    int i = heap_find(ptr);
    if (i < 0)
        fatal("shmem_free", "%p is not a block of the symmetric heap", ptr);
    heap_release(i);
}

void *shmem_realloc(void *ptr, size_t size)
{
    need_up("shmem_realloc");
    if (!ptr)
        return shmem_malloc(size);
    if (!size) {
        shmem_free(ptr);
        return NULL;
    }
    shmem_barrier_all();
    int i = heap_find(ptr);
    if (i < 0)
        fatal("shmem_realloc", "%p is not a block of the symmetric heap", ptr);
    size_t old = g.blk[i].size;
    uint8_t *save = malloc(old);
    if (!save)
        fatal("shmem_realloc", "out of memory");
    memcpy(save, ptr, old);
    heap_release(i);
    void *p = heap_alloc("shmem_realloc", 16, size);
    if (p)
        memmove(p, save, old < size ? old : size);
    else if ((p = heap_alloc("shmem_realloc", 16, old))) /* put it back (the same place) */
        memcpy(p, save, old), p = NULL;
    free(save);
    shmem_barrier_all();
    return p;
}

void *shmalloc(size_t size)
{
    return shmem_malloc(size);
}
void *shmemalign(size_t alignment, size_t size)
{
    return shmem_align(alignment, size);
}
void *shrealloc(void *ptr, size_t size)
{
    return shmem_realloc(ptr, size);
}
void shfree(void *ptr)
{
    shmem_free(ptr);
}

/* ----------------------------------------------------------------- RMA */
void shmem_putmem(void *dest, const void *src, size_t nelems, int pe)
{
    put("shmem_putmem", dest, src, nelems, pe);
}
void shmem_getmem(void *dest, const void *src, size_t nelems, int pe)
{
    get("shmem_getmem", dest, src, nelems, pe, 0);
}
void shmem_putmem_nbi(void *dest, const void *src, size_t nelems, int pe)
{
    put("shmem_putmem_nbi", dest, src, nelems, pe);
}
void shmem_getmem_nbi(void *dest, const void *src, size_t nelems, int pe)
{
    get("shmem_getmem_nbi", dest, src, nelems, pe, 1);
}

#define DEF_RMA(N, T)                                                                              \
    void shmem_##N##_put(T *dest, const T *src, size_t nelems, int pe)                             \
    {                                                                                              \
        put("shmem_" #N "_put", dest, src, nelems * sizeof(T), pe);                                \
    }                                                                                              \
    void shmem_##N##_get(T *dest, const T *src, size_t nelems, int pe)                             \
    {                                                                                              \
        get("shmem_" #N "_get", dest, src, nelems * sizeof(T), pe, 0);                             \
    }                                                                                              \
    void shmem_##N##_put_nbi(T *dest, const T *src, size_t nelems, int pe)                         \
    {                                                                                              \
        put("shmem_" #N "_put_nbi", dest, src, nelems * sizeof(T), pe);                            \
    }                                                                                              \
    void shmem_##N##_get_nbi(T *dest, const T *src, size_t nelems, int pe)                         \
    {                                                                                              \
        get("shmem_" #N "_get_nbi", dest, src, nelems * sizeof(T), pe, 1);                         \
    }                                                                                              \
    void shmem_##N##_p(T *dest, T value, int pe)                                                   \
    {                                                                                              \
        put("shmem_" #N "_p", dest, &value, sizeof(T), pe);                                        \
    }                                                                                              \
    T shmem_##N##_g(const T *src, int pe)                                                          \
    {                                                                                              \
        T v;                                                                                       \
        get("shmem_" #N "_g", &v, src, sizeof(T), pe, 0);                                          \
        return v;                                                                                  \
    }                                                                                              \
    void shmem_##N##_iput(T *dest, const T *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,      \
                          int pe)                                                                  \
    {                                                                                              \
        iput("shmem_" #N "_iput", dest, src, dst, sst, nelems, sizeof(T), pe);                     \
    }                                                                                              \
    void shmem_##N##_iget(T *dest, const T *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,      \
                          int pe)                                                                  \
    {                                                                                              \
        iget("shmem_" #N "_iget", dest, src, dst, sst, nelems, sizeof(T), pe);                     \
    }
SHMEM_RMA_TYPES(DEF_RMA)

#define DEF_SIZED(B)                                                                               \
    void shmem_put##B(void *dest, const void *src, size_t nelems, int pe)                          \
    {                                                                                              \
        put("shmem_put" #B, dest, src, nelems *(B / 8), pe);                                       \
    }                                                                                              \
    void shmem_get##B(void *dest, const void *src, size_t nelems, int pe)                          \
    {                                                                                              \
        get("shmem_get" #B, dest, src, nelems *(B / 8), pe, 0);                                    \
    }                                                                                              \
    void shmem_put##B##_nbi(void *dest, const void *src, size_t nelems, int pe)                    \
    {                                                                                              \
        put("shmem_put" #B "_nbi", dest, src, nelems *(B / 8), pe);                                \
    }                                                                                              \
    void shmem_get##B##_nbi(void *dest, const void *src, size_t nelems, int pe)                    \
    {                                                                                              \
        get("shmem_get" #B "_nbi", dest, src, nelems *(B / 8), pe, 1);                             \
    }                                                                                              \
    void shmem_iput##B(void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,   \
                       int pe)                                                                     \
    {                                                                                              \
        iput("shmem_iput" #B, dest, src, dst, sst, nelems, B / 8, pe);                             \
    }                                                                                              \
    void shmem_iget##B(void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,   \
                       int pe)                                                                     \
    {                                                                                              \
        iget("shmem_iget" #B, dest, src, dst, sst, nelems, B / 8, pe);                             \
    }
SHMEM_RMA_SIZES(DEF_SIZED)

/* -------------------------------------------------------------- atomics */
#define AMO(N, T, OP, V, C, F)                                                                     \
    amo("shmem_" N, OP, sizeof(T), dest, (uint64_t)(V), (uint64_t)(C), pe, F)
#define DEF_AMO_STD(N, T)                                                                          \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe)                                       \
    {                                                                                              \
        return (T)AMO(#N "_atomic_fetch_add", T, SKIF_RMA_OP_FADD, value, 0, 1);                   \
    }                                                                                              \
    void shmem_##N##_atomic_add(T *dest, T value, int pe)                                          \
    {                                                                                              \
        AMO(#N "_atomic_add", T, SKIF_RMA_OP_ADD, value, 0, 0);                                    \
    }                                                                                              \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe)                                                \
    {                                                                                              \
        return (T)AMO(#N "_atomic_fetch_inc", T, SKIF_RMA_OP_FADD, 1, 0, 1);                       \
    }                                                                                              \
    void shmem_##N##_atomic_inc(T *dest, int pe)                                                   \
    {                                                                                              \
        AMO(#N "_atomic_inc", T, SKIF_RMA_OP_ADD, 1, 0, 0);                                        \
    }                                                                                              \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe)                            \
    {                                                                                              \
        return (T)AMO(#N "_atomic_compare_swap", T, SKIF_RMA_OP_CSWAP, value, cond, 1);            \
    }
SHMEM_AMO_STD_TYPES(DEF_AMO_STD)

/* fetch, set, swap: also for float and double, by their bits */
#define DEF_AMO_EXT(N, T)                                                                          \
    T shmem_##N##_atomic_fetch(const T *dest, int pe)                                              \
    {                                                                                              \
        uint64_t o =                                                                               \
            amo("shmem_" #N "_atomic_fetch", SKIF_RMA_OP_FETCH, sizeof(T), dest, 0, 0, pe, 1);     \
        T r;                                                                                       \
        memcpy(&r, &o, sizeof(T));                                                                 \
        return r;                                                                                  \
    }                                                                                              \
    void shmem_##N##_atomic_set(T *dest, T value, int pe)                                          \
    {                                                                                              \
        amo("shmem_" #N "_atomic_set", SKIF_RMA_OP_SWAP, sizeof(T), dest,                          \
            bits_of(&value, sizeof(T)), 0, pe, 0);                                                 \
    }                                                                                              \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe)                                            \
    {                                                                                              \
        uint64_t o = amo("shmem_" #N "_atomic_swap", SKIF_RMA_OP_SWAP, sizeof(T), dest,            \
                         bits_of(&value, sizeof(T)), 0, pe, 1);                                    \
        T r;                                                                                       \
        memcpy(&r, &o, sizeof(T));                                                                 \
        return r;                                                                                  \
    }
SHMEM_AMO_EXT_TYPES(DEF_AMO_EXT)

#define DEF_AMO_BIT(N, T)                                                                          \
    T shmem_##N##_atomic_fetch_and(T *dest, T value, int pe)                                       \
    {                                                                                              \
        return (T)amo_bits("shmem_" #N "_atomic_fetch_and", 0, sizeof(T), dest, value, pe);        \
    }                                                                                              \
    void shmem_##N##_atomic_and(T *dest, T value, int pe)                                          \
    {                                                                                              \
        amo_bits("shmem_" #N "_atomic_and", 0, sizeof(T), dest, value, pe);                        \
    }                                                                                              \
    T shmem_##N##_atomic_fetch_or(T *dest, T value, int pe)                                        \
    {                                                                                              \
        return (T)amo_bits("shmem_" #N "_atomic_fetch_or", 1, sizeof(T), dest, value, pe);         \
    }                                                                                              \
    void shmem_##N##_atomic_or(T *dest, T value, int pe)                                           \
    {                                                                                              \
        amo_bits("shmem_" #N "_atomic_or", 1, sizeof(T), dest, value, pe);                         \
    }                                                                                              \
    T shmem_##N##_atomic_fetch_xor(T *dest, T value, int pe)                                       \
    {                                                                                              \
        return (T)amo_bits("shmem_" #N "_atomic_fetch_xor", 2, sizeof(T), dest, value, pe);        \
    }                                                                                              \
    void shmem_##N##_atomic_xor(T *dest, T value, int pe)                                          \
    {                                                                                              \
        amo_bits("shmem_" #N "_atomic_xor", 2, sizeof(T), dest, value, pe);                        \
    }
SHMEM_AMO_BIT_TYPES(DEF_AMO_BIT)

/* The names before 1.4 are the 1.4 calls (errors name the 1.4 call). */
#define DEF_AMO_OLD(N, T)                                                                          \
    T shmem_##N##_fadd(T *dest, T value, int pe)                                                   \
    {                                                                                              \
        return shmem_##N##_atomic_fetch_add(dest, value, pe);                                      \
    }                                                                                              \
    void shmem_##N##_add(T *dest, T value, int pe)                                                 \
    {                                                                                              \
        shmem_##N##_atomic_add(dest, value, pe);                                                   \
    }                                                                                              \
    T shmem_##N##_finc(T *dest, int pe)                                                            \
    {                                                                                              \
        return shmem_##N##_atomic_fetch_inc(dest, pe);                                             \
    }                                                                                              \
    void shmem_##N##_inc(T *dest, int pe)                                                          \
    {                                                                                              \
        shmem_##N##_atomic_inc(dest, pe);                                                          \
    }                                                                                              \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe)                                          \
    {                                                                                              \
        return shmem_##N##_atomic_compare_swap(dest, cond, value, pe);                             \
    }                                                                                              \
    T shmem_##N##_swap(T *dest, T value, int pe)                                                   \
    {                                                                                              \
        return shmem_##N##_atomic_swap(dest, value, pe);                                           \
    }                                                                                              \
    T shmem_##N##_fetch(const T *dest, int pe)                                                     \
    {                                                                                              \
        return shmem_##N##_atomic_fetch(dest, pe);                                                 \
    }                                                                                              \
    void shmem_##N##_set(T *dest, T value, int pe)                                                 \
    {                                                                                              \
        shmem_##N##_atomic_set(dest, value, pe);                                                   \
    }
SHMEM_AMO_OLD_TYPES(DEF_AMO_OLD)

float shmem_float_swap(float *dest, float value, int pe)
{
    return shmem_float_atomic_swap(dest, value, pe);
}
double shmem_double_swap(double *dest, double value, int pe)
{
    return shmem_double_atomic_swap(dest, value, pe);
}
float shmem_float_fetch(const float *dest, int pe)
{
    return shmem_float_atomic_fetch(dest, pe);
}
double shmem_double_fetch(const double *dest, int pe)
{
    return shmem_double_atomic_fetch(dest, pe);
}
void shmem_float_set(float *dest, float value, int pe)
{
    shmem_float_atomic_set(dest, value, pe);
}
void shmem_double_set(double *dest, double value, int pe)
{
    shmem_double_atomic_set(dest, value, pe);
}
long shmem_swap(long *dest, long value, int pe)
{
    return shmem_long_swap(dest, value, pe);
}

/* ------------------------------------------ ordering and synchronisation */
/* The engine performs one PE's requests to one target in order (docs/rma.md),
 * but a put to this PE is a local copy: a fence completes everything. */
void shmem_fence(void)
{
    need_up("shmem_fence");
    quiet("shmem_fence");
}

void shmem_quiet(void)
{
    need_up("shmem_quiet");
    quiet("shmem_quiet");
}

static void coll_wait(const char *who, SkifCollReq *r)
{
    if (SkifColl_Wait(r) < 0)
        fatal(who, "the collective engine failed: %s", strerror(errno));
}

static void hw_barrier(const char *who, SkifCollTree *t)
{
    SkifCollReq *r;
    if (g.n == 1) /* skifrun -n 1 runs a ring of 2 whose other node has no PE */
        return;
    if (SkifColl_Barrier(t, &r) < 0)
        fatal(who, "the collective engine refused the barrier: %s", strerror(errno));
    coll_wait(who, r);
}

void shmem_sync_all(void)
{
    need_up("shmem_sync_all");
    hw_barrier("shmem_sync_all", g.all);
}

void shmem_barrier_all(void)
{
    need_up("shmem_barrier_all");
    quiet("shmem_barrier_all");
    hw_barrier("shmem_barrier_all", g.all);
}

/* An active set: PE_start + i * 2^log, i < size. */
struct aset {
    int start, log, size, idx; /* idx: this PE's index */
    SkifCollTree *tree;        /* its stride tree, or NULL */
};

static struct aset aset_of(const char *who, int start, int log, int size, const long *psync)
{
    need_up(who);
    if (start < 0 || log < 0 || log > 30 || size < 1 || start >= g.n ||
        (long long)start + ((long long)(size - 1) << log) >= g.n)
        fatal(who,
              "active set PE_start %d, logPE_stride %d, PE_size %d does not fit in PEs "
              "0..%d",
              start, log, size, g.n - 1);
    int d = g.me - start;
    if (d < 0 || (d & ((1 << log) - 1)) || (d >> log) >= size)
        fatal(who, "PE %d is not in the active set (PE_start %d, logPE_stride %d, PE_size %d)",
              g.me, start, log, size);
    if (!psync)
        fatal(who, "pSync is NULL");
    struct aset a = {start, log, size, d >> log, NULL};
    if (g.n > 1 && start <= 1 && log <= 7 && size == ((g.n - 1 - start) >> log) + 1)
        a.tree = SkifColl_Stride(log, start);
    return a;
}

static int member(const struct aset *a, int i)
{
    return a->start + (i << a->log);
}

/* Wait until *v cmp x (a word written by other PEs' requests). */
static void wait_long(const char *who, volatile long *v, int ge, long x)
{
    unsigned spins = 0;
    while (ge ? *v < x : *v == x)
        idle(who, spins++ < 256 ? 16 : 128);
}

/* The software barrier of an active set on pSync: members add 1 to the
 * first member's pSync[0]; it waits for all, resets, and sets each
 * member's pSync[1]; a member waits for that and resets it. */
static void set_sync(const char *who, const struct aset *a, long *psync)
{
    if (a->tree) {
        hw_barrier(who, a->tree);
        return;
    }
    if (a->size == 1)
        return;
    int root = a->start;
    if (g.me == root) {
        wait_long(who, &psync[0], 1, a->size - 1);
        psync[0] = SHMEM_SYNC_VALUE;
        long one = 1;
        for (int i = 1; i < a->size; i++)
            put(who, &psync[1], &one, sizeof(one), member(a, i));
        quiet(who);
    } else {
        amo(who, SKIF_RMA_OP_ADD, sizeof(long), &psync[0], 1, 0, root, 0);
        quiet(who);
        wait_long(who, &psync[1], 0, SHMEM_SYNC_VALUE);
        psync[1] = SHMEM_SYNC_VALUE;
    }
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    struct aset a = aset_of("shmem_barrier", PE_start, logPE_stride, PE_size, pSync);
    quiet("shmem_barrier");
    set_sync("shmem_barrier", &a, pSync);
}

void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    struct aset a = aset_of("shmem_sync", PE_start, logPE_stride, PE_size, pSync);
    set_sync("shmem_sync", &a, pSync);
}

/* wait_until and test */
static void bad_cmp(const char *who, int cmp)
{
    fatal(who, "comparison %d is not one of SHMEM_CMP_EQ..SHMEM_CMP_GE", cmp);
}
#define CMP_HOLDS(x, cmp, v)                                                                       \
    ((cmp) == SHMEM_CMP_EQ   ? (x) == (v)                                                          \
     : (cmp) == SHMEM_CMP_NE ? (x) != (v)                                                          \
     : (cmp) == SHMEM_CMP_GT ? (x) > (v)                                                           \
     : (cmp) == SHMEM_CMP_LE ? (x) <= (v)                                                          \
     : (cmp) == SHMEM_CMP_LT ? (x) < (v)                                                           \
                             : (x) >= (v))
#define DEF_WAIT(N, T)                                                                             \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value)                                     \
    {                                                                                              \
        static const char who[] = "shmem_" #N "_wait_until";                                       \
        need_up(who);                                                                              \
        if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_GE)                                              \
            bad_cmp(who, cmp);                                                                     \
        unsigned spins = 0;                                                                        \
        while (!CMP_HOLDS(*(volatile T *)ivar, cmp, cmp_value))                                    \
            idle(who, spins++ < 256 ? 16 : 128);                                                   \
    }                                                                                              \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value)                                            \
    {                                                                                              \
        static const char who[] = "shmem_" #N "_test";                                             \
        need_up(who);                                                                              \
        if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_GE)                                              \
            bad_cmp(who, cmp);                                                                     \
        if (CMP_HOLDS(*(volatile T *)ivar, cmp, cmp_value))                                        \
            return 1;                                                                              \
        idle(who, 1); /* let the simulation move on between tests */                               \
        return 0;                                                                                  \
    }                                                                                              \
    void shmem_##N##_wait(T *ivar, T cmp_value)                                                    \
    {                                                                                              \
        shmem_##N##_wait_until(ivar, SHMEM_CMP_NE, cmp_value);                                     \
    }
SHMEM_WAIT_TYPES(DEF_WAIT)

void shmem_wait_until(long *ivar, int cmp, long cmp_value)
{
    shmem_long_wait_until(ivar, cmp, cmp_value);
}
void shmem_wait(long *ivar, long cmp_value)
{
    shmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value);
}

/* ----------------------------------------------------------- collectives */
static void broadcast(const char *who, void *dest, const void *source, size_t bytes, int root,
                      int start, int log, int size, long *psync)
{
    struct aset a = aset_of(who, start, log, size, psync);
    if (root < 0 || root >= size)
        fatal(who, "PE_root %d is not an index of the active set (0..%d)", root, size - 1);
    int rpe = member(&a, root);
    if (a.tree && bytes) { /* the collective subnet */
        SkifCollReq *r;
        void *buf = g.me == rpe ? (void *)(uintptr_t)source : dest;
        if (SkifColl_Bcast(a.tree, rpe, buf, bytes, &r) < 0)
            fatal(who, "the collective engine refused the broadcast: %s", strerror(errno));
        coll_wait(who, r);
        return;
    }
    if (g.me == rpe)
        for (int i = 0; i < size; i++)
            if (member(&a, i) != rpe)
                put(who, dest, source, bytes, member(&a, i));
    quiet(who);
    set_sync(who, &a, psync);
}

void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync)
{
    broadcast("shmem_broadcast32", dest, source, nelems * 4, PE_root, PE_start, logPE_stride,
              PE_size, pSync);
}
void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync)
{
    broadcast("shmem_broadcast64", dest, source, nelems * 8, PE_root, PE_start, logPE_stride,
              PE_size, pSync);
}

/* collect: offsets from every member's count (pushed into coll_cnt). */
static void collect(const char *who, void *dest, const void *source, size_t nelems, size_t w,
                    int start, int log, int size, long *psync, int fixed)
{
    struct aset a = aset_of(who, start, log, size, psync);
    size_t off = a.idx * nelems;
    if (!fixed) {
        if (size > COLL_MAX_PES)
            fatal(who, "an active set of more than %d PEs", COLL_MAX_PES);
        long c = (long)nelems;
        set_sync(who, &a, psync); /* everyone is here: coll_cnt is free */
        for (int i = 0; i < size; i++)
            put(who, &coll_cnt[a.idx], &c, sizeof(c), member(&a, i));
        quiet(who);
        set_sync(who, &a, psync);
        off = 0;
        for (int i = 0; i < a.idx; i++)
            off += (size_t)coll_cnt[i];
    }
    for (int i = 0; i < size; i++)
        put(who, (char *)dest + off * w, source, nelems * w, member(&a, i));
    quiet(who);
    set_sync(who, &a, psync);
}

void shmem_collect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                     int PE_size, long *pSync)
{
    collect("shmem_collect32", dest, source, nelems, 4, PE_start, logPE_stride, PE_size, pSync, 0);
}
void shmem_collect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                     int PE_size, long *pSync)
{
    collect("shmem_collect64", dest, source, nelems, 8, PE_start, logPE_stride, PE_size, pSync, 0);
}
void shmem_fcollect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync)
{
    collect("shmem_fcollect32", dest, source, nelems, 4, PE_start, logPE_stride, PE_size, pSync, 1);
}
void shmem_fcollect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync)
{
    collect("shmem_fcollect64", dest, source, nelems, 8, PE_start, logPE_stride, PE_size, pSync, 1);
}

static void alltoall(const char *who, void *dest, const void *source, size_t nelems, size_t w,
                     int start, int log, int size, long *psync)
{
    struct aset a = aset_of(who, start, log, size, psync);
    size_t blk = nelems * w;
    for (int k = 1; k <= size; k++) { /* this PE's own block last, the others staggered */
        int i = (a.idx + k) % size;
        put(who, (char *)dest + (size_t)a.idx * blk, (const char *)source + (size_t)i * blk, blk,
            member(&a, i));
    }
    quiet(who);
    set_sync(who, &a, psync);
}

void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync)
{
    alltoall("shmem_alltoall32", dest, source, nelems, 4, PE_start, logPE_stride, PE_size, pSync);
}
void shmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync)
{
    alltoall("shmem_alltoall64", dest, source, nelems, 8, PE_start, logPE_stride, PE_size, pSync);
}

/* Reductions. In software every member reads every member's source (in
 * member order, so every PE computes the same result, also for floating
 * point) after a barrier, and writes dest after a second. */
enum { R_SUM, R_PROD, R_MIN, R_MAX, R_AND, R_OR, R_XOR };

#define COMBINE(T, acc, x, op)                                                                     \
    switch (op) {                                                                                  \
    case R_SUM:                                                                                    \
        acc = (T)(acc + x);                                                                        \
        break;                                                                                     \
    case R_PROD:                                                                                   \
        acc = (T)(acc * x);                                                                        \
        break;                                                                                     \
    case R_MIN:                                                                                    \
        acc = x < acc ? x : acc;                                                                   \
        break;                                                                                     \
    case R_MAX:                                                                                    \
        acc = x > acc ? x : acc;                                                                   \
        break;                                                                                     \
    default:                                                                                       \
        break;                                                                                     \
    }
#define COMBINE_BITS(T, acc, x, op)                                                                \
    switch (op) {                                                                                  \
    case R_AND:                                                                                    \
        acc = (T)(acc & x);                                                                        \
        break;                                                                                     \
    case R_OR:                                                                                     \
        acc = (T)(acc | x);                                                                        \
        break;                                                                                     \
    case R_XOR:                                                                                    \
        acc = (T)(acc ^ x);                                                                        \
        break;                                                                                     \
    default:                                                                                       \
        COMBINE(T, acc, x, op)                                                                     \
    }

/* The hardware path: int (S32), long and long long (S64) sum, min, max on
 * a stride tree. 1 when done there. */
static int red_hw(const char *who, const struct aset *a, void *dest, const void *source, int n,
                  size_t w, int is_int, int op)
{
    if (!a->tree || !is_int || op > R_MAX || op == R_PROD || n <= 0)
        return 0;
    int type = w == 4 ? SKIFCOLL_S32 : SKIFCOLL_S64;
    int hop = op == R_SUM ? SKIFCOLL_SUM : op == R_MIN ? SKIFCOLL_MIN : SKIFCOLL_MAX;
    SkifCollReq *r;
    if (SkifColl_Allreduce(a->tree, source, dest, (size_t)n, type, hop, &r) < 0)
        fatal(who, "the collective engine refused the reduction: %s", strerror(errno));
    coll_wait(who, r);
    return 1;
}

#define DEF_RED_SW(N, T, CMB)                                                                      \
    static void red_sw_##N(const char *who, const struct aset *a, T *dest, const T *source, int n, \
                           int op, long *psync)                                                    \
    {                                                                                              \
        T *acc = malloc((size_t)n * sizeof(T)), *tmp = malloc((size_t)n * sizeof(T));              \
        if (!acc || !tmp)                                                                          \
            fatal(who, "out of memory");                                                           \
        set_sync(who, a, psync); /* every source is ready */                                       \
        for (int i = 0; i < a->size; i++) {                                                        \
            T *in = i ? tmp : acc;                                                                 \
            get(who, in, source, (size_t)n * sizeof(T), member(a, i), 0);                          \
            if (i)                                                                                 \
                for (int k = 0; k < n; k++)                                                        \
                    CMB(T, acc[k], in[k], op)                                                      \
        }                                                                                          \
        set_sync(who, a, psync); /* no one reads source any more */                                \
        memcpy(dest, acc, (size_t)n * sizeof(T));                                                  \
        free(acc);                                                                                 \
        free(tmp);                                                                                 \
    }
#define DEF_RED_SW_INT(N, T) DEF_RED_SW(N, T, COMBINE_BITS)
#define DEF_RED_SW_FP(N, T) DEF_RED_SW(N, T, COMBINE)
SHMEM_REDUCE_INT_TYPES(DEF_RED_SW_INT)
DEF_RED_SW_FP(float, float)
DEF_RED_SW_FP(double, double)

#define DEF_RED(N, T, OPN, OP, IS_INT)                                                             \
    void shmem_##N##_##OPN##_to_all(T *dest, const T *source, int nreduce, int PE_start,           \
                                    int logPE_stride, int PE_size, T *pWrk, long *pSync)           \
    {                                                                                              \
        static const char who[] = "shmem_" #N "_" #OPN "_to_all";                                  \
        (void)pWrk;                                                                                \
        struct aset a = aset_of(who, PE_start, logPE_stride, PE_size, pSync);                      \
        if (nreduce < 0)                                                                           \
            fatal(who, "nreduce %d is negative", nreduce);                                         \
        if (nreduce == 0)                                                                          \
            return;                                                                                \
        remote(who, "source", source, (size_t)nreduce * sizeof(T), g.me);                          \
        if (!red_hw(who, &a, dest, source, nreduce, sizeof(T),                                     \
                    IS_INT && (sizeof(T) == 4 || sizeof(T) == 8), OP))                             \
            red_sw_##N(who, &a, dest, source, nreduce, OP, pSync);                                 \
    }
#define DEF_RED_ARITH(N, T, IS_INT)                                                                \
    DEF_RED(N, T, sum, R_SUM, IS_INT)                                                              \
    DEF_RED(N, T, prod, R_PROD, IS_INT)                                                            \
    DEF_RED(N, T, min, R_MIN, IS_INT) DEF_RED(N, T, max, R_MAX, IS_INT)
#define DEF_RED_INT(N, T)                                                                          \
    DEF_RED_ARITH(N, T, 1)                                                                         \
    DEF_RED(N, T, and, R_AND, 1) DEF_RED(N, T, or, R_OR, 1) DEF_RED(N, T, xor, R_XOR, 1)
SHMEM_REDUCE_INT_TYPES(DEF_RED_INT)
DEF_RED_ARITH(float, float, 0)
DEF_RED_ARITH(double, double, 0)
