/* SPDX-License-Identifier: Apache-2.0 */
/* skif_opts.c: command line of skifrun and skifsim (see skif_opts.h). */
#define _GNU_SOURCE
#include "skif_opts.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "skif_hw.h"
#include "skif_node.h"
#include "skif_proto.h"

void skif_opts_usage(FILE *f, const char *cmd)
{
    fprintf(f,
            "usage: %s -n N [options] PROGRAM [ARGS...]\n"
            "Run N copies of PROGRAM, one per simulated node, against the RTL model of\n"
            "the SkifCh network adapter. Runs are deterministic: the same command gives\n"
            "the same output, cycle count and waveform. Options end at PROGRAM; values\n"
            "may be joined (-n4, --dims=2x2).\n"
            "\n"
            "options:\n"
            "  -n N, -np N          number of nodes (%d..%d as a ring; more with --dims);\n"
            "                       -n 1 runs one program on a ring of 2 (node 1 idle)\n"
            "  --dims X[xY[xZ[xW]]] torus dimensions (each %d..%d); the product must equal -n\n"
            "                       when both are given (at most %d nodes); -n alone\n"
            "                       means a ring (--dims N)\n"
            "  --wave FILE.fst      write an FST waveform (open it with `make wave`; under\n"
            "                       --sim icarus the whole run, all nodes);\n"
            "                       WAVES=1 in the environment: --wave %s\n"
            "  --trace-from C       first cycle written to the waveform (default 0)\n"
            "  --trace-to C         last cycle written to the waveform (default: end)\n"
            "  --trace-node K       trace only node K's adapter hierarchy\n"
            "  --max-cycles C       stop the run after C cycles (exit 3)\n"
            "  --watchdog C         stop the run when no program makes progress for C\n"
            "                       cycles (default %d; exit 4)\n"
            "  --host-latency C     host-interface round trip in cycles (default %d)\n"
            "  --clock-mhz F        stated adapter clock in MHz (default %d)\n"
            "  --mem-mb M           host memory per node in MiB (default %d)\n"
            "  --stall-warn S       notice when a program runs S wall seconds without\n"
            "                       entering the driver (default %d)\n"
            "  --progress S         a progress line on stderr every S wall seconds: the\n"
            "                       programs started, then the cycle and the speed\n"
            "                       (default %d when stderr is a terminal, else 0: none)\n"
            "  --stats FILE         write run statistics as JSON\n"
            "  --tag-output         prefix each line a program prints with [RANK]\n"
            "  --cpu N|any          run the simulator and all programs on CPU N (default:\n"
            "                       the CPU it starts on; only one of them runs at a time,\n"
            "                       and hand-overs on one CPU are fastest); any: no pinning\n"
            "  --threads T          evaluate the nodes' models in T threads (default 1;\n"
            "                       the same results and waveform as one thread); the\n"
            "                       threads beyond the first run on the other CPUs, and\n"
            "                       only while they pay (not on a run's quiet stretches)\n"
            "  --ranks K            split the torus into K slabs along its slowest\n"
            "                       dimension, one MPI process each (skifsim-mpi under\n"
            "                       mpirun; the same results as one process)\n"
            "  --cut-latency C      with --ranks: a flit or credit takes C cycles (default 1,\n"
            "                       as every link) across a slab boundary, and the ranks\n"
            "                       exchange once every C cycles (faster; other timing)\n"
            "  --no-skip            evaluate every node every cycle and clock every node's\n"
            "                       collective engine at every edge (by default a node whose\n"
            "                       state stopped changing, with idle links and host, is not\n"
            "                       evaluated until something reaches it, and an idle engine's\n"
            "                       clock is gated off; same results)\n"
            "  --sim SIM            the RTL simulator: verilator (default; verilator-mt is\n"
            "                       --threads 2), icarus (4-state: any X or Z reaching the\n"
            "                       host stops the run; one build per torus size)\n"
            "  -q, --quiet          no summary at the end\n"
            "  -h, --help           this text\n"
            "  --version            version of the simulator, register map and protocol\n"
            "\n"
            "exit status: 0 all programs exited 0; 2 usage (nothing was run);\n"
            "3 --max-cycles reached; 4 watchdog; 5 simulator error; when a program\n"
            "fails, the status of the first one that failed, like mpirun (128+S when\n"
            "killed by signal S; 1 when it failed otherwise); the message on stderr\n"
            "names the node and the cause.\n",
            cmd, SKIF_NODES_MIN, SKIF_NODES_MAX, SKIF_DIM_MIN, SKIF_DIM_MAX, SKIF_TORUS_NODES_MAX,
            SKIF_WAVES_DEFAULT_FILE, SKIF_WATCHDOG_DEFAULT, SKIF_HOST_LATENCY_DEFAULT,
            SKIF_CLOCK_MHZ_DEFAULT, SKIF_MEM_MB_DEFAULT, SKIF_STALL_WARN_DEFAULT,
            SKIF_PROGRESS_DEFAULT);
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Parse an unsigned decimal number in [lo, hi]. */
static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int skif_parse_dims(const char *s, int dims[4], int *ndims, char *err, size_t errlen)
{
    char buf[64];
    if (strlen(s) >= sizeof(buf))
        return fail(err, errlen, "--dims '%s': too long", s);
    strcpy(buf, s);
    int n = 0, d[4] = {1, 1, 1, 1};
    char *save = NULL;
    for (char *tok = strtok_r(buf, "x", &save); tok; tok = strtok_r(NULL, "x", &save)) {
        uint64_t v;
        if (n == 4)
            return fail(err, errlen, "--dims '%s': at most 4 dimensions (X, Y, Z, W)", s);
        if (parse_u64(tok, SKIF_DIM_MIN, SKIF_DIM_MAX, &v) < 0)
            return fail(err, errlen, "--dims '%s': each dimension must be a number from %d to %d",
                        s, SKIF_DIM_MIN, SKIF_DIM_MAX);
        d[n++] = (int)v;
    }
    if (n == 0 || s[0] == 'x' || s[strlen(s) - 1] == 'x' || strstr(s, "xx"))
        return fail(err, errlen, "--dims '%s': expected sizes separated by 'x', e.g. 4 or 3x3", s);
    memcpy(dims, d, sizeof(d));
    *ndims = n;
    return 0;
}

static int parse_dims(struct skif_opts *o, const char *s, char *err, size_t errlen)
{
    return skif_parse_dims(s, o->dims, &o->ndims, err, errlen);
}

/* Long options; the values of options without a short form. */
enum {
    OPT_DIMS = 256,
    OPT_WAVE,
    OPT_TRACE_FROM,
    OPT_TRACE_TO,
    OPT_TRACE_NODE,
    OPT_MAX_CYCLES,
    OPT_WATCHDOG,
    OPT_HOST_LATENCY,
    OPT_CLOCK_MHZ,
    OPT_MEM_MB,
    OPT_STALL_WARN,
    OPT_PROGRESS,
    OPT_STATS,
    OPT_SIM,
    OPT_CPU,
    OPT_THREADS,
    OPT_NO_SKIP,
    OPT_RANKS,
    OPT_CUT_LATENCY,
    OPT_TAG_OUTPUT,
    OPT_VERSION,
};

static const struct option long_opts[] = {
    {"np", required_argument, NULL, 'n'},
    {"dims", required_argument, NULL, OPT_DIMS},
    {"wave", required_argument, NULL, OPT_WAVE},
    {"trace-from", required_argument, NULL, OPT_TRACE_FROM},
    {"trace-to", required_argument, NULL, OPT_TRACE_TO},
    {"trace-node", required_argument, NULL, OPT_TRACE_NODE},
    {"max-cycles", required_argument, NULL, OPT_MAX_CYCLES},
    {"watchdog", required_argument, NULL, OPT_WATCHDOG},
    {"host-latency", required_argument, NULL, OPT_HOST_LATENCY},
    {"clock-mhz", required_argument, NULL, OPT_CLOCK_MHZ},
    {"mem-mb", required_argument, NULL, OPT_MEM_MB},
    {"stall-warn", required_argument, NULL, OPT_STALL_WARN},
    {"progress", required_argument, NULL, OPT_PROGRESS},
    {"stats", required_argument, NULL, OPT_STATS},
    {"sim", required_argument, NULL, OPT_SIM},
    {"cpu", required_argument, NULL, OPT_CPU},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"no-skip", no_argument, NULL, OPT_NO_SKIP},
    {"ranks", required_argument, NULL, OPT_RANKS},
    {"cut-latency", required_argument, NULL, OPT_CUT_LATENCY},
    {"tag-output", no_argument, NULL, OPT_TAG_OUTPUT},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/* The name of the option getopt_long just returned, for messages. */
static const char *opt_name(int c, char *buf, size_t len)
{
    for (const struct option *lo = long_opts; lo->name; lo++)
        if (lo->val == c && c >= OPT_DIMS) {
            snprintf(buf, len, "--%s", lo->name);
            return buf;
        }
    snprintf(buf, len, "-%c", c);
    return buf;
}

/* A whole-number option in [lo, hi]. */
static int num_opt(const char *name, const char *v, uint64_t lo, uint64_t hi, uint64_t *x,
                   char *err, size_t errlen)
{
    if (parse_u64(v, lo, hi, x) < 0)
        return fail(err, errlen, "%s '%s': expected a whole number from %" PRIu64 " to %" PRIu64,
                    name, v, lo, hi);
    return 0;
}

void skif_opts_version(FILE *f, const char *cmd)
{
    fprintf(f, "%s (skifsim) %s; adapter register map %u.%u.%u, host protocol %u\n", cmd,
            SKIF_SIM_VERSION, (unsigned)(SKIF_VERSION_VALUE >> 16) & 0xff,
            (unsigned)(SKIF_VERSION_VALUE >> 8) & 0xff, (unsigned)SKIF_VERSION_VALUE & 0xff,
            (unsigned)SKIF_PROTO_VERSION);
}

int skif_opts_parse(struct skif_opts *o, int argc, char **argv, char *err, size_t errlen)
{
    memset(o, 0, sizeof(*o));
    o->trace_to = UINT64_MAX;
    o->trace_node = -1;
    o->watchdog = SKIF_WATCHDOG_DEFAULT;
    o->host_latency = SKIF_HOST_LATENCY_DEFAULT;
    o->clock_mhz = SKIF_CLOCK_MHZ_DEFAULT;
    o->mem_mb = SKIF_MEM_MB_DEFAULT;
    o->stall_warn = SKIF_STALL_WARN_DEFAULT;
    o->progress = SKIF_PROGRESS_TTY;
    o->cpu = SKIF_CPU_HERE;
    for (int i = 0; i < 4; i++)
        o->dims[i] = 1;
    if (argc < 1)
        return fail(err, errlen, "no program given");

    /* mpirun's -np N is -n N; getopt_long would read it as -n p. The
     * options end at the first word that is not one (the program), so only
     * words before it are looked at. */
    char **av = malloc(((size_t)argc + 1) * sizeof(char *));
    if (!av)
        return fail(err, errlen, "out of memory");
    memcpy(av, argv, (size_t)argc * sizeof(char *));
    av[argc] = NULL;
    const char *cmd = av[0];
    for (int k = 1; k < argc && av[k][0] == '-' && strcmp(av[k], "--"); k++)
        if (!strcmp(av[k], "-np"))
            av[k] = "-n";

    int rc = 0, c, idx;
    char name[32];
    opterr = 0;
    optind = 0; /* GNU: restart the scan (the parser may run more than once) */
    while (rc == 0 && (c = getopt_long(argc, av, "+:n:qh", long_opts, &idx)) != -1) {
        const char *v = optarg;
        uint64_t x = 0;
        switch (c) {
        case 'h':
            skif_opts_usage(stdout, cmd);
            rc = 1;
            break;
        case OPT_VERSION:
            skif_opts_version(stdout, cmd);
            rc = 1;
            break;
        case 'q':
            o->quiet = 1;
            break;
        case OPT_TAG_OUTPUT:
            o->tag_output = 1;
            break;
        case 'n':
            if (parse_u64(v, SKIF_NODES_MIN, SKIF_TORUS_NODES_MAX, &x) < 0)
                rc = fail(err, errlen, "-n '%s': the number of nodes must be from %d to %d", v,
                          SKIF_NODES_MIN, SKIF_TORUS_NODES_MAX);
            o->nodes = (int)x;
            break;
        case OPT_DIMS:
            rc = parse_dims(o, v, err, errlen);
            break;
        case OPT_WAVE: {
            size_t l = strlen(v);
            if (l < 5 || strcmp(v + l - 4, ".fst"))
                rc = fail(err, errlen, "--wave '%s': the waveform file must end in .fst", v);
            o->wave = v;
            break;
        }
        case OPT_STATS:
            if (!*v)
                rc = fail(err, errlen, "--stats '': give a file name");
            o->stats = v;
            break;
        case OPT_CPU:
            if (!strcmp(v, "any"))
                o->cpu = SKIF_CPU_ANY;
            else if (parse_u64(v, 0, 1023, &x) < 0)
                rc = fail(err, errlen, "--cpu '%s': expected a CPU number (0..1023) or 'any'", v);
            else
                o->cpu = (int)x;
            break;
        case OPT_SIM:
            if (strcmp(v, "verilator") && strcmp(v, "verilator-mt") && strcmp(v, "icarus"))
                rc = fail(err, errlen, "--sim '%s': expected verilator, verilator-mt or icarus", v);
            o->icarus = !strcmp(v, "icarus");
            if (!strcmp(v, "verilator-mt")) /* the name of earlier versions: two threads */
                o->threads = 2;
            break;
        case OPT_THREADS:
            if (parse_u64(v, 1, SKIF_THREADS_MAX, &x) < 0)
                rc = fail(err, errlen, "--threads '%s': expected a number of threads, 1..%d", v,
                          SKIF_THREADS_MAX);
            else
                o->threads = (int)x;
            break;
        case OPT_NO_SKIP:
            o->no_skip = 1;
            break;
        case OPT_RANKS:
            if (parse_u64(v, 1, SKIF_RANKS_MAX, &x) < 0)
                rc = fail(err, errlen, "--ranks '%s': expected a number of MPI ranks, 1..%d", v,
                          SKIF_RANKS_MAX);
            else
                o->ranks = (int)x;
            break;
        case OPT_CUT_LATENCY:
            if (parse_u64(v, 1, SKIF_CUT_LATENCY_MAX, &x) < 0)
                rc = fail(err, errlen, "--cut-latency '%s': expected a number of cycles, 1..%d", v,
                          SKIF_CUT_LATENCY_MAX);
            else
                o->cut_latency = (int)x;
            break;
        case OPT_TRACE_FROM:
            rc = num_opt("--trace-from", v, 0, UINT64_MAX, &o->trace_from, err, errlen);
            break;
        case OPT_TRACE_TO:
            rc = num_opt("--trace-to", v, 0, UINT64_MAX, &o->trace_to, err, errlen);
            break;
        case OPT_TRACE_NODE:
            rc = num_opt("--trace-node", v, 0, SKIF_TORUS_NODES_MAX - 1, &x, err, errlen);
            o->trace_node = (int)x;
            break;
        case OPT_MAX_CYCLES:
            rc = num_opt("--max-cycles", v, 0, UINT64_MAX, &o->max_cycles, err, errlen);
            break;
        case OPT_WATCHDOG:
            rc = num_opt("--watchdog", v, 1, UINT64_MAX, &o->watchdog, err, errlen);
            break;
        case OPT_HOST_LATENCY:
            rc = num_opt("--host-latency", v, 2, 100000, &x, err, errlen);
            o->host_latency = (uint32_t)x;
            break;
        case OPT_CLOCK_MHZ:
            rc = num_opt("--clock-mhz", v, 1, 10000, &x, err, errlen);
            o->clock_mhz = (uint32_t)x;
            break;
        case OPT_MEM_MB:
            rc = num_opt("--mem-mb", v, 1, 4096, &x, err, errlen);
            o->mem_mb = (uint32_t)x;
            break;
        case OPT_STALL_WARN:
            rc = num_opt("--stall-warn", v, 1, 86400, &x, err, errlen);
            o->stall_warn = (uint32_t)x;
            break;
        case OPT_PROGRESS:
            rc = num_opt("--progress", v, 0, 86400, &x, err, errlen);
            o->progress = (int)x;
            break;
        case ':':
            rc = fail(err, errlen, "option '%s' needs a value",
                      optopt ? opt_name(optopt, name, sizeof(name)) : av[optind - 1]);
            break;
        default: /* '?' */
            if (!strncmp(av[optind - 1], "--", 2) && optopt)
                rc = fail(err, errlen, "option '%.*s' takes no value",
                          (int)strcspn(av[optind - 1], "="), av[optind - 1]);
            else if (optopt)
                rc = fail(err, errlen, "unknown option '-%c'", optopt);
            else
                rc = fail(err, errlen, "unknown option '%s'", av[optind - 1]);
            break;
        }
    }
    int i = optind;
    free(av);
    if (rc)
        return rc;
    /* cocotb's habit: WAVES=1 asks for a waveform (default file name) */
    const char *waves = getenv("WAVES");
    if (!o->wave && waves && *waves && strcmp(waves, "0"))
        o->wave = SKIF_WAVES_DEFAULT_FILE;
    if (i >= argc)
        return fail(err, errlen, "no program given");
    o->prog_argc = argc - i;
    o->prog_argv = argv + i;

    if (o->ndims) {
        int prod = 1;
        for (int d = 0; d < o->ndims; d++)
            prod *= o->dims[d];
        if (o->nodes && o->nodes != prod)
            return fail(err, errlen, "-n %d does not match --dims (%d nodes)", o->nodes, prod);
        if (prod > SKIF_TORUS_NODES_MAX)
            return fail(err, errlen,
                        "--dims gives %d nodes; skifrun runs at most %d (one process each)", prod,
                        SKIF_TORUS_NODES_MAX);
        o->nodes = prod;
        o->progs = prod;
    } else if (o->nodes) {
        o->progs = o->nodes;
        if (o->nodes == 1) /* one program: a ring of 2 with nothing on node 1 */
            o->nodes = 2;
        if (o->nodes > SKIF_NODES_MAX)
            return fail(err, errlen,
                        "-n %d: a ring has at most %d nodes; give the torus with --dims (e.g. "
                        "--dims 4x4x4)",
                        o->nodes, SKIF_NODES_MAX);
        o->ndims = 1;
        o->dims[0] = o->nodes;
    } else {
        return fail(err, errlen, "give the number of nodes with -n N or --dims");
    }
    if (o->trace_to < o->trace_from)
        return fail(err, errlen, "--trace-to %" PRIu64 " is before --trace-from %" PRIu64,
                    o->trace_to, o->trace_from);
    if (o->icarus && o->threads > 1)
        return fail(err, errlen, "--threads %d: only the Verilator models run in threads",
                    o->threads);
    if (o->icarus && (o->ranks > 1 || o->cut_latency))
        return fail(err, errlen,
                    "--ranks/--cut-latency need the Verilator model, not --sim icarus");
    if (o->ranks && skif_opts_check_ranks(o, o->ranks, err, errlen) < 0)
        return -1;
    if (o->icarus && (o->trace_node >= 0 || o->trace_from || o->trace_to != UINT64_MAX))
        return fail(err, errlen,
                    "--trace-from/--trace-to/--trace-node need the Verilator model; under "
                    "--sim icarus, --wave traces the whole run");
    if (o->trace_node >= o->nodes)
        return fail(err, errlen, "--trace-node %d: there are only %d nodes (0..%d)", o->trace_node,
                    o->nodes, o->nodes - 1);
    if ((o->trace_node >= 0 || o->trace_from || o->trace_to != UINT64_MAX) && !o->wave)
        return fail(err, errlen, "--trace-from/--trace-to/--trace-node need --wave FILE.fst");
    return 0;
}

int skif_opts_planes(const struct skif_opts *o)
{
    return o->dims[o->ndims - 1];
}

int skif_opts_slab_lo(const struct skif_opts *o, int ranks, int r)
{
    const int planes = skif_opts_planes(o), per = o->nodes / planes;
    return planes * r / ranks * per;
}

int skif_opts_check_ranks(const struct skif_opts *o, int ranks, char *err, size_t errlen)
{
    const int planes = skif_opts_planes(o);
    if (ranks > planes)
        return fail(err, errlen,
                    "--ranks %d: the torus has only %d planes along its slowest dimension (each "
                    "rank simulates a slab of whole planes)",
                    ranks, planes);
    if (o->cut_latency && ranks < 2)
        return fail(err, errlen,
                    "--cut-latency %d: there is no slab boundary in one process; give --ranks K "
                    "with K from 2",
                    o->cut_latency);
    return 0;
}

void skif_opts_model_tag(const struct skif_opts *o, char *buf, size_t len)
{
    char dims[32];
    skif_opts_dims_str(o, dims, sizeof(dims));
    if (o->icarus)
        snprintf(buf, len, "t%s-icarus", dims);
    else
        snprintf(buf, len, "n%d", o->ndims);
}

void skif_opts_dims_str(const struct skif_opts *o, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int d = 0; d < o->ndims && k < len; d++)
        k += (size_t)snprintf(buf + k, len - k, "%s%d", d ? "x" : "", o->dims[d]);
}

uint32_t skif_opts_dims_word(const struct skif_opts *o)
{
    return skif_node_sizes(o->dims);
}

uint32_t skif_opts_node_id(const struct skif_opts *o, int r)
{
    int c[SKIF_NODE_DIMS];
    skif_rank_coords(r, o->dims, c);
    return skif_node_id(c);
}
