/* SPDX-License-Identifier: Apache-2.0 */
/* skif_proto.h: the contract between the simulator and the driver's simulator
 * backend: the control page at the start of each node's host memory and the
 * request/response messages on the node's socket.
 *
 * Time model (docs/architecture.md): the simulator runs the model only while
 * every program is blocked in a request, and it releases blocked programs one
 * at a time in node order. Register writes are posted into the control page's
 * FIFO without a system call; the simulator moves them to the adapter's
 * register port when the program next blocks. */
#ifndef SKIF_PROTO_H
#define SKIF_PROTO_H

#include <stdint.h>
#include <stdlib.h>

#define SKIF_PROTO_MAGIC 0x534b4946u /* "SKIF" */
#define SKIF_PROTO_VERSION 4u
#define SKIF_PW_ENTRIES 1024u /* posted-write FIFO depth (power of two) */
#define SKIF_MAX_DIMS 4

/* Environment variables the simulator sets for each program. */
#define SKIF_ENV_SOCK_FD "SKIF_SOCK_FD" /* fd of the node's socket */
#define SKIF_ENV_MEM_FD "SKIF_MEM_FD"   /* fd of the node's host memory */
#define SKIF_ENV_RANK "SKIF_RANK"       /* rank of this process, 0..size-1 */
#define SKIF_ENV_SIZE "SKIF_SIZE"       /* number of nodes */
#define SKIF_ENV_DIMS "SKIF_DIMS"       /* torus dimensions, e.g. "4x4x4" */

/* Requests, program -> simulator. Each blocks until its response. */
enum skif_req_type {
    SKIF_REQ_WAIT = 1,  /* wait for a device event or `cycles` cycles (0: no limit) */
    SKIF_REQ_READ = 2,  /* read the register at `arg` */
    SKIF_REQ_FLUSH = 3, /* return once all posted writes reached the adapter */
    SKIF_REQ_BYE = 4,   /* the program closes the device */
};

struct skif_req {
    uint32_t type;   /* enum skif_req_type */
    uint32_t arg;    /* READ: register offset */
    uint64_t cycles; /* WAIT: cycle limit, 0 for none */
};

/* Response, simulator -> program. */
struct skif_rsp {
    uint32_t type;  /* the request's type */
    int32_t status; /* 0, or a negative errno (-EIO: the adapter rejected an access) */
    uint64_t value; /* READ: the value; WAIT: 1 event, 0 time limit; FLUSH: rejected writes */
    uint64_t cycle; /* simulated cycle at the release */
};

/* One posted register write. */
struct skif_pw {
    uint32_t off;
    uint32_t val;
};

/* The control page: the first bytes of every node's host memory. The
 * simulator fills the constant part before the program starts; `cycle` is
 * updated at every release; the posted-write FIFO is produced by the driver
 * (pw_tail) and consumed by the simulator (pw_head), both free-running. */
struct skif_ctrl_page {
    uint32_t magic;               /* SKIF_PROTO_MAGIC */
    uint32_t version;             /* SKIF_PROTO_VERSION */
    uint32_t rank;                /* this node's rank */
    uint32_t size;                /* number of nodes */
    uint32_t ndims;               /* torus dimensions in use, 1..4 */
    uint32_t dims[SKIF_MAX_DIMS]; /* size of each dimension (1 beyond ndims) */
    uint32_t node_id;             /* adapter node id (coordinates packed 4 bits each) */
    uint32_t clock_mhz;           /* stated clock for cycles-to-time conversion */
    uint32_t host_latency;        /* host-interface round trip, cycles */
    uint64_t mem_size;            /* bytes of the whole segment */
    uint64_t bus_base;            /* bus (DMA) address of byte 0 of the segment */
    uint64_t heap_offset;         /* first byte the driver may allocate */
    uint64_t cycle;               /* simulated cycle at the last release */
    uint32_t pw_head;             /* posted writes consumed (simulator) */
    uint32_t pw_tail;             /* posted writes produced (driver) */
    /* Mailbox: a request is written to `req` and published by incrementing
     * req_seq; the answer to `rsp`, published by rsp_seq. The waiting side
     * spins a short while, then sets its *_sleeping flag and sleeps on the
     * sequence word it waits for (a futex, include/skif_futex.h); the
     * publishing side wakes it when it sees the flag (both sides use
     * sequentially consistent atomics and the futex rechecks the word, so no
     * wake is lost). The socket's end-of-file tells either side the other is
     * gone; a sleeper looks at it every SKIF_ALIVE_MS (a program on a big
     * torus less often: backend_sim.c, alive_ms). */
    uint32_t req_seq;       /* requests published (driver) */
    uint32_t rsp_seq;       /* responses published (simulator) */
    uint32_t sim_sleeping;  /* the simulator sleeps on req_seq */
    uint32_t prog_sleeping; /* the program sleeps on rsp_seq */
    /* The TX_TAIL doorbell: the driver stores the new tail here (one store,
     * as a real doorbell is one MMIO store); the simulator applies it as a
     * TX_TAIL register write after the posted-write FIFO whenever the program
     * blocks, if it changed. Before the driver posts any other register
     * write it first puts a changed doorbell into the FIFO, so the adapter
     * sees all writes in program order. */
    uint32_t db_tx_tail;
    uint32_t db_pad;
    struct skif_req req;
    struct skif_rsp rsp;
    struct skif_pw pw[SKIF_PW_ENTRIES];
};

/* How many times a waiting side polls the mailbox before it sleeps on the
 * socket; the environment variable SKIF_SPIN overrides it. Spinning pays only
 * with a core free for each spinning process: on a loaded 2-core machine it
 * made runs 4x slower, so the default is not to spin (docs/architecture.md). */
#define SKIF_SPIN_LOOPS 0
#define SKIF_SPIN_MAX 1000000 /* largest SKIF_SPIN (skifrun refuses more) */

/* The spin budget: SKIF_SPIN from the environment (0..SKIF_SPIN_MAX; skifrun
 * refuses anything else before the run, and a bad value here counts as
 * unset), else SKIF_SPIN_LOOPS. */
static inline int skif_spin_loops(void)
{
    static int loops = -1;
    if (loops < 0) {
        const char *s = getenv("SKIF_SPIN");
        char *end = NULL;
        long v = s && *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : -1;
        loops = end && !*end && v >= 0 && v <= SKIF_SPIN_MAX ? (int)v : (int)SKIF_SPIN_LOOPS;
    }
    return loops;
}

/* A pause for spin loops. */
static inline void skif_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

#endif /* SKIF_PROTO_H */
