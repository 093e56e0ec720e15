/* SPDX-License-Identifier: Apache-2.0 */
/* t_rma: the RMA driver (driver/skif_rma.h) end to end through skifrun, on
 * 2 or more nodes. Every node opens a window over a buffer of its host
 * memory. Node 0 (rank 0) puts data of many sizes 1..2048 at many byte
 * alignments into node 1's window and gets them back, against a reference
 * copy of node 1's buffer kept here; fills its TX ring with puts until
 * -EAGAIN; every node fetch-adds 1 on one 64-bit word of node 1 (exact
 * final value, every old value seen once); 32- and 64-bit SWAP, CSWAP,
 * FETCH, ADD, FADD with their old values; refused requests (a put outside
 * every window, one crossing a window's end, a get from a window without
 * read permission): counted as errors at node 0 with the target node and
 * address named, counted as refused at node 1, node 1's memory unchanged;
 * bad arguments refused by the driver with nothing posted; node 1
 * fetch-adds 1 on a word of its own 200 times at once while every other
 * node fetch-adds it 50 times (requests to itself go to its engine
 * directly: exact final value, every old value seen once). Node 0 prints
 * latencies (cycles) of put 8 B + quiet, get 8 B, fetch-add 64.
 * Nodes synchronise by messages on channel 0. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "skif_dev.h"
#include "skif_rma.h"
#include "t_check.h"

/* The buffer every node opens (offsets in it) */
#define BUF_SIZE 0x8000u
#define OFF_T 0x0000u /* put target area (node 1), 8 KiB */
#define T_SIZE 0x2000u
#define OFF_G 0x2000u     /* get results (node 0), 0x2000..0x4800 */
#define OFF_A 0x5000u     /* atomic words (node 1): shared fetch-add word */
#define OFF_A32 0x5008u   /* two 32-bit words */
#define OFF_A64 0x5010u   /* one 64-bit word */
#define OFF_A2 0x5018u    /* the self phase's word (node 1) */
#define OFF_R 0x5100u     /* old values, 8 bytes each (every node) */
#define WIN0_SIZE 0x6000u /* window 0: [0, 0x6000) R|W|A */
#define OFF_WO 0x6000u    /* window 1: [0x6000, 0x7000) W only */
#define OFF_OUT 0x7000u   /* [0x7000, 0x8000): in no window */
#define FA_PER_NODE 16
#define SELF_FA 200    /* node 1's fetch-adds on its own word */
#define OTHER_FA 50    /* each other node's on the same word */
#define OFF_RS 0x5200u /* their old values, 8 bytes each (0x5200..0x5840) */

static struct skif_dev *dev;
static struct skif_rma *rma;
static struct skif_chan *ch;
static int rank, size;
static uint8_t *buf;          /* this node's buffer */
static uint64_t bus;          /* its adapter address */
static uint8_t ref[BUF_SIZE]; /* node 0: node 1's buffer as it must be */

static uint8_t init_byte(uint32_t k)
{
    return (uint8_t)(k * 37u + 11u);
}
static uint8_t data_byte(uint32_t i, uint32_t salt)
{
    uint32_t h = (i + 1u) * 0x9E3779B1u ^ salt * 0x85EBCA6Bu;
    return (uint8_t)(h >> 16 ^ h);
}

static uint32_t node_of(int r)
{
    uint32_t n;
    ASSERT_EQ(skif_dev_rank_node(dev, r, &n), 0);
    return n;
}

/* ------------------------------------------------------------ barrier */
static void send_phase(int to, uint32_t phase)
{
    struct iovec iov = {&phase, 4};
    int rc;
    while ((rc = skif_tx_post(dev, node_of(to) << SKIF_NA_NODE_LO, &iov, 1, 4)) == -EAGAIN)
        ASSERT_TRUE(skif_dev_wait(dev, 1000) >= 0);
    ASSERT_EQ(rc, 0);
}
static void recv_phase(uint32_t phase)
{
    struct skif_rx_msg m;
    int rc;
    while ((rc = skif_rx_next(ch, &m)) == 0)
        ASSERT_TRUE(skif_dev_wait(dev, 0) >= 0);
    ASSERT_EQ(rc, 1);
    ASSERT_EQ(m.len, 4);
    uint32_t got;
    memcpy(&got, m.part[0].iov_base, 4);
    ASSERT_EQ(got, phase);
    ASSERT_EQ(skif_rx_complete(ch), 0);
}
static void barrier(uint32_t phase)
{
    if (rank == 0) {
        for (int i = 1; i < size; i++)
            recv_phase(phase);
        for (int i = 1; i < size; i++)
            send_phase(i, phase);
    } else {
        send_phase(0, phase);
        recv_phase(phase);
    }
}

/* ------------------------------------------------------------ requests */
static uint64_t here(uint32_t off)
{
    return bus + off;
}
static void quiet_ok(void)
{
    ASSERT_EQ(skif_rma_quiet(rma, 2000000), 0);
    ASSERT_EQ(skif_rma_pending(rma), 0);
}
static void put(uint32_t node, uint32_t off, const void *src, size_t len)
{
    int rc;
    while ((rc = skif_rma_put(rma, node, bus + off, src, len)) == -EAGAIN)
        ASSERT_TRUE(skif_dev_wait(dev, 200) >= 0);
    ASSERT_EQ(rc, 0);
}
static void get(uint32_t node, uint32_t loff, uint32_t roff, size_t len)
{
    int rc;
    while ((rc = skif_rma_get(rma, node, here(loff), bus + roff, len)) == -EAGAIN)
        ASSERT_TRUE(skif_dev_wait(dev, 200) >= 0);
    ASSERT_EQ(rc, 0);
}
static void atomic(uint32_t node, unsigned op, unsigned w, uint32_t roff, uint64_t opnd,
                   uint64_t cmp, uint32_t loff)
{
    int rc;
    while ((rc = skif_rma_atomic(rma, node, op, w, bus + roff, opnd, cmp, here(loff))) == -EAGAIN)
        ASSERT_TRUE(skif_dev_wait(dev, 200) >= 0);
    ASSERT_EQ(rc, 0);
}
static uint64_t rd64(uint32_t off)
{
    uint64_t v;
    memcpy(&v, buf + off, 8);
    return v;
}
static uint32_t rd32(uint32_t off)
{
    uint32_t v;
    memcpy(&v, buf + off, 4);
    return v;
}

/* Get [roff, roff + len) of node n into G at goff (sentinels around) and
 * compare with the reference. */
static void get_check(uint32_t n, uint32_t roff, size_t len, uint32_t goff)
{
    memset(buf + OFF_G + goff - 8, 0xEE, len + 16);
    get(n, OFF_G + goff, roff, len);
    quiet_ok();
    for (size_t i = 0; i < len; i++)
        if (buf[OFF_G + goff + i] != ref[roff + i]) {
            fprintf(stderr,
                    "t_rma: node 0: get %zu B at 0x%x (into +%u): byte %zu is 0x%02x, "
                    "expected 0x%02x\n",
                    len, roff, goff, i, buf[OFF_G + goff + i], ref[roff + i]);
            ASSERT_TRUE(0);
        }
    for (int i = 1; i <= 8; i++) {
        ASSERT_EQ(buf[OFF_G + goff - i], 0xEE);
        ASSERT_EQ(buf[OFF_G + goff + len + (size_t)i - 1], 0xEE);
    }
}

static uint8_t src_mem[SKIF_MAX_MSG + 16];

/* put len bytes of data(salt) from src_mem + sa at roff, into the reference */
static void put_ref(uint32_t n, uint32_t roff, size_t len, uint32_t salt, unsigned sa)
{
    for (size_t i = 0; i < len; i++)
        src_mem[sa + i] = data_byte((uint32_t)i, salt);
    put(n, roff, src_mem + sa, len);
    memcpy(ref + roff, src_mem + sa, len);
}

/* ------------------------------------------------------------ phases */
static void put_get_sweep(uint32_t n1)
{
    int iters = 0;
    /* one at a time: put, get it back */
    for (uint32_t len = 1; len <= SKIF_MAX_MSG; len = len < 64 ? len + 1 : len + 37 + len / 8) {
        uint32_t roff = (len * 131u + (uint32_t)iters * 7u) % (T_SIZE - len);
        put_ref(n1, roff, len, len, len % 8);
        get_check(n1, roff, len, 8 + (len * 5u) % 8);
        iters++;
    }
    for (uint32_t len = SKIF_MAX_MSG - 9; len <= SKIF_MAX_MSG; len++, iters++) {
        uint32_t roff = T_SIZE - len - (len % 8);
        put_ref(n1, roff, len, len + 7, (len * 3) % 8);
        get_check(n1, roff, len, 8 + len % 8);
    }
    /* many in flight: overlapping puts of random sizes, then the whole area back */
    uint32_t x = 12345;
    for (int i = 0; i < 200; i++) {
        x = x * 1103515245u + 12345u;
        uint32_t len = 1 + (x >> 8) % (i % 4 == 0 ? SKIF_MAX_MSG : 64);
        x = x * 1103515245u + 12345u;
        uint32_t roff = (x >> 8) % (T_SIZE - len + 1);
        put_ref(n1, roff, len, 1000u + (uint32_t)i, (x >> 3) % 8);
    }
    quiet_ok();
    for (uint32_t o = 0; o < T_SIZE; o += SKIF_MAX_MSG)
        get_check(n1, o, SKIF_MAX_MSG, 8 + o / SKIF_MAX_MSG);
    /* gets in flight at once, each into its own place */
    for (int i = 0; i < 8; i++)
        get(n1, OFF_G + 8 + 300u * (uint32_t)i + (uint32_t)i, 1000u * (uint32_t)i + 3, 299);
    quiet_ok();
    for (int i = 0; i < 8; i++)
        ASSERT_EQ(memcmp(buf + OFF_G + 8 + 300 * i + i, ref + 1000 * i + 3, 299), 0);
    /* fill the TX ring: puts are written there until -EAGAIN, nothing sent
     * before this program blocks */
    int posted = 0, rc;
    for (;;) {
        for (uint32_t i = 0; i < SKIF_MAX_MSG; i++)
            src_mem[i] = data_byte(i, 5000u + (uint32_t)posted);
        uint32_t roff = (uint32_t)posted * 64u + 1;
        rc = skif_rma_put(rma, n1, bus + roff, src_mem, SKIF_MAX_MSG);
        if (rc == -EAGAIN)
            break;
        ASSERT_EQ(rc, 0);
        memcpy(ref + roff, src_mem, SKIF_MAX_MSG);
        posted++;
    }
    printf("t_rma: node 0: %d puts of 2048 B filled the TX ring (-EAGAIN)\n", posted);
    ASSERT_TRUE(posted >= 16 && posted <= 31);
    quiet_ok();
    for (uint32_t o = 0; o < T_SIZE; o += SKIF_MAX_MSG)
        get_check(n1, o, SKIF_MAX_MSG, 8);
    struct skif_rma_counts c;
    skif_rma_counters(rma, &c);
    ASSERT_EQ(c.errs, 0);
    ASSERT_EQ(c.atoms, 0);
    ASSERT_EQ(c.puts + c.gets, skif_rma_issued(rma));
    printf("t_rma: node 0: %d puts and gets of 1..2048 B one by one, 200 puts in flight, "
           "%d puts filling the ring: node 1's memory as the reference (%u puts, %u gets)\n",
           iters, posted, c.puts, c.gets);
}

static void atomics_32_64(uint32_t n1)
{
    /* the words' start values by put (the reference says what is there) */
    uint64_t init[3] = {0, 0x2222222211111111ull, 0x0123456789abcdefull};
    put(n1, OFF_A32, &init[1], 16);
    quiet_ok();
    memset(buf + OFF_R, 0xEE, 16 * 8);
    /* 32-bit: CSWAP that succeeds, one that fails, SWAP and FETCH of the other half */
    atomic(n1, SKIF_RMA_OP_CSWAP, 4, OFF_A32, 0xAAAAAAAAu, 0x11111111u, OFF_R + 0);
    atomic(n1, SKIF_RMA_OP_CSWAP, 4, OFF_A32, 0xBBBBBBBBu, 0x11111111u, OFF_R + 8);
    atomic(n1, SKIF_RMA_OP_SWAP, 4, OFF_A32 + 4, 0xCCCCCCCCu, 0, OFF_R + 16);
    atomic(n1, SKIF_RMA_OP_FETCH, 4, OFF_A32 + 4, 0, 0, OFF_R + 24);
    atomic(n1, SKIF_RMA_OP_FADD, 4, OFF_A32 + 4, 0x40000000u, 0, OFF_R + 32);
    /* 64-bit: SWAP, CSWAP fail and success, ADD (no value), FADD, FETCH */
    atomic(n1, SKIF_RMA_OP_SWAP, 8, OFF_A64, 0x1000000000000001ull, 0, OFF_R + 40);
    atomic(n1, SKIF_RMA_OP_CSWAP, 8, OFF_A64, 7, 0x1000000000000002ull, OFF_R + 48);
    atomic(n1, SKIF_RMA_OP_CSWAP, 8, OFF_A64, 0xF0000000FFFFFFFEull, 0x1000000000000001ull,
           OFF_R + 56);
    atomic(n1, SKIF_RMA_OP_ADD, 8, OFF_A64, 3, 0, OFF_R + 64); /* writes nothing here */
    atomic(n1, SKIF_RMA_OP_FADD, 8, OFF_A64, 5, 0, OFF_R + 72);
    atomic(n1, SKIF_RMA_OP_FETCH, 8, OFF_A64, 0, 0, OFF_R + 80);
    quiet_ok();
    ASSERT_EQ(rd32(OFF_R + 0), 0x11111111u);
    ASSERT_EQ(rd32(OFF_R + 4), 0xEEEEEEEEu); /* a 32-bit old value writes 4 bytes */
    ASSERT_EQ(rd32(OFF_R + 8), 0xAAAAAAAAu);
    ASSERT_EQ(rd32(OFF_R + 16), 0x22222222u);
    ASSERT_EQ(rd32(OFF_R + 24), 0xCCCCCCCCu);
    ASSERT_EQ(rd32(OFF_R + 32), 0xCCCCCCCCu);
    ASSERT_EQ(rd64(OFF_R + 40), 0x0123456789abcdefull);
    ASSERT_EQ(rd64(OFF_R + 48), 0x1000000000000001ull);
    ASSERT_EQ(rd64(OFF_R + 56), 0x1000000000000001ull);
    ASSERT_EQ(rd64(OFF_R + 64), 0xEEEEEEEEEEEEEEEEull);
    ASSERT_EQ(rd64(OFF_R + 72), 0xF000000100000001ull);
    ASSERT_EQ(rd64(OFF_R + 80), 0xF000000100000006ull);
    /* node 1's words now */
    uint32_t w32[2] = {0xAAAAAAAAu, 0x0CCCCCCCu};
    memcpy(ref + OFF_A32, w32, 8);
    uint64_t w64 = 0xF000000100000006ull;
    memcpy(ref + OFF_A64, &w64, 8);
    get_check(n1, OFF_A32, 16, 8);
    struct skif_rma_counts c;
    skif_rma_counters(rma, &c);
    printf("t_rma: node 0: 32/64-bit CSWAP, SWAP, FETCH, FADD, ADD: old values and memory right "
           "(%u atomics returned)\n",
           c.atoms);
}

/* A request that node 1 refuses: quiet says -EIO, the error names it. */
static void refused(uint32_t n1, unsigned kind, uint32_t roff, size_t len)
{
    uint32_t errs0 = 0;
    struct skif_rma_counts c;
    skif_rma_counters(rma, &c);
    errs0 = c.errs;
    if (kind == SKIF_KIND_RMA_PUT) {
        memset(src_mem, 0x5A, len);
        ASSERT_EQ(skif_rma_put(rma, n1, bus + roff, src_mem, len), 0);
    } else {
        memset(buf + OFF_G, 0xEE, len + 16);
        ASSERT_EQ(skif_rma_get(rma, n1, here(OFF_G + 8), bus + roff, len), 0);
    }
    ASSERT_EQ(skif_rma_quiet(rma, 2000000), -EIO);
    ASSERT_EQ(skif_rma_quiet(rma, 2000000), 0); /* reported once */
    skif_rma_counters(rma, &c);
    ASSERT_EQ(c.errs, errs0 + 1);
    struct skif_rma_error e;
    ASSERT_EQ(skif_rma_last_error(rma, &e), 0);
    ASSERT_EQ(e.count, errs0 + 1);
    ASSERT_EQ(e.code, SKIF_RMA_ERR_WIN);
    ASSERT_EQ(e.answer, SKIF_KIND_RMA_ACK);
    ASSERT_EQ(e.node, n1);
    ASSERT_EQ(e.kind, kind);
    ASSERT_EQ(e.raddr, bus + roff);
    ASSERT_EQ(e.len, len);
    printf("t_rma: node 0: %s of %zu B at 0x%llx of node %u refused: error %u (code %u) names "
           "node %u, address 0x%llx\n",
           kind == SKIF_KIND_RMA_PUT ? "put" : "get", len, (unsigned long long)(bus + roff), n1,
           e.count, e.code, e.node, (unsigned long long)e.raddr);
    if (kind == SKIF_KIND_RMA_GET)
        for (size_t i = 0; i < len + 16; i++)
            ASSERT_EQ(buf[OFF_G + i], 0xEE); /* nothing written here */
}

/* Answers this node refuses: a get whose data, an atomic whose old value,
 * would land outside every window here. Node 1 performs them; node 0
 * counts an error, writes nothing, and names the local address. */
static void refused_here(uint32_t n1)
{
    struct skif_rma_counts c0, c;
    struct skif_rma_error e;
    skif_rma_counters(rma, &c0);
    get(n1, OFF_OUT + 5, OFF_T, 300);
    ASSERT_EQ(skif_rma_quiet(rma, 2000000), -EIO);
    ASSERT_EQ(skif_rma_last_error(rma, &e), 0);
    ASSERT_EQ(e.answer, SKIF_KIND_RMA_GET_RESP);
    ASSERT_EQ(e.code, SKIF_RMA_ERR_WIN);
    ASSERT_EQ(e.node, n1);
    ASSERT_EQ(e.kind, SKIF_KIND_RMA_GET);
    ASSERT_EQ(e.laddr, here(OFF_OUT + 5));
    ASSERT_EQ(e.raddr, bus + OFF_T);
    atomic(n1, SKIF_RMA_OP_FETCH, 8, OFF_A64, 0, 0, OFF_OUT + 8);
    ASSERT_EQ(skif_rma_quiet(rma, 2000000), -EIO);
    ASSERT_EQ(skif_rma_last_error(rma, &e), 0);
    ASSERT_EQ(e.answer, SKIF_KIND_RMA_ACK);
    ASSERT_EQ(e.code, SKIF_RMA_ERR_WIN);
    ASSERT_EQ(e.kind, SKIF_KIND_RMA_ATOMIC);
    ASSERT_EQ(e.op, SKIF_RMA_OP_FETCH);
    ASSERT_EQ(e.laddr, here(OFF_OUT + 8));
    for (uint32_t k = OFF_OUT; k < BUF_SIZE; k++)
        ASSERT_EQ(buf[k], init_byte(k));
    skif_rma_counters(rma, &c);
    ASSERT_EQ(c.errs, c0.errs + 2);
    ASSERT_EQ(c.gets, c0.gets);
    ASSERT_EQ(c.atoms, c0.atoms);
    printf("t_rma: node 0: a get's data and an atomic's old value outside every window here: "
           "refused here (errors %u), local address named, nothing written\n",
           c.errs);
}

static void bad_inputs(uint32_t n1)
{
    struct skif_txq *q = skif_dev_txq(dev);
    uint32_t tail = q->tail, issued = skif_rma_issued(rma);
    uint64_t r = bus + OFF_T;
    ASSERT_EQ(skif_rma_put(rma, n1, r, src_mem, 0), -EINVAL);
    ASSERT_EQ(skif_rma_put(rma, n1, r, src_mem, SKIF_MAX_MSG + 1), -EINVAL);
    ASSERT_EQ(skif_rma_put(rma, n1, r, NULL, 8), -EINVAL);
    ASSERT_EQ(skif_rma_get(rma, n1, here(OFF_G), r, 0), -EINVAL);
    ASSERT_EQ(skif_rma_get(rma, n1, here(OFF_G), r, SKIF_MAX_MSG + 1), -EINVAL);
    ASSERT_EQ(skif_rma_atomic(rma, n1, SKIF_RMA_OP_FADD, 2, r, 1, 0, here(OFF_R)), -EINVAL);
    ASSERT_EQ(skif_rma_atomic(rma, n1, SKIF_RMA_OP_FADD, 16, r, 1, 0, here(OFF_R)), -EINVAL);
    ASSERT_EQ(skif_rma_atomic(rma, n1, 5, 8, r, 1, 0, here(OFF_R)), -EINVAL);
    ASSERT_EQ(skif_rma_atomic(rma, n1, 15, 4, r, 1, 0, here(OFF_R)), -EINVAL);
    ASSERT_EQ(skif_rma_atomic(rma, n1, SKIF_RMA_OP_SWAP, 8, r + 4, 1, 0, here(OFF_R)), -EINVAL);
    ASSERT_EQ(skif_rma_atomic(rma, n1, SKIF_RMA_OP_SWAP, 4, r + 2, 1, 0, here(OFF_R)), -EINVAL);
    ASSERT_EQ(skif_rma_atomic(rma, n1, SKIF_RMA_OP_SWAP, 8, r, 1, 0, here(OFF_R + 4)), -EINVAL);
    /* no such node: a node id outside the torus, one beyond 16 bits */
    ASSERT_EQ(skif_rma_put(rma, 0x0F0Fu, r, src_mem, 8), -EHOSTUNREACH);
    ASSERT_EQ(skif_rma_get(rma, 0x10000u + n1, here(OFF_G), r, 8), -EHOSTUNREACH);
    ASSERT_EQ(skif_rma_atomic(rma, 0xFFFFu, SKIF_RMA_OP_FADD, 8, r, 1, 0, here(OFF_R)),
              -EHOSTUNREACH);
    /* windows */
    ASSERT_EQ(skif_rma_win_set(rma, (unsigned)skif_rma_windows(rma), bus, 64, 7), -EINVAL);
    ASSERT_EQ(skif_rma_win_set(rma, 2, bus + 4, 64, 7), -EINVAL);
    ASSERT_EQ(skif_rma_win_set(rma, 2, bus, 60, 7), -EINVAL);
    ASSERT_EQ(skif_rma_win_set(rma, 2, bus, 64, 8), -EINVAL);
    uint64_t a;
    struct skif_dma m = {buf, bus, BUF_SIZE};
    ASSERT_EQ(skif_rma_addr(&m, buf + BUF_SIZE + 1, &a), -EINVAL);
    ASSERT_EQ(skif_rma_addr(&m, buf - 1, &a), -EINVAL);
    ASSERT_EQ(skif_rma_addr(&m, buf + 77, &a), 0);
    ASSERT_EQ(a, bus + 77);
    /* nothing posted */
    ASSERT_EQ(q->tail, tail);
    ASSERT_EQ(skif_rma_issued(rma), issued);
    ASSERT_EQ(skif_rma_quiet(rma, 100000), 0);
    printf("t_rma: node 0: bad length, op, width, alignment, node, window: refused by the driver, "
           "nothing posted\n");
}

static uint64_t lat(int kind, uint32_t n1)
{
    uint64_t best = ~0ull, sum = 0;
    uint64_t v = 1;
    const int reps = 20;
    for (int i = 0; i < reps; i++) {
        ASSERT_TRUE(skif_dev_wait(dev, 50) >= 0); /* let the status block settle */
        uint64_t t0 = skif_dev_cycle(dev);
        if (kind == 0)
            put(n1, OFF_T + 8, &v, 8);
        else if (kind == 1)
            get(n1, OFF_G + 8, OFF_T + 8, 8);
        else
            atomic(n1, SKIF_RMA_OP_FADD, 8, OFF_A64, 1, 0, OFF_R);
        quiet_ok();
        uint64_t t = skif_dev_cycle(dev) - t0;
        sum += t;
        best = t < best ? t : best;
    }
    (void)best;
    return sum / reps;
}

int main(void)
{
    t_name = "t_rma";
    ASSERT_EQ(skif_dev_open(&dev), 0);
    rank = skif_dev_rank(dev);
    t_rank = rank;
    size = skif_dev_size(dev);
    ASSERT_TRUE(size >= 2);
    ASSERT_EQ(skif_rma_open(dev, &rma), -EINVAL); /* before set-up */
    ASSERT_EQ(skif_dev_setup(dev, 16), 0);
    ASSERT_EQ(skif_chan_open(dev, 0, 12, &ch), 0);
    ASSERT_EQ(skif_rma_open(dev, &rma), 0);
    struct skif_rma *again;
    ASSERT_EQ(skif_rma_open(dev, &again), -EBUSY);
    ASSERT_TRUE(skif_rma_windows(rma) >= 2);

    struct skif_dma m;
    ASSERT_EQ(skif_dma_alloc(dev, BUF_SIZE, 4096, &m), 0);
    buf = m.va;
    ASSERT_EQ(skif_rma_addr(&m, buf, &bus), 0);
    for (uint32_t k = 0; k < BUF_SIZE; k++)
        buf[k] = init_byte(k);
    memset(buf + OFF_A, 0, 32);
    memset(buf + OFF_R, 0, 0x800);
    unsigned perm;
    uint64_t wb, ws;
    ASSERT_EQ(skif_rma_win_set(rma, 0, bus, WIN0_SIZE,
                               SKIF_RMA_PERM_R | SKIF_RMA_PERM_W | SKIF_RMA_PERM_A),
              0);
    ASSERT_EQ(skif_rma_win_set(rma, 1, bus + OFF_WO, 0x1000, SKIF_RMA_PERM_W), 0);
    ASSERT_EQ(skif_rma_win_get(rma, 0, &wb, &ws, &perm), 0);
    ASSERT_EQ(wb, bus);
    ASSERT_EQ(ws, WIN0_SIZE);
    ASSERT_EQ(perm, 7);
    ASSERT_EQ(skif_rma_win_get(rma, 1, &wb, &ws, &perm), 0);
    ASSERT_EQ(wb, bus + OFF_WO);
    ASSERT_EQ(perm, SKIF_RMA_PERM_W);
    barrier(1);

    uint32_t n1 = node_of(1);
    if (rank == 0) {
        for (uint32_t k = 0; k < BUF_SIZE; k++)
            ref[k] = init_byte(k);
        memset(ref + OFF_A, 0, 32);
        memset(ref + OFF_R, 0, 0x800);
        bad_inputs(n1);
        put_get_sweep(n1);
    }
    barrier(2);

    /* every node fetch-adds 1 on node 1's word, all at once (node 1's go
     * to its engine directly: docs/rma.md, "Requests to this node") */
    for (int i = 0; i < FA_PER_NODE; i++)
        atomic(n1, SKIF_RMA_OP_FADD, 8, OFF_A, 1, 0, OFF_R + 8u * (uint32_t)i);
    quiet_ok();
    barrier(3);
    if (rank == 0) {
        /* gather every node's old values; the word's final value */
        static uint8_t seen[64 * FA_PER_NODE];
        uint32_t total = (uint32_t)size * FA_PER_NODE;
        ASSERT_TRUE(total <= sizeof(seen));
        for (int r = 0; r < size; r++) {
            const uint8_t *olds = buf + OFF_R;
            if (r != 0) {
                get(node_of(r), OFF_G, OFF_R, 8 * FA_PER_NODE);
                quiet_ok();
                olds = buf + OFF_G;
            }
            for (int i = 0; i < FA_PER_NODE; i++) {
                uint64_t v;
                memcpy(&v, olds + 8 * i, 8);
                ASSERT_TRUE(v < total);
                ASSERT_EQ(seen[v], 0);
                seen[v] = 1;
            }
        }
        get(n1, OFF_G, OFF_A, 8);
        quiet_ok();
        ASSERT_EQ(rd64(OFF_G), total);
        printf("t_rma: node 0: %d nodes x %d fetch-adds on node %u's word: final %u, every old "
               "value 0..%u once\n",
               size, FA_PER_NODE, n1, total, total - 1);

        atomics_32_64(n1);
        /* refusals: outside every window, across window 0's end, get from a window without R */
        refused(n1, SKIF_KIND_RMA_PUT, OFF_OUT + 3, 100);
        refused(n1, SKIF_KIND_RMA_PUT, WIN0_SIZE - 8, 16);
        refused(n1, SKIF_KIND_RMA_GET, OFF_WO, 64);
        get_check(n1, WIN0_SIZE - 64, 64, 8); /* the window's last bytes unchanged */
        refused_here(n1);

        uint64_t lp = lat(0, n1), lg = lat(1, n1), la = lat(2, n1);
        printf("t_rma: node 0: latency (cycles, mean of 20, post to quiet's return): put 8 B %llu, "
               "get 8 B %llu, fetch-add 64 %llu\n",
               (unsigned long long)lp, (unsigned long long)lg, (unsigned long long)la);
    }
    barrier(4);
    if (rank == 1) {
        /* the refused requests touched nothing; node 1 counted them */
        for (uint32_t k = OFF_WO; k < BUF_SIZE; k++)
            ASSERT_EQ(buf[k], init_byte(k));
        uint32_t served, nref, info;
        ASSERT_EQ(skif_rma_target_info(rma, &served, &nref, &info), 0);
        ASSERT_EQ(nref, 3);
        ASSERT_EQ(info >> 16, node_of(0));                /* src: node 0 */
        ASSERT_EQ((info >> 4) & 0xfu, SKIF_KIND_RMA_GET); /* the last: the get */
        ASSERT_EQ(info & 0xfu, SKIF_RMA_ERR_WIN);
        printf("t_rma: node 1: served %u requests, refused %u (last: kind %u from node %u), "
               "memory outside the windows unchanged\n",
               served, nref, (info >> 4) & 0xfu, info >> 16);
    }
    /* the self phase: node 1 fetch-adds its own word SELF_FA times, all in
     * flight, while every other node fetch-adds it OTHER_FA times */
    int nfa = rank == 1 ? SELF_FA : OTHER_FA;
    for (int i = 0; i < nfa; i++)
        atomic(n1, SKIF_RMA_OP_FADD, 8, OFF_A2, 1, 0, OFF_RS + 8u * (uint32_t)i);
    quiet_ok();
    barrier(5);
    if (rank == 1) {
        static uint8_t seen[SELF_FA + 63 * OTHER_FA];
        uint32_t total = SELF_FA + (uint32_t)(size - 1) * OTHER_FA;
        ASSERT_TRUE(total <= sizeof(seen));
        for (int r = 0; r < size; r++) {
            const uint8_t *olds = buf + OFF_RS;
            if (r != 1) {
                get(node_of(r), OFF_G, OFF_RS, 8 * OTHER_FA);
                quiet_ok();
                olds = buf + OFF_G;
            }
            for (int i = 0; i < (r == 1 ? SELF_FA : OTHER_FA); i++) {
                uint64_t v;
                memcpy(&v, olds + 8 * i, 8);
                ASSERT_TRUE(v < total);
                ASSERT_EQ(seen[v], 0);
                seen[v] = 1;
            }
        }
        ASSERT_EQ(rd64(OFF_A2), total);
        uint32_t served, nref, info;
        ASSERT_EQ(skif_rma_target_info(rma, &served, &nref, &info), 0);
        ASSERT_EQ(nref, 3);
        printf("t_rma: node 1: %d fetch-adds on its own word with %d from each other node: final "
               "%u, every old value 0..%u once\n",
               SELF_FA, OTHER_FA, total, total - 1);
        printf("t_rma: node 1: latency (cycles, mean of 20) of a fetch-add 64 to itself %llu\n",
               (unsigned long long)lat(2, n1));
    }
    struct skif_rma_error e;
    if (rank != 0)
        ASSERT_EQ(skif_rma_last_error(rma, &e), -ENOENT);
    barrier(6);
    skif_rma_close(rma);
    printf("t_rma: node %d: ok\n", rank);
    skif_dev_close(dev);
    return 0;
}
