/* SPDX-License-Identifier: Apache-2.0 */
/* skif_dev.c: the C driver (see skif_dev.h): registers, DMA memory, rings. */
#define _POSIX_C_SOURCE 200809L
#include "skif_dev.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "skif_backend.h"

#define MAX_ALLOCS 64

struct ring {
    uint8_t *va;
    uint64_t bus;
    uint32_t size; /* bytes, power of two */
};

struct skif_dev {
    struct skif_backend *be;
    size_t brk;                   /* first free byte of the DMA heap */
    size_t alloc_off[MAX_ALLOCS]; /* stack of allocations (start offsets) */
    int nalloc;
    int rings_up;
    struct ring tx, rx;
    volatile uint64_t *stat;   /* status block written by the adapter */
    uint32_t tx_tail;          /* software producer pointer */
    uint32_t rx_read;          /* next entry to take */
    uint32_t rx_head;          /* oldest entry taken, not completed */
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
    if (dev->rings_up) {
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

int skif_dev_wait(struct skif_dev *dev, uint64_t max_cycles)
{
    return dev->be->ops->wait(dev->be, max_cycles);
}

/* ------------------------------------------------------------ DMA memory */

int skif_dma_alloc(struct skif_dev *dev, size_t size, size_t align, struct skif_dma *mem)
{
    if (size == 0 || align < 8 || (align & (align - 1)) || align > (1u << 24))
        return -EINVAL;
    if (dev->nalloc == MAX_ALLOCS)
        return -ENOMEM;
    size_t start = (dev->brk + align - 1) & ~(align - 1);
    if (start > dev->be->mem_size || size > dev->be->mem_size - start)
        return -ENOMEM;
    dev->alloc_off[dev->nalloc++] = dev->brk;
    dev->brk = start + size;
    memset(dev->be->mem + start, 0, size);
    mem->va = dev->be->mem + start;
    mem->bus = dev->be->bus_base + start;
    mem->size = size;
    return 0;
}

void skif_dma_free(struct skif_dev *dev, struct skif_dma *mem)
{
    if (!mem || !mem->va || dev->nalloc == 0)
        return;
    size_t start = (size_t)((uint8_t *)mem->va - dev->be->mem);
    /* Only the top of the stack returns its space. */
    if (start + mem->size == dev->brk) {
        dev->brk = dev->alloc_off[--dev->nalloc];
    }
    mem->va = NULL;
}

/* ------------------------------------------------------------ rings */

int skif_rings_setup(struct skif_dev *dev, unsigned tx_log2, unsigned rx_log2)
{
    struct skif_dma tx, rx, st;
    int rc;
    if (dev->rings_up)
        return -EBUSY;
    if (tx_log2 < SKIF_RING_LOG2_MIN || tx_log2 > SKIF_RING_LOG2_MAX ||
        rx_log2 < SKIF_RING_LOG2_MIN || rx_log2 > SKIF_RING_LOG2_MAX)
        return -EINVAL;
    if ((rc = skif_dma_alloc(dev, (size_t)1 << tx_log2, 4096, &tx)) < 0)
        return rc;
    if ((rc = skif_dma_alloc(dev, (size_t)1 << rx_log2, 4096, &rx)) < 0)
        goto err_free_tx;
    if ((rc = skif_dma_alloc(dev, 64, 64, &st)) < 0)
        goto err_free_rx;
    struct skif_backend *be = dev->be;
    be->ops->reg_write(be, SKIF_REG_TX_BASE_LO, (uint32_t)tx.bus);
    be->ops->reg_write(be, SKIF_REG_TX_BASE_HI, (uint32_t)(tx.bus >> 32));
    be->ops->reg_write(be, SKIF_REG_TX_SIZE, tx_log2);
    be->ops->reg_write(be, SKIF_REG_RX_BASE_LO, (uint32_t)rx.bus);
    be->ops->reg_write(be, SKIF_REG_RX_BASE_HI, (uint32_t)(rx.bus >> 32));
    be->ops->reg_write(be, SKIF_REG_RX_SIZE, rx_log2);
    be->ops->reg_write(be, SKIF_REG_STAT_BASE_LO, (uint32_t)st.bus);
    be->ops->reg_write(be, SKIF_REG_STAT_BASE_HI, (uint32_t)(st.bus >> 32));
    be->ops->reg_write(be, SKIF_REG_CTRL, SKIF_CTRL_TX_EN | SKIF_CTRL_RX_EN | SKIF_CTRL_IRQ_EN);
    if ((rc = be->ops->flush(be)) < 0)
        goto err_free_st;
    dev->tx = (struct ring){tx.va, tx.bus, 1u << tx_log2};
    dev->rx = (struct ring){rx.va, rx.bus, 1u << rx_log2};
    dev->stat = st.va;
    dev->tx_tail = dev->rx_read = dev->rx_head = 0;
    dev->rings_up = 1;
    return 0;

err_free_st:
    skif_dma_free(dev, &st);
err_free_rx:
    skif_dma_free(dev, &rx);
err_free_tx:
    skif_dma_free(dev, &tx);
    return rc;
}

static uint32_t tx_hw_head(const struct skif_dev *dev)
{
    return (uint32_t)dev->stat[SKIF_STAT_TX_HEAD / 8];
}

static uint32_t rx_hw_tail(const struct skif_dev *dev)
{
    return (uint32_t)dev->stat[SKIF_STAT_RX_TAIL / 8];
}

size_t skif_tx_space(const struct skif_dev *dev)
{
    if (!dev->rings_up)
        return 0;
    uint32_t free_b = dev->tx.size - (dev->tx_tail - tx_hw_head(dev));
    if (free_b < 8)
        return 0;
    return free_b - 8 < SKIF_MAX_MSG ? free_b - 8 : SKIF_MAX_MSG;
}

int skif_tx_idle(const struct skif_dev *dev)
{
    return !dev->rings_up || tx_hw_head(dev) == dev->tx_tail;
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

int skif_tx_post(struct skif_dev *dev, uint32_t dst_netaddr, const struct iovec *iov, int iov_count,
                 size_t len)
{
    if (!dev->rings_up || len > SKIF_MAX_MSG || (dst_netaddr >> 24) != 0 || iov_count < 0 ||
        (iov_count > 0 && !iov))
        return -EINVAL;
    if (!node_ok(dev, (dst_netaddr >> SKIF_NA_NODE_LO) & 0xffffu))
        return -EHOSTUNREACH;
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

static int rx_header(const struct skif_dev *dev, uint32_t at, uint64_t *hdr)
{
    *hdr = *(const volatile uint64_t *)(dev->rx.va + (at & (dev->rx.size - 1)));
    uint32_t len = (uint32_t)(*hdr >> 32) & 0xfffu;
    if ((*hdr >> 44) != 0 || ((*hdr >> 24) & 0xffu) != 0 || len > SKIF_MAX_MSG)
        return -EPROTO;
    return (int)len;
}

int skif_rx_next(struct skif_dev *dev, struct skif_rx_msg *m)
{
    if (!dev->rings_up)
        return -EINVAL;
    uint32_t tail = rx_hw_tail(dev);
    if (tail == dev->rx_read)
        return 0;
    uint64_t hdr;
    int len = rx_header(dev, dev->rx_read, &hdr);
    if (len < 0 || tail - dev->rx_read < 8 + round8((uint32_t)len))
        return -EPROTO;
    uint32_t pos = (dev->rx_read + 8) & (dev->rx.size - 1);
    m->chan = (uint32_t)hdr & 0xffu;
    m->src_node = (uint32_t)(hdr >> 8) & 0xffffu;
    m->len = (uint32_t)len;
    m->part[0].iov_base = dev->rx.va + pos;
    if (pos + (uint32_t)len > dev->rx.size) {
        m->part[0].iov_len = dev->rx.size - pos;
        m->part[1].iov_base = dev->rx.va;
        m->part[1].iov_len = (size_t)len - m->part[0].iov_len;
        m->nparts = 2;
    } else {
        m->part[0].iov_len = (size_t)len;
        m->part[1].iov_base = NULL;
        m->part[1].iov_len = 0;
        m->nparts = 1;
    }
    if (dev->rx_read - dev->rx_head >= dev->rx.size) /* cannot happen: the ring holds it */
        return -EPROTO;
    dev->rx_read += 8 + round8((uint32_t)len);
    return 1;
}

int skif_rx_complete(struct skif_dev *dev)
{
    if (dev->rx_head == dev->rx_read)
        return -ENOENT;
    /* The header was checked when the message was taken. The new head
     * reaches the adapter at the next flush (the backend combines it with an
     * earlier RX_HEAD write still waiting). */
    uint64_t hdr = *(const volatile uint64_t *)(dev->rx.va + (dev->rx_head & (dev->rx.size - 1)));
    dev->rx_head += 8 + round8((uint32_t)(hdr >> 32) & 0xfffu);
    return dev->be->ops->reg_write(dev->be, SKIF_REG_RX_HEAD, dev->rx_head);
}
