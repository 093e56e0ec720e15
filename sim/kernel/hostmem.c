/* SPDX-License-Identifier: Apache-2.0 */
/* hostmem.c: each node's host memory (a shared-memory segment mapped by the
 * simulator and by the node's program) and the host-interface timing model:
 * DMA writes and interrupts reach memory host_latency/2 cycles after the
 * adapter issues them, DMA reads sample memory then and answer another
 * host_latency/2 later, in order; register accesses from the program reach the
 * adapter host_latency/2 cycles after the program blocks, and read values come
 * back host_latency/2 after the adapter answers. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim.h"
#include "skif_hw.h"

#define SKIF_BUS_BASE 0x100000000ull /* bus address of host memory byte 0 */

int hostmem_init(struct node *nd, const struct skif_opts *o, int rank)
{
    size_t size = (size_t)o->mem_mb << 20;
    char name[32];
    snprintf(name, sizeof(name), "skif-node%d", rank);
    nd->memfd = memfd_create(name, MFD_CLOEXEC);
    if (nd->memfd < 0) {
        fprintf(stderr, "skifsim: node %d: memfd_create: %s\n", rank, strerror(errno));
        return -1;
    }
    if (ftruncate(nd->memfd, (off_t)size) < 0) {
        fprintf(stderr, "skifsim: node %d: cannot size host memory to %zu bytes: %s\n", rank, size,
                strerror(errno));
        goto err_close;
    }
    nd->mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, nd->memfd, 0);
    if (nd->mem == MAP_FAILED) {
        fprintf(stderr, "skifsim: node %d: mmap: %s\n", rank, strerror(errno));
        goto err_close;
    }
    struct skif_ctrl_page *cp = (struct skif_ctrl_page *)nd->mem;
    nd->cp = cp;
    cp->magic = SKIF_PROTO_MAGIC;
    cp->version = SKIF_PROTO_VERSION;
    cp->rank = (uint32_t)rank;
    cp->size = (uint32_t)o->nodes;
    cp->ndims = (uint32_t)o->ndims;
    for (int d = 0; d < SKIF_MAX_DIMS; d++)
        cp->dims[d] = (uint32_t)o->dims[d];
    cp->node_id = skif_opts_node_id(o, rank);
    cp->clock_mhz = o->clock_mhz;
    cp->host_latency = o->host_latency;
    cp->mem_size = size;
    cp->bus_base = SKIF_BUS_BASE;
    cp->heap_offset = (sizeof(*cp) + 4095) & ~(uint64_t)4095;
    nd->rank = rank;
    fifo_init(&nd->dma_ops, sizeof(struct dma_op));
    fifo_init(&nd->dma_rsps, sizeof(struct dma_rsp));
    fifo_init(&nd->mmio_q, sizeof(struct mmio_op));
    fifo_init(&nd->mmio_fly, sizeof(struct mmio_op));
    return 0;

err_close:
    close(nd->memfd);
    nd->memfd = -1;
    return -1;
}

void hostmem_fini(struct node *nd)
{
    if (nd->mem && nd->mem != MAP_FAILED)
        munmap(nd->mem, nd->cp->mem_size);
    nd->mem = NULL;
    if (nd->memfd >= 0)
        close(nd->memfd);
    nd->memfd = -1;
    fifo_free(&nd->dma_ops);
    fifo_free(&nd->dma_rsps);
    fifo_free(&nd->mmio_q);
    fifo_free(&nd->mmio_fly);
}

/* Translate a DMA bus address to host memory; NULL (and a report) outside. */
static uint8_t *dma_ptr(struct node *nd, uint64_t addr, const char *what)
{
    uint64_t base = nd->cp->bus_base, size = nd->cp->mem_size;
    if (addr >= base && addr - base <= size - 8 && (addr & 7) == 0)
        return nd->mem + (addr - base);
    if (nd->n_dma_faults++ < 5)
        fprintf(stderr,
                "skifsim: node %d: cycle %" PRIu64 ": DMA %s at bus address 0x%" PRIx64
                " is outside host memory [0x%" PRIx64 ", 0x%" PRIx64 ") or misaligned\n",
                nd->rank, g_sim.now, what, addr, base, base + size);
    __atomic_add_fetch(&g_sim.dma_faults, 1, __ATOMIC_RELAXED); /* from any --threads part */
    return NULL;
}

void hostmem_tick(struct node *nd, uint64_t now)
{
    struct dma_op *op;
    while ((op = fifo_peek(&nd->dma_ops)) && op->due <= now) {
        if (op->kind == DMA_OP_WRITE) {
            uint8_t *p = dma_ptr(nd, op->addr, "write");
            if (p) {
                for (int b = 0; b < 8; b++)
                    if (op->strb & (1u << b))
                        p[b] = (uint8_t)(op->data >> (8 * b));
            }
        } else if (op->kind == DMA_OP_READ) {
            struct dma_rsp r = {.due = now + g_sim.half_lat, .data = 0, .err = 0};
            uint8_t *p = dma_ptr(nd, op->addr, "read");
            if (p)
                memcpy(&r.data, p, 8);
            else
                r.err = 1;
            if (fifo_push(&nd->dma_rsps, &r) < 0)
                abort();
        } else {
            nd->evt_pending = true;
            nd->n_irq++;
        }
        fifo_pop(&nd->dma_ops);
    }
}

void hostmem_mmio_push(struct node *nd, uint64_t now, uint32_t off, uint32_t val, int write,
                       int internal)
{
    struct mmio_op m = {.due = now + g_sim.half_lat,
                        .off = off,
                        .val = val,
                        .write = (uint8_t)write,
                        .internal = (uint8_t)internal};
    if (fifo_push(&nd->mmio_q, &m) < 0)
        abort();
    if (write)
        nd->n_mmio_wr++;
    else if (!internal)
        nd->n_mmio_rd++;
}

void hostmem_drain_posted(struct node *nd, uint64_t now)
{
    struct skif_ctrl_page *cp = nd->cp;
    uint32_t head = cp->pw_head, tail = cp->pw_tail;
    if (tail - head > SKIF_PW_ENTRIES) {
        fprintf(stderr,
                "skifsim: node %d: posted-write FIFO corrupt (head %u tail %u); "
                "ignoring it\n",
                nd->rank, head, tail);
        cp->pw_head = tail;
        return;
    }
    for (; head != tail; head++) {
        const struct skif_pw *w = &cp->pw[head & (SKIF_PW_ENTRIES - 1)];
        hostmem_mmio_push(nd, now, w->off, w->val, 1, 0);
        if (w->off == SKIF_REG_TX_TAIL)
            nd->db_applied = w->val;
    }
    cp->pw_head = head;
    /* then the TX_TAIL doorbell, if it moved (skif_proto.h) */
    uint32_t db = cp->db_tx_tail;
    if (db != nd->db_applied) {
        hostmem_mmio_push(nd, now, SKIF_REG_TX_TAIL, db, 1, 0);
        nd->db_applied = db;
    }
}

/* ------------------------------------------------------------------ DPI
 * Called by sim/hdl/skif_host_shim.sv on the rising clock edge; see
 * sim/hdl/skif_dpi.svh for the Verilog side of each. */
#include "svdpi.h"

static struct node *dpi_node(int node)
{
    if (node < g_sim.lo || node >= g_sim.hi) {
        fprintf(stderr, "skifsim: internal error: DPI call for node %d of %d\n", node, g_sim.n);
        abort();
    }
    return &g_sim.nodes[node];
}

void skif_dpi_dma_req(int node, svBit write, long long addr, long long data, int strb)
{
    struct node *nd = dpi_node(node);
    struct dma_op op = {.due = g_sim.now + g_sim.half_lat,
                        .addr = (uint64_t)addr,
                        .data = (uint64_t)data,
                        .kind = write ? DMA_OP_WRITE : DMA_OP_READ,
                        .strb = (uint8_t)strb};
    nd->host_acts++;
    if (write) {
        nd->n_dma_wr++;
    } else {
        nd->n_dma_rd++;
        nd->rd_pending++;
    }
    if (fifo_push(&nd->dma_ops, &op) < 0)
        abort();
}

void skif_dpi_irq(int node)
{
    struct node *nd = dpi_node(node);
    struct dma_op op = {.due = g_sim.now + g_sim.half_lat, .kind = DMA_OP_IRQ};
    nd->host_acts++;
    if (fifo_push(&nd->dma_ops, &op) < 0)
        abort();
}

void skif_dpi_dma_rsp(int node, svBit *valid, long long *data, svBit *err)
{
    struct node *nd = dpi_node(node);
    struct dma_rsp *r = fifo_peek(&nd->dma_rsps);
    if (r && r->due <= g_sim.now) {
        *valid = 1;
        *data = (long long)r->data;
        *err = r->err;
        fifo_pop(&nd->dma_rsps);
        nd->rd_pending--;
        nd->host_acts++;
    } else {
        *valid = 0;
        *data = 0;
        *err = 0;
    }
}

void skif_dpi_mmio_poll(int node, svBit *valid, svBit *write, int *addr, int *wdata)
{
    struct node *nd = dpi_node(node);
    struct mmio_op *m = fifo_peek(&nd->mmio_q);
    if (m && m->due <= g_sim.now) {
        *valid = 1;
        *write = m->write;
        *addr = (int)m->off;
        *wdata = (int)m->val;
        if (fifo_push(&nd->mmio_fly, m) < 0)
            abort();
        fifo_pop(&nd->mmio_q);
        nd->host_acts++;
    } else {
        *valid = 0;
        *write = 0;
        *addr = 0;
        *wdata = 0;
    }
}

void skif_dpi_mmio_rsp(int node, int rdata, svBit err)
{
    struct node *nd = dpi_node(node);
    struct mmio_op *m = fifo_peek(&nd->mmio_fly);
    nd->host_acts++;
    if (!m) {
        fprintf(stderr,
                "skifsim: node %d: cycle %" PRIu64 ": register response with no "
                "request outstanding\n",
                node, g_sim.now);
        return;
    }
    if (m->internal) {
        if (m->val < SKIF_SNAP_REGS) {
            nd->snap[m->val] = (uint32_t)rdata;
            nd->snap_ok[m->val] = !err;
        }
        if (nd->snap_left > 0)
            nd->snap_left--;
    } else if (m->write) {
        if (err) {
            nd->wr_rejects++;
            fprintf(stderr,
                    "skifsim: node %d: cycle %" PRIu64 ": register write 0x%08x to "
                    "offset 0x%03x rejected by the adapter (outside the register map, "
                    "misaligned, read-only or invalid value)\n",
                    node, g_sim.now, m->val, m->off);
        }
    } else {
        nd->read_done = true;
        nd->read_due = g_sim.now + g_sim.half_lat;
        nd->read_val = (uint32_t)rdata;
        nd->read_err = err;
        if (err)
            fprintf(stderr,
                    "skifsim: node %d: cycle %" PRIu64 ": register read at offset "
                    "0x%03x rejected by the adapter (outside the register map, "
                    "misaligned, unassigned or write-only)\n",
                    node, g_sim.now, m->off);
    }
    fifo_pop(&nd->mmio_fly);
}
