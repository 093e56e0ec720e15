/* SPDX-License-Identifier: Apache-2.0 */
/* skif_coll.c: the collective subnet's driver calls (see skif_coll.h). */
#include "skif_coll.h"

#include <errno.h>
#include <string.h>

int skif_coll_tab_write(struct skif_dev *dev, unsigned tree, uint32_t entry)
{
    int rc;
    if (tree >= SKIF_COLL_TREES)
        return -EINVAL;
    if ((rc = skif_reg_write(dev, SKIF_REG_COLL_SEL, tree)) < 0 ||
        (rc = skif_reg_write(dev, SKIF_REG_COLL_TAB, entry)) < 0)
        return rc;
    return skif_reg_flush(dev);
}

int skif_coll_tab_read(struct skif_dev *dev, unsigned tree, uint32_t *entry)
{
    int rc;
    uint32_t v;
    if (tree >= SKIF_COLL_TREES)
        return -EINVAL;
    if ((rc = skif_reg_write(dev, SKIF_REG_COLL_SEL, tree)) < 0 ||
        (rc = skif_reg_read(dev, SKIF_REG_COLL_TAB, &v)) < 0)
        return rc;
    *entry = v;
    return 0;
}

/* Bytes of one element of a reduce type; 0 for an unknown type. */
static unsigned elem_size(unsigned type)
{
    switch (type) {
    case SKIF_COLL_TYPE_U32:
    case SKIF_COLL_TYPE_S32:
        return 4;
    case SKIF_COLL_TYPE_U64:
    case SKIF_COLL_TYPE_S64:
        return 8;
    default:
        return 0;
    }
}

int skif_coll_op_check(const struct skif_coll_op *o)
{
    if (!o || o->tree >= SKIF_COLL_TREES || o->arg > 0xffffu)
        return -EINVAL;
    if (o->cmd == SKIF_COLL_CMD_BCAST)
        return o->len <= SKIF_MAX_MSG ? 0 : -EINVAL;
    if (o->cmd != SKIF_COLL_CMD_ALLREDUCE && o->cmd != SKIF_COLL_CMD_REDUCE)
        return -EINVAL;
    unsigned es = elem_size(o->type);
    if (!es || o->op > SKIF_COLL_OP_MAX || o->rid >= SKIF_COLL_RIDS || o->len > SKIF_COLL_MAX_RED ||
        o->len % es)
        return -EINVAL;
    return 0;
}

int skif_coll_post(struct skif_dev *dev, const struct skif_coll_op *o, const void *buf)
{
    struct skif_txq *q = skif_dev_txq(dev);
    int rc = skif_coll_op_check(o);
    if (rc < 0)
        return rc;
    if (!q->nchans || (o->len && !buf))
        return -EINVAL;
    uint32_t entry = 8 + skif_round8((uint32_t)o->len);
    if (q->ring.size - (q->tail - (uint32_t)*q->head) < entry)
        return -EAGAIN;
    uint64_t desc = skif_coll_desc(o);
    skif_ring_put(&q->ring, q->tail, &desc, 8);
    if (o->len)
        skif_ring_put(&q->ring, q->tail + 8, buf, o->len);
    q->tail += entry;
    *q->doorbell = q->tail; /* TX_TAIL doorbell */
    return 0;
}

int skif_coll_pio_write(struct skif_dev *dev, uint64_t desc, const void *buf, size_t len)
{
    int rc;
    if (len > SKIF_COLL_MAX_RED || (len && !buf))
        return -EINVAL;
    /* the adapter zeroes the bytes beyond len: only the halves that hold
     * payload bytes are written */
    for (size_t i = 0; i < (len + 3) / 4; i++) {
        uint32_t v = 0;
        memcpy(&v, (const uint8_t *)buf + 4 * i, len - 4 * i < 4 ? len - 4 * i : 4);
        if ((rc = skif_reg_write(dev, SKIF_REG_COLL_PIO_DATA + 4 * (uint32_t)i, v)) < 0)
            return rc;
    }
    if ((rc = skif_reg_write(dev, SKIF_REG_COLL_PIO_LO, (uint32_t)desc)) < 0)
        return rc;
    return skif_reg_write(dev, SKIF_REG_COLL_PIO_HI, (uint32_t)(desc >> 32));
}

int skif_coll_post_pio(struct skif_dev *dev, const struct skif_coll_op *o, const void *buf)
{
    int rc = skif_coll_op_check(o);
    if (rc < 0)
        return rc;
    if (o->len > SKIF_COLL_MAX_RED || (o->len && !buf))
        return -EINVAL;
    return skif_coll_pio_write(dev, skif_coll_desc(o), buf, o->len);
}

int skif_coll_entry_parse(uint64_t hdr, struct skif_coll_result *r)
{
    struct skif_coll_result x;
    memset(&x, 0, sizeof(x));
    x.kind = (unsigned)(hdr >> SKIF_CENT_KIND_LO) & 0xfu;
    x.chan = (unsigned)(hdr >> SKIF_CENT_CHAN_LO) & 0xffu;
    x.node = (unsigned)(hdr >> SKIF_CENT_NODE_LO) & 0xffffu;
    x.len = (unsigned)(hdr >> SKIF_CENT_LEN_LO) & 0xfffu;
    if (x.len > SKIF_MAX_MSG)
        return -EPROTO;
    if (x.kind == SKIF_ENT_KIND_MSG) {
        /* a message: tree 0 and nothing above the length */
        if ((hdr >> SKIF_CENT_TREE_LO) & 0xffu || hdr >> SKIF_CENT_ERR_BIT)
            return -EPROTO;
    } else if (x.kind == SKIF_ENT_KIND_COLL) {
        if ((hdr >> 53) & 7u) /* [55:53] zero */
            return -EPROTO;
        x.tree = (unsigned)(hdr >> SKIF_CENT_TREE_LO) & 0xffu;
        x.err = (unsigned)(hdr >> SKIF_CENT_ERR_BIT) & 1u;
        x.op = (unsigned)(hdr >> SKIF_CENT_OP_LO) & 7u;
        x.rid = (unsigned)(hdr >> SKIF_CENT_RID_LO) & 31u;
        x.cmd = (unsigned)(hdr >> SKIF_CENT_CMD_LO) & 0xfu;
    } else {
        return -EPROTO;
    }
    *r = x;
    return 0;
}

int skif_coll_take(struct skif_chan *ch, struct skif_coll_result *r, void *buf, size_t cap)
{
    uint32_t at = ch->read;
    uint32_t avail = (uint32_t)__atomic_load_n(ch->tail, __ATOMIC_ACQUIRE) - at;
    if (avail == 0)
        return 0;
    if (ch->taken)
        return -EINVAL;
    uint64_t hdr;
    memcpy(&hdr, ch->va + (at & ch->mask), 8); /* entries are 8-aligned: no wrap */
    struct skif_coll_result x;
    int rc = skif_coll_entry_parse(hdr, &x);
    if (rc < 0)
        return rc;
    uint32_t entry = 8 + skif_round8(x.len);
    if (avail < entry)
        return -EPROTO; /* the tail covers whole entries only */
    size_t n = x.len < cap ? x.len : cap;
    for (size_t i = 0; i < n; i++)
        ((uint8_t *)buf)[i] = ch->va[(at + 8 + i) & ch->mask];
    ch->read = at + entry;
    ch->taken = 1;
    /* one taken: the head becomes ch->read, never read from a header */
    if ((rc = skif_rx_complete(ch)) < 0)
        return rc;
    *r = x;
    return 1;
}

void skif_coll_counters(struct skif_dev *dev, uint32_t *sent, uint32_t *done)
{
    /* the status block starts where its TX head word is */
    const volatile uint64_t *st = skif_dev_txq(dev)->head - SKIF_STAT_TX_HEAD / 8;
    const uint64_t w = st[SKIF_STAT_COLL / 8]; /* one word: [31:0] sent, [63:32] done */
    *sent = (uint32_t)w;
    *done = (uint32_t)(w >> 32);
}
