/* SPDX-License-Identifier: Apache-2.0 */
/* skif_rma.h: driver calls for the adapter's remote memory access engine
 * (docs/rma.md, "Driver").
 *
 * A node opens its RMA side once, after skif_dev_setup(): the driver then
 * gives the engine 16 bytes of status words in host memory, where the
 * engine counts this node's completed requests. Windows open this node's
 * memory to other nodes' requests (and to the answers of its own: a GET's
 * data and an atomic's old value are written into this node's memory, so
 * they must land in a window with write permission here).
 *
 * Requests (PUT, GET, ATOMIC) are posted in the TX ring as kind-2 entries
 * (SKIF_DESC_KIND_RMA): the driver builds the packet's flits there and rings
 * the doorbell. A request is complete when the engine counted its answer;
 * skif_rma_quiet() waits, through skif_dev_wait(), until every request
 * issued so far is complete. Addresses are the adapter's (bus) addresses of
 * host memory: skif_rma_addr() turns a pointer into a block from
 * skif_dma_alloc() into one.
 *
 * Errors: negative errno values, as skif_dev.h. A call refused with
 * -EINVAL, -EHOSTUNREACH or -EAGAIN wrote nothing into the TX ring.
 *
 * Requests to this node itself are posted like any other; the adapter
 * passes them to its RMA engine directly and the engine completes their
 * answers itself (docs/rma.md, "Requests to this node"), so they never
 * deadlock and are atomic with respect to the other nodes' atomics.
 * Known limit (docs/rma.md, "What is left"): answers share the network's
 * buffers with requests, so heavy two-way traffic between nodes can
 * deadlock the network. Keep requests in flight to other nodes bounded
 * (the driver allows SKIF_RMA_MAX_INFLIGHT). */
#ifndef SKIF_RMA_H
#define SKIF_RMA_H

#include <stddef.h>
#include <stdint.h>

#include "skif_dev.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Requests issued and not yet complete at most (the 8-bit tag space: the
 * driver keeps a record of each request by its tag, to name the address
 * of a failed one). */
#define SKIF_RMA_MAX_INFLIGHT 256

struct skif_rma;

/* This node's completion counters (the RMA status words). Every request
 * issued ends as exactly one of the four. */
struct skif_rma_counts {
    uint32_t puts;  /* puts acknowledged */
    uint32_t gets;  /* gets returned (data written here) */
    uint32_t atoms; /* atomics returned (old value written here, or ADD acknowledged) */
    uint32_t errs;  /* requests completed in error */
};

/* The last request of this node that completed in error, as the engine
 * recorded it (RMA_ERR_INFO) and the driver issued it (by the tag). */
struct skif_rma_error {
    uint32_t count;  /* requests completed in error so far (RMA_ERRS) */
    unsigned code;   /* SKIF_RMA_ERR_*: WIN (no window with the permission), LEN, OP, FORMAT, DMA */
    uint32_t node;   /* the node that answered: the request's target */
    unsigned kind;   /* the request: SKIF_KIND_RMA_PUT, _GET or _ATOMIC */
    unsigned op;     /* ATOMIC: SKIF_RMA_OP_* */
    unsigned tag;    /* the request's tag */
    uint64_t raddr;  /* the request's target address (the target node's memory) */
    uint64_t laddr;  /* GET, ATOMIC: where the answer was to go here; else 0 */
    size_t len;      /* bytes (ATOMIC: the width) */
    unsigned answer; /* the answer's kind: SKIF_KIND_RMA_ACK (the code is the target's, or,
                      * for an ATOMIC, WIN may also mean laddr is outside a window here) or
                      * SKIF_KIND_RMA_GET_RESP (the data was refused here: laddr) */
};

/* Open the RMA side of a device that skif_dev_setup() has set up: allocate
 * the status words, point RMA_STAT at them (from now on the engine writes
 * its counters there after every completion), read the window count.
 * Errors: -EINVAL not set up, -EBUSY already open, -ENOMEM, -EIO. */
int skif_rma_open(struct skif_dev *dev, struct skif_rma **rp);

/* Close: waits for nothing (call skif_rma_quiet() first), closes every
 * window, stops the status words, frees. NULL is ignored. */
void skif_rma_close(struct skif_rma *r);

/* Windows in the engine's table (RMA_WINDOWS). */
int skif_rma_windows(const struct skif_rma *r);

/* Set window `idx` to [base, base + size) of this node's host memory (bus
 * addresses) with permissions `perm` (SKIF_RMA_PERM_R | _W | _A). base and
 * size must be multiples of 8, perm at most 7, idx below
 * skif_rma_windows(). Change a window only when no request for it can be
 * in flight. Errors: -EINVAL, -EIO (the adapter refused the writes). */
int skif_rma_win_set(struct skif_rma *r, unsigned idx, uint64_t base, uint64_t size, unsigned perm);

/* Close window `idx` (size 0, no permission). */
int skif_rma_win_clear(struct skif_rma *r, unsigned idx);

/* Read back window `idx` as the engine has it. */
int skif_rma_win_get(struct skif_rma *r, unsigned idx, uint64_t *base, uint64_t *size,
                     unsigned *perm);

/* The adapter's address of p, a pointer into m (from skif_dma_alloc()), in
 * *addr. -EINVAL when p lies outside [m->va, m->va + m->size]. */
int skif_rma_addr(const struct skif_dma *m, const void *p, uint64_t *addr);

/* PUT: write len bytes (1..SKIF_MAX_MSG) from src (any pointer of this
 * process; copied into the TX ring now) at address raddr of node `node`
 * (any alignment). Errors: -EINVAL bad len or src; -EHOSTUNREACH no such
 * node; -EAGAIN the TX ring is full or SKIF_RMA_MAX_INFLIGHT requests are
 * in flight (wait and retry). */
int skif_rma_put(struct skif_rma *r, uint32_t node, uint64_t raddr, const void *src, size_t len);

/* GET: read len bytes (1..SKIF_MAX_MSG) at raddr of node `node` into laddr
 * of this node's memory (a window with W here; any alignment). The data is
 * there once the request is complete. Errors as skif_rma_put(). */
int skif_rma_get(struct skif_rma *r, uint32_t node, uint64_t laddr, uint64_t raddr, size_t len);

/* ATOMIC of `width` bytes (4 or 8) at raddr of node `node` (aligned to the
 * width): op SKIF_RMA_OP_FETCH, _FADD, _ADD, _SWAP or _CSWAP with operand
 * and compare (CSWAP; width 4: their low 32 bits). Except for ADD, the old
 * value (width bytes, little-endian) is written at laddr of this node's
 * memory (a window with W here, aligned to the width); for ADD laddr is
 * ignored. Errors as skif_rma_put(), -EINVAL also for op, width or
 * alignment. */
int skif_rma_atomic(struct skif_rma *r, uint32_t node, unsigned op, unsigned width, uint64_t raddr,
                    uint64_t operand, uint64_t compare, uint64_t laddr);

/* Requests issued so far (wraps at 2^32). */
uint32_t skif_rma_issued(const struct skif_rma *r);

/* The counters, as the engine last wrote them in host memory. */
void skif_rma_counters(const struct skif_rma *r, struct skif_rma_counts *c);

/* Requests issued and not complete yet. */
uint32_t skif_rma_pending(const struct skif_rma *r);

/* Wait (skif_dev_wait) until every request issued so far is complete, or
 * max_cycles simulated cycles pass (0: no limit). Returns 0 when all are
 * complete and none completed in error since the previous skif_rma_quiet()
 * that returned -EIO; -EIO when some did (skif_rma_last_error() names the
 * last); -ETIMEDOUT (requests still pending); -EPIPE simulator gone. */
int skif_rma_quiet(struct skif_rma *r, uint64_t max_cycles);

/* The last request of this node completed in error: fills *e and returns
 * 0, and clears RMA_STATUS.RSP_ERR. -ENOENT when none did (or RMA_ERR_INFO
 * now holds a refusal of a request that came to this node: see
 * skif_rma_target_info()); -EIO/-EPIPE from the register read. */
int skif_rma_last_error(struct skif_rma *r, struct skif_rma_error *e);

/* This node as a target: requests it performed (RMA_SERVED), refused
 * (RMA_REFUSED) and the register RMA_ERR_INFO ([3:0] code, [7:4] kind,
 * [15:8] tag, [31:16] src) as it stands. Any pointer may be NULL. */
int skif_rma_target_info(struct skif_rma *r, uint32_t *served, uint32_t *refused, uint32_t *info);

#ifdef __cplusplus
}
#endif

#endif /* SKIF_RMA_H */
