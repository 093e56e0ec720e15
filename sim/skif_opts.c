/* SPDX-License-Identifier: Apache-2.0 */
/* skif_opts.c: command line of skifrun and skifsim (see skif_opts.h). */
#define _POSIX_C_SOURCE 200809L
#include "skif_opts.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void skif_opts_usage(FILE *f, const char *cmd)
{
    fprintf(f,
            "usage: %s -n N [options] PROGRAM [ARGS...]\n"
            "Run N copies of PROGRAM, one per simulated node, against the RTL model of\n"
            "the SkifCh network adapter. Runs are deterministic: the same command gives\n"
            "the same output, cycle count and waveform.\n"
            "\n"
            "options:\n"
            "  -n N                 number of nodes (%d..%d as a ring; more with --dims)\n"
            "  --dims X[xY[xZ[xW]]] torus dimensions (each %d..%d); the product must equal -n\n"
            "                       when both are given (at most %d nodes); -n alone\n"
            "                       means a ring (--dims N)\n"
            "  --wave FILE.fst      write an FST waveform (open it with `make wave`)\n"
            "  --trace-from C       first cycle written to the waveform (default 0)\n"
            "  --trace-to C         last cycle written to the waveform (default: end)\n"
            "  --trace-node K       trace only node K's adapter hierarchy\n"
            "  --max-cycles C       stop the run after C cycles (exit 3)\n"
            "  --watchdog C         stop the run when no program makes progress for C\n"
            "                       cycles (default 2000000; exit 4)\n"
            "  --host-latency C     host-interface round trip in cycles (default 128)\n"
            "  --clock-mhz F        stated adapter clock in MHz (default 250)\n"
            "  --mem-mb M           host memory per node in MiB (default 16)\n"
            "  --stall-warn S       notice when a program runs S wall seconds without\n"
            "                       entering the driver (default 10)\n"
            "  --stats FILE         write run statistics as JSON\n"
            "  --cpu N|any          run the simulator and all programs on CPU N (default:\n"
            "                       the CPU it starts on; only one of them runs at a time,\n"
            "                       and hand-overs on one CPU are fastest); any: no pinning\n"
            "  --sim SIM            the RTL simulator: verilator (default), verilator-mt\n"
            "                       (Verilator with 2 threads), icarus (4-state: any X or\n"
            "                       Z reaching the host stops the run)\n"
            "  -q, --quiet          no summary at the end\n"
            "  -h, --help           this text\n"
            "\n"
            "exit status: 0 all programs exited 0; 1 a program failed; 2 usage;\n"
            "3 --max-cycles reached; 4 watchdog; 5 simulator error.\n",
            cmd, SKIF_NODES_MIN, SKIF_NODES_MAX, SKIF_DIM_MIN, SKIF_DIM_MAX, SKIF_TORUS_NODES_MAX);
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

static int parse_dims(struct skif_opts *o, const char *s, char *err, size_t errlen)
{
    char buf[64];
    if (strlen(s) >= sizeof(buf))
        return fail(err, errlen, "--dims '%s': too long", s);
    strcpy(buf, s);
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, "x", &save); tok; tok = strtok_r(NULL, "x", &save)) {
        uint64_t v;
        if (n == 4)
            return fail(err, errlen, "--dims '%s': at most 4 dimensions (X, Y, Z, W)", s);
        if (parse_u64(tok, SKIF_DIM_MIN, SKIF_DIM_MAX, &v) < 0)
            return fail(err, errlen, "--dims '%s': each dimension must be a number from %d to %d",
                        s, SKIF_DIM_MIN, SKIF_DIM_MAX);
        o->dims[n++] = (int)v;
    }
    if (n == 0 || s[0] == 'x' || s[strlen(s) - 1] == 'x' || strstr(s, "xx"))
        return fail(err, errlen, "--dims '%s': expected sizes separated by 'x', e.g. 4 or 3x3", s);
    o->ndims = n;
    return 0;
}

int skif_opts_parse(struct skif_opts *o, int argc, char **argv, char *err, size_t errlen)
{
    memset(o, 0, sizeof(*o));
    o->trace_to = UINT64_MAX;
    o->trace_node = -1;
    o->watchdog = 2000000;
    o->host_latency = 128;
    o->clock_mhz = 250;
    o->mem_mb = 16;
    o->stall_warn = 10;
    o->cpu = SKIF_CPU_HERE;
    for (int i = 0; i < 4; i++)
        o->dims[i] = 1;

    const char *cmd = argc > 0 ? argv[0] : "skifrun";
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t x;
        if (a[0] != '-')
            break;
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            skif_opts_usage(stdout, cmd);
            return 1;
        }
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = 1;
            continue;
        }
        /* every other option takes a value */
        int known = !strcmp(a, "-n") || !strcmp(a, "--dims") || !strcmp(a, "--wave") ||
                    !strcmp(a, "--trace-from") || !strcmp(a, "--trace-to") ||
                    !strcmp(a, "--trace-node") || !strcmp(a, "--max-cycles") ||
                    !strcmp(a, "--watchdog") || !strcmp(a, "--host-latency") ||
                    !strcmp(a, "--clock-mhz") || !strcmp(a, "--mem-mb") ||
                    !strcmp(a, "--stall-warn") || !strcmp(a, "--stats") || !strcmp(a, "--sim") ||
                    !strcmp(a, "--cpu");
        if (!known)
            return fail(err, errlen, "unknown option '%s'", a);
        if (!v)
            return fail(err, errlen, "option '%s' needs a value", a);
        i++;
        if (!strcmp(a, "-n")) {
            if (parse_u64(v, SKIF_NODES_MIN, SKIF_TORUS_NODES_MAX, &x) < 0)
                return fail(err, errlen, "-n '%s': the number of nodes must be from %d to %d", v,
                            SKIF_NODES_MIN, SKIF_TORUS_NODES_MAX);
            o->nodes = (int)x;
        } else if (!strcmp(a, "--dims")) {
            if (parse_dims(o, v, err, errlen) < 0)
                return -1;
        } else if (!strcmp(a, "--wave")) {
            size_t l = strlen(v);
            if (l < 5 || strcmp(v + l - 4, ".fst"))
                return fail(err, errlen, "--wave '%s': the waveform file must end in .fst", v);
            o->wave = v;
        } else if (!strcmp(a, "--stats")) {
            o->stats = v;
        } else if (!strcmp(a, "--cpu")) {
            if (!strcmp(v, "any"))
                o->cpu = SKIF_CPU_ANY;
            else if (parse_u64(v, 0, 1023, &x) < 0)
                return fail(err, errlen, "--cpu '%s': expected a CPU number (0..1023) or 'any'", v);
            else
                o->cpu = (int)x;
        } else if (!strcmp(a, "--sim")) {
            if (strcmp(v, "verilator") && strcmp(v, "verilator-mt") && strcmp(v, "icarus"))
                return fail(err, errlen, "--sim '%s': expected verilator, verilator-mt or icarus",
                            v);
            o->icarus = !strcmp(v, "icarus");
            o->threads = !strcmp(v, "verilator-mt");
        } else {
            uint64_t lo = 0, hi = UINT64_MAX;
            if (!strcmp(a, "--host-latency"))
                lo = 2, hi = 100000;
            else if (!strcmp(a, "--clock-mhz"))
                lo = 1, hi = 10000;
            else if (!strcmp(a, "--mem-mb"))
                lo = 1, hi = 4096;
            else if (!strcmp(a, "--watchdog"))
                lo = 1;
            else if (!strcmp(a, "--trace-node"))
                hi = SKIF_TORUS_NODES_MAX - 1;
            else if (!strcmp(a, "--stall-warn"))
                lo = 1, hi = 86400;
            if (parse_u64(v, lo, hi, &x) < 0)
                return fail(err, errlen,
                            "%s '%s': expected a whole number from %" PRIu64 " to %" PRIu64, a, v,
                            lo, hi);
            if (!strcmp(a, "--trace-from"))
                o->trace_from = x;
            else if (!strcmp(a, "--trace-to"))
                o->trace_to = x;
            else if (!strcmp(a, "--trace-node"))
                o->trace_node = (int)x;
            else if (!strcmp(a, "--max-cycles"))
                o->max_cycles = x;
            else if (!strcmp(a, "--watchdog"))
                o->watchdog = x;
            else if (!strcmp(a, "--host-latency"))
                o->host_latency = (uint32_t)x;
            else if (!strcmp(a, "--clock-mhz"))
                o->clock_mhz = (uint32_t)x;
            else if (!strcmp(a, "--mem-mb"))
                o->mem_mb = (uint32_t)x;
            else
                o->stall_warn = (uint32_t)x;
        }
    }
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
    } else if (o->nodes) {
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
    if (o->trace_node >= o->nodes)
        return fail(err, errlen, "--trace-node %d: there are only %d nodes (0..%d)", o->trace_node,
                    o->nodes, o->nodes - 1);
    if (o->wave && o->icarus)
        return fail(err, errlen, "--wave needs the Verilator model; drop --sim icarus");
    if ((o->trace_node >= 0 || o->trace_from || o->trace_to != UINT64_MAX) && !o->wave)
        return fail(err, errlen, "--trace-from/--trace-to/--trace-node need --wave FILE.fst");
    return 0;
}

void skif_opts_model_tag(const struct skif_opts *o, char *buf, size_t len)
{
    char dims[32];
    skif_opts_dims_str(o, dims, sizeof(dims));
    snprintf(buf, len, "t%s%s", dims, o->icarus ? "-icarus" : o->threads ? "-mt" : "");
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
    uint32_t w = 0;
    for (int d = 0; d < 4; d++)
        w |= (uint32_t)o->dims[d] << (5 * d);
    return w;
}

uint32_t skif_opts_node_id(const struct skif_opts *o, int r)
{
    uint32_t id = 0;
    for (int d = 0; d < 4; d++) {
        id |= (uint32_t)(r % o->dims[d]) << (4 * d);
        r /= o->dims[d];
    }
    return id;
}
