/* SPDX-License-Identifier: Apache-2.0 */
/* skif_rma.c: the RMA engine's driver calls (see skif_rma.h). */
#include "skif_rma.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* What the driver remembers of a request, by its tag. */
struct rma_rec {
    uint32_t node;
    unsigned kind, op;
    uint64_t raddr, laddr;
    size_t len;
};

struct skif_rma {
    struct skif_dev *dev;
    struct skif_txq *q;
    struct skif_dma st;      /* the 16 bytes of status words */
    unsigned nwin;           /* RMA_WINDOWS */
    uint32_t issued;         /* requests posted so far (counted from the engine's counters) */
    uint32_t errs_seen;      /* errors reported by skif_rma_quiet() */
    struct rma_rec rec[256]; /* by tag */
};

/* the device opened by skif_rma_open(), at most one per device */
#define MAX_OPEN 8
static struct skif_dev *g_open[MAX_OPEN];

int skif_rma_open(struct skif_dev *dev, struct skif_rma **rp)
{
    int rc, slot = -1;
    if (!dev || !rp || !skif_dev_txq(dev)->nchans)
        return -EINVAL;
    for (int i = 0; i < MAX_OPEN; i++) {
        if (g_open[i] == dev)
            return -EBUSY;
        if (!g_open[i] && slot < 0)
            slot = i;
    }
    if (slot < 0)
        return -ENOMEM;
    struct skif_rma *r = calloc(1, sizeof(*r));
    if (!r)
        return -ENOMEM;
    r->dev = dev;
    r->q = skif_dev_txq(dev);
    uint32_t nwin, cnt[4];
    if ((rc = skif_reg_read(dev, SKIF_REG_RMA_WINDOWS, &nwin)) < 0 ||
        (rc = skif_reg_read(dev, SKIF_REG_RMA_PUTS, &cnt[0])) < 0 ||
        (rc = skif_reg_read(dev, SKIF_REG_RMA_GETS, &cnt[1])) < 0 ||
        (rc = skif_reg_read(dev, SKIF_REG_RMA_ATOMS, &cnt[2])) < 0 ||
        (rc = skif_reg_read(dev, SKIF_REG_RMA_ERRS, &cnt[3])) < 0)
        goto err;
    if (nwin > SKIF_RMA_WINDOWS_MAX) {
        rc = -EPROTO;
        goto err;
    }
    r->nwin = nwin;
    if ((rc = skif_dma_alloc(dev, 16, 16, &r->st)) < 0)
        goto err;
    /* the counters run on from an earlier opening: start where they stand,
     * every request of then complete (the engine rewrites the words at the
     * next completion) */
    memcpy(r->st.va, cnt, sizeof(cnt));
    r->issued = cnt[0] + cnt[1] + cnt[2] + cnt[3];
    r->errs_seen = cnt[3];
    if ((rc = skif_reg_write(dev, SKIF_REG_RMA_STAT_LO, (uint32_t)r->st.bus)) < 0 ||
        (rc = skif_reg_write(dev, SKIF_REG_RMA_STAT_HI, (uint32_t)(r->st.bus >> 32))) < 0 ||
        (rc = skif_reg_flush(dev)) < 0) {
        skif_dma_free(dev, &r->st);
        goto err;
    }
    g_open[slot] = dev;
    *rp = r;
    return 0;
err:
    free(r);
    return rc;
}

void skif_rma_close(struct skif_rma *r)
{
    if (!r)
        return;
    for (unsigned i = 0; i < r->nwin; i++)
        skif_rma_win_clear(r, i);
    skif_reg_write(r->dev, SKIF_REG_RMA_STAT_LO, 0);
    skif_reg_write(r->dev, SKIF_REG_RMA_STAT_HI, 0);
    if (skif_reg_flush(r->dev) == 0)
        skif_dma_free(r->dev, &r->st); /* else the engine may still write it: leave it */
    for (int i = 0; i < MAX_OPEN; i++)
        if (g_open[i] == r->dev)
            g_open[i] = NULL;
    free(r);
}

int skif_rma_windows(const struct skif_rma *r)
{
    return (int)r->nwin;
}

int skif_rma_win_set(struct skif_rma *r, unsigned idx, uint64_t base, uint64_t size, unsigned perm)
{
    int rc;
    if (idx >= r->nwin || (base & 7u) || (size & 7u) ||
        perm > (SKIF_RMA_PERM_R | SKIF_RMA_PERM_W | SKIF_RMA_PERM_A))
        return -EINVAL;
    struct skif_dev *d = r->dev;
    if ((rc = skif_reg_write(d, SKIF_REG_RMA_WIN_SEL, idx)) < 0 ||
        (rc = skif_reg_write(d, SKIF_REG_RMA_WIN_BASE_LO, (uint32_t)base)) < 0 ||
        (rc = skif_reg_write(d, SKIF_REG_RMA_WIN_BASE_HI, (uint32_t)(base >> 32))) < 0 ||
        (rc = skif_reg_write(d, SKIF_REG_RMA_WIN_SIZE_LO, (uint32_t)size)) < 0 ||
        (rc = skif_reg_write(d, SKIF_REG_RMA_WIN_SIZE_HI, (uint32_t)(size >> 32))) < 0 ||
        (rc = skif_reg_write(d, SKIF_REG_RMA_WIN_CFG, perm)) < 0)
        return rc;
    return skif_reg_flush(d);
}

int skif_rma_win_clear(struct skif_rma *r, unsigned idx)
{
    return skif_rma_win_set(r, idx, 0, 0, 0);
}

int skif_rma_win_get(struct skif_rma *r, unsigned idx, uint64_t *base, uint64_t *size,
                     unsigned *perm)
{
    int rc;
    uint32_t v[5];
    if (idx >= r->nwin)
        return -EINVAL;
    struct skif_dev *d = r->dev;
    if ((rc = skif_reg_write(d, SKIF_REG_RMA_WIN_SEL, idx)) < 0 ||
        (rc = skif_reg_read(d, SKIF_REG_RMA_WIN_RBASE_LO, &v[0])) < 0 ||
        (rc = skif_reg_read(d, SKIF_REG_RMA_WIN_RBASE_HI, &v[1])) < 0 ||
        (rc = skif_reg_read(d, SKIF_REG_RMA_WIN_RSIZE_LO, &v[2])) < 0 ||
        (rc = skif_reg_read(d, SKIF_REG_RMA_WIN_RSIZE_HI, &v[3])) < 0 ||
        (rc = skif_reg_read(d, SKIF_REG_RMA_WIN_CFG, &v[4])) < 0)
        return rc;
    if (base)
        *base = v[0] | (uint64_t)v[1] << 32;
    if (size)
        *size = v[2] | (uint64_t)v[3] << 32;
    if (perm)
        *perm = v[4] & 7u;
    return 0;
}

int skif_rma_addr(const struct skif_dma *m, const void *p, uint64_t *addr)
{
    if (!m || !m->va || !p)
        return -EINVAL;
    const uint8_t *b = (const uint8_t *)m->va, *x = (const uint8_t *)p;
    if (x < b || x > b + m->size)
        return -EINVAL;
    *addr = m->bus + (uint64_t)(x - b);
    return 0;
}

/* ------------------------------------------------------------ completion */

void skif_rma_counters(const struct skif_rma *r, struct skif_rma_counts *c)
{
    const uint32_t *w = (const uint32_t *)r->st.va;
    c->puts = __atomic_load_n(&w[SKIF_RMA_STAT_PUTS / 4], __ATOMIC_ACQUIRE);
    c->gets = __atomic_load_n(&w[SKIF_RMA_STAT_GETS / 4], __ATOMIC_ACQUIRE);
    c->atoms = __atomic_load_n(&w[SKIF_RMA_STAT_ATOMS / 4], __ATOMIC_ACQUIRE);
    c->errs = __atomic_load_n(&w[SKIF_RMA_STAT_ERRS / 4], __ATOMIC_ACQUIRE);
}

uint32_t skif_rma_issued(const struct skif_rma *r)
{
    return r->issued;
}

uint32_t skif_rma_pending(const struct skif_rma *r)
{
    struct skif_rma_counts c;
    skif_rma_counters(r, &c);
    return r->issued - (c.puts + c.gets + c.atoms + c.errs);
}

int skif_rma_quiet(struct skif_rma *r, uint64_t max_cycles)
{
    uint64_t start = skif_dev_cycle(r->dev);
    while (skif_rma_pending(r)) {
        uint64_t limit = 0;
        if (max_cycles) {
            uint64_t spent = skif_dev_cycle(r->dev) - start;
            if (spent >= max_cycles)
                return -ETIMEDOUT;
            limit = max_cycles - spent;
        }
        int rc = skif_dev_wait(r->dev, limit);
        if (rc < 0)
            return rc;
    }
    struct skif_rma_counts c;
    skif_rma_counters(r, &c);
    if (c.errs != r->errs_seen) {
        r->errs_seen = c.errs;
        return -EIO;
    }
    return 0;
}

int skif_rma_last_error(struct skif_rma *r, struct skif_rma_error *e)
{
    uint32_t info, errs;
    int rc;
    if ((rc = skif_reg_read(r->dev, SKIF_REG_RMA_ERRS, &errs)) < 0 ||
        (rc = skif_reg_read(r->dev, SKIF_REG_RMA_ERR_INFO, &info)) < 0)
        return rc;
    unsigned kind = (info >> 4) & 0xfu;
    if (errs == 0 || (kind != SKIF_KIND_RMA_ACK && kind != SKIF_KIND_RMA_GET_RESP))
        return -ENOENT;
    struct skif_rma_error x;
    memset(&x, 0, sizeof(x));
    x.count = errs;
    x.code = info & 0xfu;
    x.answer = kind;
    x.tag = (info >> 8) & 0xffu;
    x.node = info >> 16;
    const struct rma_rec *rec = &r->rec[x.tag];
    x.kind = rec->kind;
    x.op = rec->op;
    x.raddr = rec->raddr;
    x.laddr = rec->laddr;
    x.len = rec->len;
    if ((rc = skif_reg_write(r->dev, SKIF_REG_RMA_STATUS, SKIF_RMA_STATUS_RSP_ERR)) < 0)
        return rc;
    *e = x;
    return 0;
}

int skif_rma_target_info(struct skif_rma *r, uint32_t *served, uint32_t *refused, uint32_t *info)
{
    int rc;
    uint32_t v[3];
    if ((rc = skif_reg_read(r->dev, SKIF_REG_RMA_SERVED, &v[0])) < 0 ||
        (rc = skif_reg_read(r->dev, SKIF_REG_RMA_REFUSED, &v[1])) < 0 ||
        (rc = skif_reg_read(r->dev, SKIF_REG_RMA_ERR_INFO, &v[2])) < 0)
        return rc;
    if (served)
        *served = v[0];
    if (refused)
        *refused = v[1];
    if (info)
        *info = v[2];
    return 0;
}

/* ------------------------------------------------------------ requests */

/* 0, or -EHOSTUNREACH for a node not in this torus. */
static int node_check(const struct skif_txq *q, uint32_t node)
{
    if (node > 0xffffu || !((q->node_valid[node >> 5] >> (node & 31)) & 1))
        return -EHOSTUNREACH;
    return 0;
}

static uint64_t rhdr(unsigned kind, uint32_t node, unsigned op, size_t len, unsigned tag)
{
    return (uint64_t)kind << SKIF_HDR_KIND_LO | (uint64_t)node << SKIF_HDR_DST_LO |
           (uint64_t)op << SKIF_RHDR_OP_LO | (uint64_t)len << SKIF_HDR_LEN_LO |
           (uint64_t)tag << SKIF_RHDR_TAG_LO;
}

/* Post a kind-2 entry: the header (built here with the next tag), the
 * words w[0..nw) after it, then len data bytes (zero-padded to a word).
 * The checks every request shares come first. */
static int post(struct skif_rma *r, const struct rma_rec *rec, const uint64_t *w, unsigned nw,
                const void *data, size_t len)
{
    struct skif_txq *q = r->q;
    if (!q->nchans)
        return -EINVAL;
    int rc = node_check(q, rec->node);
    if (rc < 0)
        return rc;
    uint32_t flits = 1 + nw + skif_round8((uint32_t)len) / 8;
    uint32_t entry = 8 + 8 * flits;
    if (q->ring.size - (q->tail - (uint32_t)*q->head) < entry ||
        skif_rma_pending(r) >= SKIF_RMA_MAX_INFLIGHT)
        return -EAGAIN;
    unsigned tag = r->issued & 0xffu;
    uint64_t head[2] = {(uint64_t)SKIF_DESC_KIND_RMA << SKIF_DESC_KIND_LO | (uint64_t)(8 * flits)
                                                                                << SKIF_DESC_LEN_LO,
                        rhdr(rec->kind, rec->node, rec->op, rec->len, tag)};
    uint32_t at = q->tail;
    skif_ring_put(&q->ring, at, head, 16);
    skif_ring_put(&q->ring, at + 16, w, 8 * nw);
    at += 16 + 8 * nw;
    if (len) {
        static const uint8_t zeros[8];
        skif_ring_put(&q->ring, at, data, len);
        skif_ring_put(&q->ring, at + (uint32_t)len, zeros, skif_round8((uint32_t)len) - len);
    }
    r->rec[tag] = *rec;
    r->issued++;
    q->tail += entry;
    *q->doorbell = q->tail; /* TX_TAIL doorbell */
    return 0;
}

int skif_rma_put(struct skif_rma *r, uint32_t node, uint64_t raddr, const void *src, size_t len)
{
    if (len == 0 || len > SKIF_MAX_MSG || !src)
        return -EINVAL;
    struct rma_rec rec = {node, SKIF_KIND_RMA_PUT, 0, raddr, 0, len};
    return post(r, &rec, &raddr, 1, src, len);
}

int skif_rma_get(struct skif_rma *r, uint32_t node, uint64_t laddr, uint64_t raddr, size_t len)
{
    if (len == 0 || len > SKIF_MAX_MSG)
        return -EINVAL;
    struct rma_rec rec = {node, SKIF_KIND_RMA_GET, 0, raddr, laddr, len};
    uint64_t w[2] = {raddr, laddr};
    return post(r, &rec, w, 2, NULL, 0);
}

int skif_rma_atomic(struct skif_rma *r, uint32_t node, unsigned op, unsigned width, uint64_t raddr,
                    uint64_t operand, uint64_t compare, uint64_t laddr)
{
    if ((width != 4 && width != 8) || op > SKIF_RMA_OP_CSWAP || (raddr & (width - 1)))
        return -EINVAL;
    if (op == SKIF_RMA_OP_ADD)
        laddr = 0;
    else if (laddr & (width - 1))
        return -EINVAL;
    if (op != SKIF_RMA_OP_CSWAP)
        compare = 0;
    if (width == 4) {
        operand &= 0xffffffffu;
        compare &= 0xffffffffu;
    }
    struct rma_rec rec = {node, SKIF_KIND_RMA_ATOMIC, op, raddr, laddr, width};
    uint64_t w[4] = {raddr, laddr, operand, compare};
    return post(r, &rec, w, 4, NULL, 0);
}
