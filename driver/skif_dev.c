/* SPDX-License-Identifier: Apache-2.0 */
/* skif_dev.c: the C driver (see skif_dev.h): registers, DMA memory, rings. */
#define _POSIX_C_SOURCE 200809L
#include "skif_dev.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "skif_backend.h"
#include "skif_node.h"

#define MAX_ALLOCS 512

/* One block of the DMA heap: [off, off + size), `brk_before` the heap's end
 * before it was carved. */
struct block {
    size_t off, size, brk_before;
    int free;
};

struct skif_dev {
    struct skif_backend *be;
    size_t brk; /* first free byte of the DMA heap */
    struct block blk[MAX_ALLOCS];
    int nblk;
    struct skif_txq txq; /* txq.nchans != 0 once skif_dev_setup() is done */
    struct skif_dma tx_mem, st_mem;
    volatile uint64_t *stat; /* status block written by the adapter */
    struct skif_chan *chan[SKIF_CHANS_MAX];
    int nopen;
    uint32_t node_valid[2048]; /* bit per 16-bit node id: a node of this torus */
    struct skif_dev *next;     /* the process's other open devices (g_devs) */
};

/* The process's open devices, for quiesce_at_exit(). */
static struct skif_dev *g_devs;

#define round8 skif_round8

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
    dev->txq.node_valid = dev->node_valid;
    dev->txq.doorbell = dev->be->tx_doorbell;
    for (int r = 0; r < dev->be->size; r++) {
        uint32_t id;
        skif_dev_rank_node(dev, r, &id);
        dev->node_valid[id >> 5] |= 1u << (id & 31);
    }
    dev->next = g_devs;
    g_devs = dev;
    *devp = dev;
    return 0;
}

void skif_dev_close(struct skif_dev *dev)
{
    if (!dev)
        return;
    for (uint32_t c = 0; c < dev->txq.nchans; c++)
        if (dev->chan[c])
            skif_chan_close(dev->chan[c]);
    if (dev->txq.nchans) {
        /* RX stays on with every channel closed: later messages to this
         * node are discarded and counted, not left to hold up its link */
        dev->be->ops->reg_write(dev->be, SKIF_REG_CTRL, SKIF_CTRL_RX_EN);
        dev->be->ops->flush(dev->be);
    }
    for (struct skif_dev **p = &g_devs; *p; p = &(*p)->next)
        if (*p == dev) {
            *p = dev->next;
            break;
        }
    dev->be->ops->close(dev->be);
    free(dev);
}

/* The program ends with devices open (it did not close its channels): close
 * every channel in the adapter, so that messages still coming to this node
 * are discarded and counted instead of filling rings nobody reads and then
 * holding up the link. TX stays on to send what was posted. Nothing is
 * freed (a destructor runs after the program's own exit handlers, which may
 * still have used the device). */
__attribute__((destructor)) static void quiesce_at_exit(void)
{
    for (struct skif_dev *dev = g_devs; dev; dev = dev->next) {
        struct skif_backend *be = dev->be;
        if (!dev->txq.nchans)
            continue;
        for (uint32_t c = 0; c < dev->txq.nchans; c++)
            if (dev->chan[c]) {
                be->ops->reg_write(be, SKIF_REG_CH_SEL, c);
                be->ops->reg_write(be, SKIF_REG_CH_CFG, 0);
            }
        be->ops->reg_write(be, SKIF_REG_CTRL, SKIF_CTRL_TX_EN | SKIF_CTRL_RX_EN);
        be->ops->flush(be);
    }
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
    int c[SKIF_NODE_DIMS];
    skif_rank_coords(rank, dev->be->dims, c);
    *node = skif_node_id(c);
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

/* Write the channel's head to the adapter now. */
static int head_post(struct skif_chan *ch)
{
    ch->head_hw = ch->head;
    ch->head_post = ch->head + ch->quarter;
    return ch->dev->be->ops->reg_write(ch->dev->be, ch->reg_head, ch->head);
}

/* Tell the adapter every head that skif_rx_complete() kept back. */
static int heads_flush(struct skif_dev *dev)
{
    if (dev->nopen == 0)
        return 0;
    for (uint32_t c = 0; c < dev->txq.nchans; c++) {
        struct skif_chan *ch = dev->chan[c];
        if (ch && ch->head_hw != ch->head) {
            int rc = head_post(ch);
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

int skif_dma_map_at(struct skif_dev *dev, const struct skif_dma *m, void *addr)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    if (dev->be->mem_fd < 0)
        return -ENOTSUP;
    if (m->va < (void *)dev->be->mem || (uintptr_t)addr % pg || m->size % pg)
        return -EINVAL;
    size_t off = (size_t)((uint8_t *)m->va - dev->be->mem);
    if (off % pg || off > dev->be->mem_size || m->size > dev->be->mem_size - off)
        return -EINVAL;
    void *r = mmap(addr, m->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, dev->be->mem_fd,
                   (off_t)off);
    return r == MAP_FAILED ? -errno : 0;
}

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
    if (dev->txq.nchans)
        return -EBUSY;
    if (tx_log2 < SKIF_RING_LOG2_MIN || tx_log2 > SKIF_RING_LOG2_MAX)
        return -EINVAL;
    uint32_t head;
    if ((rc = be->ops->reg_read(be, SKIF_REG_CH_NUM, &nchans)) < 0 ||
        (rc = be->ops->reg_read(be, SKIF_REG_TX_HEAD, &head)) < 0)
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
    dev->stat = dev->st_mem.va;
    dev->txq.ring = (struct skif_ring){dev->tx_mem.va, tx, 1u << tx_log2};
    dev->txq.head = dev->stat + SKIF_STAT_TX_HEAD / 8;
    /* The adapter's ring pointers run on from an earlier set-up of this
     * process (they are offsets from the base): start where it stands. */
    dev->stat[SKIF_STAT_TX_HEAD / 8] = head;
    dev->txq.tail = head;
    dev->txq.nchans = nchans;
    return 0;

err_free_st:
    skif_dma_free(dev, &dev->st_mem);
err_free_tx:
    skif_dma_free(dev, &dev->tx_mem);
    return rc;
}

int skif_dev_channels(const struct skif_dev *dev)
{
    return (int)dev->txq.nchans;
}

struct skif_txq *skif_dev_txq(struct skif_dev *dev)
{
    return &dev->txq;
}

size_t skif_tx_space(const struct skif_dev *dev)
{
    return skif_txq_space(&dev->txq);
}

int skif_tx_idle(const struct skif_dev *dev)
{
    return !dev->txq.nchans || (uint32_t)*dev->txq.head == dev->txq.tail;
}

int skif_tx_check(const struct skif_dev *dev, uint32_t dst_netaddr)
{
    return skif_txq_check(&dev->txq, dst_netaddr);
}

int skif_tx_post(struct skif_dev *dev, uint32_t dst_netaddr, const struct iovec *iov, int iov_count,
                 size_t len)
{
    struct skif_txq *q = &dev->txq;
    int rc = skif_txq_check(q, dst_netaddr);
    if (rc < 0)
        return rc;
    if (len > SKIF_MAX_MSG || iov_count < 0 || (iov_count > 0 && !iov))
        return -EINVAL;
    if (iov_count == 1) {
        if (iov[0].iov_len < len)
            return -EINVAL;
        return skif_txq_post1(q, dst_netaddr, iov[0].iov_base, len);
    }
    if (skif_txq_space(q) < len)
        return -EAGAIN;
    uint64_t desc = (uint64_t)dst_netaddr | ((uint64_t)len << SKIF_DESC_LEN_LO);
    uint32_t off = q->tail;
    skif_ring_put(&q->ring, off, &desc, 8);
    off += 8;
    size_t left = len;
    for (int i = 0; i < iov_count && left; i++) {
        size_t n = iov[i].iov_len < left ? iov[i].iov_len : left;
        if (n && !iov[i].iov_base)
            return -EINVAL;
        skif_ring_put(&q->ring, off, iov[i].iov_base, n);
        off += (uint32_t)n;
        left -= n;
    }
    if (left)
        return -EINVAL; /* iov shorter than len; the tail was not moved */
    q->tail += 8 + round8((uint32_t)len);
    *q->doorbell = q->tail; /* TX_TAIL doorbell */
    return 0;
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
    if (!dev->txq.nchans)
        return -EINVAL;
    if (id < 0 || id >= (int)dev->txq.nchans || log2 < SKIF_RING_LOG2_MIN ||
        log2 > SKIF_RING_LOG2_MAX)
        return -EINVAL;
    if (dev->chan[id])
        return -EBUSY;
    struct skif_chan *ch = calloc(1, sizeof(*ch));
    if (!ch)
        return -ENOMEM;
    struct skif_dma mem;
    int rc = skif_dma_alloc(dev, (size_t)1 << log2, 4096, &mem);
    if (rc < 0)
        goto err_free;
    ch->dev = dev;
    ch->id = id;
    ch->mem_va = mem.va;
    ch->mem_size = mem.size;
    ch->ring = (struct skif_ring){mem.va, mem.bus, 1u << log2};
    ch->va = mem.va;
    ch->end = (uintptr_t)mem.va + ((size_t)1 << log2);
    ch->mask = (1u << log2) - 1;
    ch->quarter = (1u << log2) / 4;
    ch->head_post = ch->quarter; /* head = head_hw = 0 */
    ch->tail = (const uint64_t *)(uintptr_t)(dev->stat + (SKIF_STAT_CH_TAIL / 8) + id);
    ch->reg_head = SKIF_REG_CH_HEAD + 4u * (uint32_t)id;
    /* the adapter starts the channel at head = tail = 0; its status word
     * may still hold the tail of an earlier opening */
    __atomic_store_n((uint64_t *)(uintptr_t)ch->tail, 0, __ATOMIC_RELEASE);
    if ((rc = chan_cfg(dev, id, mem.bus, log2 | SKIF_CH_CFG_EN)) < 0)
        goto err_mem;
    dev->chan[id] = ch;
    dev->nopen++;
    *chp = ch;
    return 0;

err_mem:
    skif_dma_free(dev, &mem);
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
    struct skif_dma mem = {ch->mem_va, 0, ch->mem_size};
    skif_dma_free(dev, &mem);
    free(ch);
    return rc < 0 ? rc : 0;
}

int skif_chan_id(const struct skif_chan *ch)
{
    return ch->id;
}

ssize_t skif_chan_take_end(struct skif_chan *ch, struct iovec *part, int *nparts)
{
    size_t len = part[0].iov_len;
    size_t first = ch->end - (uintptr_t)part[0].iov_base; /* payload bytes before the end */
    if (first == 0) {
        part[0].iov_base = ch->va;
    } else if (first < len) {
        part[0].iov_len = first;
        part[1].iov_base = ch->va;
        part[1].iov_len = len - first;
        *nparts = 2;
    }
    return (ssize_t)len;
}

ssize_t skif_chan_take(struct skif_chan *ch, struct iovec *part, int *nparts)
{
    if ((uint32_t)__atomic_load_n(ch->tail, __ATOMIC_ACQUIRE) == ch->read)
        return -EAGAIN;
    /* an entry is there, whole (the tail only moves on): if the common
     * path does not take it, it is malformed */
    ssize_t len = skif_chan_take_fast(ch, part, nparts);
    return len >= 0 ? len : -EPROTO;
}

int skif_rx_next(struct skif_chan *ch, struct skif_rx_msg *m)
{
    uint32_t at = ch->read;
    ssize_t len = skif_chan_take(ch, m->part, &m->nparts);
    if (len == -EAGAIN)
        return 0;
    if (len < 0)
        return (int)len;
    uint64_t hdr = *(const volatile uint64_t *)(ch->ring.va + (at & (ch->ring.size - 1)));
    m->chan = (uint32_t)hdr & 0xffu;
    m->src_node = (uint32_t)(hdr >> 8) & 0xffffu;
    m->len = (uint32_t)len;
    if (m->nparts == 1) {
        m->part[1].iov_base = NULL;
        m->part[1].iov_len = 0;
    }
    return 1;
}

int skif_chan_complete(struct skif_chan *ch)
{
    if (skif_chan_complete_fast(ch))
        return 0;
    uint32_t head;
    if (ch->taken == 0)
        return -ENOENT;
    if (--ch->taken == 0) {
        head = ch->read; /* the only message taken */
    } else {
        /* the oldest of several: its header was checked when it was taken */
        head = ch->head;
        uint64_t hdr = *(const uint64_t *)(ch->va + (head & ch->mask));
        head += 8 + round8((uint32_t)(hdr >> 32));
    }
    ch->head = head;
    if ((int32_t)(head - ch->head_post) < 0)
        return 0;
    return head_post(ch);
}

int skif_rx_complete(struct skif_chan *ch)
{
    return skif_chan_complete(ch);
}
