/* SPDX-License-Identifier: Apache-2.0 */
/* skif_dev.c: the C driver (see skif_dev.h): registers, DMA memory, rings. */
#define _POSIX_C_SOURCE 200809L
#include "skif_dev.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "skif_backend.h"

#define MAX_ALLOCS 512

struct ring {
    uint8_t *va;
    uint64_t bus;
    uint32_t size; /* bytes, power of two */
};

/* One block of the DMA heap: [off, off + size), `brk_before` the heap's end
 * before it was carved. */
struct block {
    size_t off, size, brk_before;
    int free;
};

struct skif_chan {
    struct skif_dev *dev;
    struct ring ring;
    struct skif_dma mem;
    const volatile uint64_t *tail; /* its word in the status block */
    uint32_t read;                 /* next entry to take */
    uint32_t head;                 /* oldest entry taken, not completed */
    uint32_t head_hw;              /* last head written to CH_HEAD */
    uint32_t lazy;                 /* completed bytes the adapter may not know yet */
    uint32_t reg_head;             /* SKIF_REG_CH_HEAD + 4 * id */
    int id;
};

struct skif_dev {
    struct skif_backend *be;
    size_t brk; /* first free byte of the DMA heap */
    struct block blk[MAX_ALLOCS];
    int nblk;
    int up;     /* skif_dev_setup() done */
    int nchans; /* CH_NUM */
    struct ring tx;
    struct skif_dma tx_mem, st_mem;
    volatile uint64_t *stat; /* status block written by the adapter */
    uint32_t tx_tail;        /* software producer pointer */
    struct skif_chan *chan[SKIF_CHANS_MAX];
    int nopen;
    uint32_t node_valid[2048]; /* bit per 16-bit node id: a node of this torus */
};

static inline uint32_t round8(uint32_t n)
{
    return (n + 7u) & ~7u;
}

int skif_dev_open(struct skif_dev **devp)
{
    struct skif_dev *dev = calloc(1, sizeof(*dev));
    if (!dev)
        return -ENOMEM;
    int rc = skif_backend_sim_open(&dev->be);
    if (rc < 0) {
        free(dev);
        return rc;
    }
    dev->brk = dev->be->heap_offset;
    for (int r = 0; r < dev->be->size; r++) {
        uint32_t id;
        skif_dev_rank_node(dev, r, &id);
        dev->node_valid[id >> 5] |= 1u << (id & 31);
    }
    *devp = dev;
    return 0;
}

void skif_dev_close(struct skif_dev *dev)
{
    if (!dev)
        return;
    for (int c = 0; c < dev->nchans; c++)
        if (dev->chan[c])
            skif_chan_close(dev->chan[c]);
    if (dev->up) {
        dev->be->ops->reg_write(dev->be, SKIF_REG_CTRL, 0);
        dev->be->ops->flush(dev->be);
    }
    dev->be->ops->close(dev->be);
    free(dev);
}

int skif_dev_rank(const struct skif_dev *dev)
{
    return dev->be->rank;
}
int skif_dev_size(const struct skif_dev *dev)
{
    return dev->be->size;
}
uint32_t skif_dev_node_id(const struct skif_dev *dev)
{
    return dev->be->node_id;
}
uint32_t skif_dev_clock_mhz(const struct skif_dev *dev)
{
    return dev->be->clock_mhz;
}

uint64_t skif_dev_cycle(const struct skif_dev *dev)
{
    return dev->be->cycle ? *dev->be->cycle : 0;
}

int skif_dev_rank_node(const struct skif_dev *dev, int rank, uint32_t *node)
{
    if (rank < 0 || rank >= dev->be->size)
        return -EINVAL;
    /* Coordinates of rank in X-fastest order, packed 4 bits per dimension. */
    uint32_t id = 0;
    int r = rank;
    for (int d = 0; d < dev->be->ndims; d++) {
        id |= (uint32_t)(r % dev->be->dims[d]) << (4 * d);
        r /= dev->be->dims[d];
    }
    *node = id;
    return 0;
}

static int reg_ok(uint32_t off)
{
    return off < SKIF_REG_MAP_SIZE && (off & 3u) == 0;
}

int skif_reg_read_raw(struct skif_dev *dev, uint32_t off, uint32_t *val)
{
    return dev->be->ops->reg_read(dev->be, off, val);
}

int skif_reg_write_raw(struct skif_dev *dev, uint32_t off, uint32_t val)
{
    return dev->be->ops->reg_write(dev->be, off, val);
}

int skif_reg_read(struct skif_dev *dev, uint32_t off, uint32_t *val)
{
    if (!reg_ok(off))
        return -EINVAL;
    return skif_reg_read_raw(dev, off, val);
}

int skif_reg_write(struct skif_dev *dev, uint32_t off, uint32_t val)
{
    if (!reg_ok(off))
        return -EINVAL;
    return skif_reg_write_raw(dev, off, val);
}

int skif_reg_flush(struct skif_dev *dev)
{
    return dev->be->ops->flush(dev->be);
}

/* Tell the adapter every head that skif_rx_complete() kept back. */
static int heads_flush(struct skif_dev *dev)
{
    if (dev->nopen == 0)
        return 0;
    for (int c = 0; c < dev->nchans; c++) {
        struct skif_chan *ch = dev->chan[c];
        if (ch && ch->head_hw != ch->head) {
            ch->head_hw = ch->head;
            ch->lazy = 0;
            int rc = dev->be->ops->reg_write(dev->be, ch->reg_head, ch->head);
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}

int skif_dev_wait(struct skif_dev *dev, uint64_t max_cycles)
{
    int rc = heads_flush(dev);
    return rc < 0 ? rc : dev->be->ops->wait(dev->be, max_cycles);
}

/* ------------------------------------------------------------ DMA memory */

int skif_dma_alloc(struct skif_dev *dev, size_t size, size_t align, struct skif_dma *mem)
{
    if (size == 0 || align < 8 || (align & (align - 1)) || align > (1u << 24))
        return -EINVAL;
    /* a freed block that fits, first */
    for (int i = 0; i < dev->nblk; i++) {
        struct block *b = &dev->blk[i];
        if (b->free && b->size >= size && (b->off & (align - 1)) == 0) {
            b->free = 0;
            memset(dev->be->mem + b->off, 0, size);
            *mem = (struct skif_dma){dev->be->mem + b->off, dev->be->bus_base + b->off, size};
            return 0;
        }
    }
    if (dev->nblk == MAX_ALLOCS)
        return -ENOMEM;
    size_t start = (dev->brk + align - 1) & ~(align - 1);
    if (start > dev->be->mem_size || size > dev->be->mem_size - start)
        return -ENOMEM;
    dev->blk[dev->nblk++] = (struct block){start, size, dev->brk, 0};
    dev->brk = start + size;
    memset(dev->be->mem + start, 0, size);
    *mem = (struct skif_dma){dev->be->mem + start, dev->be->bus_base + start, size};
    return 0;
}

void skif_dma_free(struct skif_dev *dev, struct skif_dma *mem)
{
    if (!mem || !mem->va)
        return;
    size_t off = (size_t)((uint8_t *)mem->va - dev->be->mem);
    for (int i = 0; i < dev->nblk; i++)
        if (dev->blk[i].off == off && !dev->blk[i].free)
            dev->blk[i].free = 1;
    /* free blocks at the end of the heap return their space */
    while (dev->nblk > 0 && dev->blk[dev->nblk - 1].free)
        dev->brk = dev->blk[--dev->nblk].brk_before;
    mem->va = NULL;
}

/* ------------------------------------------------------------ set-up, TX */

int skif_dev_setup(struct skif_dev *dev, unsigned tx_log2)
{
    struct skif_backend *be = dev->be;
    uint32_t nchans;
    int rc;
    if (dev->up)
        return -EBUSY;
    if (tx_log2 < SKIF_RING_LOG2_MIN || tx_log2 > SKIF_RING_LOG2_MAX)
        return -EINVAL;
    if ((rc = be->ops->reg_read(be, SKIF_REG_CH_NUM, &nchans)) < 0)
        return rc;
    if (nchans < 2 || nchans > SKIF_CHANS_MAX)
        return -EPROTO;
    if ((rc = skif_dma_alloc(dev, (size_t)1 << tx_log2, 4096, &dev->tx_mem)) < 0)
        return rc;
    if ((rc = skif_dma_alloc(dev, SKIF_STAT_CH_TAIL + 8u * nchans, 64, &dev->st_mem)) < 0)
        goto err_free_tx;
    uint64_t tx = dev->tx_mem.bus, st = dev->st_mem.bus;
    be->ops->reg_write(be, SKIF_REG_TX_BASE_LO, (uint32_t)tx);
    be->ops->reg_write(be, SKIF_REG_TX_BASE_HI, (uint32_t)(tx >> 32));
    be->ops->reg_write(be, SKIF_REG_TX_SIZE, tx_log2);
    be->ops->reg_write(be, SKIF_REG_STAT_BASE_LO, (uint32_t)st);
    be->ops->reg_write(be, SKIF_REG_STAT_BASE_HI, (uint32_t)(st >> 32));
    be->ops->reg_write(be, SKIF_REG_CTRL, SKIF_CTRL_TX_EN | SKIF_CTRL_RX_EN | SKIF_CTRL_IRQ_EN);
    if ((rc = be->ops->flush(be)) < 0)
        goto err_free_st;
    dev->tx = (struct ring){dev->tx_mem.va, tx, 1u << tx_log2};
    dev->stat = dev->st_mem.va;
    dev->tx_tail = 0;
    dev->nchans = (int)nchans;
    dev->up = 1;
    return 0;

err_free_st:
    skif_dma_free(dev, &dev->st_mem);
err_free_tx:
    skif_dma_free(dev, &dev->tx_mem);
    return rc;
}

int skif_dev_channels(const struct skif_dev *dev)
{
    return dev->nchans;
}

static uint32_t tx_hw_head(const struct skif_dev *dev)
{
    return (uint32_t)dev->stat[SKIF_STAT_TX_HEAD / 8];
}

size_t skif_tx_space(const struct skif_dev *dev)
{
    if (!dev->up)
        return 0;
    uint32_t free_b = dev->tx.size - (dev->tx_tail - tx_hw_head(dev));
    if (free_b < 8)
        return 0;
    return free_b - 8 < SKIF_MAX_MSG ? free_b - 8 : SKIF_MAX_MSG;
}

int skif_tx_idle(const struct skif_dev *dev)
{
    return !dev->up || tx_hw_head(dev) == dev->tx_tail;
}

/* Copy n bytes into ring r at free-running offset off, wrapping. */
static void ring_put(const struct ring *r, uint32_t off, const void *src, size_t n)
{
    uint32_t pos = off & (r->size - 1);
    size_t first = r->size - pos < n ? r->size - pos : n;
    memcpy(r->va + pos, src, first);
    if (n > first)
        memcpy(r->va, (const uint8_t *)src + first, n - first);
}

/* Is `node` (16 bits) a node id of this torus? */
static inline int node_ok(const struct skif_dev *dev, uint32_t node)
{
    return (dev->node_valid[node >> 5] >> (node & 31)) & 1;
}

int skif_tx_check(const struct skif_dev *dev, uint32_t dst_netaddr)
{
    if (!dev->up || (dst_netaddr >> 24) != 0 || (dst_netaddr & 0xffu) >= (uint32_t)dev->nchans)
        return -EINVAL;
    if (!node_ok(dev, (dst_netaddr >> SKIF_NA_NODE_LO) & 0xffffu))
        return -EHOSTUNREACH;
    return 0;
}

int skif_tx_post(struct skif_dev *dev, uint32_t dst_netaddr, const struct iovec *iov, int iov_count,
                 size_t len)
{
    int rc = skif_tx_check(dev, dst_netaddr);
    if (rc < 0)
        return rc;
    if (len > SKIF_MAX_MSG || iov_count < 0 || (iov_count > 0 && !iov))
        return -EINVAL;
    if (skif_tx_space(dev) < len)
        return -EAGAIN;
    uint64_t desc = (uint64_t)dst_netaddr | ((uint64_t)len << SKIF_DESC_LEN_LO);
    uint32_t off = dev->tx_tail;
    uint32_t pos = off & (dev->tx.size - 1);
    if (iov_count == 1 && pos + 8 + len <= dev->tx.size) {
        /* the common case: one piece, no wrap */
        if (len && !iov[0].iov_base)
            return -EINVAL;
        if (iov[0].iov_len < len)
            return -EINVAL;
        memcpy(dev->tx.va + pos, &desc, 8);
        memcpy(dev->tx.va + pos + 8, iov[0].iov_base, len);
    } else {
        ring_put(&dev->tx, off, &desc, 8);
        off += 8;
        size_t left = len;
        for (int i = 0; i < iov_count && left; i++) {
            size_t n = iov[i].iov_len < left ? iov[i].iov_len : left;
            if (n && !iov[i].iov_base)
                return -EINVAL;
            ring_put(&dev->tx, off, iov[i].iov_base, n);
            off += (uint32_t)n;
            left -= n;
        }
        if (left)
            return -EINVAL; /* iov shorter than len; the tail was not moved */
    }
    dev->tx_tail += 8 + round8((uint32_t)len);
    return dev->be->ops->reg_write(dev->be, SKIF_REG_TX_TAIL, dev->tx_tail);
}

/* ------------------------------------------------------------ channels */

/* Select channel id in the CH_* window and write CH_CFG. */
static int chan_cfg(struct skif_dev *dev, int id, uint64_t base, uint32_t cfg)
{
    struct skif_backend *be = dev->be;
    be->ops->reg_write(be, SKIF_REG_CH_SEL, (uint32_t)id);
    be->ops->reg_write(be, SKIF_REG_CH_BASE_LO, (uint32_t)base);
    be->ops->reg_write(be, SKIF_REG_CH_BASE_HI, (uint32_t)(base >> 32));
    be->ops->reg_write(be, SKIF_REG_CH_CFG, cfg);
    return be->ops->flush(be);
}

int skif_chan_open(struct skif_dev *dev, int id, unsigned log2, struct skif_chan **chp)
{
    if (!dev->up)
        return -EINVAL;
    if (id < 0 || id >= dev->nchans || log2 < SKIF_RING_LOG2_MIN || log2 > SKIF_RING_LOG2_MAX)
        return -EINVAL;
    if (dev->chan[id])
        return -EBUSY;
    struct skif_chan *ch = calloc(1, sizeof(*ch));
    if (!ch)
        return -ENOMEM;
    int rc = skif_dma_alloc(dev, (size_t)1 << log2, 4096, &ch->mem);
    if (rc < 0)
        goto err_free;
    ch->dev = dev;
    ch->id = id;
    ch->ring = (struct ring){ch->mem.va, ch->mem.bus, 1u << log2};
    ch->tail = dev->stat + (SKIF_STAT_CH_TAIL / 8) + id;
    ch->reg_head = SKIF_REG_CH_HEAD + 4u * (uint32_t)id;
    /* the adapter starts the channel at head = tail = 0; its status word
     * may still hold the tail of an earlier opening */
    *(volatile uint64_t *)ch->tail = 0;
    if ((rc = chan_cfg(dev, id, ch->mem.bus, log2 | SKIF_CH_CFG_EN)) < 0)
        goto err_mem;
    dev->chan[id] = ch;
    dev->nopen++;
    *chp = ch;
    return 0;

err_mem:
    skif_dma_free(dev, &ch->mem);
err_free:
    free(ch);
    return rc;
}

int skif_chan_close(struct skif_chan *ch)
{
    struct skif_dev *dev = ch->dev;
    int rc = chan_cfg(dev, ch->id, 0, 0);
    /* The adapter finishes a message it is writing into the ring; the ring
     * is freed only after that. */
    for (int i = 0; rc == 0; i++) {
        uint32_t v;
        if ((rc = dev->be->ops->reg_read(dev->be, SKIF_REG_CH_CFG, &v)) < 0)
            break;
        if (!(v & SKIF_CH_CFG_BUSY))
            break;
        if (i > 1000000) {
            rc = -EIO;
            break;
        }
    }
    dev->chan[ch->id] = NULL;
    dev->nopen--;
    skif_dma_free(dev, &ch->mem);
    free(ch);
    return rc < 0 ? rc : 0;
}

int skif_chan_id(const struct skif_chan *ch)
{
    return ch->id;
}

int skif_rx_next(struct skif_chan *ch, struct skif_rx_msg *m)
{
    uint32_t tail = (uint32_t)*ch->tail;
    uint32_t at = ch->read;
    if (tail == at)
        return 0;
    const struct ring *r = &ch->ring;
    uint64_t hdr = *(const volatile uint64_t *)(r->va + (at & (r->size - 1)));
    uint32_t len = (uint32_t)(hdr >> 32) & 0xfffu;
    uint32_t entry = 8 + round8(len);
    if ((hdr >> 44) != 0 || ((hdr >> 24) & 0xffu) != 0 || len > SKIF_MAX_MSG || tail - at < entry ||
        tail - ch->head > r->size)
        return -EPROTO;
    uint32_t pos = (at + 8) & (r->size - 1);
    m->chan = (uint32_t)hdr & 0xffu;
    m->src_node = (uint32_t)(hdr >> 8) & 0xffffu;
    m->len = len;
    m->part[0].iov_base = r->va + pos;
    if (pos + len > r->size) {
        m->part[0].iov_len = r->size - pos;
        m->part[1].iov_base = r->va;
        m->part[1].iov_len = len - m->part[0].iov_len;
        m->nparts = 2;
    } else {
        m->part[0].iov_len = len;
        m->nparts = 1;
    }
    ch->read = at + entry;
    return 1;
}

int skif_rx_complete(struct skif_chan *ch)
{
    if (ch->head == ch->read)
        return -ENOENT;
    /* The header was checked when the message was taken. */
    const struct ring *r = &ch->ring;
    uint64_t hdr = *(const volatile uint64_t *)(r->va + (ch->head & (r->size - 1)));
    uint32_t entry = 8 + round8((uint32_t)(hdr >> 32) & 0xfffu);
    ch->head += entry;
    /* The adapter learns the new head once a quarter of the ring is freed,
     * or before the program next waits (skif_dev_wait): one register write
     * per many messages. */
    ch->lazy += entry;
    if (ch->lazy < r->size / 4)
        return 0;
    ch->lazy = 0;
    ch->head_hw = ch->head;
    return ch->dev->be->ops->reg_write(ch->dev->be, ch->reg_head, ch->head);
}
