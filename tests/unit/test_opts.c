/* SPDX-License-Identifier: Apache-2.0 */
/* test_opts: the command-line parser of skifrun/skifsim, good and bad input,
 * and the FIFO of the simulator's queues against a plain array model. */
#define _GNU_SOURCE
#include "../../sim/kernel/fifo.c"
#include "../../sim/options/skif_opts.c"

#include <stdint.h>

static int failed, passed;

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (c)                                                                                     \
            passed++;                                                                              \
        else {                                                                                     \
            failed++;                                                                              \
            fprintf(stderr, "test_opts: %s:%d: failed: %s\n", __FILE__, __LINE__, #c);             \
        }                                                                                          \
    } while (0)

static int parse(struct skif_opts *o, const char *line, char *err)
{
    static char buf[512];
    char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof(buf), "skifrun %s", line);
    for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    return skif_opts_parse(o, argc, argv, err, 256);
}

/* A bad line must fail and name the problem with `want` in the message. */
static void bad(const char *line, const char *want)
{
    struct skif_opts o;
    char err[256] = "";
    int rc = parse(&o, line, err);
    CHECK(rc == -1);
    if (rc != -1 || !strstr(err, want)) {
        failed++;
        fprintf(stderr, "test_opts: '%s': rc %d, message '%s', wanted '%s'\n", line, rc, err, want);
    }
}

int main(void)
{
    struct skif_opts o;
    char err[256];
    CHECK(parse(&o, "-n 4 prog a b", err) == 0);
    CHECK(o.nodes == 4 && o.ndims == 1 && o.dims[0] == 4 && o.prog_argc == 3);
    CHECK(!strcmp(o.prog_argv[0], "prog") && !strcmp(o.prog_argv[2], "b"));
    CHECK(o.host_latency == 128 && o.clock_mhz == 250 && o.watchdog == 2000000);
    CHECK(parse(&o, "--dims 5 --wave x.fst --trace-from 10 --trace-to 20 --trace-node 4 p", err) ==
          0);
    CHECK(o.nodes == 5 && o.trace_from == 10 && o.trace_to == 20 && o.trace_node == 4);
    CHECK(parse(&o, "-n 2 -- -weird", err) == 0 && !strcmp(o.prog_argv[0], "-weird"));
    CHECK(parse(&o, "-n 16 --max-cycles 5 --watchdog 9 --host-latency 2 -q p", err) == 0);
    CHECK(o.max_cycles == 5 && o.watchdog == 9 && o.host_latency == 2 && o.quiet);
    CHECK(o.progress == SKIF_PROGRESS_TTY); /* not given: the kernel looks at stderr */
    CHECK(parse(&o, "-n 2 --progress 0 p", err) == 0 && o.progress == 0);
    CHECK(parse(&o, "-n 2 --progress=86400 p", err) == 0 && o.progress == 86400);

    /* getopt_long forms: joined values, -np, options end at the program */
    CHECK(parse(&o, "--dims=2x2 p", err) == 0 && o.nodes == 4 && o.ndims == 2);
    CHECK(parse(&o, "-n2 p", err) == 0 && o.nodes == 2);
    CHECK(parse(&o, "-np 3 p", err) == 0 && o.nodes == 3);
    CHECK(parse(&o, "-qn3 p", err) == 0 && o.nodes == 3 && o.quiet);
    CHECK(parse(&o, "-n 2 p -n 5 --dims 3", err) == 0 && o.nodes == 2 && o.prog_argc == 5 &&
          !strcmp(o.prog_argv[1], "-n") && !strcmp(o.prog_argv[4], "3"));
    CHECK(parse(&o, "-n 2 --tag-output p", err) == 0 && o.tag_output);
    /* --ranks: slabs of whole planes along the slowest dimension */
    CHECK(parse(&o, "--dims 8x8x8 --ranks 3 --cut-latency 4 p", err) == 0 && o.ranks == 3 &&
          o.cut_latency == 4 && skif_opts_planes(&o) == 8);
    CHECK(skif_opts_slab_lo(&o, 3, 0) == 0 && skif_opts_slab_lo(&o, 3, 1) == 128 &&
          skif_opts_slab_lo(&o, 3, 2) == 320 && skif_opts_slab_lo(&o, 3, 3) == 512);
    CHECK(parse(&o, "--dims 4x3 --ranks 3 p", err) == 0 && skif_opts_slab_lo(&o, 3, 1) == 4 &&
          skif_opts_slab_lo(&o, 3, 3) == 12);
    CHECK(parse(&o, "-n 5 --ranks 5 p", err) == 0 && skif_opts_slab_lo(&o, 5, 4) == 4);
    bad("--dims 3x2 --ranks 3 p", "--ranks 3: the torus has only 2 planes");
    bad("-n 4 --ranks 2 --cut-latency 0 p", "--cut-latency '0': expected a number of cycles");
    bad("-n 4 --ranks 1 --cut-latency 2 p", "no slab boundary in one process");
    CHECK(parse(&o, "-n 2 p", err) == 0 && !o.tag_output && !o.wave);
    CHECK(parse(&o, "--host-latency=300 -n 2 p", err) == 0 && o.host_latency == 300);
    CHECK(parse(&o, "-n 2 p", err) == 0 && o.host_latency == SKIF_HOST_LATENCY_DEFAULT);
    /* cocotb's WAVES=1: a waveform under the default name; --wave wins */
    setenv("WAVES", "1", 1);
    CHECK(parse(&o, "-n 2 p", err) == 0 && o.wave && !strcmp(o.wave, SKIF_WAVES_DEFAULT_FILE));
    CHECK(parse(&o, "-n 2 --wave a.fst p", err) == 0 && !strcmp(o.wave, "a.fst"));
    setenv("WAVES", "0", 1);
    CHECK(parse(&o, "-n 2 p", err) == 0 && !o.wave);
    unsetenv("WAVES");

    char tag[64];
    /* -n 1: one program on a ring of 2 */
    CHECK(parse(&o, "-n 1 p", err) == 0 && o.nodes == 2 && o.progs == 1 && o.ndims == 1);
    skif_opts_model_tag(&o, tag, sizeof(tag));
    CHECK(!strcmp(tag, "n1")); /* one node model serves every ring */
    CHECK(parse(&o, "-n 3 p", err) == 0 && o.progs == 3);
    CHECK(parse(&o, "--dims 2x3 p", err) == 0 && o.progs == 6 && o.nodes == 6);
    CHECK(parse(&o, "--dims 4x4x4 p", err) == 0 && o.nodes == 64 && o.ndims == 3);
    CHECK(skif_opts_node_id(&o, 0) == 0 && skif_opts_node_id(&o, 5) == 0x011 &&
          skif_opts_node_id(&o, 63) == 0x333 && skif_opts_node_id(&o, 16) == 0x100);
    CHECK(skif_opts_dims_word(&o) == (4u | 4u << 5 | 4u << 10 | 1u << 15));
    skif_opts_model_tag(&o, tag, sizeof(tag));
    CHECK(!strcmp(tag, "n3"));
    CHECK(parse(&o, "-n 5 --sim icarus p", err) == 0);
    skif_opts_model_tag(&o, tag, sizeof(tag));
    CHECK(!strcmp(tag, "t5-icarus"));
    CHECK(parse(&o, "-n 16 --dims 16 --sim verilator-mt p", err) == 0 && o.threads == 2);
    skif_opts_model_tag(&o, tag, sizeof(tag));
    CHECK(!strcmp(tag, "n1")); /* the same model in two threads */
    CHECK(parse(&o, "--dims 16x16x16 --threads 8 p", err) == 0 && o.threads == 8 &&
          o.nodes == 4096);
    skif_opts_model_tag(&o, tag, sizeof(tag));
    CHECK(!strcmp(tag, "n3"));
    CHECK(parse(&o, "--dims 2x2x2x2 --trace-node 15 --wave w.fst p", err) == 0);
    CHECK(o.cpu == SKIF_CPU_HERE);
    CHECK(parse(&o, "-n 2 --cpu any p", err) == 0 && o.cpu == SKIF_CPU_ANY);
    CHECK(parse(&o, "-n 2 --cpu 1 p", err) == 0 && o.cpu == 1);

    bad("", "no program");
    bad("-n 4", "no program");
    bad("prog", "-n N");
    bad("-n 0 p", "from 1 to 4096");
    bad("-n 17 p", "a ring has at most 16");
    bad("-n 4097 p", "from 1 to 4096");
    bad("-n 2 --threads 0 p", "--threads '0': expected a number of threads, 1..64");
    bad("-n 2 --threads 65 p", "--threads '65'");
    bad("-n 2 --sim icarus --threads 2 p", "only the Verilator models run in threads");
    bad("-n abc p", "-n 'abc'");
    bad("-n -3 p", "-n '-3'");
    bad("-n 4x p", "-n '4x'");
    bad("--bogus p", "unknown option '--bogus'");
    bad("-x -n 2 p", "unknown option '-x'");
    bad("-n 2 --dims", "option '--dims' needs a value");
    bad("-n 2 --tag-output=3 p", "option '--tag-output' takes no value");
    bad("-n", "needs a value");
    bad("--dims 0 p", "from 2 to 16");
    bad("--dims 3x p", "separated by 'x'");
    bad("--dims x3 p", "separated by 'x'");
    bad("--dims 2x2x2x2x2 p", "at most 4");
    bad("--dims 17 p", "from 2 to 16");
    bad("--dims 17x2 p", "from 2 to 16");
    bad("-n 4 --dims 5 p", "does not match");
    bad("--dims 16x16x16x2 p", "at most 4096");
    bad("-n 2 --wave out.vcd p", "must end in .fst");
    bad("-n 2 --trace-node 1 p", "need --wave");
    bad("-n 2 --wave a.fst --trace-node 2 p", "only 2 nodes");
    bad("-n 2 --wave a.fst --trace-from 9 --trace-to 3 p", "before --trace-from");
    bad("-n 2 --host-latency 1 p", "from 2 to 100000");
    bad("-n 2 --watchdog 0 p", "--watchdog '0'");
    bad("-n 2 --progress 86401 p", "--progress '86401': expected a whole number from 0 to 86400");
    bad("-n 2 --progress p", "--progress 'p'");
    bad("-n 2 --mem-mb 99999 p", "--mem-mb");
    bad("-n 2 --sim bogus p", "--sim 'bogus'");
    bad("-n 2 --cpu -1 p", "--cpu '-1'");
    bad("-n 2 --cpu 1024 p", "--cpu '1024'");
    bad("-n 2 --cpu p", "--cpu 'p'");
    bad("-n 2 --cpu", "needs a value");
    CHECK(parse(&o, "-n 2 --sim icarus --wave a.fst p", err) == 0 && o.icarus && o.wave);
    bad("-n 2 --sim icarus --wave a.fst --trace-to 9 p", "need the Verilator model");

    /* FIFO against an array model, across growth and wrap */
    struct fifo f;
    fifo_init(&f, sizeof(uint64_t));
    uint64_t model[5000];
    size_t mh = 0, mt = 0;
    unsigned seed = 1;
    for (int step = 0; step < 20000; step++) {
        seed = seed * 1103515245u + 12345u;
        if ((seed >> 16) % 3 != 0 || mh == mt) {
            if (mt < 5000) {
                uint64_t v = seed;
                CHECK(fifo_push(&f, &v) == 0);
                model[mt++] = v;
            }
        } else {
            uint64_t *p = fifo_peek(&f);
            if (!p || *p != model[mh])
                CHECK(0);
            fifo_pop(&f);
            mh++;
        }
        if (fifo_len(&f) != mt - mh)
            CHECK(0);
    }
    while (mh < mt) {
        uint64_t *p = fifo_peek(&f);
        if (!p || *p != model[mh++])
            CHECK(0);
        fifo_pop(&f);
    }
    CHECK(fifo_peek(&f) == NULL);
    fifo_free(&f);

    printf("test_opts: %d checks passed, %d failed\n", passed, failed);
    return failed != 0;
}
