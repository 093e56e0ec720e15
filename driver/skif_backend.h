/* SPDX-License-Identifier: Apache-2.0 */
/* skif_backend.h: what the driver needs from a device backend. Today there is
 * one, the simulator (backend_sim.c); a PCIe backend would map BAR0 for
 * registers, a hugepage pool for DMA memory, and an interrupt eventfd for
 * waits, behind the same calls. */
#ifndef SKIF_BACKEND_H
#define SKIF_BACKEND_H

#include <stddef.h>
#include <stdint.h>

struct skif_backend;

struct skif_backend_ops {
    /* Read register `off` into *val: 0, -EIO rejected, -EPIPE device gone. */
    int (*reg_read)(struct skif_backend *b, uint32_t off, uint32_t *val);
    /* Post a register write: 0 or -EPIPE. */
    int (*reg_write)(struct skif_backend *b, uint32_t off, uint32_t val);
    /* Wait until posted writes arrived: 0, -EIO some rejected, -EPIPE. */
    int (*flush)(struct skif_backend *b);
    /* Wait for an event or max_cycles: 1 event, 0 limit, -EPIPE. */
    int (*wait)(struct skif_backend *b, uint64_t max_cycles);
    /* Say goodbye and release the backend. */
    void (*close)(struct skif_backend *b);
};

/* What the backend tells the driver about the node. */
struct skif_backend {
    const struct skif_backend_ops *ops;
    uint8_t *mem; /* host memory of the node, mapped */
    size_t mem_size;
    int mem_fd;         /* its descriptor, to map parts of it again; -1: none */
    uint64_t bus_base;  /* bus address of mem[0] */
    size_t heap_offset; /* first byte free for DMA allocations */
    int rank, size;
    uint32_t node_id;
    int ndims;
    int dims[4];
    uint32_t clock_mhz;
    const volatile uint64_t *cycle; /* current simulated cycle, or NULL */
    /* Where a TX_TAIL doorbell is stored (the register's MMIO address on a
     * real device; a word of the control page in the simulator). */
    volatile uint32_t *tx_doorbell;
};

/* Open the simulator backend from the environment skifrun sets. */
int skif_backend_sim_open(struct skif_backend **bp);

#endif /* SKIF_BACKEND_H */
