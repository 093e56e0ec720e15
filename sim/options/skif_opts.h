/* SPDX-License-Identifier: Apache-2.0 */
/* skif_opts.h: the command line shared by skifrun (the launcher) and skifsim
 * (the simulator it starts), so both accept and reject exactly the same; its
 * --dims parser also serves skifnet, the SystemC top and skif_dims. It has a
 * folder of its own (sim/options/) because each of them depends on it and it
 * on none of them. */
#ifndef SKIF_OPTS_H
#define SKIF_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SKIF_NODES_MIN 1          /* -n 1: one program on a ring of 2 (node 1 idle) */
#define SKIF_NODES_MAX 16         /* -n alone: a 1-D torus (ring) of at most 16 */
#define SKIF_THREADS_MAX 64       /* --threads: at most this many */
#define SKIF_RANKS_MAX 64         /* --ranks: at most this many MPI ranks */
#define SKIF_CUT_LATENCY_MAX 1024 /* --cut-latency: at most this many cycles */
#define SKIF_TORUS_NODES_MAX 4096 /* --dims: at most this many nodes (one process each) */
#define SKIF_DIM_MIN 2
#define SKIF_DIM_MAX 16
#define SKIF_SIM_VERSION "0.2.0" /* skifrun --version */

/* Defaults of the options, defined here only (usage text, parser, docs). */
#define SKIF_HOST_LATENCY_DEFAULT 128         /* --host-latency: cycles, 512 ns at 250 MHz */
#define SKIF_CLOCK_MHZ_DEFAULT 250            /* --clock-mhz */
#define SKIF_MEM_MB_DEFAULT 16                /* --mem-mb */
#define SKIF_STALL_WARN_DEFAULT 10            /* --stall-warn: seconds */
#define SKIF_PROGRESS_DEFAULT 10              /* --progress: seconds, on a terminal */
#define SKIF_PROGRESS_TTY (-1)                /* --progress not given: the default or none */
#define SKIF_WATCHDOG_DEFAULT 2000000         /* --watchdog: cycles */
#define SKIF_WAVES_DEFAULT_FILE "skifrun.fst" /* WAVES=1 without --wave */
#define SKIF_CPU_HERE (-1)                    /* pin the run to the CPU the simulator starts on */
#define SKIF_CPU_ANY (-2)                     /* do not pin */

struct skif_opts {
    int nodes;             /* nodes of the model (-n, or the product of --dims) */
    int progs;             /* programs started, on nodes 0..progs-1: nodes, or 1 for -n 1
                            * (the smallest torus is a ring of 2; node 1 then runs none) */
    int ndims;             /* --dims: number of dimensions */
    int dims[4];           /* --dims: size of each dimension */
    const char *wave;      /* --wave FILE.fst, or NULL */
    uint64_t trace_from;   /* --trace-from: first traced cycle */
    uint64_t trace_to;     /* --trace-to: last traced cycle (UINT64_MAX: to the end) */
    int trace_node;        /* --trace-node: node whose hierarchy is traced, -1 all */
    uint64_t max_cycles;   /* --max-cycles: stop the run there (0: no limit) */
    uint64_t watchdog;     /* --watchdog: cycles without progress before the run is stopped */
    uint32_t host_latency; /* --host-latency: host-interface round trip, cycles */
    uint32_t clock_mhz;    /* --clock-mhz: stated clock */
    uint32_t mem_mb;       /* --mem-mb: host memory per node, MiB */
    uint32_t stall_warn;   /* --stall-warn: seconds a program may run before a notice */
    int progress;          /* --progress: seconds between progress lines on stderr (0: none;
                            * SKIF_PROGRESS_TTY: not given) */
    const char *stats;     /* --stats FILE: write run statistics as JSON */
    int quiet;             /* -q: no summary */
    int tag_output;        /* --tag-output: prefix each line of a program with [rank] */
    int icarus;            /* --sim icarus: run the model under Icarus (4-state) */
    int threads;           /* --threads T: nodes evaluated in T threads (0: one) */
    int no_skip;           /* --no-skip: evaluate every node every cycle, its collective
                            * engine clocked at every edge (default: a node at a fixed
                            * point, with its host quiet, sleeps, and an idle engine's
                            * clock is gated off; same results) */
    int ranks;             /* --ranks K: the torus in K slabs, one MPI rank each (0: not
                            * given; the simulator then takes the MPI job's size) */
    int cut_latency;       /* --cut-latency C: cycles a flit or credit takes across a slab
                            * boundary (0: not given, the normal link's 1) */
    int cpu;               /* --cpu: SKIF_CPU_HERE (default), SKIF_CPU_ANY, or a CPU number */
    int prog_argc;         /* the program and its arguments */
    char **prog_argv;
};

/* Parse argv (argv[0] is the command name) with getopt_long; options end at
 * the first word that is not one (the program). -np N is read as -n N. The
 * environment's WAVES=1 (cocotb's habit) sets --wave SKIF_WAVES_DEFAULT_FILE
 * when no --wave is given (the Verilator model only). Returns 0 on success,
 * 1 when --help or --version was asked (the text is already on stdout), -1
 * on a bad command line (a one-line message naming the problem is in err).
 * Not thread-safe (getopt's state). */
int skif_opts_parse(struct skif_opts *o, int argc, char **argv, char *err, size_t errlen);

/* Print the usage text. */
void skif_opts_usage(FILE *f, const char *cmd);

/* Print the version line (simulator, register map, host protocol). */
void skif_opts_version(FILE *f, const char *cmd);

/* Parse a torus shape "X[xY[xZ[xW]]]" (each SKIF_DIM_MIN..SKIF_DIM_MAX), the
 * one --dims parser of skifrun, skifsim and skifnet: dims[0..3] (1 beyond
 * the given ones) and *ndims; 0, or -1 with a message naming the problem in
 * err. */
int skif_parse_dims(const char *s, int dims[4], int *ndims, char *err, size_t errlen);

/* The sizes as the models report them: 5 bits each, X lowest. */
uint32_t skif_opts_dims_word(const struct skif_opts *o);

/* Node id (coordinates packed 4 bits each, X lowest) of rank r, X fastest. */
uint32_t skif_opts_node_id(const struct skif_opts *o, int r);

/* --ranks K: the torus's planes along its slowest dimension (the slabs are
 * ranges of them), and the first node of rank r's slab (r = K: the end). */
int skif_opts_planes(const struct skif_opts *o);
int skif_opts_slab_lo(const struct skif_opts *o, int ranks, int r);

/* Can the torus of o be split into `ranks` slabs, with o's --cut-latency?
 * 0, or -1 with a message naming the problem in err. */
int skif_opts_check_ranks(const struct skif_opts *o, int ranks, char *err, size_t errlen);

/* The dimensions as text, e.g. "4x4x4". */
void skif_opts_dims_str(const struct skif_opts *o, char *buf, size_t len);

/* The model tag of a parsed command line, e.g. "t4x4" (build/models/<tag>). */
void skif_opts_model_tag(const struct skif_opts *o, char *buf, size_t len);

#endif /* SKIF_OPTS_H */
