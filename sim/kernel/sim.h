/* SPDX-License-Identifier: Apache-2.0 */
/* sim.h: the simulator's C kernel: options, nodes (program process, host
 * memory, DMA and register queues) and the lockstep loop. The Verilated model
 * is reached only through skif_model_*() (sim/kernel/sim_main.cpp) and the DPI
 * calls of the host shims (implemented in sim/kernel/hostmem.c). */
#ifndef SKIF_SIM_H
#define SKIF_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fifo.h"
#include "skif_opts.h"
#include "skif_proto.h"

/* Exit codes of skifrun / skifsim. */
enum skif_exit {
    SKIF_EXIT_OK = 0,
    SKIF_EXIT_PROGRAM = 1,  /* a program failed */
    SKIF_EXIT_USAGE = 2,    /* bad command line */
    SKIF_EXIT_MAXCYC = 3,   /* --max-cycles reached */
    SKIF_EXIT_WATCHDOG = 4, /* no progress */
    SKIF_EXIT_SIM = 5,      /* simulator error (DMA fault, system call) */
};

enum node_state {
    NODE_STARTING, /* forked, waiting for its first release */
    NODE_RUNNING,  /* the program runs; the model is stopped */
    NODE_BLOCKED,  /* the program waits in a request */
    NODE_EXITED,   /* the program ended */
};

/* A host-memory operation on its way from the adapter's DMA port. */
struct dma_op {
    uint64_t due;  /* cycle it reaches host memory */
    uint64_t addr; /* bus address */
    uint64_t data;
    uint8_t kind; /* DMA_OP_* */
    uint8_t strb;
};
enum { DMA_OP_READ, DMA_OP_WRITE, DMA_OP_IRQ };

/* A read response on its way back to the adapter. */
struct dma_rsp {
    uint64_t due;
    uint64_t data;
    uint8_t err;
};

/* A register access on its way to the adapter's register port. */
struct mmio_op {
    uint64_t due;
    uint32_t off;
    uint32_t val;
    uint8_t write;
    uint8_t internal; /* issued by the simulator itself (reports) */
};

#define SKIF_SNAP_REGS 9 /* registers read at the end of a run */

struct node {
    int rank;
    pid_t pid;
    int sock; /* simulator's end of the node's socket */
    int memfd;
    uint8_t *mem;              /* host memory, mapped */
    struct skif_ctrl_page *cp; /* == mem */
    enum node_state state;
    enum node_state end_state; /* state when the run ended (for the report) */
    struct skif_req req;       /* the pending request while BLOCKED */
    uint32_t req_seen;         /* mailbox requests taken */
    uint64_t blocked_at;       /* cycle the request was made */
    uint64_t deadline;         /* WAIT: cycle limit (0: none) */
    bool evt_pending;          /* an event arrived since the last WAIT */
    bool read_done;            /* READ: response arrived */
    uint64_t read_due;         /* READ: cycle the value reaches the program */
    uint32_t read_val;
    int read_err;
    uint32_t wr_rejects;  /* posted writes the adapter rejected, since FLUSH */
    uint32_t db_applied;  /* the TX_TAIL doorbell value last applied */
    int exit_status;      /* wait status once EXITED */
    struct fifo dma_ops;  /* struct dma_op */
    struct fifo dma_rsps; /* struct dma_rsp */
    struct fifo mmio_q;   /* struct mmio_op, not yet on the port */
    struct fifo mmio_fly; /* struct mmio_op, on the port awaiting response */
    /* adapter registers read at the end of the run (kernel.c snap_regs) */
    uint32_t snap[SKIF_SNAP_REGS];
    bool snap_ok[SKIF_SNAP_REGS];
    int snap_left;
    /* for skipping a quiet node's model (sim/kernel/sim_main.cpp): host calls that
     * did something (a DMA request, an event, a response taken, a register
     * access started or answered), and DMA reads not yet answered */
    uint64_t host_acts;
    uint32_t rd_pending;
    /* statistics */
    uint64_t n_dma_rd, n_dma_wr, n_irq, n_mmio_rd, n_mmio_wr, n_dma_faults;
};

struct sim {
    struct skif_opts opt;
    struct node *nodes;
    int n;
    int lo, hi;            /* the nodes this process simulates: [lo, hi) (all but under
                            * --ranks, sim/kernel/ranks.h) */
    int ranks, me;         /* MPI ranks of the run, and this one's (1 and 0 without) */
    uint64_t now;          /* current cycle */
    uint64_t last_release; /* cycle of the last release (watchdog) */
    int pinned;            /* the run is pinned to one CPU (--cpu) */
    uint64_t n_releases;
    uint64_t half_lat;  /* host latency / 2 */
    double t0;          /* wall clock at launcher start */
    double t_started;   /* wall clock when all programs were started */
    double cpu_started; /* the simulator's CPU time then (sim_cpu) */
    int dma_faults;
    int phase;              /* PHASE_* */
    int rc;                 /* exit code of the run */
    int prog_status;        /* exit status of the first failed program (128+S: signal S) */
    int report;             /* print the per-node report at the end */
    uint64_t end_cycle;     /* cycle the run ended */
    uint64_t snap_deadline; /* give up reading registers after this cycle */
    double t_end;           /* wall clock when the run ended */
    double cpu_end;         /* the simulator's CPU time then (sim_cpu) */
};

enum { PHASE_INIT, PHASE_RUN, PHASE_SNAP, PHASE_DONE };
enum { SIM_STEP = 0, SIM_DONE = 1, SIM_HELP = 2 };

extern struct sim g_sim;

/* sim/kernel/hostmem.c: per-cycle host-memory and register-port work. */
int hostmem_init(struct node *nd, const struct skif_opts *o, int rank);
void hostmem_fini(struct node *nd);
void hostmem_tick(struct node *nd, uint64_t now);
void hostmem_drain_posted(struct node *nd, uint64_t now);
void hostmem_mmio_push(struct node *nd, uint64_t now, uint32_t off, uint32_t val, int write,
                       int internal);

/* sim/kernel/sim_main.cpp: the Verilated model. */
#ifdef __cplusplus
extern "C" {
#endif
int skif_model_init(const struct skif_opts *o);
void skif_model_step(uint64_t cycle);
void skif_model_fini(void);
/* Router buffers for the watchdog's report: start noting which input VCs
 * move, then name every one that holds a flit and never moved since. */
void skif_model_dbg_begin(void);
void skif_model_dbg_report(void);
int sim_run(int argc, char **argv);
/* Node-cycles not evaluated because the node was at a fixed point (its state
 * did not change in a cycle with idle host calls and unchanged inputs). */
uint64_t skif_model_skipped(void);
/* Node-cycles evaluated with the collective engine's clock gated off (it was
 * idle and nothing reached it: sim/kernel/node_links.h, cycle_one). */
uint64_t skif_model_gated(void);
/* The share of this process's model's cycles run in more than one thread
 * (--threads: the threads are used only while they pay, sim/kernel/parts.h),
 * in millionths. */
uint64_t skif_model_in_parts_ppm(void);
#ifdef __cplusplus
}
#endif

/* The host side may still change what node nd's model sees: a DMA read not
 * yet answered, a register access queued or on the port. */
static inline int hostmem_busy(const struct node *nd)
{
    return nd->rd_pending || fifo_len(&nd->mmio_q) || fifo_len(&nd->mmio_fly);
}

/* The kernel's life cycle, for any model driver (Verilator's main loop or
 * Icarus's VPI): sim_init() parses the command line and creates the host
 * memories (returns 0, SIM_HELP, or -exit code); the driver builds and resets
 * its model; sim_start() starts the programs; then at every cycle boundary
 * sim_sync() runs programs until the model must advance (SIM_STEP) or the run
 * is over (SIM_DONE); between boundaries the driver calls sim_step() (or, when
 * the model keeps its own time, sim_tick_host() before the rising edge and
 * sim_cycle_done() after it); sim_fini() frees everything and returns the exit
 * code. */
#ifdef __cplusplus
extern "C" {
#endif
int sim_init(int argc, char **argv);
int sim_start(void);
int sim_sync(void);
void sim_step(void);
void sim_tick_host(void);
void sim_cycle_done(void);
int sim_fini(void);
/* End the run now with exit code rc (a model-side error such as an X). */
void sim_fail(int rc);
/* Called by each of the model's worker threads (--threads) as it starts: a
 * run pinned to one CPU keeps that CPU for the simulator's main thread and the
 * programs, and puts its workers on the other CPUs it was allowed (all on the
 * one CPU if there is no other). Does nothing in a run left free. */
void sim_pin_worker(void);
/* --progress while the run is set up: "skifsim: WHAT: DONE of TOTAL (N s)"
 * on stderr when a line is due (rank 0; a wall-clock read per call). */
void sim_progress_setup(const char *what, int done, int total);
#ifdef __cplusplus
}
#endif

double sim_wall(void);
/* CPU seconds (user and system) this simulator process has used, all its
 * threads; not its programs'. */
double sim_cpu(void);

/* --tag-output (tag_output.c). In a program's process before exec:
 * sim_tag_output() sends its stdout and stderr through a helper process that
 * prefixes every line with "[rank] " and writes it to the original stream
 * (0, or -1 with errno: the output then stays untagged). In the simulator:
 * sim_tag_begin() before the programs are forked (every helper then holds a
 * pipe the simulator reads), sim_tag_started() once they are, and
 * sim_tag_drain() at the end: it waits until every helper has written out
 * what its program printed (at most timeout_ms; a helper may be held by a
 * program's own background child). Without --tag-output they do nothing. */
int sim_tag_output(int rank);
int sim_tag_begin(void);
void sim_tag_started(void);
void sim_tag_drain(int timeout_ms);

#endif /* SKIF_SIM_H */
