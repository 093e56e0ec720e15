/* SPDX-License-Identifier: Apache-2.0 */
/* skif_ring.h: the driver's hot path, inline: posting a message into the TX
 * ring, taking and completing messages of a receive channel (their common
 * case; the rarer cases, such as an entry at the ring's end or the head due
 * at the adapter, are calls). These touch only host memory and, for the
 * doorbells, the backend's posted-write call; everything else (set-up,
 * channel open/close, waits) lives in skif_dev.c.
 * Included by skif_dev.h; the structures below are the driver's, exposed
 * only so these functions can be inlined into the SkifCh library. */
#ifndef SKIF_RING_H
#define SKIF_RING_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "skif_backend.h"
#include "skif_hw.h"

struct skif_dev;

/* A ring in host memory: 2^k bytes at va (bus address bus). */
struct skif_ring {
    uint8_t *va;
    uint64_t bus;
    uint32_t size;
};

/* The TX side of a device (one per node). */
struct skif_txq {
    struct skif_ring ring;
    const volatile uint64_t *head; /* the status block's TX head word */
    uint32_t tail;                 /* software producer pointer */
    uint32_t nchans;               /* channels of the adapter (0: not set up) */
    const uint32_t *node_valid;    /* bit per 16-bit node id: a node of this torus */
    volatile uint32_t *doorbell;   /* where TX_TAIL doorbells are stored */
};

/* An open receive channel. The fields Recv and RecvComp use come first. */
struct skif_chan {
    uint32_t read;        /* next entry to take */
    uint32_t taken;       /* messages taken, not completed */
    const uint64_t *tail; /* its word in the status block (read atomically) */
    uint8_t *va;          /* ring.va */
    uintptr_t end;        /* ring.va + ring.size */
    size_t mask;          /* ring.size - 1 */
    uint32_t head;        /* oldest entry taken, not completed */
    uint32_t head_post;   /* head_hw + quarter: the head is posted when it gets there */
    uint32_t head_hw;     /* last head written to CH_HEAD */
    uint32_t quarter;     /* ring size / 4: the head is posted every quarter */
    uint32_t reg_head;    /* SKIF_REG_CH_HEAD + 4 * id */
    struct skif_ring ring;
    int id;
    struct skif_dev *dev;
    void *mem_va; /* the ring's DMA block, for freeing */
    size_t mem_size;
};

/* Copy n bytes into ring r at free-running offset off, wrapping at its
 * end (the TX ring's writers: messages, collective and RMA descriptors). */
static inline void skif_ring_put(const struct skif_ring *r, uint32_t off, const void *src, size_t n)
{
    uint32_t pos = off & (r->size - 1);
    size_t first = r->size - pos < n ? r->size - pos : n;
    memcpy(r->va + pos, src, first);
    if (n > first)
        memcpy(r->va, (const uint8_t *)src + first, n - first);
}

/* the hot path is always inlined: a call would cost more than the work */
#define SKIF_HOT static inline __attribute__((always_inline))

static inline uint32_t skif_round8(uint32_t n)
{
    return (n + 7u) & ~7u;
}

/* The length field of the ring entry (or TX descriptor) at e: bits [63:32]
 * of its 64-bit header word (host byte order), read as one 32-bit load. */
static inline uint32_t skif_entry_len(const uint8_t *e)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t len;
    memcpy(&len, e + 4, 4);
    return len;
#else
    uint64_t hdr;
    memcpy(&hdr, e, 8);
    return (uint32_t)(hdr >> 32);
#endif
}

/* 0, -EINVAL (reserved bits, channel >= nchans, not set up) or -EHOSTUNREACH. */
SKIF_HOT int skif_txq_check(const struct skif_txq *q, uint32_t dst)
{
    if ((dst >> 24) != 0 || (dst & 0xffu) >= q->nchans)
        return -EINVAL;
    uint32_t node = (dst >> SKIF_NA_NODE_LO) & 0xffffu;
    if (!((q->node_valid[node >> 5] >> (node & 31)) & 1))
        return -EHOSTUNREACH;
    return 0;
}

/* Bytes of payload a message may have to fit now (at most SKIF_MAX_MSG). */
static inline size_t skif_txq_space(const struct skif_txq *q)
{
    if (!q->nchans)
        return 0;
    uint32_t free_b = q->ring.size - (q->tail - (uint32_t)*q->head);
    if (free_b < 8)
        return 0;
    return free_b - 8 < SKIF_MAX_MSG ? free_b - 8 : SKIF_MAX_MSG;
}

/* skif_txq_post1 for a destination that skif_txq_check has already
 * accepted on this queue (a caller that sends to one destination many times
 * checks it once): 0, -EAGAIN or -EINVAL (len or buf). */
SKIF_HOT int skif_txq_put1(struct skif_txq *q, uint32_t dst, const void *buf, size_t len)
{
    if (len > SKIF_MAX_MSG || (len && !buf))
        return -EINVAL;
    uint32_t entry = 8 + skif_round8((uint32_t)len);
    uint32_t size = q->ring.size, tail = q->tail;
    if (size - (tail - (uint32_t)*q->head) < entry)
        return -EAGAIN;
    uint32_t pos = tail & (size - 1);
    uint64_t desc = (uint64_t)dst | ((uint64_t)len << SKIF_DESC_LEN_LO);
    if (pos + entry <= size) {
        uint8_t *d = q->ring.va + pos;
        memcpy(d, &desc, 8);
        if (len <= 64) {
            /* short messages: word copies, no library call */
            const uint8_t *src = (const uint8_t *)buf;
            size_t i = 0;
            for (; i + 8 <= len; i += 8) {
                uint64_t w;
                memcpy(&w, src + i, 8);
                memcpy(d + 8 + i, &w, 8);
            }
            for (; i < len; i++)
                d[8 + i] = src[i];
        } else {
            memcpy(d + 8, buf, len);
        }
    } else {
        /* wraps: descriptor and payload word by word */
        const uint8_t *src = (const uint8_t *)buf;
        memcpy(q->ring.va + pos, &desc, 8);
        for (uint32_t at = 8; at < 8 + len; at++)
            q->ring.va[(tail + at) & (size - 1)] = src[at - 8];
    }
    q->tail = tail + entry;
    *q->doorbell = tail + entry; /* TX_TAIL doorbell */
    return 0;
}

/* Post one message of len bytes from buf (one piece) to dst and ring the
 * doorbell: 0, -EAGAIN (does not fit now; nothing written), -EINVAL,
 * -EHOSTUNREACH. */
SKIF_HOT int skif_txq_post1(struct skif_txq *q, uint32_t dst, const void *buf, size_t len)
{
    int rc = skif_txq_check(q, dst);
    if (rc < 0)
        return rc;
    return skif_txq_put1(q, dst, buf, len);
}

/* The end of skif_chan_take_fast for an entry whose payload (part[0], as
 * if it did not wrap) reaches the ring's end: it may start at the ring's
 * start, or go on there (2 parts). Returns its length. Out of line
 * (skif_dev.c). */
ssize_t skif_chan_take_end(struct skif_chan *ch, struct iovec *part, int *nparts);

/* Take the channel's next message in the common case: its length (>= 0)
 * with part[0..*nparts) pointing into the ring (2 parts when it wraps the
 * ring's end); -1 when there is none or it is malformed (nothing changed;
 * skif_chan_take says which). */
SKIF_HOT ssize_t skif_chan_take_fast(struct skif_chan *ch, struct iovec *part, int *nparts)
{
    uint32_t at = ch->read;
    /* the tail word, then (ordered after it) the entry it covers */
    uint32_t avail = (uint32_t)__atomic_load_n(ch->tail, __ATOMIC_ACQUIRE) - at;
    /* the header; entries are 8-aligned, so it never wraps */
    uint8_t *e = ch->va + (at & ch->mask);
    /* read even when the ring is empty (avail == 0): a stale word, then
     * ignored; one test covers empty, short and oversized entries (reserved
     * bits [63:44] make len huge) */
    size_t len = skif_entry_len(e);
    size_t entry = (len + 15) & ~(size_t)7; /* 8 + round8(len) */
    if (__builtin_expect(avail < entry || len > SKIF_MAX_MSG, 0))
        return -1;
    ch->read = at + (uint32_t)entry;
    ch->taken++;
    part[0].iov_base = e + 8;
    part[0].iov_len = len;
    *nparts = 1;
    if (__builtin_expect((uintptr_t)e + entry >= ch->end, 0)) { /* reaches the ring's end */
        ssize_t n = skif_chan_take_end(ch, part, nparts);
        if (n < 0)
            __builtin_unreachable(); /* it returns len: a tail call */
        return n;
    }
    return (ssize_t)len;
}

/* Take the channel's next message: as skif_chan_take_fast, or -EAGAIN when
 * none is there, -EPROTO a malformed entry. Out of line (skif_dev.c). */
ssize_t skif_chan_take(struct skif_chan *ch, struct iovec *part, int *nparts);

/* Complete the oldest taken message in the common case: it is the only one
 * taken and the head need not reach the adapter yet. 1 done, 0 nothing
 * changed (skif_chan_complete does the rest). */
SKIF_HOT int skif_chan_complete_fast(struct skif_chan *ch)
{
    uint32_t head = ch->read;
    if (__builtin_expect(ch->taken != 1 || (int32_t)(head - ch->head_post) >= 0, 0))
        return 0;
    ch->taken = 0;
    ch->head = head;
    return 1;
}

/* Free the ring space of the oldest taken message: 0, -ENOENT none taken,
 * -EPIPE. The adapter is told once a quarter of the ring is free (or at the
 * next skif_dev_wait). Out of line (skif_dev.c). */
int skif_chan_complete(struct skif_chan *ch);

#endif /* SKIF_RING_H */
