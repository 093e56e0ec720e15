/* SPDX-License-Identifier: Apache-2.0 */
/* skif_dev.h: the C driver of the SkifCh network adapter.
 *
 * A process opens the node it is bound to (skifrun binds one process to each
 * simulated node), reads and writes the adapter's registers, allocates
 * DMA-able memory from the node's host memory, sets up the TX and RX rings,
 * posts messages, and waits for device events without burning CPU.
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

/* A received message, as it lies in the RX ring (zero-copy). */
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

/* Free memory from skif_dma_alloc(). Memory is reused only when the freed
 * block is the most recent one still allocated (a stack); all of it is
 * released by skif_dev_close(). */
void skif_dma_free(struct skif_dev *dev, struct skif_dma *mem);

/* Block until the adapter signals an event (a status-block update: a message
 * received or sent) or `max_cycles` cycles pass (0: no limit; the simulator's
 * watchdog then ends a run that stops moving). Returns 1 on an event, 0 when
 * the limit passed, -EPIPE simulator gone. An event that came while the
 * program ran makes the next wait return at once. */
int skif_dev_wait(struct skif_dev *dev, uint64_t max_cycles);

/* Allocate and program the TX ring (2^tx_log2 bytes), the RX ring
 * (2^rx_log2 bytes) and the status block, and enable the adapter. Sizes must
 * be SKIF_RING_LOG2_MIN..SKIF_RING_LOG2_MAX. Errors: -EINVAL, -ENOMEM,
 * -EBUSY already set up, -EIO the adapter rejected the set-up. */
int skif_rings_setup(struct skif_dev *dev, unsigned tx_log2, unsigned rx_log2);

/* Bytes of payload a message may have to fit in the TX ring now (at most
 * SKIF_MAX_MSG); 0 when the ring is full. */
size_t skif_tx_space(const struct skif_dev *dev);

/* Copy exactly `len` bytes gathered from iov[0..iov_count) into the TX ring as
 * one message to `dst_netaddr` and ring the doorbell. Errors: -EINVAL bad
 * address, len > SKIF_MAX_MSG, iov too short, rings not set up; -EAGAIN it
 * does not fit now (nothing was written). */
int skif_tx_post(struct skif_dev *dev, uint32_t dst_netaddr, const struct iovec *iov, int iov_count,
                 size_t len);

/* True when everything posted has been sent by the adapter. */
int skif_tx_idle(const struct skif_dev *dev);

/* Take the next received message, if any: fills *m and returns 1; returns 0
 * when none is there. The message stays in the ring (m->part point into it)
 * until skif_rx_complete(). Errors: -EINVAL rings not set up, -EPROTO the
 * ring holds a malformed entry. */
int skif_rx_next(struct skif_dev *dev, struct skif_rx_msg *m);

/* Free the ring space of the oldest message taken by skif_rx_next().
 * Errors: -ENOENT no message is taken. */
int skif_rx_complete(struct skif_dev *dev);

#ifdef __cplusplus
}
#endif

#endif /* SKIF_DEV_H */
