/* SPDX-License-Identifier: Apache-2.0 */
/* t_coll_hw: the collective subnet through SkifColl's hardware path, against
 * the plain-C reference of t_coll_ref.h: every op and type on random data
 * (vectors split into several reduces) on the whole torus, on a stride tree
 * with transit nodes and on random subgroups; broadcasts from random roots;
 * 40 allreduces posted before any is waited for (more than the 32 reduce ids
 * of a tree); a broadcast and allreduces in flight together; two overlapping trees used at the same
 * time; back-to-back barriers (no member leaves one before the last came); then the adapter's own
 * checks, on table entries written directly: a mismatched reduce ends in an error result at every
 * member and counts in COLL_ERRS; so does a broadcast of more than 64 bytes posted at the root
 * (counted there only: the root refuses it, its payload goes nowhere); a packet that breaks a
 * forwarding check (a down port the root does not list; a leaf whose up port is not where its
 * parent is) is dropped and counted (COLL_DROPS, STATUS.COLL_DROP, ERR_INFO); entries that break
 * the table rules are refused by the adapter. Usage: t_coll_hw [seed] [groups] [barriers];
 * t_coll_hw stall: node 1 never contributes to an allreduce the others wait for (for the watchdog).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll/tree.h"
#include "skif_coll.h"
#include "skif_dev.h"
#include "t_check.h"
#include "t_coll_ref.h"

struct skif_dev *skifch__device(void);

/* Every operation on tree t (members mem[0..n)), case numbers from *c. */
static void run_tree(SkifCollTree *t, const int *mem, int n, int *c)
{
    static const size_t counts[] = {0, 1, 16, 17, 40};
    uint64_t rs = g_seed + (uint64_t)*c;
    for (int type = 0; type < 4; type++)
        for (int op = 0; op < 3; op++)
            for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
                size_t count = counts[k], bytes = count * SkifColl_TypeSize(type);
                uint8_t *send = malloc(bytes + 8), *recv = malloc(bytes + 8);
                int target = mem[SkifChU_Rand(&rs) % (uint64_t)n];
                int all = (int)(SkifChU_Rand(&rs) % 2);
                SkifCollReq *req;
                (*c)++;
                fill(send, *c, t_rank, count, type);
                memset(recv, 0xA5, bytes + 8);
                if (all) {
                    ASSERT_EQ(SkifColl_Allreduce(t, send, recv, count, type, op, &req), 0);
                    ASSERT_EQ(SkifColl_Wait(req), 0);
                    check_vec(recv, *c, mem, n, count, type, op);
                } else {
                    ASSERT_EQ(SkifColl_Reduce(t, target, send, recv, count, type, op, &req), 0);
                    ASSERT_EQ(SkifColl_Wait(req), 0);
                    if (t_rank == target)
                        check_vec(recv, *c, mem, n, count, type, op);
                    else
                        for (size_t i = 0; i < bytes; i++)
                            ASSERT_EQ(recv[i], 0xA5); /* only the target gets it */
                }
                ASSERT_EQ(recv[bytes], 0xA5); /* nothing written beyond */
                free(send);
                free(recv);
            }
    static const size_t lens[] = {0, 8, 497, 5000};
    for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
        int root = mem[SkifChU_Rand(&rs) % (uint64_t)n];
        size_t len = lens[k];
        uint8_t *buf = malloc(len + 1), *want = malloc(len + 1);
        SkifCollReq *req;
        (*c)++;
        if (t_rank == root)
            fill(buf, *c, root, len / 4, SKIFCOLL_U32);
        else
            memset(buf, 0, len);
        buf[len] = 0x5A;
        ASSERT_EQ(SkifColl_Bcast(t, root, buf, len, &req), 0);
        ASSERT_EQ(SkifColl_Wait(req), 0);
        fill(want, *c, root, len / 4, SKIFCOLL_U32);
        ASSERT_EQ(memcmp(buf, want, len / 4 * 4), 0);
        ASSERT_EQ(buf[len], 0x5A);
        g_checks++;
        free(buf);
        free(want);
    }
}

/* 40 allreduces of one u64 posted before the first wait, then waited for in
 * order: more than the 32 reduce ids of a tree, so the library waits for
 * the oldest while posting. */
static void many_in_flight(SkifCollTree *t, const int *mem, int n, int *c)
{
    enum { K = 40 };
    uint64_t send[K], recv[K];
    SkifCollReq *req[K];
    int c0 = *c;
    for (int k = 0; k < K; k++) {
        fill(&send[k], c0 + k, t_rank, 1, SKIFCOLL_U64);
        ASSERT_EQ(SkifColl_Allreduce(t, &send[k], &recv[k], 1, SKIFCOLL_U64, SKIFCOLL_SUM, &req[k]),
                  0);
    }
    for (int k = 0; k < K; k++) {
        ASSERT_EQ(SkifColl_Wait(req[k]), 0);
        check_vec(&recv[k], c0 + k, mem, n, 1, SKIFCOLL_U64, SKIFCOLL_SUM);
    }
    *c += K;
}

/* A broadcast of 20000 bytes from the tree's root and K allreduces posted
 * before either is waited for: at the root the reduces go by the TX ring
 * while the broadcast streams (a PIO write held behind it would hold the
 * program's ring-head writes, docs/collectives.md), elsewhere by PIO; every
 * result checked. */
static void bcast_then_reduces(SkifCollTree *t, const int *mem, int n, int *c)
{
    enum { K = 6, LEN = 20000 };
    int root = SkifColl_Root(t), c0 = *c;
    uint8_t *buf = malloc(LEN), *want = malloc(LEN);
    uint64_t send[K], recv[K];
    SkifCollReq *qb, *q[K];
    if (t_rank == root)
        fill(buf, c0, root, LEN / 4, SKIFCOLL_U32);
    else
        memset(buf, 0, LEN);
    ASSERT_EQ(SkifColl_Bcast(t, root, buf, LEN, &qb), 0);
    for (int k = 0; k < K; k++) {
        fill(&send[k], c0 + 1 + k, t_rank, 1, SKIFCOLL_U64);
        ASSERT_EQ(SkifColl_Allreduce(t, &send[k], &recv[k], 1, SKIFCOLL_U64, SKIFCOLL_SUM, &q[k]),
                  0);
    }
    for (int k = K - 1; k >= 0; k--) { /* the newest first */
        ASSERT_EQ(SkifColl_Wait(q[k]), 0);
        check_vec(&recv[k], c0 + 1 + k, mem, n, 1, SKIFCOLL_U64, SKIFCOLL_SUM);
    }
    ASSERT_EQ(SkifColl_Wait(qb), 0);
    fill(want, c0, root, LEN / 4, SKIFCOLL_U32);
    ASSERT_EQ(memcmp(buf, want, LEN), 0);
    g_checks++;
    free(buf);
    free(want);
    *c += 1 + K;
}

/* Two trees at once: allreduces alternately on a and (members of b only) b,
 * all posted, then waited for. */
static void overlapping(SkifCollTree *a, const int *ma, int na, SkifCollTree *b, const int *mb,
                        int nb, int *c)
{
    enum { K = 12 };
    uint32_t sa[K][4], ra[K][4], sb[K][4], rb[K][4];
    SkifCollReq *qa[K], *qb[K];
    int inb = SkifColl_IsMember(b), c0 = *c;
    for (int k = 0; k < K; k++) {
        fill(sa[k], c0 + k, t_rank, 4, SKIFCOLL_S32);
        ASSERT_EQ(SkifColl_Allreduce(a, sa[k], ra[k], 4, SKIFCOLL_S32, SKIFCOLL_MIN, &qa[k]), 0);
        if (inb) {
            fill(sb[k], c0 + K + k, t_rank, 4, SKIFCOLL_U32);
            ASSERT_EQ(SkifColl_Allreduce(b, sb[k], rb[k], 4, SKIFCOLL_U32, SKIFCOLL_MAX, &qb[k]),
                      0);
        }
    }
    for (int k = 0; k < K; k++) {
        ASSERT_EQ(SkifColl_Wait(qa[k]), 0);
        check_vec(ra[k], c0 + k, ma, na, 4, SKIFCOLL_S32, SKIFCOLL_MIN);
        if (inb) {
            ASSERT_EQ(SkifColl_Wait(qb[k]), 0);
            check_vec(rb[k], c0 + K + k, mb, nb, 4, SKIFCOLL_U32, SKIFCOLL_MAX);
        }
    }
    *c += 2 * K;
}

static void barriers(SkifCollTree *t, long nbar)
{
    SkifCh *ch = SkifColl_Channel();
    SkifCollReq *req;
    for (long b = 0; b < nbar; b++) {
        ASSERT_EQ(SkifColl_Barrier(t, &req), 0);
        ASSERT_EQ(SkifColl_Wait(req), 0);
    }
    /* members enter at different times; none leaves before the last came */
    for (int b = 0; b < 3; b++) {
        SkifCh_Wait(ch, 50 + (uint64_t)((t_rank * 37 + b * 11) % 7) * 200);
        uint64_t in = SkifCh_Cycle(ch), last;
        ASSERT_EQ(SkifColl_Barrier(t, &req), 0);
        ASSERT_EQ(SkifColl_Wait(req), 0);
        uint64_t out = SkifCh_Cycle(ch);
        ASSERT_EQ(SkifColl_Allreduce(t, &in, &last, 1, SKIFCOLL_U64, SKIFCOLL_MAX, &req), 0);
        ASSERT_EQ(SkifColl_Wait(req), 0);
        ASSERT_TRUE(out >= last);
        g_checks++;
    }
}

/* The next entry of tree `tree` in the raw result channel (entries of other
 * trees are skipped), waiting up to `cycles`: 1, or 0 when none came. */
static int take_raw(struct skif_dev *dev, struct skif_chan *ch, unsigned tree,
                    struct skif_coll_result *r, void *buf, size_t cap, uint64_t cycles)
{
    uint64_t until = skif_dev_cycle(dev) + cycles;
    for (;;) {
        int rc = skif_coll_take(ch, r, buf, cap);
        ASSERT_TRUE(rc >= 0);
        if (rc == 1 && r->tree == tree)
            return 1;
        if (rc == 1)
            continue;
        if (skif_dev_cycle(dev) >= until)
            return 0;
        ASSERT_TRUE(skif_dev_wait(dev, 256) >= 0);
    }
}

static void post_raw(struct skif_dev *dev, const struct skif_coll_op *o, const void *buf)
{
    int rc;
    while ((rc = skif_coll_post(dev, o, buf)) == -EAGAIN)
        ASSERT_TRUE(skif_dev_wait(dev, 64) >= 0);
    ASSERT_EQ(rc, 0);
}

static uint32_t reg(struct skif_dev *dev, uint32_t off)
{
    uint32_t v = 0;
    ASSERT_EQ(skif_reg_read(dev, off, &v), 0);
    return v;
}

/* The COLL_PIO window (docs/collectives.md, "Posting an operation by
 * programmed I/O") on tree `tree` (every node a member): a 64-byte allreduce
 * posted there directly against the reference, with no TX ring entry; the
 * library's allreduce takes the path SKIFCOLL_INJECT chose (TX_HEAD moves
 * only on the ring); a bad op launched by PIO at every member ends in an
 * error result everywhere, counted in COLL_ERRS with STATUS.COLL_ERR, as on
 * the TX ring; a descriptor the window refuses (kind 0, longer than
 * SKIF_MAX_MSG) is an error response (REG_ERR, ERR_INFO = COLL_PIO_HI) and
 * launches nothing. */
/* COLL_ERRS has grown since errs0 at one node of the torus at least: each
 * node gives its count to an allreduce. */
static void errs_counted_somewhere(struct skif_dev *dev, uint32_t errs0)
{
    uint64_t mine = reg(dev, SKIF_REG_COLL_ERRS) - errs0, total = 0;
    SkifCollReq *req;
    ASSERT_EQ(SkifColl_Allreduce(SkifColl_Stride(0, 0), &mine, &total, 1, SKIFCOLL_U64,
                                 SKIFCOLL_SUM, &req),
              0);
    ASSERT_EQ(SkifColl_Wait(req), 0);
    ASSERT_TRUE(total >= 1);
    g_checks++;
}

static void pio_checks(struct skif_dev *dev, struct skif_chan *ch, unsigned tree)
{
    SkifCollReq *req;
    struct skif_coll_result r;
    uint64_t v[8], data[8];
    uint64_t n = (uint64_t)g_size;
    for (int i = 0; i < 8; i++)
        v[i] = (uint64_t)(t_rank + 1) * (uint64_t)(i + 1) + ((uint64_t)i << 40);
    uint32_t head0 = reg(dev, SKIF_REG_TX_HEAD), sent0 = reg(dev, SKIF_REG_COLL_SENT);
    struct skif_coll_op o = {
        SKIF_COLL_CMD_ALLREDUCE, SKIF_COLL_TYPE_U64, SKIF_COLL_OP_SUM, 9, tree, 0, 64};
    ASSERT_EQ(skif_coll_post_pio(dev, &o, v), 0);
    ASSERT_EQ(take_raw(dev, ch, tree, &r, data, sizeof(data), 20000), 1);
    ASSERT_EQ(r.err, 0);
    ASSERT_EQ(r.len, 64);
    ASSERT_EQ(r.rid, 9);
    for (int i = 0; i < 8; i++)
        ASSERT_EQ(data[i], (uint64_t)(i + 1) * n * (n + 1) / 2 + n * ((uint64_t)i << 40));
    ASSERT_EQ(reg(dev, SKIF_REG_TX_HEAD), head0); /* no TX ring entry */
    ASSERT_EQ(reg(dev, SKIF_REG_COLL_SENT), sent0 + 1);
    g_checks++;

    /* the library's path */
    uint64_t x = (uint64_t)t_rank, y = 0;
    ASSERT_EQ(
        SkifColl_Allreduce(SkifColl_Stride(0, 0), &x, &y, 1, SKIFCOLL_U64, SKIFCOLL_MAX, &req), 0);
    ASSERT_EQ(SkifColl_Wait(req), 0);
    ASSERT_EQ(y, n - 1);
    ASSERT_EQ(reg(dev, SKIF_REG_TX_HEAD), SkifColl_Pio() ? head0 : head0 + 16);
    g_checks++;

    /* a bad op by PIO: the TX ring's handling (an error result, COLL_ERRS) */
    ASSERT_EQ(skif_reg_write(dev, SKIF_REG_STATUS, SKIF_STATUS_COLL_ERR), 0);
    uint32_t errs0 = reg(dev, SKIF_REG_COLL_ERRS);
    ASSERT_EQ(SkifColl_Barrier(SkifColl_Stride(0, 0), &req), 0);
    ASSERT_EQ(SkifColl_Wait(req), 0);
    o.op = 3;
    o.rid = 10;
    o.len = 8;
    ASSERT_EQ(skif_coll_post_pio(dev, &o, v), -EINVAL); /* the driver refuses it */
    ASSERT_EQ(skif_coll_pio_write(dev, skif_coll_desc(&o), v, 8), 0);
    ASSERT_EQ(take_raw(dev, ch, tree, &r, data, sizeof(data), 20000), 1);
    ASSERT_EQ(r.err, 1);
    ASSERT_EQ(r.len, 0);
    ASSERT_EQ(r.rid, 10);
    if (reg(dev, SKIF_REG_COLL_ERRS) != errs0)
        ASSERT_TRUE(reg(dev, SKIF_REG_STATUS) & SKIF_STATUS_COLL_ERR);
    errs_counted_somewhere(dev, errs0);

    /* descriptors the window refuses: nothing launched */
    sent0 = reg(dev, SKIF_REG_COLL_SENT);
    o.op = SKIF_COLL_OP_SUM;
    const uint64_t refused[] = {skif_coll_desc(&o) & ~(0xfull << SKIF_CDESC_KIND_LO),
                                (skif_coll_desc(&o) & ~(0xfffull << SKIF_CDESC_LEN_LO)) |
                                    (uint64_t)(SKIF_MAX_MSG + 1) << SKIF_CDESC_LEN_LO};
    for (size_t k = 0; k < 2; k++) {
        ASSERT_EQ(skif_coll_pio_write(dev, refused[k], v, 8), 0);
        ASSERT_EQ(skif_reg_flush(dev), -EIO);
        ASSERT_TRUE(reg(dev, SKIF_REG_STATUS) & SKIF_STATUS_REG_ERR);
        ASSERT_EQ(reg(dev, SKIF_REG_ERR_INFO), SKIF_REG_COLL_PIO_HI);
        ASSERT_EQ(skif_reg_write(dev, SKIF_REG_STATUS, SKIF_STATUS_REG_ERR), 0);
        g_checks++;
    }
    ASSERT_EQ(reg(dev, SKIF_REG_COLL_SENT), sent0);
    ASSERT_EQ(SkifColl_Barrier(SkifColl_Stride(0, 0), &req), 0);
    ASSERT_EQ(SkifColl_Wait(req), 0);
}

/* The adapter's own checks, on trees 28..30 written directly (the library
 * uses 0..15 and, here, gives out 16 upwards). */
static void adapter_checks(void)
{
    enum { CHAN = 20, TMIS = 30, TUP = 29, TDN = 28 };
    struct skif_dev *dev = skifch__device();
    ASSERT_TRUE(dev != NULL);
    int dims[4] = {1, 1, 1, 1}, nd = SkifCh_Dims(dims), size = SkifCh_Size();
    struct skif_torus tor;
    char err[160];
    ASSERT_EQ(skif_torus_init(&tor, nd, dims, err, sizeof(err)), 0);
    uint32_t *e = calloc((size_t)size, sizeof(uint32_t));
    uint8_t *all = malloc((size_t)size);
    memset(all, 1, (size_t)size);
    ASSERT_EQ(skif_tree_build(&tor, all, 0, CHAN, e, err, sizeof(err)), 0);
    struct skif_chan *ch;
    ASSERT_EQ(skif_chan_open(dev, CHAN, 14, &ch), 0);
    uint32_t node;
    ASSERT_EQ(skif_dev_rank_node(dev, 0, &node), 0);

    /* table rules, refused by the adapter and leaving the entry as it was */
    const uint32_t good = e[t_rank];
    uint32_t got;
    ASSERT_EQ(skif_coll_tab_write(dev, TMIS, good), 0);
    const uint32_t bad[] = {
        good | 0x800u,                     /* a reserved bit */
        skif_ctab_make(0, 0, 0, 1, CHAN),  /* transit without down ports */
        skif_ctab_make(0, 0, 0, 0, 255),   /* a channel beyond CH_NUM */
        skif_ctab_make(1u, 0, 0, 0, CHAN), /* up in down */
        SKIF_CTAB_ROOT,                    /* not valid, other bits set */
        /* a port beyond the torus (none with 4 dimensions: then up in down again) */
        nd < 4 ? skif_ctab_make(1u << (2 * nd), 0, 1, 0, CHAN) : skif_ctab_make(1u, 0, 0, 0, CHAN),
    };
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        ASSERT_EQ(skif_coll_tab_write(dev, TMIS, bad[k]), -EIO);
        ASSERT_EQ(skif_coll_tab_read(dev, TMIS, &got), 0);
        ASSERT_EQ(got, good);
        g_checks++;
    }
    if (nd >= 2) { /* the paper's local rule: up in Y, a down port in X */
        ASSERT_EQ(skif_coll_tab_write(dev, TMIS, skif_ctab_make(1u, 2, 0, 0, CHAN)), -EIO);
        g_checks++;
    }
    ASSERT_EQ(skif_coll_tab_write(dev, SKIF_COLL_TREES, good), -EINVAL);
    ASSERT_EQ(skif_reg_write(dev, SKIF_REG_STATUS, SKIF_STATUS_REG_ERR), 0);
    SkifCollReq *req;
    ASSERT_EQ(SkifColl_Barrier(SkifColl_Stride(0, 0), &req), 0); /* every table written */
    ASSERT_EQ(SkifColl_Wait(req), 0);

    /* a mismatched reduce (node 0 sums, the others take the max): an error
     * result at every member, counted at the engines that saw it */
    uint32_t errs0 = reg(dev, SKIF_REG_COLL_ERRS);
    uint64_t v = (uint64_t)t_rank;
    struct skif_coll_op o = {SKIF_COLL_CMD_ALLREDUCE,
                             SKIF_COLL_TYPE_U64,
                             t_rank == 0 ? SKIF_COLL_OP_SUM : SKIF_COLL_OP_MAX,
                             7,
                             TMIS,
                             0,
                             8};
    post_raw(dev, &o, &v);
    struct skif_coll_result r;
    uint64_t data[8];
    ASSERT_EQ(take_raw(dev, ch, TMIS, &r, data, sizeof(data), 20000), 1);
    ASSERT_EQ(r.kind, SKIF_ENT_KIND_COLL);
    ASSERT_EQ(r.err, 1);
    ASSERT_EQ(r.len, 0);
    ASSERT_EQ(r.rid, 7);
    ASSERT_EQ(r.tree, TMIS);
    g_checks++;
    /* every engine that combined a mismatching pair counted it: at least one
     * in the torus; each node reports its count in an allreduce */
    errs_counted_somewhere(dev, errs0);

    /* a broadcast longer than a collective packet carries (64 bytes), posted
     * at the root: refused there, an error result (no data) at every member,
     * counted in COLL_ERRS at the root only; then one of 64 bytes goes through */
    static const unsigned long_lens[] = {65, 2048};
    for (size_t k = 0; k < 2; k++) {
        uint8_t *lb = malloc(2048);
        memset(lb, 0xC3, 2048);
        errs0 = reg(dev, SKIF_REG_COLL_ERRS);
        ASSERT_EQ(SkifColl_Barrier(SkifColl_Stride(0, 0), &req), 0);
        ASSERT_EQ(SkifColl_Wait(req), 0);
        if (t_rank == 0) {
            struct skif_coll_op lo = {SKIF_COLL_CMD_BCAST, 0, 0, 0, TMIS, node, long_lens[k]};
            post_raw(dev, &lo, lb);
        }
        ASSERT_EQ(take_raw(dev, ch, TMIS, &r, data, sizeof(data), 20000), 1);
        ASSERT_EQ(r.cmd, SKIF_COLL_CMD_BCAST);
        ASSERT_EQ(r.err, 1);
        ASSERT_EQ(r.len, 0);
        ASSERT_EQ(r.node, node);
        ASSERT_EQ(reg(dev, SKIF_REG_COLL_ERRS) - errs0, t_rank == 0 ? 1u : 0u);
        g_checks++;
        if (t_rank == 0) {
            struct skif_coll_op so = {SKIF_COLL_CMD_BCAST, 0, 0, 0, TMIS, node, 64};
            post_raw(dev, &so, lb);
        }
        ASSERT_EQ(take_raw(dev, ch, TMIS, &r, data, sizeof(data), 20000), 1);
        ASSERT_EQ(r.cmd, SKIF_COLL_CMD_BCAST);
        ASSERT_EQ(r.err, 0);
        ASSERT_EQ(r.len, t_rank == 0 ? 0u : 64u); /* the root: its completion */
        if (t_rank != 0)
            ASSERT_EQ(memcmp(data, lb, 64), 0);
        g_checks++;
        free(lb);
    }

    /* a down port the root does not list: the contribution coming up through
     * it is dropped at the root (reason 2), the rest of the tree completes */
    int p0 = -1;
    for (int p = 0; p < 2 * nd && p0 < 0; p++)
        if (skif_ctab_down(e[0]) & (1u << p))
            p0 = p;
    ASSERT_TRUE(p0 >= 0);
    uint32_t mine_e = e[t_rank];
    if (t_rank == 0)
        mine_e &= ~(1u << p0);
    ASSERT_EQ(skif_coll_tab_write(dev, TUP, mine_e), 0);
    uint32_t drops0 = reg(dev, SKIF_REG_COLL_DROPS);
    struct skif_coll_op u = {
        SKIF_COLL_CMD_ALLREDUCE, SKIF_COLL_TYPE_U64, SKIF_COLL_OP_SUM, 3, TUP, 0, 8};
    v = 1;
    ASSERT_EQ(SkifColl_Barrier(SkifColl_Stride(0, 0), &req), 0); /* every table written */
    ASSERT_EQ(SkifColl_Wait(req), 0);
    post_raw(dev, &u, &v);
    if (t_rank == 0) {
        ASSERT_EQ(take_raw(dev, ch, TUP, &r, data, sizeof(data), 20000), 1);
        ASSERT_EQ(r.err, 0);
        ASSERT_TRUE(data[0] >= 1 &&
                    data[0] < (uint64_t)size); /* the subtree behind p0 is missing */
        ASSERT_TRUE(reg(dev, SKIF_REG_COLL_DROPS) > drops0);
        ASSERT_TRUE(reg(dev, SKIF_REG_STATUS) & SKIF_STATUS_COLL_DROP);
        uint32_t info = reg(dev, SKIF_REG_ERR_INFO);
        ASSERT_EQ(info >> 24, TUP);
        ASSERT_EQ((info >> 16) & 0xfu, (uint32_t)p0);
        ASSERT_EQ(info & 0xffu, 2);
        ASSERT_EQ(skif_reg_write(dev, SKIF_REG_STATUS, SKIF_STATUS_COLL_DROP), 0);
        g_checks++;
    }

    /* a leaf whose up port is not where its parent is: the broadcast coming
     * down to it is dropped there (reason 3), every other member gets it */
    int leaf = -1;
    for (int k = size - 1; k > 0 && leaf < 0; k--)
        if (skif_ctab_down(e[k]) == 0)
            leaf = k;
    ASSERT_TRUE(leaf > 0);
    mine_e = e[t_rank];
    if (t_rank == leaf)
        mine_e = skif_ctab_make(0, skif_ctab_up(e[leaf]) ^ 1u, 0, 0, CHAN);
    ASSERT_EQ(skif_coll_tab_write(dev, TDN, mine_e), 0);
    drops0 = reg(dev, SKIF_REG_COLL_DROPS);
    ASSERT_EQ(SkifColl_Barrier(SkifColl_Stride(0, 0), &req), 0);
    ASSERT_EQ(SkifColl_Wait(req), 0);
    uint64_t msg = 0x5A5A5A5A00000000ull | (uint64_t)node;
    if (t_rank == 0) {
        struct skif_coll_op bo = {SKIF_COLL_CMD_BCAST, 0, 0, 0, TDN, node, 8};
        post_raw(dev, &bo, &msg);
    }
    int came = take_raw(dev, ch, TDN, &r, data, sizeof(data), t_rank == leaf ? 6000 : 20000);
    if (t_rank == leaf) {
        ASSERT_EQ(came, 0);
        ASSERT_TRUE(reg(dev, SKIF_REG_COLL_DROPS) > drops0);
        uint32_t info = reg(dev, SKIF_REG_ERR_INFO);
        ASSERT_EQ(info >> 24, TDN);
        ASSERT_EQ(info & 0xffu, 3);
    } else if (t_rank == 0) {
        /* the poster gets its completion without the data (it has it) */
        ASSERT_EQ(came, 1);
        ASSERT_EQ(r.cmd, SKIF_COLL_CMD_BCAST);
        ASSERT_EQ(r.len, 0);
        ASSERT_EQ(r.node, node);
    } else {
        ASSERT_EQ(came, 1);
        ASSERT_EQ(r.cmd, SKIF_COLL_CMD_BCAST);
        ASSERT_EQ(r.len, 8);
        ASSERT_EQ(data[0], msg);
    }
    g_checks++;

    ASSERT_EQ(SkifColl_Barrier(SkifColl_Stride(0, 0), &req), 0);
    ASSERT_EQ(SkifColl_Wait(req), 0);
    /* the PIO window, on the good tree (TMIS's entries are whole again) */
    ASSERT_EQ(skif_coll_tab_write(dev, TMIS, good), 0);
    ASSERT_EQ(SkifColl_Barrier(SkifColl_Stride(0, 0), &req), 0);
    ASSERT_EQ(SkifColl_Wait(req), 0);
    pio_checks(dev, ch, TMIS);
    for (unsigned t = TDN; t <= TMIS; t++)
        ASSERT_EQ(skif_coll_tab_write(dev, t, 0), 0);
    ASSERT_EQ(skif_chan_close(ch), 0);
    free(e);
    free(all);
}

int main(int argc, char **argv)
{
    t_name = "t_coll_hw";
    if (SkifChU_WantsHelp(argc, argv)) {
        printf("usage: t_coll_hw [seed] [groups] [barriers]: the collective subnet against a "
               "reference\n");
        return 0;
    }
    long seed = 1, groups = 2, nbar = 100;
    if (argc == 2 && strcmp(argv[1], "stall") == 0) {
        if ((t_rank = SkifChU_Rank("t_coll_hw")) < 0)
            return 2;
        ASSERT_EQ(SkifColl_Init(0), 0);
        uint64_t x = 1, y;
        SkifCollReq *req;
        if (t_rank != 1) {
            ASSERT_EQ(SkifColl_Allreduce(SkifColl_Stride(0, 0), &x, &y, 1, SKIFCOLL_U64,
                                         SKIFCOLL_SUM, &req),
                      0);
            SkifColl_Wait(req); /* never returns: the watchdog ends the run */
        }
        for (;;)
            SkifCh_Wait(SkifColl_Channel(), 1000);
    }
    if ((argc > 1 && SkifChU_Num(argv[1], 0, 1L << 30, &seed)) ||
        (argc > 2 && SkifChU_Num(argv[2], 0, 100, &groups)) ||
        (argc > 3 && SkifChU_Num(argv[3], 0, 1000000, &nbar))) {
        fprintf(stderr, "t_coll_hw: bad argument (usage: t_coll_hw [seed] [groups] [barriers])\n");
        return 2;
    }
    if ((t_rank = SkifChU_Rank("t_coll_hw")) < 0)
        return 2;
    g_seed = (uint64_t)seed * 0x9E3779B97F4A7C15ull;
    g_size = SkifCh_Size();
    ASSERT_EQ(SkifColl_Init(0), 0);
    ASSERT_EQ(SkifColl_HwUp(), 1);
    const char *inj = getenv("SKIFCOLL_INJECT");
    ASSERT_EQ(SkifColl_Pio(), !(inj && strcmp(inj, "ring") == 0));
    int c = 0;

    int *all = malloc((size_t)g_size * sizeof(int));
    for (int r = 0; r < g_size; r++)
        all[r] = r;
    SkifCollTree *t0 = SkifColl_Stride(0, 0);
    ASSERT_TRUE(t0 && SkifColl_Members(t0) == g_size && SkifColl_Root(t0) == 0);
    run_tree(t0, all, g_size, &c);
    many_in_flight(t0, all, g_size, &c);
    bcast_then_reduces(t0, all, g_size, &c);

    /* every second rank from 1 (stride tree 3): the even ranks on the way
     * are transit */
    SkifCollTree *t3 = SkifColl_Stride(1, 1);
    int nodd = 0, *odd = malloc((size_t)g_size * sizeof(int));
    for (int r = 1; r < g_size; r += 2)
        odd[nodd++] = r;
    ASSERT_EQ(SkifColl_Members(t3), nodd);
    if (t_rank % 2) {
        c = 1000;
        run_tree(t3, odd, nodd, &c);
    } else {
        uint32_t x = 1, y;
        SkifCollReq *req;
        errno = 0;
        ASSERT_EQ(SkifColl_Allreduce(t3, &x, &y, 1, SKIFCOLL_U32, SKIFCOLL_SUM, &req), -1);
        ASSERT_EQ(errno, EPERM);
        ASSERT_EQ(SkifColl_Barrier(t3, &req), -1);
        ASSERT_EQ(errno, EPERM);
    }
    c = 1500;
    overlapping(t0, all, g_size, t3, odd, nodd, &c);

    /* random subgroups with random roots: every node makes the same calls */
    uint64_t rs = g_seed ^ 0xC0FFEE;
    for (long k = 0; k < groups; k++) {
        int *mem = malloc((size_t)g_size * sizeof(int)), n = 0;
        unsigned pct = 20 + (unsigned)(SkifChU_Rand(&rs) % 70);
        for (int r = 0; r < g_size; r++)
            if (SkifChU_Rand(&rs) % 100 < pct)
                mem[n++] = r;
        if (n == 0)
            mem[n++] = (int)(SkifChU_Rand(&rs) % (uint64_t)g_size);
        int root = mem[SkifChU_Rand(&rs) % (uint64_t)n];
        SkifCollTree *t = SkifColl_Create(mem, n, root);
        ASSERT_TRUE(t != NULL);
        int member = 0;
        for (int i = 0; i < n; i++)
            member |= mem[i] == t_rank;
        ASSERT_EQ(SkifColl_IsMember(t), member);
        if (member) {
            c = 2000 + 1000 * (int)k;
            run_tree(t, mem, n, &c);
        } else {
            uint8_t b[8];
            SkifCollReq *req;
            errno = 0;
            ASSERT_EQ(SkifColl_Bcast(t, root, b, 8, &req), -1);
            ASSERT_EQ(errno, EPERM);
        }
        ASSERT_EQ(SkifColl_Free(t), 0);
        free(mem);
    }

    barriers(t0, nbar);

    /* bad input refused by the library */
    uint32_t x = 0, y = 0;
    SkifCollReq *req;
    errno = 0;
    ASSERT_EQ(SkifColl_Allreduce(t0, &x, &y, 1, 4, SKIFCOLL_SUM, &req), -1); /* unknown type */
    ASSERT_EQ(errno, EINVAL);
    ASSERT_EQ(SkifColl_Allreduce(t0, &x, &y, 1, SKIFCOLL_U32, 3, &req), -1); /* unknown op */
    ASSERT_EQ(errno, EINVAL);
    ASSERT_EQ(SkifColl_Reduce(t0, g_size, &x, &y, 1, SKIFCOLL_U32, 0, &req), -1); /* no target */
    ASSERT_EQ(errno, EINVAL);
    ASSERT_EQ(SkifColl_Allreduce(t0, &x, &y, 1, SKIFCOLL_U32, 0, NULL), -1);
    ASSERT_EQ(errno, EINVAL);

    adapter_checks();

    uint64_t mine = (uint64_t)g_checks, total = 0;
    ASSERT_EQ(SkifColl_Allreduce(t0, &mine, &total, 1, SKIFCOLL_U64, SKIFCOLL_SUM, &req), 0);
    ASSERT_EQ(SkifColl_Wait(req), 0);
    if (t_rank == 0)
        printf("t_coll_hw: %d nodes, %llu checks passed (reduces by %s)\n", g_size,
               (unsigned long long)total, SkifColl_Pio() ? "pio" : "ring");
    ASSERT_EQ(SkifColl_Finalize(), 0);
    free(all);
    free(odd);
    return 0;
}
