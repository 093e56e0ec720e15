/* SPDX-License-Identifier: Apache-2.0 */
/* skif_dev.h: the C driver of the SkifCh network adapter.
 *
 * A process opens the node it is bound to (skifrun binds one process to each
 * simulated node), reads and writes the adapter's registers, allocates
 * DMA-able memory from the node's host memory, sets up the TX ring, opens
 * receive channels (each with its own ring, filled by the adapter's channel
 * demultiplexer), posts messages, and waits for device events without
 * burning CPU.
 *
 * Errors: every call that can fail returns a negative errno value (-EINVAL,
 * -EIO, -ENOMEM, -EAGAIN, -EPIPE, ...) and leaves its outputs untouched.
 * -EPIPE means the simulator is gone: the program should exit.
 *
 * Time: simulated time advances only while the program is blocked inside
 * skif_dev_wait(), skif_reg_read() or skif_reg_flush() (docs/architecture.md).
 * A program that spins on host memory without calling these never sees
 * anything change. */
#ifndef SKIF_DEV_H
#define SKIF_DEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "skif_hw.h"
#include "skif_ring.h"

#ifdef __cplusplus
extern "C" {
#endif

struct skif_dev;

/* A piece of DMA-able host memory. */
struct skif_dma {
    void *va;     /* address in this process */
    uint64_t bus; /* address the adapter uses */
    size_t size;  /* bytes */
};

/* A received message, as it lies in its channel's ring (zero-copy). */
struct skif_rx_msg {
    uint32_t src_node; /* sender's node id */
    uint32_t chan;     /* channel it was addressed to */
    uint32_t len;      /* payload bytes */
    int nparts;        /* 1, or 2 when the payload wraps the ring's end */
    struct iovec part[2];
};

/* Open the node this process is bound to (from the environment skifrun sets).
 * On success *devp is the device. Errors: -ENODEV not started by skifrun,
 * -EPROTO the host memory is not a skifsim node's, -ENOMEM. */
int skif_dev_open(struct skif_dev **devp);

/* Close the device: flushes posted writes, tells the simulator, frees all.
 * NULL is ignored. */
void skif_dev_close(struct skif_dev *dev);

/* This process's rank (0..size-1) and the number of nodes. */
int skif_dev_rank(const struct skif_dev *dev);
int skif_dev_size(const struct skif_dev *dev);

/* This node's id as the adapter uses it (coordinates packed 4 bits each). */
uint32_t skif_dev_node_id(const struct skif_dev *dev);

/* The node id of rank `rank`; -EINVAL outside 0..size-1. */
int skif_dev_rank_node(const struct skif_dev *dev, int rank, uint32_t *node);

/* The simulated cycle at the last return from the simulator, and the stated
 * clock (MHz) for turning cycles into time. */
uint64_t skif_dev_cycle(const struct skif_dev *dev);
uint32_t skif_dev_clock_mhz(const struct skif_dev *dev);

/* Read the 32-bit register at byte offset `off` into *val. Blocks for a
 * host-interface round trip. Errors: -EINVAL off outside the register map or
 * misaligned (checked here, not sent), -EIO the adapter rejected the access,
 * -EPIPE simulator gone. */
int skif_reg_read(struct skif_dev *dev, uint32_t off, uint32_t *val);

/* Post a write of `val` to the register at `off` (does not block; reaches the
 * adapter when the program next blocks). Errors: -EINVAL off outside the map
 * or misaligned, -EPIPE simulator gone. */
int skif_reg_write(struct skif_dev *dev, uint32_t off, uint32_t val);

/* Same as skif_reg_write() without the offset check, so tests can show what
 * the adapter does with a bad access. */
int skif_reg_write_raw(struct skif_dev *dev, uint32_t off, uint32_t val);

/* Same as skif_reg_read() without the offset check. */
int skif_reg_read_raw(struct skif_dev *dev, uint32_t off, uint32_t *val);

/* Block until every posted write has reached the adapter. Errors: -EIO the
 * adapter rejected at least one of them (the simulator names each), -EPIPE. */
int skif_reg_flush(struct skif_dev *dev);

/* Allocate `size` bytes of DMA-able host memory aligned to `align` (a power of
 * two, at least 8) into *mem, zero-filled. Errors: -EINVAL bad alignment or
 * size 0, -ENOMEM host memory exhausted. */
int skif_dma_alloc(struct skif_dev *dev, size_t size, size_t align, struct skif_dma *mem);

/* Map block m (from skif_dma_alloc(), its address and size multiples of
 * the page size) also at addr (page-aligned), replacing what was mapped
 * there: both addresses then show the same host memory. 0, -EINVAL bad
 * alignment or a block outside the host memory, -ENOTSUP the backend
 * cannot, or -errno from mmap. */
int skif_dma_map_at(struct skif_dev *dev, const struct skif_dma *m, void *addr);

/* Free memory from skif_dma_alloc(). A freed block is handed out again to a
 * request that fits in it; freed blocks at the end of the heap return their
 * space. All of it is released by skif_dev_close(). */
void skif_dma_free(struct skif_dev *dev, struct skif_dma *mem);

/* Block until the adapter signals an event (a status-block update: a message
 * received on any channel, or sent) or `max_cycles` cycles pass (0: no
 * limit; the simulator's watchdog then ends a run that stops moving). First
 * tells the adapter every channel head that skif_rx_complete() kept back.
 * Returns 1 on an event, 0 when the limit passed, -EPIPE simulator gone. An
 * event that came while the program ran makes the next wait return at once. */
int skif_dev_wait(struct skif_dev *dev, uint64_t max_cycles);

/* Allocate and program the TX ring (2^tx_log2 bytes) and the status block,
 * and enable the adapter; no channel is open yet. tx_log2 must be
 * SKIF_RING_LOG2_MIN..SKIF_RING_LOG2_MAX. Errors: -EINVAL, -ENOMEM, -EBUSY
 * already set up, -EIO the adapter rejected the set-up, -EPROTO the adapter
 * reports an impossible channel count. */
int skif_dev_setup(struct skif_dev *dev, unsigned tx_log2);

/* Channels of the adapter (its CH_NUM register), 0 before skif_dev_setup(). */
int skif_dev_channels(const struct skif_dev *dev);

/* The device's TX side, for the inline hot path of skif_ring.h
 * (skif_txq_post1 and friends). */
struct skif_txq *skif_dev_txq(struct skif_dev *dev);

/* Bytes of payload a message may have to fit in the TX ring now (at most
 * SKIF_MAX_MSG); 0 when the ring is full or not set up. */
size_t skif_tx_space(const struct skif_dev *dev);

/* Copy exactly `len` bytes gathered from iov[0..iov_count) into the TX ring as
 * one message to `dst_netaddr` and ring the doorbell. Errors: -EINVAL
 * reserved netaddr bits set, channel >= skif_dev_channels(), len >
 * SKIF_MAX_MSG, iov too short or NULL, not set up; -EHOSTUNREACH no such
 * node in this torus; -EAGAIN it does not fit now (nothing was written). */
int skif_tx_post(struct skif_dev *dev, uint32_t dst_netaddr, const struct iovec *iov, int iov_count,
                 size_t len);

/* Check a destination as skif_tx_post() does: 0, -EINVAL (reserved bits,
 * channel >= skif_dev_channels(), not set up) or -EHOSTUNREACH. */
int skif_tx_check(const struct skif_dev *dev, uint32_t dst_netaddr);

/* True when everything posted has been sent by the adapter. */
int skif_tx_idle(const struct skif_dev *dev);

/* Open receive channel `id` (0..skif_dev_channels()-1) with a ring of 2^log2
 * bytes (SKIF_RING_LOG2_MIN..MAX): from now on the adapter writes every
 * message addressed to it into that ring. Errors: -EINVAL not set up, bad id
 * or size; -EBUSY already open; -ENOMEM; -EIO the adapter rejected it. */
int skif_chan_open(struct skif_dev *dev, int id, unsigned log2, struct skif_chan **chp);

/* Close a channel: the adapter discards (and counts in CH_DROPS, with
 * STATUS.CH_DROP) every later message to it; messages still in the ring are
 * dropped; the ring is freed once the adapter has finished any message it
 * was writing into it. Returns 0, or -EIO/-EPIPE (the channel is closed in
 * this process either way). */
int skif_chan_close(struct skif_chan *ch);

/* The channel's number. */
int skif_chan_id(const struct skif_chan *ch);

/* Take the next message of the channel, if any: fills *m and returns 1;
 * returns 0 when none is there. The message stays in the ring (m->part point
 * into it) until skif_rx_complete(). Errors: -EPROTO the ring holds a
 * malformed entry. */
int skif_rx_next(struct skif_chan *ch, struct skif_rx_msg *m);

/* Free the ring space of the oldest message taken by skif_rx_next(). The
 * adapter is told the new head when a quarter of the ring has been freed,
 * or at the next skif_dev_wait(), whichever comes first. Errors: -ENOENT no
 * message is taken. */
int skif_rx_complete(struct skif_chan *ch);

#ifdef __cplusplus
}
#endif

#endif /* SKIF_DEV_H */
